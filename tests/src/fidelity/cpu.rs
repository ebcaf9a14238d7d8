//! The CPU time the browser spends while a stream plays: the sum of user and system time of every
//! Chromium process on this machine (the browser, its renderer with the page and its workers, the network
//! and GPU processes), read from `/proc` at the start and the end of a fixed window. Against latency, it
//! hardly depends on what else the host is doing, so it shows what the page's own work costs: the page's
//! run minus a bare `fetch` loop's run over the same stream is the page's drawing and relaying, which on
//! a machine with few cores is CPU taken from the measuring worker and the network threads.
//!
//! Benchmarks only: one browser at a time on the machine (a second one's time would be counted).

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
    let mut ticks: u64 = 0;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        if let Some((comm, used)) = parse_stat(&stat) {
            if is_browser(comm) {
                ticks += used;
            }
        }
    }
    Some(ticks as f64 * 1000.0 / TICKS_PER_S)
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

/// A window of `length` started now: [`CpuWindow::finish`] waits for its end (if it is not over yet) and
/// returns the browser's CPU time within it, in ms.
pub struct CpuWindow {
    thread: std::thread::JoinHandle<Option<f64>>,
}

impl CpuWindow {
    /// Samples now and again after `length`, on a thread of its own (so a busy caller cannot move the end).
    pub fn start(length: Duration) -> CpuWindow {
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let before = browser_cpu_ms()?;
            std::thread::sleep(length.saturating_sub(started.elapsed()));
            Some(browser_cpu_ms()? - before)
        });
        CpuWindow { thread }
    }

    /// The browser's CPU time in the window, in ms (`None` without `/proc`).
    pub fn finish(self) -> Option<f64> {
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
}
