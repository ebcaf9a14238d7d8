//! The CPU time the browser spends while a stream plays: the sum of user and system time of every
//! Chromium process on this machine (the browser, its renderer with the page and its workers, the network
//! and GPU processes), read from `/proc` at the start and the end of a fixed window. Against latency, it
//! hardly depends on what else the host is doing, so it shows what the page's own work costs: the page's
//! run minus a bare `fetch` loop's run over the same stream is the page's drawing and relaying, which on
//! a machine with few cores is CPU taken from the measuring worker and the network threads.
//!
//! Benchmarks only: one browser at a time on the machine (a second one's time would be counted).

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Processes counted as the browser: Debian's Chromium binary (`/usr/lib/chromium/chromium`, also its
/// renderer, GPU and utility processes) and Google's (`chrome`). Not chromedriver nor crashpad.
fn is_browser(comm: &str) -> bool {
    comm == "chromium" || comm == "chrome" || comm == "headless_shell"
}

/// Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`: 100 on Linux everywhere that matters).
const TICKS_PER_S: f64 = 100.0;

/// User + system CPU time of every browser process now, in ms (`None` without `/proc`).
pub fn browser_cpu_ms() -> Option<f64> {
    Some(Sample::now()?.total_ticks as f64 * 1000.0 / TICKS_PER_S)
}

/// The browser's CPU time at one instant: in all (every thread, also those that ended) and per live thread.
struct Sample {
    total_ticks: u64,
    /// `(pid, tid)` -> (where it runs, e.g. `renderer/DedicatedWorker thread`; its ticks so far).
    threads: HashMap<(u32, u32), (String, u64)>,
}

impl Sample {
    fn now() -> Option<Sample> {
        let mut sample = Sample { total_ticks: 0, threads: HashMap::new() };
        for pid in numbered_entries("/proc")? {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
            let Some((comm, used)) = parse_stat(&stat) else { continue };
            if !is_browser(comm) {
                continue;
            }
            sample.total_ticks += used;
            let cmdline = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let kind = process_kind(&cmdline);
            for tid in numbered_entries(&format!("/proc/{pid}/task")).unwrap_or_default() {
                let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/stat")) else { continue };
                if let Some((thread, used)) = parse_stat(&stat) {
                    sample.threads.insert((pid, tid), (format!("{kind}/{thread}"), used));
                }
            }
        }
        Some(sample)
    }
}

/// The numeric entries of a `/proc` directory (process or thread ids).
fn numbered_entries(dir: &str) -> Option<Vec<u32>> {
    let entries = std::fs::read_dir(dir).ok()?;
    Some(entries.flatten().filter_map(|e| e.file_name().to_str()?.parse().ok()).collect())
}

/// What a Chromium process is, from its command line: its `--type` (`renderer`, `gpu-process`, ...), the
/// service of a utility process (`network` for the network service), `browser` without a type.
fn process_kind(cmdline: &str) -> String {
    // Debian's zygote children keep their whole command line in the first NUL-separated argument.
    let flag = |name: &str| {
        cmdline.split(['\0', ' ']).find_map(|arg| arg.strip_prefix(name)).map(str::to_owned)
    };
    match flag("--type=").as_deref() {
        None => "browser".to_owned(),
        Some("utility") => match flag("--utility-sub-type=") {
            Some(sub) => sub.split('.').next().unwrap_or("utility").to_owned(),
            None => "utility".to_owned(),
        },
        Some(kind) => kind.to_owned(),
    }
}

/// `(comm, utime + stime)` of one `/proc/<pid>/stat` line. The command name is in parentheses and may
/// itself hold spaces and parentheses, so fields are counted from the last `)`.
fn parse_stat(stat: &str) -> Option<(&str, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let comm = stat.get(open + 1..close)?;
    // After ")": state is field 3; utime and stime are fields 14 and 15.
    let mut rest = stat.get(close + 1..)?.split_whitespace();
    let utime: u64 = rest.nth(11)?.parse().ok()?;
    let stime: u64 = rest.next()?.parse().ok()?;
    Some((comm, utime + stime))
}

