//! streamscope-check end to end, in process (`streamscope_check::run`): the built page in a real
//! headless Chromium, against the lab directly and through a real nginx with its defaults (buffering
//! on), through a chromedriver the check starts or one started apart (`--webdriver`, the protocol a
//! Selenium Grid speaks), one target or a file of them at once.
//!
//! Needs the built page (`trunk build --release`, or `STREAMSCOPE_DIST`), chromedriver, chromium and
//! nginx, as the e2e tests do.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use streamscope_check::env::API_KEY_VAR;
use streamscope_check::{run, run_until, Env, Exit};
use streamscope_e2e::{built_page_dir, with_lab, with_lab_and_nginx, Proxy};

/// The lab's reference stream, small: 20 tokens, 300 ms to the first, 20 ms apart.
const SMALL: &str = "tokens=20&cadence_ms=20&first_ms=300";
/// Big enough (~21 KiB) to overflow nginx's buffers several times: released in bursts.
const BUFFERED: &str = "tokens=50&cadence_ms=20&first_ms=300&pad=200";

/// What a run of the check printed and returned.
struct Ran {
    exit: Exit,
    stdout: String,
    stderr: String,
}

async fn check(args: &[String]) -> Ran {
    let env = Env::from_process().without(API_KEY_VAR);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let exit = run(args, &env, &mut stdout, &mut stderr).await;
    let ran = Ran {
        exit,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    };
    eprintln!("exit {:?}\n--- stdout\n{}--- stderr\n{}", ran.exit, ran.stdout, ran.stderr);
    ran
}

/// The page served by the check itself, a time-out for tests, then `rest`.
fn args(rest: &[&str]) -> Vec<String> {
    let dist = built_page_dir().display().to_string();
    ["--bundle", dist.as_str(), "--timeout-s", "90"].iter().chain(rest).map(|s| s.to_string()).collect()
}

/// A deployed page (`--page`), a time-out for tests, then `rest`.
fn args_with_page(page: &str, rest: &[&str]) -> Vec<String> {
    ["--page", page, "--timeout-s", "90"].iter().chain(rest).map(|s| s.to_string()).collect()
}

