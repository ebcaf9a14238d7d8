//! The net layer in headless Chromium against a running lab (URL given at compile time in
//! `STREAMSCOPE_LAB_URL`, since wasm tests see no environment at run time).

use std::cell::RefCell;
use std::rc::Rc;

use streamscope_core::trace::{TimeoutKind, Trace, TraceEnd};
use wasm_bindgen_test::*;

use super::{start_run, Placement, RunFeed, RunSpec, SharedFeed, Timeouts};

wasm_bindgen_test_configure!(run_in_browser);

fn lab(path_and_query: &str) -> String {
    let Some(base) = option_env!("STREAMSCOPE_LAB_URL") else {
        panic!("build the wasm tests with STREAMSCOPE_LAB_URL=http://127.0.0.1:<port> (scripts/test.sh does)");
    };
    format!("{}{}", base.trim_end_matches('/'), path_and_query)
}

fn get(url: String, timeouts: Timeouts) -> RunSpec {
    RunSpec { url, method: "GET".into(), body: None, headers: Vec::new(), timeouts, key_has_whitespace: false }
}

/// The feed's facts with its reads, as one trace.
fn trace_of(feed: &SharedFeed) -> Trace {
    let mut f = feed.borrow_mut();
    let mut trace = f.trace.clone();
    trace.reads.extend(f.take_pending());
    trace
}

/// Measures `spec` with the reader loop on this (the test page's) thread: the wasm test runner serves no
/// worker script, and the worker's relay is covered end to end.
async fn run(spec: RunSpec) -> Trace {
    let feed: SharedFeed = Rc::new(RefCell::new(RunFeed::default()));
    let (_handle, fut) = start_run(spec, feed.clone(), Placement::MainThread);
    fut.await;
    trace_of(&feed)
}

#[wasm_bindgen_test]
async fn stream_is_read_in_several_timestamped_reads() {
    let trace = run(get(lab("/v1/chat/completions?tokens=12&cadence_ms=25&first_ms=150"), Timeouts::default())).await;
    assert!(matches!(trace.end, Some(TraceEnd::Complete { .. })), "end: {:?}", trace.end);
    assert_eq!(trace.status, Some(200));
    assert!(trace.header("content-type").unwrap_or("").starts_with("text/event-stream"));
    assert!(trace.reads.len() >= 8, "expected one read per event or close, got {}", trace.reads.len());
    let headers_ms = trace.headers_ms.expect("headers time");
    assert!(headers_ms <= trace.reads[0].at_ms);
    for pair in trace.reads.windows(2) {
        assert!(pair[1].at_ms >= pair[0].at_ms, "read times must not go back: {pair:?}");
    }
    let last = trace.reads.last().unwrap().at_ms;
    // first token at 150 ms, 11 more at 25 ms: the last read lands near 425 ms.
    assert!((400.0..2_000.0).contains(&last), "last read at {last} ms");
    let body = String::from_utf8_lossy(&trace.reads.iter().flat_map(|r| r.bytes.clone()).collect::<Vec<_>>()).into_owned();
    assert!(body.contains("[DONE]"));
    assert_eq!(trace.request.method, "GET");
}

