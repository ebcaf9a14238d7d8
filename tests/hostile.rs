//! End-to-end: the hostile corpus (issue 10, "Bounded and crash-free on any input"). Every case the lab
//! serves at `/hostile/<case>` (see `streamscope_lab::scenarios::hostile`) is run through the built page:
//! each must end in a report that names one of the case's expected findings, within the run's time-outs,
//! with the tab still answering at once and its memory bounded, never a panic or a frozen tab.
//!
//! Needs a built page (`trunk build --release`) and chromium with chromium-driver.

use std::time::{Duration, Instant};

use streamscope_e2e::fidelity::memory;
use streamscope_e2e::{with_page, Check, Outcomes, Page};
use streamscope_lab::scenarios::hostile::CASES;

/// The page's own limits for these runs: no case may take longer than this to end.
const TOTAL_TIMEOUT_S: u64 = 12;
/// A tab that takes longer than this to run a trivial script is frozen.
const RESPONSIVE_LIMIT: Duration = Duration::from_secs(2);
/// The page's wasm memory may grow to this, however large the input (the trace keeps 16 MiB of bytes,
/// the text 4 MiB; the whole corpus in one tab peaked at 111 MiB, measured).
const WASM_MEMORY_LIMIT_BYTES: u64 = 256 * 1024 * 1024;
/// And its JavaScript heap to this.
const JS_HEAP_LIMIT_BYTES: u64 = 256 * 1024 * 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_hostile_case_ends_in_a_finding_with_the_tab_alive_and_memory_bounded() {
    assert!(CASES.len() >= 30, "the corpus has {} cases", CASES.len());
    with_page(|page: Page| async move {
        let mut outcomes = Outcomes::new();
        for case in CASES {
            let path = if case.name == "models-100k" {
                format!("/hostile/{}/v1/chat/completions", case.name)
            } else {
                format!("/hostile/{}", case.name)
            };
            let target = page.lab_url(&path);
            let started = Instant::now();
            let extra = format!("total_timeout_s={TOTAL_TIMEOUT_S}&idle_timeout_s=5");
            let report = page.run_report(&page.query_for(&target, &extra)).await;
            let took = started.elapsed();
            let mut check = Check::new(case.name, &report.json);
            check.that(!report.json.is_null(), || format!("#report-json is not JSON: {:.200}", report.text));
            let codes = check.codes();
            check.that(case.expect.iter().any(|e| codes.iter().any(|c| c == e)), || {
                format!("none of {:?} among {codes:?} ({})", case.expect, case.what)
            });
            check.that(took < Duration::from_secs(TOTAL_TIMEOUT_S + 20), || format!("took {took:?}"));
            let ping = Instant::now();
            let alive = page.client().execute("return 1;", vec![]).await.is_ok();
            let ping = ping.elapsed();
            check.that(alive && ping < RESPONSIVE_LIMIT, || format!("the tab answered a script in {ping:?} (alive {alive})"));
            let (heap, wasm) = memory(&page).await;
            check.that(wasm.is_some_and(|w| w < WASM_MEMORY_LIMIT_BYTES), || format!("wasm memory {wasm:?}"));
            check.that(heap.is_some_and(|h| h < JS_HEAP_LIMIT_BYTES), || format!("JS heap {heap:?}"));
            println!("{:<22} {:>6.1} s  wasm {:>5} MiB  {codes:?}", case.name, took.as_secs_f64(), wasm.unwrap_or(0) >> 20);
            outcomes.add(check);
        }
        outcomes.finish();
    })
    .await;
}