fn lab_stream(lab: SocketAddr, params: &str) -> String {
    format!("http://{lab}/v1/chat/completions?{params}")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("streamscope-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_healthy_stream_passes_and_its_report_and_junit_are_written() {
    with_lab(|lab| async move {
        let dir = scratch_dir("healthy");
        let (out, junit) = (dir.join("reports"), dir.join("ci/junit.xml"));
        let url = lab_stream(lab, SMALL);
        let ran = check(&args(&[
            "--url", &url, "--name", "lab direct", "--expect", "streaming", "--max-ttft-ms", "2000", "--max-tpot-ms", "80",
            "--out", &out.display().to_string(), "--junit", &junit.display().to_string(),
        ]))
        .await;
        assert_eq!(ran.exit, Exit::Pass);
        let lines: Vec<&str> = ran.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one line per target");
        assert!(lines[0].starts_with("PASS lab direct: streaming, TTFT "), "{}", lines[0]);
        assert!(lines[0].contains("[one run]"), "{}", lines[0]);

        let report = read_json(&out.join("lab_direct.json"));
        assert_eq!(report["verdict"], "streaming");
        let ttft = report["ttft_ms"].as_f64().expect("ttft_ms");
        assert!((300.0..2000.0).contains(&ttft), "TTFT {ttft}");
        assert_eq!(report["content_events"], 20);

        let xml = std::fs::read_to_string(&junit).expect("junit file");
        assert!(xml.contains("tests=\"1\" failures=\"0\" errors=\"0\""), "{xml}");
        assert!(xml.contains("<testcase classname=\"streamscope-check\" name=\"lab direct\""), "{xml}");
        assert!(!xml.contains("<failure") && !xml.contains("<error"), "{xml}");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_token_at_300_ms_fails_a_100_ms_limit_once_and_as_the_median_of_three() {
    with_lab(|lab| async move {
        let url = lab_stream(lab, SMALL);
        let ran = check(&args(&["--url", &url, "--expect", "streaming", "--max-ttft-ms", "100"])).await;
        assert_eq!(ran.exit, Exit::Fail);
        let line = ran.stdout.trim();
        assert!(line.starts_with("FAIL http://") && line.contains(": streaming, TTFT "), "{line}");
        assert!(line.ends_with("> 100 ms (--max-ttft-ms)"), "{line}");

        let ran = check(&args(&["--url", &url, "--repeat", "3", "--max-ttft-ms", "100", "--max-tpot-ms", "80"])).await;
        assert_eq!(ran.exit, Exit::Fail);
        let line = ran.stdout.trim();
        assert!(line.contains("[3 runs: medians, most frequent verdict]"), "{line}");
        assert!(line.contains("(--max-ttft-ms)") && !line.contains("(--max-tpot-ms)"), "only TTFT fails: {line}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_every_20_ms_fails_a_5_ms_tpot_limit_alone() {
    with_lab(|lab| async move {
        let url = lab_stream(lab, SMALL);
        let ran = check(&args(&["--url", &url, "--expect", "streaming", "--max-ttft-ms", "2000", "--max-tpot-ms", "5"])).await;
        assert_eq!(ran.exit, Exit::Fail);
        let line = ran.stdout.trim();
        assert!(line.starts_with("FAIL http://") && line.contains(": streaming, TTFT "), "{line}");
        // The lab sends a token every 20 ms; the measured TPOT moves with the machine's load (20.1 ms seen in
        // CI), so its value is checked within a band, the limit's words exactly.
        let failed = line.rsplit_once(" — TPOT ").map(|(_, tail)| tail).unwrap_or_default();
        let tpot_ms: f64 = failed.strip_suffix(" ms > 5.0 ms (--max-tpot-ms)").and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
        assert!((15.0..=60.0).contains(&tpot_ms), "TPOT of a 20 ms cadence, over the 5 ms limit: {line}");
        assert!(!line.contains("(--max-ttft-ms)"), "only TPOT fails: {line}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_does_not_load_or_is_not_streamscope_is_exit_2() {
    with_lab(|lab| async move {
        let url = lab_stream(lab, SMALL);
        let closed = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        // Nothing listens on the first; the second answers, but with a stream, not the page.
        for page in [format!("http://127.0.0.1:{closed}/"), lab_stream(lab, "tokens=2")] {
            let rest = ["--page", &page, "--timeout-s", "10", "--url", &url, "--expect", "streaming"];
            let ran = check(&rest.map(String::from)).await;
            assert_eq!(ran.exit, Exit::CouldNotRun, "{page}");
            let line = ran.stdout.trim();
            assert!(line.starts_with("ERROR ") && line.contains("could not run: the page"), "{page}: {line}");
            assert!(!line.contains("after 30 s"), "it says the wait it made (--timeout-s 10): {line}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_defaults_fail_streaming_with_bursts_and_a_comparison_or_a_ladder_names_the_side_or_hop() {
    with_lab_and_nginx(|lab, proxies| async move {
        let dir = scratch_dir("nginx");
        let junit = dir.join("junit.xml");
        let through_nginx = proxies.stream_url(Proxy::Defaults, BUFFERED);
        let ran = check(&args(&["--url", &through_nginx, "--expect", "streaming", "--junit", &junit.display().to_string()])).await;
        assert_eq!(ran.exit, Exit::Fail);
        let line = ran.stdout.trim();
        assert!(line.starts_with("FAIL ") && line.contains(": buffered, TTFT "), "{line}");
        assert!(line.contains("findings: ") && line.contains("bursts"), "the line names the finding: {line}");
        assert!(line.ends_with("— verdict buffered, expected streaming"), "{line}");
        let xml = std::fs::read_to_string(&junit).expect("junit file");
        assert!(xml.contains("<failure type=\"check\" message=\"verdict buffered, expected streaming\">"), "{xml}");

        // The same request direct (A) and through nginx (B): each side is judged, B fails.
        let direct = lab_stream(lab, BUFFERED);
        let ran = check(&args(&["--url", &direct, "--vs", &through_nginx, "--expect", "streaming"])).await;
        assert_eq!(ran.exit, Exit::Fail);
        let line = ran.stdout.trim();
        assert!(line.contains("[compare, each side]"), "{line}");
        assert!(line.contains("| B (") && line.contains("): buffered"), "{line}");
        let reasons = line.split_once(" — ").map(|(_, r)| r).unwrap_or_default();
        assert!(reasons.starts_with("B (") && reasons.contains("verdict buffered") && !reasons.contains("A ("), "{line}");

        // A ladder of the two: every hop is judged, the second fails.
        let hops = format!("{direct},{through_nginx}");
        let ran = check(&args(&["--url", &direct, "--hops", &hops, "--hop-labels", "lab,nginx", "--expect", "streaming"])).await;
        assert_eq!(ran.exit, Exit::Fail);
        let line = ran.stdout.trim();
        assert!(line.contains("hop 1 (lab): streaming") && line.contains("| hop 2 (nginx): buffered"), "{line}");
        assert!(line.contains("[hops, every hop]") && line.ends_with("— hop 2 (nginx): verdict buffered, expected streaming"), "{line}");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_existing_webdriver_server_and_a_deployed_page_are_used_instead_of_starting_them() {
    with_lab(|lab| async move {
        let driver = ChromedriverApart::start().await;
        let url = lab_stream(lab, SMALL);
        // The lab serves the built page too: a deployed copy on another origin than the check's.
        let page = format!("http://{lab}/");
        let ran = check(&args_with_page(&page, &["--url", &url, "--webdriver", &driver.url, "--expect", "streaming"])).await;
        driver.stop().await;
        assert_eq!(ran.exit, Exit::Pass);
        assert!(ran.stdout.starts_with("PASS "), "{}", ran.stdout);
        assert!(!ran.stderr.contains("starting chromedriver"), "it must not start its own: {}", ran.stderr);
        assert!(!ran.stderr.contains("serving the page"), "it must not serve its own page: {}", ran.stderr);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_targets_from_a_file_run_at_once_each_with_its_own_line_file_and_case() {
    with_lab(|lab| async move {
        let dir = scratch_dir("targets");
        let targets = dir.join("targets.jsonl");
        let fast = lab_stream(lab, "tokens=10&cadence_ms=20&first_ms=100");
        let slow = lab_stream(lab, SMALL);
        std::fs::write(
            &targets,
            format!(
                "# two lab streams\n{{\"name\": \"fast\", \"url\": \"{fast}\"}}\n{{\"name\": \"slow\", \"url\": \"{slow}\", \"max_ttft_ms\": 200}}\n"
            ),
        )
        .expect("targets file");
        let (out, junit) = (dir.join("out"), dir.join("junit.xml"));
        let ran = check(&args(&[
            "--targets", &targets.display().to_string(), "--parallel", "2", "--expect", "streaming",
            "--max-ttft-ms", "2000", "--out", &out.display().to_string(), "--junit", &junit.display().to_string(),
        ]))
        .await;
        assert_eq!(ran.exit, Exit::Fail, "slow's own limit (200 ms) fails it");
        let mut lines: Vec<&str> = ran.stdout.lines().collect();
        lines.sort_unstable();
        assert_eq!(lines.len(), 2, "{}", ran.stdout);
        assert!(lines[0].starts_with("FAIL slow: streaming") && lines[0].contains("> 200 ms (--max-ttft-ms)"), "{}", lines[0]);
        assert!(lines[1].starts_with("PASS fast: streaming"), "{}", lines[1]);
        assert!(ran.stderr.contains("2 targets, 2 at once"), "{}", ran.stderr);
        assert_eq!(read_json(&out.join("fast.json"))["verdict"], "streaming");
        assert_eq!(read_json(&out.join("slow.json"))["verdict"], "streaming");
        let xml = std::fs::read_to_string(&junit).expect("junit file");
        assert!(xml.contains("tests=\"2\" failures=\"1\" errors=\"0\""), "{xml}");
        // Both sessions at once: the suite took less than its cases one after the other.
        let times: Vec<f64> = xml
            .match_indices(" time=\"")
            .filter_map(|(at, _)| xml[at + 7..].split('"').next()?.parse().ok())
            .collect();
        assert_eq!(times.len(), 4, "suites, suite and two cases: {xml}");
        let (suite_s, cases_s) = (times[1], times[2..].iter().sum::<f64>());
        assert!(suite_s < cases_s, "suite {suite_s} s, cases {cases_s} s in all: not at once");
        let fast_at = xml.find("name=\"fast\"").expect("fast case");
        let slow_at = xml.find("name=\"slow\"").expect("slow case");
        assert!(fast_at < slow_at, "cases in the file's order");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_mid_run_ends_the_target_as_could_not_run_and_still_writes_junit() {
    with_lab(|lab| async move {
        let dir = scratch_dir("stop");
        let junit = dir.join("junit.xml");
        // 100 tokens 100 ms apart: still streaming when the stop comes after 4 s.
        let url = lab_stream(lab, "tokens=100&cadence_ms=100&first_ms=300");
        let env = Env::from_process().without(API_KEY_VAR);
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let stop = async {
            tokio::time::sleep(Duration::from_secs(4)).await;
            "stopped by the test".to_string()
        };
        let started = std::time::Instant::now();
        let args = args(&["--url", &url, "--junit", &junit.display().to_string()]);
        let exit = run_until(&args, &env, &mut stdout, &mut stderr, stop).await;
        let (stdout, stderr) = (String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
        eprintln!("--- stdout\n{stdout}--- stderr\n{stderr}");
        assert_eq!(exit, Exit::CouldNotRun);
        assert!(started.elapsed() < Duration::from_secs(9), "it stopped at once: {:?}", started.elapsed());
        assert!(stdout.trim().ends_with("could not run: stopped by the test before it ended"), "{stdout}");
        assert!(stderr.contains("stopped by the test: stopping"), "{stderr}");
        let xml = std::fs::read_to_string(&junit).expect("junit file");
        assert!(xml.contains("<error type=\"could-not-run\" message=\"stopped by the test before it ended\">"), "{xml}");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}

/// A chromedriver started by the test, apart from the check (as a Selenium Grid would be).
struct ChromedriverApart {
    child: tokio::process::Child,
    url: String,
}

impl ChromedriverApart {
    async fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let child = tokio::process::Command::new(&program)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {program}: {err}"));
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Self { child, url: format!("http://127.0.0.1:{port}") };
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{program} did not listen on {port}");
    }

    /// Stops it and every browser it started (its process group).
    async fn stop(mut self) {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill").args(["-TERM", "--", &format!("-{pid}")]).status();
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
    }
}
