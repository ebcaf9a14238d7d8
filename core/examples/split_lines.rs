//! A quick measurement of the line splitter (not a test, no assertion on time): splits a 64 MiB SSE body
//! of short token events, fed in 16 KiB reads, with `LineSplitter` (memchr2) and with the byte loop it
//! replaced, and prints MB/s for each. Run it in release:
//!
//! ```text
//! cargo run --release -p streamscope-core --example split_lines
//! ```

use std::time::Instant;

use streamscope_core::wire::lines::LineSplitter;

/// The scan the splitter used before memchr: a byte loop for `\n` or `\r`.
fn byte_loop_lines(body: &[u8], read: usize) -> usize {
    let (mut lines, mut buf, mut start) = (0, Vec::new(), 0);
    for chunk in body.chunks(read) {
        buf.drain(..start);
        start = 0;
        buf.extend_from_slice(chunk);
        while let Some(i) = buf[start..].iter().position(|&b| b == b'\n' || b == b'\r') {
            start += i + 1;
            lines += 1;
        }
    }
    lines
}

fn splitter_lines(body: &[u8], read: usize) -> usize {
    let mut s = LineSplitter::new();
    let mut lines = 0;
    for chunk in body.chunks(read) {
        s.feed(chunk);
        while s.next_line().is_some() {
            lines += 1;
        }
    }
    lines
}

fn main() {
    let event = b"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"}}]}\n\n";
    let body = event.repeat(64 * 1024 * 1024 / event.len());
    let mb = body.len() as f64 / 1e6;
    for (name, f) in [("memchr2 (LineSplitter)", splitter_lines as fn(&[u8], usize) -> usize), ("byte loop", byte_loop_lines)] {
        let t = Instant::now();
        let mut lines = 0;
        for _ in 0..5 {
            lines = std::hint::black_box(f(std::hint::black_box(&body), 16 * 1024));
        }
        let s = t.elapsed().as_secs_f64() / 5.0;
        println!("{name:24} {lines} lines, {:.0} MB/s", mb / s);
    }
}
