//! The real `streamscope-check` binary: `--help`, exit codes for bad arguments and for what cannot run
//! (an unreachable WebDriver, a bundle that does not exist), and the API key: typed into the page
//! from `STREAMSCOPE_API_KEY` (the lab's `require_key=1` answers 401 without it), never in the
//! process's argv, the environment of what it starts, stdout, stderr, the report or the JUnit file.

use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::time::Duration;

use streamscope_e2e::{built_page_dir, with_lab};

const BIN: &str = env!("CARGO_BIN_EXE_streamscope-check");
/// The one key the lab's `require_key=1` accepts.
const LAB_KEY: &str = "sk-lab";

fn run(args: &[&str]) -> Output {
    let output = std::process::Command::new(BIN)
        .args(args)
        .env_remove("STREAMSCOPE_API_KEY")
        .stdin(Stdio::null())
        .output()
        .expect("run streamscope-check");
    eprintln!(
        "{args:?}: {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("streamscope-check-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn help_documents_every_option_and_the_exit_codes() {
    let output = run(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let help = text(&output.stdout);
    for needle in [
        "--url", "--method", "--body", "--name", "--vs", "--hops", "--hop-labels", "--repeat", "--page-param", "--share-key",
        "--expect", "--max-ttft-ms", "--max-tpot-ms", "--max-total-ms", "--targets", "--parallel", "--bundle", "--page",
        "--webdriver", "--timeout-s", "--out", "--junit", "STREAMSCOPE_API_KEY", "CHROMEDRIVER", "CHROME", "EXIT CODES",
    ] {
        assert!(help.contains(needle), "--help does not mention {needle}");
    }
}

#[test]
fn bad_arguments_exit_2_with_a_message_naming_the_flag() {
    for (args, message) in [
        (&[][..], "nothing to check"),
        (&["--url", "http://127.0.0.1:1/x", "--max-ttft-ms", "soon"][..], "--max-ttft-ms: not a time in ms"),
        (&["--url", "http://127.0.0.1:1/x", "--expect", "fast"][..], "--expect: not a verdict"),
        (&["--url", "not a url"][..], "url: not an http(s) URL"),
        (&["--targets", "/no/such/targets.txt"][..], "--targets: cannot read /no/such/targets.txt"),
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(message) && stderr.contains("usage: streamscope-check"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

#[test]
fn an_unreachable_webdriver_is_exit_2_and_a_junit_error() {
    let dir = scratch_dir("webdriver");
    let junit = dir.join("junit.xml");
    let webdriver = format!("http://127.0.0.1:{}", closed_port());
    let output = run(&[
        "--url", "http://127.0.0.1:1/v1/chat/completions", "--page", "http://127.0.0.1:1/", "--webdriver", &webdriver,
        "--junit", &junit.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stdout = text(&output.stdout);
    assert!(stdout.starts_with("ERROR http://127.0.0.1:1/v1/chat/completions: could not run: cannot open a browser session"), "{stdout}");
    let xml = std::fs::read_to_string(&junit).expect("junit file");
    assert!(xml.contains("errors=\"1\"") && xml.contains("<error type=\"could-not-run\""), "{xml}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bundle_dir_that_does_not_exist_is_exit_2() {
    let output = run(&["--url", "http://127.0.0.1:1/x", "--bundle", "/no/such/dist"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--bundle /no/such/dist: no such directory"), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with("ERROR "), "{}", text(&output.stdout));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_key_is_typed_and_used_but_never_in_argv_environment_output_or_files() {
    with_lab(|lab| async move {
        let dir = scratch_dir("key");
        let (out, junit) = (dir.join("out"), dir.join("junit.xml"));
        let url = format!("http://{lab}/v1/chat/completions?tokens=10&cadence_ms=20&first_ms=100&require_key=1");
        let dist = built_page_dir().display().to_string();
        let args = [
            "--url", url.as_str(), "--name", "needs a key", "--expect", "streaming", "--bundle", dist.as_str(),
            "--timeout-s", "90", "--out", &out.display().to_string(), "--junit", &junit.display().to_string(),
        ];

        // Without the key the lab answers 401: the check fails (the key is what makes it pass below).
        let output = tokio::task::spawn_blocking({
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            move || run(&args.iter().map(String::as_str).collect::<Vec<_>>())
        })
        .await
        .expect("run without key");
        assert_eq!(output.status.code(), Some(1));
        let stdout = text(&output.stdout);
        assert!(stdout.starts_with("FAIL needs a key: failed") && stdout.contains("auth"), "{stdout}");

        let mut child = tokio::process::Command::new(BIN)
            .args(args)
            .env("STREAMSCOPE_API_KEY", LAB_KEY)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn streamscope-check");
        let pid = child.id().expect("pid");
        let (mut stdout_pipe, mut stderr_pipe) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
        let readers = tokio::spawn(async move {
            use tokio::io::AsyncReadExt;
            let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
            let _ = tokio::join!(stdout_pipe.read_to_end(&mut stdout), stderr_pipe.read_to_end(&mut stderr));
            (stdout, stderr)
        });
        // While it runs: the check and everything it started (chromedriver, Chromium's processes).
        let mut seen = std::collections::BTreeSet::new();
        let status = loop {
            for p in family(pid) {
                let cmdline = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
                assert!(!contains(&cmdline, LAB_KEY), "the key is in the argv of process {p}");
                // A child between its fork and its exec still runs the check's own image, with a copy of
                // the check's memory (its environment included) until exec replaces it: only a process
                // running another program can have inherited anything. (Regression: the `kill` that
                // stops chromedriver's group inherited the key; the check now drops it from its own
                // environment at start.)
                if p != pid && !runs_the_check(p) {
                    let environ = std::fs::read(format!("/proc/{p}/environ")).unwrap_or_default();
                    assert!(!contains(&environ, LAB_KEY), "process {p} inherited the key");
                }
                seen.insert(p);
            }
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let (stdout, stderr) = readers.await.expect("read output");
        let (stdout, stderr) = (text(&stdout), text(&stderr));
        eprintln!("with the key: {status}\n--- stdout\n{stdout}--- stderr\n{stderr}");
        assert!(seen.len() > 2, "the check's processes were watched: {seen:?}");
        assert_eq!(status.code(), Some(0), "the key was typed and sent");
        assert!(stdout.starts_with("PASS needs a key: streaming"), "{stdout}");
        assert!(!stdout.contains(LAB_KEY) && !stderr.contains(LAB_KEY), "the key is in the output");
        let report = std::fs::read_to_string(out.join("needs_a_key.json")).expect("report file");
        assert!(report.contains("\"Authorization\""), "the page sent the key header: {report}");
        assert!(!report.contains(LAB_KEY), "the key is in the report file");
        let xml = std::fs::read_to_string(&junit).expect("junit file");
        assert!(xml.contains("tests=\"1\" failures=\"0\" errors=\"0\"") && !xml.contains(LAB_KEY), "{xml}");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}

/// Whether process `p` runs the check's binary (itself, or a fork of it not yet exec'd).
fn runs_the_check(p: u32) -> bool {
    let exe = std::fs::read_link(format!("/proc/{p}/exe")).ok();
    exe.is_some() && exe.and_then(|e| e.canonicalize().ok()) == std::path::Path::new(BIN).canonicalize().ok()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// `root` and every process descended from it, from `/proc/<pid>/stat`'s parent ids.
fn family(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
                .filter_map(|pid| {
                    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                    // The command name in parentheses may hold spaces: the fields after its `)` are fixed.
                    let after = &stat[stat.rfind(')')? + 2..];
                    let ppid = after.split(' ').nth(1)?.parse().ok()?;
                    Some((pid, ppid))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut family = vec![root];
    let mut i = 0;
    while i < family.len() {
        let parent = family[i];
        family.extend(parents.iter().filter(|(_, pp)| *pp == parent).map(|(p, _)| *p));
        i += 1;
    }
    family
}
