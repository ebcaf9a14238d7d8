//! `tokens_per_event`: several tokens per content event; usage still counts tokens.

use streamscope_lab::scenarios::passage::text_of;

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_event_carries_k_tokens_and_usage_counts_tokens() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?tokens=10&tokens_per_event=3&cadence_ms=10&first_ms=20",
    )
    .await;
    let jsons: Vec<_> = sse_events(&response.body())
        .iter()
        .filter_map(|e| event_json(e))
        .collect();
    let contents: Vec<String> = jsons
        .iter()
        .filter_map(|j| content_of(j).map(String::from))
        .collect();
    assert_eq!(
        contents,
        [
            " The quick brown",
            " fox jumps over",
            " the lazy dog",
            " while"
        ]
    );
    assert_eq!(contents.concat(), text_of(10));
    let usage = jsons.iter().find(|j| j["usage"].is_object()).unwrap();
    assert_eq!(usage["usage"]["completion_tokens"], 10);
}
