//! The floor the page's measuring worker can reach: a bare `fetch` + `reader.read()` loop in a dedicated
//! worker of the page's own browser session (started from a `blob:` script, which the page's CSP
//! allows), keeping every read's time and bytes. Nothing else runs in that worker and the page beside it
//! is idle, so what separates its reads from the raw-socket peer's is the browser's own network path;
//! what separates the page's from its reads is the page.

use std::time::Duration;

use serde_json::Value;
use streamscope_core::trace::{ReadChunk, RequestSummary, Trace, TraceEnd};

use crate::page::Page;

/// Starts the worker and stores its reads in `window.__ssBareWorker[key]` when the stream ends: times in
/// ms from the worker's `fetch()` call, each read's bytes as a string of code points 0-255 (JSON-safe,
/// exact).
const BARE_WORKER_JS: &str = r#"
const [url, key] = arguments;
const slot = (window.__ssBareWorker = window.__ssBareWorker || {});
slot[key] = null;
const source = `
onmessage = async (message) => {
  const out = {headers_ms: null, status: 0, headers: [], at_ms: [], chunks: [], total_ms: null, error: null};
  const t0 = performance.now();
  try {
    const response = await fetch(message.data, {cache: 'no-store'});
    out.headers_ms = performance.now() - t0;
    out.status = response.status;
    response.headers.forEach((value, name) => out.headers.push([name, value]));
    const reader = response.body.getReader();
    for (;;) {
      const {done, value} = await reader.read();
      const t = performance.now() - t0;
      if (done) { out.total_ms = t; break; }
      out.at_ms.push(t);
      out.chunks.push(value);
    }
  } catch (err) { out.error = String(err); }
  postMessage(out);
};`;
const worker = new Worker(URL.createObjectURL(new Blob([source], {type: 'text/javascript'})));
worker.onmessage = (message) => {
  const out = message.data;
  out.reads = out.chunks.map((chunk) => {
    let text = '';
    for (let i = 0; i < chunk.length; i += 8192) text += String.fromCharCode.apply(null, chunk.subarray(i, i + 8192));
    return text;
  });
  delete out.chunks;
  slot[key] = out;
  worker.terminate();
};
worker.onerror = (e) => { slot[key] = {error: 'the worker failed: ' + (e.message || e)}; };
worker.postMessage(url);
return true;
"#;

/// Runs the bare worker loop on `url` in the open page and returns its reads as the trace the page would
/// have recorded, or why it could not (no result within `limit`, the script refused).
pub async fn bare_worker_trace(page: &Page, url: &str, limit: Duration) -> Result<Trace, String> {
    let key = format!("w{}", super::rand_key());
    page.client()
        .execute(BARE_WORKER_JS, vec![Value::from(url), Value::from(key.as_str())])
        .await
        .map_err(|err| format!("cannot start the bare worker loop: {err}"))?;
    let result = super::wait_for_result(page, "__ssBareWorker", &key, limit)
        .await
        .ok_or_else(|| format!("the bare worker loop gave no result within {limit:?}"))?;
    Ok(trace_of(&result, url))
}

/// The worker's result as a trace (times from its `fetch()` call, like the page's).
fn trace_of(result: &Value, url: &str) -> Trace {
    let f = |k: &str| result[k].as_f64();
    let reads = result["at_ms"]
        .as_array()
        .into_iter()
        .flatten()
        .zip(result["reads"].as_array().into_iter().flatten())
        .filter_map(|(at, text)| Some(ReadChunk::new(at.as_f64()?, latin1_bytes(text.as_str()?))))
        .collect();
    let headers = result["headers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|pair| Some((pair[0].as_str()?.to_string(), pair[1].as_str()?.to_string())))
        .collect();
    let end_ms = f("total_ms").unwrap_or(0.0);
    let end = match result["error"].as_str() {
        None => TraceEnd::Complete { at_ms: end_ms },
        Some(message) => TraceEnd::NetworkError { at_ms: end_ms, message: message.into(), during_body: f("headers_ms").is_some() },
    };
    Trace {
        request: RequestSummary { url: url.into(), method: "GET".into(), ..RequestSummary::default() },
        headers_ms: f("headers_ms"),
        status: result["status"].as_u64().filter(|s| *s != 0).map(|s| s as u16),
        headers,
        reads,
        end: Some(end),
        ..Trace::default()
    }
}

/// The bytes of a string whose every char is one byte (`String.fromCharCode` of each byte).
fn latin1_bytes(text: &str) -> Vec<u8> {
    text.chars().map(|c| c as u32 as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_becomes_the_trace_with_every_read_exact() {
        let result = serde_json::json!({
            "headers_ms": 3.5, "status": 200, "headers": [["content-type", "text/event-stream"]],
            "at_ms": [4.0, 9.25], "reads": ["data: {}\n\n", "\u{00e9}\u{00ff}\u{0000}"], "total_ms": 10.0, "error": null,
        });
        let trace = trace_of(&result, "http://x/");
        assert_eq!(trace.headers_ms, Some(3.5));
        assert_eq!(trace.status, Some(200));
        assert_eq!(trace.reads.len(), 2);
        assert_eq!(trace.reads[1].at_ms, 9.25);
        assert_eq!(trace.reads[1].bytes, vec![0xe9, 0xff, 0x00]);
        assert_eq!(trace.end, Some(TraceEnd::Complete { at_ms: 10.0 }));
    }

    #[test]
    fn a_failed_fetch_ends_in_a_network_error() {
        let result = serde_json::json!({"headers_ms": null, "status": 0, "headers": [], "at_ms": [], "reads": [], "total_ms": null, "error": "TypeError: Failed to fetch"});
        let trace = trace_of(&result, "http://x/");
        assert_eq!(trace.status, None);
        assert!(matches!(trace.end, Some(TraceEnd::NetworkError { during_body: false, .. })));
    }
}
