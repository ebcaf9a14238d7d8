//! A second peer: curl on the same URL, its reads timed by curl itself (`--trace-time --trace -`).
//!
//! curl logs every `recv()` that returned body bytes as one `<= Recv data, N bytes` record, stamped
//! with the wall clock (`HH:MM:SS.µs`) when it handed the bytes to its debug callback, followed by a hex
//! dump of the raw bytes (chunk framing included). The response head comes as one `<= Recv header`
//! record per header line; the consecutive ones are one read. [`parse_trace`] turns the trace back into
//! timed reads, times in ms from curl's first record (`== Info: Trying …`, just before `connect`, like
//! the socket peer's clock), and [`report_of`] feeds them to the same [`Receiver`] as the socket peer.
//!
//! Needs `curl` on `PATH` (or `CURL`); `scripts/setup.sh` installs it. Cost: the hex dump is ~4.4 bytes
//! of text per byte received, parsed once.

use std::process::Command;

use super::{PeerReport, Receiver};

/// One read as curl traced it.
#[derive(Debug, Clone, PartialEq)]
pub struct TracedRead {
    /// When curl logged it, ms after its first trace record.
    pub at_ms: f64,
    /// The raw bytes it returned (head, chunk framing and data).
    pub bytes: Vec<u8>,
}

/// A curl `--trace-time --trace` log, read back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CurlTrace {
    /// Every read of the response, in order.
    pub reads: Vec<TracedRead>,
    /// The last record (curl closing the connection), ms after the first.
    pub end_ms: f64,
}

/// Runs `CURL` (default `curl`) on `url` and reports what it received; with `keep_body` every read's
/// body bytes are kept, as [`super::PeerRequest::keep_body`] does.
pub fn run(url: &str, keep_body: bool) -> PeerReport {
    let program = std::env::var("CURL").unwrap_or_else(|_| "curl".into());
    let output = Command::new(&program)
        .args(["-sS", "-N", "-o", "/dev/null", "--max-time", "600", "--trace-time", "--trace", "-", url])
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return failed(format!("cannot run {program} ({e}); apt-get install curl")),
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let mut report = match parse_trace(&text) {
        Ok(trace) => report_of(&trace, keep_body),
        Err(e) => failed(format!("cannot read curl's trace: {e}")),
    };
    if !output.status.success() && report.error.is_none() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        report.error = Some(format!("{program} {}: {}", output.status, stderr.trim()));
    }
    report
}

fn failed(error: String) -> PeerReport {
    PeerReport { error: Some(error), ..PeerReport::default() }
}

