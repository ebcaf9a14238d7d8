//! Fast streams (`cadence_ms=1`, `cadence_ms=0.5`) and an instant first token (`first_ms=0`): the
//! scheduler keeps sub-ms deadlines from the start time, so lateness never accumulates.

use crate::client::*;

/// The two sub-ms senders run one at a time: each wakes once per event (0.5-1 ms), and side by side on
/// 2 cores one's wake-ups would wait for the other's.
static SUB_MS_SENDERS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// `(arrival_ms, server_ms)` of every content event, checking one event per chunk and a `server_ms` on
/// every JSON event.
fn content_stamps(response: &Response) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for chunk in response.chunks() {
        let events = sse_events(&chunk.payload);
        assert_eq!(events.len(), 1, "one event per chunk");
        let Some(json) = event_json(&events[0]) else {
            continue;
        };
        let server_ms = json["server_ms"]
            .as_f64()
            .unwrap_or_else(|| panic!("no server_ms in {json}"));
        if content_of(&json).is_some() {
            out.push((chunk.at_ms, server_ms));
        }
    }
    out
}

fn percentile(values: &[f64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// How far after its deadline an event still left on time, in ms.
const ON_TIME_MS: f64 = 0.2;

/// Events that left within [`ON_TIME_MS`] of their deadline right after one that did too, from each
/// event's lateness: what the scheduler does whenever it has the CPU. The send gaps of all events are not
/// that: a sender more than a period behind (a VM whose vCPU the host takes away: 20-44% steal time
/// measured here on 2026-12-02 while these tests failed 5 runs in 8) owes events and sends them back to
/// back until it has caught up, by design (absolute deadlines: no drift), and a median gap then reads
/// like a coarse timer. The tests ask for a tenth of the events (measured: 29-93% at 0.5 ms and
/// 62-86% at 1 ms across runs with and without steal; a whole-ms timer at 0.5 ms has none).
fn on_time_pairs(lateness_ms: &[f64]) -> usize {
    lateness_ms.windows(2).filter(|w| w[0] < ON_TIME_MS && w[1] < ON_TIME_MS).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_ms_cadence_sends_about_one_event_per_ms_without_drift() {
    let _one_at_a_time = SUB_MS_SENDERS.lock().await;
    let lab = start_lab(None).await;
    let response = get(lab, "/stream?tokens=5000&cadence_ms=1&first_ms=0&role_first=0").await;
    let stamps = content_stamps(&response);
    assert_eq!(stamps.len(), 5000);
    let lateness: Vec<f64> = stamps
        .iter()
        .enumerate()
        .map(|(i, (_, server_ms))| server_ms - i as f64)
        .collect();
    assert!(
        lateness.iter().all(|late| *late >= -0.05),
        "an event left before its deadline"
    );
    let median_late = percentile(&lateness, 0.5);
    assert!(median_late < 1.0, "median lateness {median_late} ms");
    let last_late = *lateness.last().unwrap();
    assert!(last_late < 100.0, "drifted: the last event was {last_late} ms late");
    let on_time = on_time_pairs(&lateness);
    assert!(
        on_time * 10 >= lateness.len(),
        "only {on_time} of {} events left on time after an event that did (a sender that rarely gets the \
         CPU; median lateness {median_late} ms)",
        lateness.len()
    );
    // 1,000 events per second really leave one by one: a reader that keeps up sees most of them in
    // reads of their own (a sender that batched per timer tick would not).
    let arrival: Vec<f64> = stamps.iter().map(|(at, _)| *at).collect();
    let mut distinct = arrival.clone();
    distinct.dedup();
    assert!(
        distinct.len() * 2 >= arrival.len(),
        "only {} distinct read times for {} events",
        distinct.len(),
        arrival.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_ms_cadence_is_accepted_and_kept() {
    let _one_at_a_time = SUB_MS_SENDERS.lock().await;
    let lab = start_lab(None).await;
    let response = get(lab, "/stream?tokens=2000&cadence_ms=0.5&first_ms=0&role_first=0").await;
    let stamps = content_stamps(&response);
    assert_eq!(stamps.len(), 2000);
    let server: Vec<f64> = stamps.iter().map(|(_, s)| *s).collect();
    let lateness: Vec<f64> = server.iter().enumerate().map(|(i, s)| s - 0.5 * i as f64).collect();
    // Whole-ms timer ticks would send every other event half a period late: no two on time in a row.
    let on_time = on_time_pairs(&lateness);
    assert!(
        on_time * 10 >= lateness.len(),
        "only {on_time} of {} events left on time after an event that did (median send gap {} ms)",
        lateness.len(),
        median(&gaps(&server))
    );
    let last_late = server.last().unwrap() - 999.5;
    assert!(
        (-0.05..100.0).contains(&last_late),
        "the last event was {last_late} ms late"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_ms_zero_sends_the_first_token_at_once_with_or_without_the_role_chunk() {
    let lab = start_lab(None).await;
    for (query, role) in [
        ("/stream?tokens=5&cadence_ms=20&first_ms=0", true),
        ("/stream?tokens=5&cadence_ms=20&first_ms=0&role_first=0", false),
    ] {
        let response = get(lab, query).await;
        let chunks = response.chunks();
        let first = event_json(&sse_events(&chunks[0].payload)[0]).unwrap();
        assert_eq!(content_of(&first).is_none(), role, "{query}: first chunk {first}");
        let stamps = content_stamps(&response);
        assert_eq!(stamps.len(), 5);
        let (arrival_ms, server_ms) = stamps[0];
        assert!(server_ms < 5.0, "{query}: first token stamped {server_ms} ms");
        assert!(arrival_ms < 50.0, "{query}: first token arrived at {arrival_ms} ms");
    }
}