/// The browser's CPU time within a window.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuUse {
    /// Every browser process's, in ms.
    pub total_ms: f64,
    /// Per kind of thread (`process kind/thread name`, threads of the same name summed), most first, in ms;
    /// threads that ended within the window are only in the total.
    pub by_thread_ms: Vec<(String, f64)>,
}

impl CpuUse {
    fn between(before: &Sample, after: &Sample) -> CpuUse {
        let mut by_name: HashMap<&str, u64> = HashMap::new();
        for (key, (name, used)) in &after.threads {
            let earlier = before.threads.get(key).map_or(0, |(_, u)| *u);
            *by_name.entry(name).or_default() += used.saturating_sub(earlier);
        }
        let mut by_thread_ms: Vec<(String, f64)> = by_name
            .into_iter()
            .filter(|(_, ticks)| *ticks > 0)
            .map(|(name, ticks)| (name.to_owned(), ticks as f64 * 1000.0 / TICKS_PER_S))
            .collect();
        by_thread_ms.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let total_ms = after.total_ticks.saturating_sub(before.total_ticks) as f64 * 1000.0 / TICKS_PER_S;
        CpuUse { total_ms, by_thread_ms }
    }
}

/// A window of `length` started now: [`CpuWindow::finish`] waits for its end (if it is not over yet) and
/// returns the browser's CPU time within it.
pub struct CpuWindow {
    thread: std::thread::JoinHandle<Option<CpuUse>>,
}

impl CpuWindow {
    /// Samples now and again after `length`, on a thread of its own (so a busy caller cannot move the end).
    pub fn start(length: Duration) -> CpuWindow {
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let before = Sample::now()?;
            std::thread::sleep(length.saturating_sub(started.elapsed()));
            Some(CpuUse::between(&before, &Sample::now()?))
        });
        CpuWindow { thread }
    }

    /// The browser's CPU time in the window (`None` without `/proc`).
    pub fn finish(self) -> Option<CpuUse> {
        self.thread.join().ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_name_and_cpu_ticks() {
        let line = "4242 (chromium) S 1 4242 4242 0 -1 4194560 9000 0 0 0 150 35 0 0 20 0 12 0 777 1 2 3";
        assert_eq!(parse_stat(line), Some(("chromium", 185)));
        // A name with a space and a parenthesis (a renderer can rename its threads, not its process, but
        // `comm` is whatever the process set).
        let odd = "7 (we (b) x) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 5 1 2 3";
        assert_eq!(parse_stat(odd), Some(("we (b) x", 7)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn only_the_browser_counts() {
        assert!(is_browser("chromium"));
        assert!(!is_browser("chromedriver"));
        assert!(!is_browser("chrome_crashpad"));
    }

    #[test]
    fn a_process_is_named_by_its_type_and_service() {
        assert_eq!(process_kind("/usr/lib/chromium/chromium\0--headless=new\0"), "browser");
        assert_eq!(process_kind("/usr/lib/chromium/chromium --type=renderer --lang=en-US\0"), "renderer");
        let network = "/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService\0";
        assert_eq!(process_kind(network), "network");
        assert_eq!(process_kind("chromium\0--type=gpu-process\0"), "gpu-process");
    }

    #[test]
    fn a_window_sums_threads_of_one_name_and_counts_only_its_own_time() {
        let sample = |total_ticks, threads: &[((u32, u32), &str, u64)]| Sample {
            total_ticks,
            threads: threads.iter().map(|(k, n, t)| (*k, (n.to_string(), *t))).collect(),
        };
        let before = sample(100, &[((1, 1), "renderer/Main", 40), ((1, 2), "renderer/Pool", 10)]);
        // A second pool thread started in the window; thread (1, 1) did nothing.
        let after = sample(130, &[((1, 1), "renderer/Main", 40), ((1, 2), "renderer/Pool", 15), ((1, 3), "renderer/Pool", 5)]);
        let used = CpuUse::between(&before, &after);
        assert_eq!(used.total_ms, 300.0);
        assert_eq!(used.by_thread_ms, vec![("renderer/Pool".to_owned(), 100.0)]);
    }
}