/// What the reads of `trace` amount to, through the socket peer's [`Receiver`].
pub fn report_of(trace: &CurlTrace, keep_body: bool) -> PeerReport {
    let mut receiver = Receiver::new(keep_body);
    let mut error = None;
    for read in &trace.reads {
        match receiver.recv(read.at_ms, &read.bytes) {
            Ok(false) => {}
            Ok(true) => break,
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    receiver.finish(trace.end_ms, error)
}

/// What a record was.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Record {
    /// `<= Recv header`: one line of the response head.
    Header,
    /// `<= Recv data`: one read of the body.
    Data,
    /// Anything else (`== Info`, `=> Send`): only its time counts.
    Other,
}

/// Reads curl's `--trace-time --trace` text back into timed reads: each `<= Recv data` record is a read,
/// and each run of consecutive `<= Recv header` records one read at the time of its first record.
/// Each record's hex dump must hold as many bytes as its line says.
pub fn parse_trace(text: &str) -> Result<CurlTrace, String> {
    let mut trace = CurlTrace::default();
    let mut clock = Clock::default();
    // The record being read: its kind, declared length, and whether it continues the previous read.
    let mut open: Option<(Record, usize)> = None;
    let mut previous = Record::Other;
    for (number, line) in text.lines().enumerate() {
        if let Some((at_ms, what)) = record_line(line, &mut clock) {
            check_complete(&trace, open, number)?;
            let record = if what.starts_with("<= Recv header") {
                Record::Header
            } else if what.starts_with("<= Recv data") {
                Record::Data
            } else {
                Record::Other
            };
            trace.end_ms = at_ms;
            open = None;
            if record != Record::Other {
                let len = declared_len(what).ok_or_else(|| format!("line {}: no length in {what:?}", number + 1))?;
                if !(record == Record::Header && previous == Record::Header) {
                    trace.reads.push(TracedRead { at_ms, bytes: Vec::new() });
                }
                let already = trace.reads.last().map_or(0, |r| r.bytes.len());
                open = Some((record, already + len));
            }
            previous = record;
        } else if open.is_some() {
            let read = trace.reads.last_mut().expect("an open record has its read");
            dump_line(line, &mut read.bytes).map_err(|e| format!("line {}: {e}", number + 1))?;
        }
    }
    check_complete(&trace, open, text.lines().count())?;
    if clock.first_us.is_none() {
        return Err("no trace record (was curl run with --trace-time --trace?)".into());
    }
    Ok(trace)
}

fn check_complete(trace: &CurlTrace, open: Option<(Record, usize)>, line: usize) -> Result<(), String> {
    match (open, trace.reads.last()) {
        (Some((_, want)), Some(read)) if read.bytes.len() != want => Err(format!(
            "the record before line {} dumped {} bytes, its read should hold {want}",
            line + 1,
            read.bytes.len()
        )),
        _ => Ok(()),
    }
}

/// Turns `--trace-time`'s time of day into ms since the first record, across midnight.
#[derive(Debug, Default)]
struct Clock {
    first_us: Option<i64>,
    last_us: i64,
    days: i64,
}

const DAY_US: i64 = 86_400_000_000;

impl Clock {
    fn ms(&mut self, of_day_us: i64) -> f64 {
        let first = *self.first_us.get_or_insert(of_day_us);
        if of_day_us + self.days * DAY_US < self.last_us {
            self.days += 1;
        }
        self.last_us = of_day_us + self.days * DAY_US;
        (self.last_us - first) as f64 / 1e3
    }
}

/// `HH:MM:SS.ffffff <what>` → (ms since the first record, `<what>`).
fn record_line<'a>(line: &'a str, clock: &mut Clock) -> Option<(f64, &'a str)> {
    let (stamp, what) = line.split_once(' ')?;
    if !(what.starts_with("==") || what.starts_with("=>") || what.starts_with("<=")) {
        return None;
    }
    let (hms, fraction) = stamp.split_once('.')?;
    let mut parts = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    if fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Microseconds (curl prints six digits; fewer or more are scaled).
    let digits = fraction.len().min(6);
    let us = fraction[..digits].parse::<i64>().ok()? * 10_i64.pow(6 - digits as u32);
    Some((clock.ms(((h * 60 + m) * 60 + s) * 1_000_000 + us), what))
}

/// `<= Recv data, 209 bytes (0xd1)` → 209.
fn declared_len(what: &str) -> Option<usize> {
    let (_, rest) = what.split_once(", ")?;
    rest.split(' ').next()?.parse().ok()
}

