//! One timer for the reader loop's deadlines (first byte, idle, total), re-armed only when it fires.
//!
//! The loop used to race every `reader.read()` against a fresh `setTimeout` (a promise, a timer, a race
//! and its callbacks per read): work and garbage per read in the measuring worker that a bare loop does
//! not have. Here a stream that keeps arriving costs no timer per read: the timer fires at the nearest
//! deadline as it stood when armed, looks at the deadline that applies now (a read since then pushed the
//! idle deadline on) and either arms itself again for what is left or cancels the reader, whose pending
//! read then ends at once. The loop asks [`Watchdog::expired`] after every read. Once the page says the
//! answer's end marker arrived ([`AnswerEnd`]), one more deadline applies: [`AFTER_END_LIMIT_MS`] after
//! it, for a server that keeps its response open after the end of the answer.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use streamscope_core::trace::{TimeoutKind, AFTER_END_LIMIT_MS};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::ReadableStreamDefaultReader;

use super::clock::now_ms;
use super::request::Timeouts;
use super::scope::Scope;

/// When the answer's end marker arrived, as the page tells the run (its reads are analysed there), and
/// how to reach the watchdog watching the run, which then has one more deadline. Shared by a run's
/// [`super::measure::Abort`] and its watchdog.
#[derive(Default)]
pub struct AnswerEnd {
    /// The read that completed the end marker, ms after `fetch()` (the first the page reported).
    at_ms: Cell<Option<f64>>,
    /// The watchdog watching the run, while one does.
    watchdog: RefCell<Weak<State>>,
}

impl AnswerEnd {
    /// The answer's end marker arrived with the read at `at_ms` (ms after `fetch()`); later reports are
    /// ignored.
    pub fn ended_at(&self, at_ms: f64) {
        if self.at_ms.get().is_none() {
            self.at_ms.set(Some(at_ms));
            if let Some(state) = self.watchdog.borrow().upgrade() {
                state.rearm();
            }
        }
    }
}

/// What the timer looks at.
struct State {
    scope: Scope,
    reader: ReadableStreamDefaultReader,
    /// `fetch()`'s time on this scope's clock; deadlines are in ms after it.
    t0_ms: f64,
    timeouts: Timeouts,
    /// The last read's time after `fetch()` (`None` before the first byte).
    last_read_ms: Cell<Option<f64>>,
    /// The answer's end, once the page has seen it.
    answer_end: Rc<AnswerEnd>,
    /// The kind of deadline that passed, once one has.
    expired: Cell<Option<TimeoutKind>>,
    timer: Cell<Option<i32>>,
    /// The timer's callback, made once and reused at every arming.
    on_fire: RefCell<Option<Closure<dyn FnMut()>>>,
}

/// Watches a body's reads against its deadlines; dropping it stops the timer.
pub struct Watchdog {
    state: Rc<State>,
}

/// The deadlines that apply once `last_read_ms` is known (or not yet) and the answer's end marker has
/// arrived at `answer_end_ms` (or not yet), as absolute ms after `fetch()`.
fn deadlines(t: &Timeouts, last_read_ms: Option<f64>, answer_end_ms: Option<f64>) -> [(Option<f64>, TimeoutKind); 4] {
    let idle = last_read_ms.zip(t.idle_ms).map(|(last, idle)| last + idle);
    let first_byte = if last_read_ms.is_none() { t.first_byte_ms } else { None };
    let after_end = answer_end_ms.map(|at| at + AFTER_END_LIMIT_MS);
    [
        (first_byte, TimeoutKind::FirstByte),
        (idle, TimeoutKind::Idle),
        (after_end, TimeoutKind::AfterEnd),
        (t.total_ms, TimeoutKind::Total),
    ]
}

/// The nearest of `deadlines`, with its kind.
pub fn nearest(deadlines: &[(Option<f64>, TimeoutKind)]) -> Option<(f64, TimeoutKind)> {
    deadlines.iter().filter_map(|&(at, kind)| at.map(|at| (at, kind))).min_by(|a, b| a.0.total_cmp(&b.0))
}

impl State {
    /// Clears the timer and arms it again for the deadlines as they stand now (one may have come sooner).
    fn rearm(&self) {
        if let Some(id) = self.timer.take() {
            self.scope.clear_timeout(id);
        }
        self.check();
    }

    /// Arms the timer for the nearest deadline, or cancels the reader if it has passed.
    fn check(&self) {
        let Some((at_ms, kind)) = nearest(&deadlines(&self.timeouts, self.last_read_ms.get(), self.answer_end.at_ms.get())) else {
            return;
        };
        let remaining_ms = at_ms - (now_ms() - self.t0_ms);
        if remaining_ms <= 0.0 {
            self.expired.set(Some(kind));
            let _ = self.reader.cancel();
            return;
        }
        if let Some(callback) = self.on_fire.borrow().as_ref() {
            let delay = remaining_ms.min(i32::MAX as f64).ceil() as i32;
            self.timer.set(self.scope.set_timeout(callback.as_ref().unchecked_ref(), delay));
        }
    }
}

impl Watchdog {
    /// Starts watching `reader`, whose `fetch()` was called at `t0_ms`, and the answer's end as the page
    /// reports it.
    pub fn start(scope: Scope, reader: &ReadableStreamDefaultReader, t0_ms: f64, timeouts: Timeouts, answer_end: Rc<AnswerEnd>) -> Watchdog {
        let state = Rc::new(State {
            scope,
            reader: reader.clone(),
            t0_ms,
            timeouts,
            last_read_ms: Cell::new(None),
            answer_end,
            expired: Cell::new(None),
            timer: Cell::new(None),
            on_fire: RefCell::new(None),
        });
        // The callback holds the state weakly: no cycle, and nothing to do once the loop is gone.
        let weak = Rc::downgrade(&state);
        let on_fire = Closure::<dyn FnMut()>::new(move || {
            if let Some(state) = weak.upgrade() {
                state.timer.set(None);
                state.check();
            }
        });
        *state.on_fire.borrow_mut() = Some(on_fire);
        *state.answer_end.watchdog.borrow_mut() = Rc::downgrade(&state);
        state.check();
        Watchdog { state }
    }

    /// A read resolved `at_ms` after `fetch()`: it pushes the idle deadline on, which the timer finds
    /// when it fires. Only the first read arms it again: the first byte's deadline then gives way to the
    /// idle one, which may come sooner than the deadline the timer was armed for.
    pub fn read_at(&self, at_ms: f64) {
        let first = self.state.last_read_ms.replace(Some(at_ms)).is_none();
        if first {
            self.state.rearm();
        }
    }

    /// The kind of deadline that passed, if one did: the reader was cancelled.
    pub fn expired(&self) -> Option<TimeoutKind> {
        self.state.expired.get()
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Some(id) = self.state.timer.take() {
            self.state.scope.clear_timeout(id);
        }
        // The callback goes with the state; it cannot run after this (its timer is cleared).
        self.state.on_fire.borrow_mut().take();
    }
}
