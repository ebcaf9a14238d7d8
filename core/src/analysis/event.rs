//! The token-level events the analyzer extracts from a stream, whatever its framing and dialect: what
//! an event carried is a [`crate::dialect::EventKind`]; here it gets the time and the read it came in.

use serde::{Deserialize, Serialize};

pub use crate::dialect::{Dialect, EventKind};

/// One event with the time and the read it arrived in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamEvent {
    /// When the read that completed this event resolved, ms since `fetch()`.
    pub at_ms: f64,
    /// Which read (numbered from 0) completed this event.
    pub read_index: usize,
    /// What the event carried.
    pub kind: EventKind,
    /// The server's own send time for this event, when it reports one (the lab's `server_ms`).
    pub server_ms: Option<f64>,
}

impl StreamEvent {
    /// Whether this event carries the answer: text, or a tool call's arguments (counts for TTFT, TPOT and
    /// ITL).
    pub fn is_content(&self) -> bool {
        matches!(self.kind, EventKind::Content(_) | EventKind::ToolArgs(_))
    }
}