/// One hex-dump line, `0000: 63 62 0d 0a … ascii`: up to 16 bytes in a 48-character column after the
/// offset, then their ASCII rendering (ignored).
fn dump_line(line: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let (offset, rest) = line.split_once(": ").ok_or_else(|| format!("not a hex dump line: {line:?}"))?;
    if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("not a hex dump line: {line:?}"));
    }
    let column = &rest.as_bytes()[..rest.len().min(48)];
    for pair in column.split(|&b| b == b' ').filter(|p| !p.is_empty()) {
        let hex = std::str::from_utf8(pair).ok().filter(|h| h.len() == 2);
        let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or_else(|| format!("bad byte in {line:?}"))?;
        out.push(byte);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `curl -sSN -o /dev/null --trace-time --trace - URL` printed for a lab stream (curl 7.88),
    /// shortened: the head in two recvs' worth of header records, a role chunk, one content event, the
    /// last chunk in a read of its own.
    const TRACE: &str = "\
01:31:29.828435 == Info:   Trying 127.0.0.1:18787...
01:31:29.829145 == Info: Connected to 127.0.0.1 (127.0.0.1) port 18787 (#0)
01:31:29.829290 => Send header, 5 bytes (0x5)
0000: 47 45 54 20 2f                                  GET /
01:31:29.829321 <= Recv header, 17 bytes (0x11)
0000: 48 54 54 50 2f 31 2e 31 20 32 30 30 20 4f 4b 0d HTTP/1.1 200 OK.
0010: 0a                                              .
01:31:29.829341 <= Recv header, 28 bytes (0x1c)
0000: 54 72 61 6e 73 66 65 72 2d 45 6e 63 6f 64 69 6e Transfer-Encodin
0010: 67 3a 20 63 68 75 6e 6b 65 64 0d 0a             g: chunked..
01:31:29.829364 <= Recv header, 2 bytes (0x2)
0000: 0d 0a                                           ..
01:31:29.829367 <= Recv data, 20 bytes (0x14)
0000: 66 0d 0a 64 61 74 61 3a 20 7b 22 72 22 3a 31 7d f..data: {\"r\":1}
0010: 0a 0a 0d 0a                                     ....
01:31:29.879794 <= Recv data, 73 bytes (0x49)
0000: 34 33 0d 0a 64 61 74 61 3a 20 7b 22 63 68 6f 69 43..data: {\"choi
0010: 63 65 73 22 3a 5b 7b 22 64 65 6c 74 61 22 3a 7b ces\":[{\"delta\":{
0020: 22 63 6f 6e 74 65 6e 74 22 3a 22 20 54 68 65 22 \"content\":\" The\"
0030: 7d 7d 5d 2c 22 73 65 72 76 65 72 5f 6d 73 22 3a }}],\"server_ms\":
0040: 35 30 2e 34 7d 0a 0a 0d 0a                      50.4}....
01:31:29.899467 <= Recv data, 5 bytes (0x5)
0000: 30 0d 0a 0d 0a                                  0....
01:31:29.899530 == Info: Connection #0 to host 127.0.0.1 left intact
";

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn a_trace_reads_back_as_timed_reads_with_their_raw_bytes() {
        let trace = parse_trace(TRACE).unwrap();
        let times: Vec<f64> = trace.reads.iter().map(|r| r.at_ms).collect();
        let lens: Vec<usize> = trace.reads.iter().map(|r| r.bytes.len()).collect();
        assert_eq!(lens, vec![17 + 28 + 2, 20, 73, 5], "the header records are one read");
        for (got, want) in times.iter().zip([0.886, 0.932, 51.359, 71.032]) {
            assert!(close(*got, want), "{times:?}");
        }
        assert!(close(trace.end_ms, 71.095));
        assert!(trace.reads[0].bytes.starts_with(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
        assert_eq!(&trace.reads[1].bytes[..], b"f\r\ndata: {\"r\":1}\n\n\r\n");
    }

    #[test]
    fn the_reads_go_through_the_same_receiver_as_the_socket_peer() {
        let report = report_of(&parse_trace(TRACE).unwrap(), true);
        assert_eq!((report.status, report.error.as_deref()), (200, None));
        assert!(close(report.headers_ms.unwrap(), 0.886));
        assert!(close(report.ttfb_ms.unwrap(), 0.932));
        assert!(close(report.ttft_ms.unwrap(), 51.359));
        assert_eq!(report.content_events(), 1);
        assert_eq!(report.events[1].server_ms, Some(50.4));
        assert_eq!(report.body_reads.len(), 2, "the last chunk carries no body byte");
        assert!(close(report.total_ms.unwrap(), 71.095));
    }

    /// A record and its hex dump as curl writes them (16 bytes a row, padded, then ASCII).
    fn record(stamp: &str, what: &str, bytes: &[u8]) -> String {
        let mut out = format!("{stamp} {what}, {} bytes (0x{:x})\n", bytes.len(), bytes.len());
        for (row, chunk) in bytes.chunks(16).enumerate() {
            let hex: String = chunk.iter().map(|b| format!("{b:02x} ")).collect();
            let ascii: String = chunk.iter().map(|&b| if (0x20..0x7f).contains(&b) { b as char } else { '.' }).collect();
            out.push_str(&format!("{:04x}: {hex:<48}{ascii}\n", row * 16));
        }
        out
    }

    #[test]
    fn midnight_wraps_and_short_dumps_are_refused() {
        let text = format!("23:59:59.999000 == Info: Trying\n{}", record("00:00:00.001000", "<= Recv header", b"\r\n"));
        let trace = parse_trace(&text).unwrap();
        assert!(close(trace.reads[0].at_ms, 2.0), "{:?}", trace.reads);
        assert_eq!(trace.reads[0].bytes, b"\r\n");
        // A dump whose row holds a byte that looks like hex in the ASCII column ("ab") reads 2 bytes.
        let short = record("01:00:00.000000", "<= Recv data", b"ab").replace("2 bytes", "3 bytes");
        let short = format!("{short}01:00:00.000100 == Info: x\n");
        assert!(parse_trace(&short).unwrap_err().contains("dumped 2 bytes"), "{short}");
        assert!(parse_trace("no trace at all\n").is_err());
    }
}
