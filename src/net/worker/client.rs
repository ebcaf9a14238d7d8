//! The page's side of the measuring worker: starts it once (early, so its wasm is compiled before the
//! first run), waits for its `ready`, sends it runs and relays what it measures into each run's feed.
//! Relaying only copies bytes and appends: analysis happens once per frame, in the session.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Float64Array, Function, Promise, Uint8Array};
use streamscope_core::trace::{ConnectionTiming, MeasuredIn, Probes, ReadChunk, TraceEnd};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::by_run::ByRun;
use super::end;
use super::protocol::{self, message, set};
use crate::net::clock::time_origin_ms;
use crate::net::feed::SharedFeed;
use crate::net::race::{race_with_deadline, Raced};
use crate::net::request::RunSpec;
use crate::split::{now_or_later, split_parts, PartMissing};

/// The worker's loader script, beside the page (copied by index.html); relative, so the bundle works from
/// any sub-path. It runs the page's own glue and wasm, named in the first message ([`load_message`]).
pub const WORKER_SCRIPT: &str = "streamscope-worker_loader.js";

/// The id of the page's boot script, whose `data-js` / `data-wasm` name the glue and the wasm (Trunk.toml).
const BOOT_SCRIPT_ID: &str = "streamscope-boot";

/// How long a run waits for the worker to be ready before it is measured on the page instead.
pub const WORKER_START_LIMIT_MS: f64 = 10_000.0;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Starting,
    Ready,
    Failed,
}

struct Slot {
    feed: SharedFeed,
    done: Function,
}

struct Client {
    worker: Option<Worker>,
    state: Cell<State>,
    ready: Promise,
    resolve_ready: RefCell<Option<Function>>,
    runs: RefCell<ByRun<Slot>>,
    next_run: Cell<u32>,
}

thread_local! {
    static CLIENT: RefCell<Option<Rc<Client>>> = const { RefCell::new(None) };
}

/// Starts the measuring worker if it is not started yet. Cheap to call again.
pub fn warm_up() {
    client();
}

fn client() -> Rc<Client> {
    if let Some(c) = CLIENT.with(|c| c.borrow().clone()) {
        return c;
    }
    let mut resolve_ready = None;
    let ready = Promise::new(&mut |resolve, _| resolve_ready = Some(resolve));
    let worker = load_message().and_then(|load| {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(WORKER_SCRIPT, &options).ok()?;
        // Queued until the loader's first task has run, which listens for it.
        worker.post_message(&load).ok()?;
        Some(worker)
    });
    let c = Rc::new(Client {
        state: Cell::new(if worker.is_some() { State::Starting } else { State::Failed }),
        worker,
        ready,
        resolve_ready: RefCell::new(resolve_ready),
        runs: RefCell::default(),
        next_run: Cell::new(1),
    });
    CLIENT.with(|slot| *slot.borrow_mut() = Some(c.clone()));
    if let Some(worker) = &c.worker {
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| on_message(&event.data()));
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|event: ErrorEvent| {
            on_failure(format!("the measuring worker failed: {}", event.message()));
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
    } else {
        c.settle(State::Failed);
    }
    c
}

/// The loader's first message: the page's glue and wasm as the boot script names them (`None` without the
/// boot script, as in the wasm tests: then the page measures on its main thread).
fn load_message() -> Option<JsValue> {
    let boot = web_sys::window()?.document()?.get_element_by_id(BOOT_SCRIPT_ID)?;
    let m = message(protocol::LOAD, None);
    set(&m, "js", &JsValue::from_str(&boot.get_attribute("data-js")?));
    set(&m, "wasm", &JsValue::from_str(&boot.get_attribute("data-wasm")?));
    Some(m.into())
}

impl Client {
    fn settle(&self, state: State) {
        self.state.set(state);
        if let Some(resolve) = self.resolve_ready.borrow_mut().take() {
            let _ = resolve.call1(&JsValue::NULL, &JsValue::from_bool(state == State::Ready));
        }
    }
}

/// Whether runs can go to the worker: waits for its `ready` (at most [`WORKER_START_LIMIT_MS`]).
pub async fn ready() -> bool {
    let c = client();
    match c.state.get() {
        State::Ready => true,
        State::Failed => false,
        State::Starting => match race_with_deadline(c.ready.clone(), Some(WORKER_START_LIMIT_MS)).await {
            Raced::Value(v) => v.as_bool().unwrap_or(false),
            _ => false,
        },
    }
}

/// Sends `spec` to the ready worker as a new run feeding `feed`. Returns the run id and a promise that
/// resolves when the run's end is in the feed; `None` when the worker is not ready.
pub fn start(spec: &RunSpec, feed: SharedFeed) -> Option<(u32, Promise)> {
    let c = client();
    if c.state.get() != State::Ready {
        return None;
    }
    let worker = c.worker.as_ref()?;
    let run = c.next_run.get();
    c.next_run.set(run + 1);
    let mut done = None;
    let finished = Promise::new(&mut |resolve, _| done = Some(resolve));
    feed.borrow_mut().trace.measured_in = Some(MeasuredIn::Worker);
    c.runs.borrow_mut().insert(run, Slot { feed, done: done? });
    let m = message(protocol::START, Some(run));
    set(&m, "spec", &super::spec::to_js(spec));
    if worker.post_message(&m).is_err() {
        c.runs.borrow_mut().remove(run);
        return None;
    }
    Some((run, finished))
}