#[wasm_bindgen_test]
async fn stalled_stream_ends_with_the_idle_time_out() {
    let timeouts = Timeouts { idle_ms: Some(600.0), ..Timeouts::default() };
    let trace = run(get(lab("/v1/chat/completions?mode=stall&stall_after=3&cadence_ms=20&first_ms=50"), timeouts)).await;
    match trace.end {
        Some(TraceEnd::Timeout { timeout: TimeoutKind::Idle, at_ms, limit_ms }) => {
            assert_eq!(limit_ms, 600.0);
            let last = trace.reads.last().expect("reads before the stall").at_ms;
            assert!(at_ms - last >= 590.0 && at_ms - last < 3_000.0, "stall detected {} ms after last read", at_ms - last);
        }
        other => panic!("expected an idle time-out, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_stall_after_the_first_read_is_found_at_the_idle_limit_not_the_later_total_one() {
    // Before the first byte the nearest deadline is the total one (5 s); the first read brings the idle
    // one (300 ms after it) nearer: the watchdog must arm again for it.
    let timeouts = Timeouts { idle_ms: Some(300.0), total_ms: Some(5_000.0), ..Timeouts::default() };
    let trace = run(get(lab("/v1/chat/completions?mode=stall&stall_after=1&cadence_ms=20&first_ms=50"), timeouts)).await;
    match trace.end {
        Some(TraceEnd::Timeout { timeout: TimeoutKind::Idle, at_ms, .. }) => {
            let last = trace.reads.last().expect("a read before the stall").at_ms;
            assert!(at_ms - last >= 290.0 && at_ms - last < 2_000.0, "stall detected {} ms after the last read", at_ms - last);
        }
        other => panic!("expected an idle time-out, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_stream_still_arriving_ends_at_the_total_limit() {
    // A token every 20 ms for 4 s: the idle limit (300 ms) never passes, the total one (800 ms) does.
    let timeouts = Timeouts { idle_ms: Some(300.0), total_ms: Some(800.0), ..Timeouts::default() };
    let trace = run(get(lab("/v1/chat/completions?tokens=200&cadence_ms=20&first_ms=50"), timeouts)).await;
    match trace.end {
        Some(TraceEnd::Timeout { timeout: TimeoutKind::Total, at_ms, limit_ms }) => {
            assert_eq!(limit_ms, 800.0);
            assert!((790.0..3_000.0).contains(&at_ms), "ended at {at_ms} ms");
            assert!(trace.reads.len() >= 10, "reads kept coming until then: {}", trace.reads.len());
        }
        other => panic!("expected the total time-out, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn no_first_byte_in_time_is_the_first_byte_time_out() {
    let timeouts = Timeouts { first_byte_ms: Some(300.0), ..Timeouts::default() };
    let trace = run(get(lab("/v1/chat/completions?role_first=0&tokens=3&cadence_ms=20&first_ms=3000"), timeouts)).await;
    match trace.end {
        Some(TraceEnd::Timeout { timeout: TimeoutKind::FirstByte, at_ms, limit_ms }) => {
            assert_eq!(limit_ms, 300.0);
            assert!((290.0..2_500.0).contains(&at_ms), "ended at {at_ms} ms");
            assert!(trace.reads.is_empty(), "no byte came: {} reads", trace.reads.len());
        }
        other => panic!("expected the first-byte time-out, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn cancel_keeps_the_partial_trace() {
    let feed: SharedFeed = Rc::new(RefCell::new(RunFeed::default()));
    let spec = get(lab("/v1/chat/completions?tokens=200&cadence_ms=20&first_ms=50"), Timeouts::default());
    let (handle, fut) = start_run(spec, feed.clone(), Placement::MainThread);
    wasm_bindgen_futures::spawn_local(async move {
        sleep_ms(300).await;
        handle.cancel();
    });
    fut.await;
    let t = trace_of(&feed);
    assert!(matches!(t.end, Some(TraceEnd::Cancelled { .. })), "end: {:?}", t.end);
    assert!(!t.reads.is_empty(), "reads before the cancel are kept");
}

#[wasm_bindgen_test]
async fn unreachable_port_is_a_network_error() {
    let trace = run(get("http://127.0.0.1:65534/v1/chat/completions".into(), Timeouts::default())).await;
    assert!(matches!(trace.end, Some(TraceEnd::NetworkError { during_body: false, .. })), "end: {:?}", trace.end);
    assert_eq!(trace.status, None);
    assert_eq!(trace.probes.no_cors_reached, Some(false), "a no-cors probe reaches nothing either");
}

#[wasm_bindgen_test]
async fn a_404_probes_the_models_lists_with_and_without_v1() {
    // The lab answers /v1/models but not /models or /chat/completions: a base URL missing its /v1.
    let trace = run(get(lab("/chat/completions"), Timeouts::default())).await;
    assert_eq!(trace.status, Some(404));
    let probes = &trace.probes.models;
    assert_eq!(probes.len(), 2, "{probes:?}");
    assert_eq!(probes[0].url, lab("/models"));
    assert_eq!(probes[0].status, Some(404));
    assert_eq!(probes[1].url, lab("/v1/models"));
    assert_eq!(probes[1].status, Some(200));
    assert!(probes[1].ids.iter().any(|id| id == "streamscope-lab"), "{:?}", probes[1].ids);
    assert_eq!(trace.probes.no_cors_reached, None, "a response arrived: no reachability probe");
}

#[wasm_bindgen_test]
async fn a_response_left_open_after_its_answer_ended_stops_soon_after_not_at_the_idle_limit() {
    // The lab sends [DONE] and keeps the response open 20 s; the idle limit is 30 s. The page's drain
    // says when the answer ended (here a watcher of the feed does): the run stops AFTER_END_LIMIT_MS later.
    use std::cell::Cell;
    use streamscope_core::trace::AFTER_END_LIMIT_MS;
    let feed: SharedFeed = Rc::new(RefCell::new(RunFeed::default()));
    let spec = get(lab("/v1/chat/completions?tokens=3&cadence_ms=20&first_ms=50&linger_ms=20000"), Timeouts::default());
    let (handle, run_future) = start_run(spec, feed.clone(), Placement::MainThread);
    let told_at: Rc<Cell<Option<f64>>> = Rc::default();
    {
        let (feed, told_at) = (feed.clone(), told_at.clone());
        wasm_bindgen_futures::spawn_local(async move {
            while feed.borrow().trace.end.is_none() {
                let done = feed.borrow().pending.iter().find(|r| r.bytes.windows(6).any(|w| w == b"[DONE]")).map(|r| r.at_ms);
                if let Some(at_ms) = done {
                    told_at.set(Some(at_ms));
                    handle.answer_ended(at_ms);
                    return;
                }
                sleep_ms(20).await;
            }
        });
    }
    run_future.await;
    let trace = trace_of(&feed);
    let done_at = told_at.get().expect("the [DONE] read was seen before the run ended");
    match trace.end {
        Some(TraceEnd::Timeout { timeout: TimeoutKind::AfterEnd, at_ms, limit_ms }) => {
            assert_eq!(limit_ms, AFTER_END_LIMIT_MS);
            let after = at_ms - done_at;
            assert!((AFTER_END_LIMIT_MS - 10.0..AFTER_END_LIMIT_MS + 3_000.0).contains(&after), "stopped {after} ms after [DONE]");
        }
        other => panic!("expected the after-end stop, got {other:?}"),
    }
}

async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}
