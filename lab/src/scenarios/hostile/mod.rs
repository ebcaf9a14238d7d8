//! `/hostile/<case>`: the hostile corpus, malformed and hostile streams the page must survive with a
//! clear finding, in bounded time and memory (issue 10). Each case is a [`Plan`]: a status, headers
//! and a body of [`Part`]s written in writes of at most [`WRITE_BYTES`], so even the 64 MB cases never
//! sit in the lab's memory. [`CASES`] lists them with the finding codes a report of each may name.

mod cases;

use std::time::Duration;

use crate::http::body::{BodyWriter, Framing};
use crate::http::request::Request;
use crate::http::socket::Socket;

pub use cases::CASES;

/// The most bytes one write carries.
pub const WRITE_BYTES: usize = 64 * 1024;

/// One corpus case: its name (the path after `/hostile/`), what it is, and the finding codes its report
/// may name (at least one of them must appear).
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The path segment after `/hostile/`.
    pub name: &'static str,
    /// What the case sends, in words.
    pub what: &'static str,
    /// Finding codes of which a report must name at least one.
    pub expect: &'static [&'static str],
    /// The response.
    pub plan: fn() -> Plan,
}

/// A piece of a hostile body.
#[derive(Debug, Clone)]
pub enum Part {
    /// These bytes.
    Bytes(Vec<u8>),
    /// `unit` repeated `times` times.
    Repeat(Vec<u8>, usize),
    /// `unit` repeated until the client leaves, `per_write` bytes every `every_ms`.
    Endless { unit: Vec<u8>, per_write: usize, every_ms: u64 },
    /// A pause.
    PauseMs(u64),
}

/// How a case answers.
#[derive(Debug, Clone)]
pub struct Plan {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<Part>,
}

impl Plan {
    /// A 200 event stream of `body`.
    pub fn sse(body: Vec<Part>) -> Plan {
        Plan { status: 200, content_type: "text/event-stream", headers: Vec::new(), body }
    }
}

/// The case called `name`.
pub fn case(name: &str) -> Option<&'static Case> {
    CASES.iter().find(|c| c.name == name)
}

/// Answers `/hostile/<name>` (also `/hostile/<name>/…`, for cases with sub-paths such as `/v1/models`).
pub(crate) async fn serve(socket: &mut Socket, request: &Request) -> std::io::Result<bool> {
    let rest = request.path.trim_start_matches("/hostile/");
    let (name, sub) = rest.split_once('/').unwrap_or((rest, ""));
    let Some(case) = case(name) else {
        return Ok(false);
    };
    let plan = if sub.ends_with("models") { cases::models_list() } else { (case.plan)() };
    let mut body = BodyWriter::start(socket, Framing::for_version(request.version), plan.status, plan.content_type, &plan.headers).await?;
    for part in &plan.body {
        match part {
            Part::Bytes(bytes) => {
                for piece in bytes.chunks(WRITE_BYTES) {
                    body.send(piece).await?;
                }
            }
            Part::Repeat(unit, times) => write_repeated(&mut body, unit, *times).await?,
            Part::Endless { unit, per_write, every_ms } => {
                let write: Vec<u8> = unit.iter().copied().cycle().take((*per_write).max(unit.len())).collect();
                loop {
                    body.send(&write).await?;
                    tokio::time::sleep(Duration::from_millis(*every_ms)).await;
                }
            }
            Part::PauseMs(ms) => tokio::time::sleep(Duration::from_millis(*ms)).await,
        }
    }
    body.finish().await?;
    Ok(true)
}

/// Writes `unit` `times` times, whole units per write, at most [`WRITE_BYTES`] a write (a unit larger
/// than that is written in pieces).
async fn write_repeated(body: &mut BodyWriter<'_>, unit: &[u8], times: usize) -> std::io::Result<()> {
    if unit.is_empty() {
        return Ok(());
    }
    if unit.len() > WRITE_BYTES {
        for _ in 0..times {
            for piece in unit.chunks(WRITE_BYTES) {
                body.send(piece).await?;
            }
        }
        return Ok(());
    }
    let per_write = (WRITE_BYTES / unit.len()).max(1);
    let full: Vec<u8> = unit.repeat(per_write.min(times));
    let mut left = times;
    while left > 0 {
        let n = left.min(per_write);
        body.send(&full[..n * unit.len()]).await?;
        left -= n;
    }
    Ok(())
}