/// Asks the worker to cancel `run` (it ends as cancelled and keeps what it recorded).
pub fn cancel(run: u32) {
    let c = client();
    if let Some(worker) = &c.worker {
        let _ = worker.post_message(&message(protocol::CANCEL, Some(run)));
    }
}

/// Tells the worker that `run`'s answer ended with its read at `at_ms` ([`protocol::ANSWER_END`]).
pub fn answer_ended(run: u32, at_ms: f64) {
    if let Some(worker) = &client().worker {
        let m = message(protocol::ANSWER_END, Some(run));
        set(&m, "at_ms", &JsValue::from_f64(at_ms));
        let _ = worker.post_message(&m);
    }
}

/// Asks the worker for every run's reads that wait there (they arrive as a message, usually within a
/// millisecond): called as the page schedules a drawing, so they are in the feed when it draws. A no-op
/// before the worker is ready.
pub fn pull() {
    let c = client();
    if c.state.get() != State::Ready {
        return;
    }
    if let Some(worker) = &c.worker {
        let _ = worker.post_message(&message(protocol::PULL, None));
    }
}

fn on_message(data: &JsValue) {
    let c = client();
    let kind = protocol::get_str(data, "kind");
    if kind.as_deref() == Some(protocol::READY) {
        c.settle(State::Ready);
        return;
    }
    if kind.as_deref() == Some(protocol::FAILED) {
        let why = protocol::get_str(data, "message").unwrap_or_default();
        on_failure(format!("the measuring worker cannot measure: {}", why.chars().take(200).collect::<String>()));
        return;
    }
    let Some(run) = protocol::get_run(data) else { return };
    let runs = c.runs.borrow();
    let Some(slot) = runs.get(run) else { return };
    let mut feed = slot.feed.borrow_mut();
    match kind.as_deref() {
        Some(protocol::STARTED) => {
            let t0_page_ms = protocol::get_f64(data, "t0_origin_ms").map(|origin_ms| origin_ms - time_origin_ms());
            feed.started(t0_page_ms, protocol::get_f64(data, "unix_ms"));
        }
        Some(protocol::HEADERS) => {
            let headers = header_pairs(&protocol::get(data, "headers"));
            feed.headers(protocol::get_f64(data, "at_ms"), protocol::get_f64(data, "status").map(|s| s as u16), headers);
        }
        Some(protocol::READS) => {
            let times: Float64Array = protocol::get(data, "at_ms").unchecked_into();
            let chunks: js_sys::Array = protocol::get(data, "chunks").unchecked_into();
            let n = times.length().min(chunks.length());
            feed.pending.reserve(n as usize);
            for i in 0..n {
                let bytes = chunks.get(i).unchecked_into::<Uint8Array>().to_vec();
                feed.pending.push(ReadChunk::new(times.get_index(i), bytes));
            }
        }
        Some(protocol::END) => {
            let field = |key: &str| protocol::get(data, key);
            let read = read_end(field("end"), field("connection"), field("probes"));
            drop(feed);
            drop(runs);
            let Some(slot) = c.runs.borrow_mut().remove(run) else { return };
            // Ready at once: a run starts only once the parts that come after the page are loaded.
            now_or_later(read, move |read| {
                let (end, connection, probes) = read.unwrap_or_else(|PartMissing| {
                    let message = "the page's code that reads the measuring worker's results did not load: reload the page";
                    (TraceEnd::NetworkError { at_ms: 0.0, message: message.into(), during_body: true }, None, Probes::default())
                });
                slot.feed.borrow_mut().ended(end, connection, probes);
                let _ = slot.done.call0(&JsValue::NULL);
            });
        }
        _ => {}
    }
}

// net's parts of the `after` chunk, in one list: `preload_after_parts` (which `ui::parts::ensure_parts`
// awaits with the UI's own) fetches every one, so a part added here is never left off the preloads.
split_parts! { after, preload_after_parts;
    preload_end_reader;
    /// A run's end as the worker sent it (plain objects), read in the page.
    pub fn read_end(end: JsValue, connection: JsValue, probes: JsValue) -> (TraceEnd, Option<ConnectionTiming>, Probes) {
        let end = end::end_from_js(&end).unwrap_or_else(|e| TraceEnd::NetworkError {
            at_ms: 0.0,
            message: format!("the measuring worker sent an unreadable end: {e}"),
            during_body: true,
        });
        (end, end::connection_from_js(&connection), end::probes_from_js(&probes))
    }
}

/// Response headers as the worker sends them, `[name, value]` pairs (anything else is skipped).
fn header_pairs(pairs: &JsValue) -> Vec<(String, String)> {
    let Some(pairs) = pairs.dyn_ref::<js_sys::Array>() else { return Vec::new() };
    pairs.iter().filter_map(|pair| protocol::pair(&pair).ok()).collect()
}

/// The worker could not start or died: runs in flight end as network errors (with what they had), and
/// later runs are measured on the page.
fn on_failure(message: String) {
    let c = client();
    c.settle(State::Failed);
    let slots: Vec<Slot> = c.runs.borrow_mut().take_all();
    for slot in slots {
        {
            let mut feed = slot.feed.borrow_mut();
            if feed.trace.end.is_none() {
                let at_ms = feed.elapsed_ms();
                feed.trace.end = Some(TraceEnd::NetworkError { at_ms, message: message.clone(), during_body: true });
            }
        }
        let _ = slot.done.call0(&JsValue::NULL);
    }
}
