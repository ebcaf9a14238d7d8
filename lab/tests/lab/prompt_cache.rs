//! The simulated prefix cache on real requests: hits computed exactly from the prompt text (64-byte
//! blocks, 4 bytes per token), from a GET's `prompt=` or a body, in DeepSeek, OpenAI and Anthropic
//! fields.

use crate::client::*;

/// `len` letters, varied so that no two blocks are alike.
fn letters(len: usize, seed: usize) -> String {
    (0..len).map(|i| (b'a' + ((i * 7 + seed) % 26) as u8) as char).collect()
}

/// The `usage` object of an OpenAI chat stream.
fn usage(response: &Response) -> serde_json::Value {
    assert_eq!(response.status, 200, "{}", String::from_utf8_lossy(&response.body()));
    sse_events(&response.body())
        .iter()
        .filter_map(|e| event_json(e))
        .find(|j| j["usage"].is_object())
        .expect("a usage chunk")["usage"]
        .clone()
}

const FAST: &str = "tokens=1&first_ms=0&cadence_ms=1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_get_prompt_hits_its_seen_blocks_in_deepseek_and_openai_fields() {
    let lab = start_lab(None).await;
    let prompt = letters(200, 0);
    let url = |prompt: &str, extra: &str| format!("/v1/chat/completions?{FAST}&prompt={prompt}{extra}");

    let first = usage(&get(lab, &url(&prompt, "")).await);
    assert_eq!(
        (&first["prompt_tokens"], &first["prompt_cache_hit_tokens"], &first["prompt_cache_miss_tokens"]),
        (&50.into(), &0.into(), &50.into())
    );
    let again = usage(&get(lab, &url(&prompt, "")).await);
    assert_eq!((&again["prompt_cache_hit_tokens"], &again["prompt_cache_miss_tokens"]), (&50.into(), &0.into()));

    // The first 128 bytes shared, then different: two blocks of 16 tokens.
    let shared = format!("{}{}", &prompt[..128], letters(100, 3));
    let partial = usage(&get(lab, &url(&shared, "")).await);
    assert_eq!(
        (&partial["prompt_tokens"], &partial["prompt_cache_hit_tokens"], &partial["prompt_cache_miss_tokens"]),
        (&57.into(), &32.into(), &25.into())
    );

    let openai = usage(&get(lab, &url(&prompt, "&usage_style=openai")).await);
    assert_eq!(openai["prompt_tokens_details"]["cached_tokens"], 50);
    assert!(openai.get("prompt_cache_hit_tokens").is_none(), "{openai}");

    let refused = get(lab, &url(&prompt, "&usage_style=openai&dialect=anthropic")).await;
    assert_eq!(refused.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_reads_the_same_prefix_from_system_and_messages() {
    let lab = start_lab(None).await;
    let (system, question) = (letters(63, 1), letters(100, 2));
    // The prompt text is "system\nquestion": 164 bytes, 41 tokens; its first 64 bytes are the system
    // prompt and the newline.
    let body = |question: &str| {
        format!(r#"{{"model":"m","max_tokens":1,"system":"{system}","messages":[{{"role":"user","content":"{question}"}}]}}"#)
    };
    let usage_of = |response: &Response| {
        assert_eq!(response.status, 200);
        let events = sse_events(&response.body());
        let start = events
            .iter()
            .find_map(|e| {
                let data = e.split(|&b| b == b'\n').find_map(|line| line.strip_prefix(b"data: "))?;
                let json: serde_json::Value = serde_json::from_slice(data).ok()?;
                (json["type"] == "message_start").then_some(json)
            })
            .expect("message_start");
        start["message"]["usage"].clone()
    };
    let path = "/v1/messages?first_ms=0&cadence_ms=1";
    let first = usage_of(&post_json(lab, path, &body(&question)).await);
    assert_eq!((&first["input_tokens"], &first["cache_read_input_tokens"]), (&41.into(), &0.into()));
    let again = usage_of(&post_json(lab, path, &body(&question)).await);
    assert_eq!((&again["input_tokens"], &again["cache_read_input_tokens"]), (&0.into(), &41.into()));
    let other = usage_of(&post_json(lab, path, &body(&letters(100, 5))).await);
    assert_eq!((&other["input_tokens"], &other["cache_read_input_tokens"]), (&25.into(), &16.into()));
}
