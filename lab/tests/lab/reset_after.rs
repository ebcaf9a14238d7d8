//! `reset_after=N`: the role chunk and N content events, then a TCP reset mid-body (no final chunk),
//! seen by a raw client directly and through relays.

use std::io::ErrorKind;

use streamscope_lab::relay::RelayPolicy;

use crate::client::*;

fn get_request(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n").into_bytes()
}

const PATH: &str = "/v1/chat/completions?reset_after=3&tokens=10&cadence_ms=40&first_ms=50";

/// The role chunk and exactly three content events, no finish, usage, `[DONE]` or final chunk.
fn assert_cut_after_three(bytes: &[u8], label: &str) {
    let text = String::from_utf8_lossy(bytes);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{label}: {text}");
    assert_eq!(
        count(bytes, b"\"role\":\"assistant\""),
        1,
        "{label}: {text}"
    );
    assert_eq!(count(bytes, b"\"content\":\""), 3, "{label}: {text}");
    assert!(
        !text.contains("[DONE]") && !text.contains("\"usage\""),
        "{label}: {text}"
    );
    assert!(!text.contains("\"stop\""), "{label}: {text}");
    assert!(
        !bytes.ends_with(b"0\r\n\r\n"),
        "{label}: no terminating chunk"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_reads_n_events_then_gets_a_connection_reset() {
    let lab = start_lab(None).await;
    let exchange = raw_exchange(lab, &get_request(PATH)).await;
    assert_cut_after_three(&exchange.bytes(), "direct");
    assert_eq!(exchange.end, Err(ErrorKind::ConnectionReset));
    // The third event is due at 130 ms; the reset comes when the fourth would have, at 170 ms.
    let last_ms = exchange.times_ms().last().copied().unwrap_or_default();
    assert!(
        (110.0..1_000.0).contains(&last_ms),
        "last read at {last_ms} ms"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_after_zero_resets_after_the_role_chunk_and_a_large_n_after_every_event() {
    let lab = start_lab(None).await;
    let exchange = raw_exchange(
        lab,
        &get_request("/v1/chat/completions?reset_after=0&first_ms=30"),
    )
    .await;
    assert_eq!(count(&exchange.bytes(), b"\"content\":\""), 0);
    assert_eq!(count(&exchange.bytes(), b"\"role\":\"assistant\""), 1);
    assert_eq!(exchange.end, Err(ErrorKind::ConnectionReset));

    let exchange = raw_exchange(
        lab,
        &get_request("/v1/chat/completions?reset_after=99&tokens=4&tokens_per_event=2&batch=2&first_ms=10&cadence_ms=10"),
    )
    .await;
    assert_eq!(count(&exchange.bytes(), b"\"content\":\""), 2);
    assert!(!String::from_utf8_lossy(&exchange.bytes()).contains("[DONE]"));
    assert_eq!(exchange.end, Err(ErrorKind::ConnectionReset));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relays_pass_the_reset_on_after_what_they_held() {
    let lab = start_lab(None).await;
    let policies = [
        RelayPolicy::default(),
        RelayPolicy {
            flush_every_ms: Some(250),
            hold_headers: false,
        },
        RelayPolicy {
            flush_every_ms: None,
            hold_headers: true,
        },
    ];
    for policy in policies {
        let relay = start_relay(lab, policy).await;
        let exchange = raw_exchange(relay, &get_request(PATH)).await;
        let label = policy.to_string();
        assert_cut_after_three(&exchange.bytes(), &label);
        assert_eq!(exchange.end, Err(ErrorKind::ConnectionReset), "{label}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_after_outside_an_openai_chat_stream_is_a_400_that_says_so() {
    let lab = start_lab(None).await;
    for query in [
        "mode=collect&reset_after=1",
        "dialect=gemini&reset_after=1",
        "content_length=1&reset_after=1",
    ] {
        let response = get(lab, &format!("/v1/chat/completions?{query}")).await;
        assert_eq!(response.status, 400, "{query}");
        let json: serde_json::Value = serde_json::from_slice(&response.body()).unwrap();
        let message = json["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("needs mode=stream"), "{query}: {message}");
    }
    let response = post_json(lab, "/v1/messages?reset_after=1", "{}").await;
    assert_eq!(response.status, 400, "a native Anthropic path");
}
