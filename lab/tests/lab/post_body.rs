//! POST bodies: `max_tokens`, `model` echo, `lab-<N>ms` cadence, query precedence, prompt cache.

use crate::client::*;

fn content_times(response: &Response) -> Vec<(f64, serde_json::Value)> {
    response
        .chunks()
        .into_iter()
        .filter_map(|c| event_json(&sse_events(&c.payload)[0]).map(|j| (c.at_ms, j)))
        .filter(|(_, j)| content_of(j).is_some())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn body_max_tokens_model_and_lab_cadence() {
    let lab = start_lab(None).await;
    let body = r#"{"model":"lab-10ms","max_tokens":12,"stream":true,"messages":[{"role":"user","content":"hello"}]}"#;
    let response = post_json(lab, "/v1/chat/completions?first_ms=50", body).await;
    assert_eq!(response.status, 200);
    let content = content_times(&response);
    assert_eq!(content.len(), 12, "max_tokens caps the default 50");
    assert!(content.iter().all(|(_, j)| j["model"] == "lab-10ms"));
    // Deadlines are absolute, so a token can be late (busy machine) but never early.
    let server_ms: Vec<f64> = content
        .iter()
        .map(|(_, j)| j["server_ms"].as_f64().unwrap())
        .collect();
    for (i, ms) in server_ms.iter().enumerate() {
        assert!(
            *ms >= 50.0 + 10.0 * i as f64 - 0.5,
            "token {i} at {ms} ms is early for lab-10ms"
        );
    }
    // The cadence, read so that a stall of the lab's thread on a loaded machine cannot fake it: after a
    // stall the late tokens go out back to back (their deadlines passed), so the gaps between the tokens
    // that were on time, or the last token's time, tell 10 ms from the default 20 ms. Seen in CI with
    // other builds running: the last token at 359 ms (a ~200 ms stall), every gap after it ~0.
    let last_ms = server_ms[11];
    let mut gaps: Vec<f64> = server_ms.windows(2).map(|w| w[1] - w[0]).collect();
    gaps.sort_by(f64::total_cmp);
    let median_gap_ms = gaps[gaps.len() / 2];
    assert!(
        last_ms < 260.0 || median_gap_ms < 15.0,
        "last token at {last_ms} ms, median gap {median_gap_ms} ms: slower than lab-10ms (default \
         cadence: last ≥ 270 ms, gaps 20 ms); server_ms {server_ms:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn query_parameters_win_over_the_body() {
    let lab = start_lab(None).await;
    let body = r#"{"model":"lab-10ms","messages":[]}"#;
    let response = post_json(
        lab,
        "/v1/chat/completions?first_ms=0&cadence_ms=40&tokens=6",
        body,
    )
    .await;
    let content = content_times(&response);
    assert_eq!(content.len(), 6);
    for (i, (_, json)) in content.iter().enumerate() {
        let ms = json["server_ms"].as_f64().unwrap();
        assert!(
            ms >= 40.0 * i as f64 - 0.5,
            "token {i} at {ms} ms: query cadence_ms=40 should win over lab-10ms"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_prompt_is_a_cache_hit_and_models_are_listed() {
    let lab = start_lab(None).await;
    let body = r#"{"model":"streamscope-lab","messages":[{"role":"user","content":"the same long prompt text"}]}"#;
    let usage_of = |response: &Response| {
        let events = sse_events(&response.body());
        events
            .iter()
            .filter_map(|e| event_json(e))
            .find(|j| j["usage"].is_object())
            .unwrap()["usage"]
            .clone()
    };
    let first = usage_of(
        &post_json(
            lab,
            "/v1/chat/completions?tokens=2&first_ms=0&cadence_ms=1",
            body,
        )
        .await,
    );
    let second = usage_of(
        &post_json(
            lab,
            "/v1/chat/completions?tokens=2&first_ms=0&cadence_ms=1",
            body,
        )
        .await,
    );
    assert_eq!(first["prompt_cache_hit_tokens"], 0);
    assert!(second["prompt_cache_hit_tokens"].as_u64().unwrap() > 0);
    assert_eq!(second["prompt_cache_miss_tokens"], 0);

    let models: serde_json::Value =
        serde_json::from_slice(&get(lab, "/v1/models").await.body()).unwrap();
    let ids: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(models["object"], "list");
    assert_eq!(ids, ["streamscope-lab", "lab-10ms", "lab-40ms"]);
}
