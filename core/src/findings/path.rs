//! Findings about the path between the model and the browser: bursts, held headers, a Content-Length on
//! an event stream, compression, a cache replay, and a slow first token or slow generation (the model,
//! not the path).
//!
//! - `bursts` (warning) explains a `buffered` verdict with the delivery figures.
//! - `headers_held`: the headers arrived within [`HEADERS_WITH_BODY_MS`] (10 ms) of the first body byte,
//!   *and* that adds evidence: the
//!   verdict is buffered or collected (warning), or the headers took at least [`HEADERS_HELD_INFO_MS`]
//!   (100 ms, info: a proxy that holds the response start until the first body byte, or response
//!   compression waiting for a first block, turns a server's at-once headers into headers with the first
//!   token; some servers do send their headers only with the first event, which the text says too; below
//!   100 ms neither costs a client anything).
//! - `content_length`: an SSE or JSON-lines body with a `Content-Length` header (warning when buffered or
//!   collected, else info).
//! - `compressed`: a `Content-Encoding` other than `identity`, or Resource Timing shows fewer bytes on
//!   the wire than decoded (warning when buffered or collected, else info).
//! - `cached_replay` (warning): `Age` above 0, `X-Cache` / `X-Cache-Status` containing HIT,
//!   `CF-Cache-Status: HIT`, `X-Varnish` with two ids, or a chunk's `created` more than
//!   [`REPLAY_AGE_S`] (10 minutes) before the run started (needs the trace's wall-clock start).
//! - `slow_first_token` (warning; info when hidden reasoning explains it): the stream is `streaming`, the
//!   first output (answer or reasoning) took over [`SLOW_FIRST_TOKEN_MS`] (1 s) and over
//!   [`SLOW_FIRST_TOKEN_FACTOR`] (20) times the mean gap between the content events that followed.
//! - `slow_generation` (warning): the stream is `streaming`, and after the first token the server's own
//!   count of at least [`SLOW_GENERATION_MIN_TOKENS`] (20) tokens came at under [`SLOW_TOKENS_PER_S`]
//!   (10) a second: the answer feels slow because the server generates it slowly, not because of the
//!   path (a count of content events is not enough: an event can hold several tokens).
//! - `text_in_steps` (info): the stream is `streaming`, but its content came on a regular clock of at
//!   least [`STEP_PERIOD_MIN_MS`] (80 ms), several events at a time: the release cadence's own minimums
//!   ([`crate::verdict::steady_release_period_ms`]: 6 releases, 60% of the intervals regular,
//!   2.5 events each), which the `buffered` rules leave to `streaming`:
//!   a period under their 150 ms, or an engine that wrote each step at once (in steps too small for the
//!   bursts signal). The user sees the text advance in steps; the server's timestamps, when the stream
//!   has them, say whether the engine batched or something on the way forwarded on a timer.

use super::rules::Rule;
use super::{Finding, FindingCode, RunFacts, Severity};
use crate::dialect::content_filter::FilterMode;
use crate::i18n::keys::PathKey as K;
use crate::i18n::{Lang, Text};
use crate::text::ms as fmt_ms;
use crate::verdict::{
    buffered_signals, held_start, server_wrote_releases_together, steady_release_period_ms, BufferedSignal, Verdict,
};
use crate::wire::Framing;
use crate::fixed::fixed;
use crate::measure::TokenCountSource;

/// How close (ms) headers and the first body byte must be to count as arriving together. `fetch()`
/// resolving and the first read are two promise turns apart, and the browser hands the body over through
/// its own pipe after the headers: a relay writing headers and the first event in one TCP segment was
/// measured 0.5 to 3.6 ms apart on a loaded 2-core machine (3 ms, the old value, missed it). A server
/// whose headers come 100 ms or more into the run and its body within 10 ms of them held the headers
/// for the body either way.
pub const HEADERS_WITH_BODY_MS: f64 = 10.0;

/// Headers this late (ms), together with the first body byte, are worth a word even when the stream
/// then flowed.
pub const HEADERS_HELD_INFO_MS: f64 = 100.0;

/// A chunk `created` this many seconds before the run started is a replay.
pub const REPLAY_AGE_S: f64 = 600.0;

/// The first output must take longer than this (ms) to be called slow.
pub const SLOW_FIRST_TOKEN_MS: f64 = 1000.0;

/// The first output must also take this many times the mean gap between later content events.
pub const SLOW_FIRST_TOKEN_FACTOR: f64 = 20.0;

/// The output pace (tokens a second after the first) under which generation is called slow: people read
/// about 5 tokens a second (some 240 words a minute); under 10, a reader who skims catches up with the
/// text and waits for it.
pub const SLOW_TOKENS_PER_S: f64 = 10.0;

/// The fewest tokens, as the server counted them, whose pace `slow_generation` judges: a short answer is
/// over before its pace matters.
pub const SLOW_GENERATION_MIN_TOKENS: u64 = 20;

/// Steps of text this far apart (ms) or more are worth a word: from about 12 steps a second down, a
/// reader sees the text jump rather than flow (a token every 20 ms released 4 at a time every 80 ms).
pub const STEP_PERIOD_MIN_MS: f64 = 80.0;

/// Whether content was held on the way (the verdict is buffered or collected).
fn held(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Buffered | Verdict::Collected)
}

/// A time for a sentence, or the catalogue's word for a missing figure.
pub(super) fn ms_or_na(value: Option<f64>) -> Text {
    value.map_or_else(|| Text::msg(K::NotAvailable), |t| fmt_ms(t).into())
}

/// The `bursts` finding, when the verdict is buffered.
pub fn bursts(run: &RunFacts) -> Option<Finding> {
    let RunFacts { analysis, metrics, delivery, verdict, .. } = *run;
    if verdict != Verdict::Buffered {
        return None;
    }
    let fired = buffered_signals(metrics, delivery, analysis.framing);
    let signals: Vec<&str> = fired.iter().map(|s| s.as_str()).collect();
    let share = delivery.burst_event_share.unwrap_or(0.0);
    let cadence = &delivery.release_cadence;
    let timer = fired.contains(&BufferedSignal::ReleaseCadence);
    let filter = analysis.filter_marks.seen(analysis.content_event_count).filter(|f| f.mode == FilterMode::Batched);
    let mut detail = Text::empty();
    if let Some(f) = filter {
        detail = detail.then(
            Text::msg(K::BurstsContentFilter)
                .count("vetted", f.vetted_content_events)
                .count("events", metrics.content_events),
        );
    }
    if timer {
        detail = detail.then(
            Text::msg(K::BurstsTimer)
                .count("releases", cadence.releases)
                .with("period", ms_or_na(cadence.period_p50_ms))
                .with("regular", fixed(cadence.regular_share.unwrap_or(0.0) * 100.0, 0))
                .with("per_release", fixed(cadence.events_per_release_mean.unwrap_or(0.0), 1)),
        );
    }
    if delivery.burst_count > 0 {
        let gap = delivery
            .typical_gap_ms
            .map_or_else(Text::empty, |gap| Text::msg(K::BurstsGap).with("gap", fmt_ms(gap)));
        detail = detail.then(
            Text::msg(K::BurstsCount)
                .count("events", metrics.content_events)
                .count("bursts", delivery.burst_count)
                .with("mean", fixed(delivery.events_per_burst_mean.unwrap_or(0.0), 1))
                .with("gap", gap)
                .with("share", fixed(share * 100.0, 0))
                .count("max", delivery.content_events_per_read_max),
        );
    }
    let sizes = &delivery.read_sizes;
    if let Some(size) = sizes.buffer_len_bytes {
        detail = detail
            .then(Text::msg(K::BurstsBufferSized).count("n", sizes.buffer_sized_reads).with("size", size.to_string()));
    } else if let Some(size) = sizes.common_len_bytes {
        detail =
            detail.then(Text::msg(K::BurstsCommonSize).count("n", sizes.common_reads).with("size", size.to_string()));
    }
    let start = fired.contains(&BufferedSignal::HeldStart).then(|| held_start(metrics, delivery)).flatten();
    if let Some(h) = start {
        detail = detail.then(
            Text::msg(K::BurstsHeldStart)
                .with("at", fmt_ms(h.at_ms))
                .with("events", h.events.to_string())
                .with("pace", fmt_ms(h.pace_ms))
                .with("held", fmt_ms(h.held_ms)),
        );
    }
    if let Some(h) = delivery.hold_ms {
        detail = detail.then(
            Text::msg(K::BurstsHold).with("max", fmt_ms(h.max)).with("median", fmt_ms(h.p50)).with("high", fmt_ms(h.p90)),
        );
    }
    detail = detail.then(Text::msg(K::BurstsEnd).with("ttft", ms_or_na(metrics.ttft_ms)));
    Some(
        Finding::new(FindingCode::Bursts, Severity::Warning, Text::msg(K::BurstsTitle), detail)
            .fix(Text::msg(match (filter, timer) {
                (Some(_), _) => K::BurstsFixContentFilter,
                (None, true) => K::BurstsFixTimer,
                (None, false) => K::BurstsFix,
            }))
            .evidence(json_object!({
                "signals": signals,
                // Only a batched filter reaches here (`filter`).
                "content_filter": filter.map(|_| "batched"),
                "burst_count": delivery.burst_count,
                "events_per_burst_mean": delivery.events_per_burst_mean,
                "typical_gap_ms": delivery.typical_gap_ms,
                "burst_event_share": delivery.burst_event_share,
                "content_events_per_read_max": delivery.content_events_per_read_max,
                "buffer_len_bytes": sizes.buffer_len_bytes,
                "buffer_sized_reads": sizes.buffer_sized_reads,
                "common_len_bytes": sizes.common_len_bytes,
                "common_reads": sizes.common_reads,
                "hold_p50_ms": delivery.hold_ms.map(|h| h.p50),
                "hold_p90_ms": delivery.hold_ms.map(|h| h.p90),
                "hold_max_ms": delivery.hold_ms.map(|h| h.max),
                "ttft_ms": metrics.ttft_ms,
                "release_period_ms": cadence.period_p50_ms,
                "release_regular_share": cadence.regular_share,
                "events_per_release_mean": cadence.events_per_release_mean,
                "releases": cadence.releases,
                "held_start_ms": start.map(|h| h.held_ms),
                "held_start_pace_ms": start.map(|h| h.pace_ms),
            })),
    )
}

/// The `headers_held` finding (see the module docs for when it adds evidence).
pub fn headers_held(run: &RunFacts) -> Option<Finding> {
    let RunFacts { trace, metrics, verdict, .. } = *run;
    let (headers, ttfb) = trace.headers_ms.zip(metrics.ttfb_ms)?;
    let together = (ttfb - headers).abs() <= HEADERS_WITH_BODY_MS;
    if !together || verdict == Verdict::Failed || !(held(verdict) || headers >= HEADERS_HELD_INFO_MS) {
        return None;
    }
    let evidence = json_object!({"headers_ms": headers, "ttfb_ms": ttfb, "ttft_ms": metrics.ttft_ms,
        "verdict": verdict});
    let (severity, title, detail, fix) = if held(verdict) {
        (Severity::Warning, K::HeldTitle, K::HeldDetail, K::HeldFix)
    } else {
        (Severity::Info, K::HeadersLateTitle, K::HeadersLateDetail, K::HeadersLateFix)
    };
    Some(
        Finding::new(
            FindingCode::HeadersHeld,
            severity,
            Text::msg(title),
            Text::msg(detail).with("headers", fmt_ms(headers)).with("ttfb", fmt_ms(ttfb)),
        )
        .fix(Text::msg(fix))
        .evidence(evidence),
    )
}

/// The `content_length` finding: an event stream with a `Content-Length`.
pub fn content_length(run: &RunFacts) -> Option<Finding> {
    let RunFacts { trace, analysis, verdict, .. } = *run;
    let framing = analysis
        .framing
        .filter(|f| matches!(f, Framing::Sse | Framing::Ndjson))?;
    let value = trace.header("content-length")?;
    let length: Option<u64> = value.trim().parse().ok();
    let what = Text::msg(if framing == Framing::Sse { K::ClSse } else { K::ClNdjson });
    let (severity, title, detail) = if held(verdict) {
        (Severity::Warning, K::ClHeldTitle, K::ClHeldDetail)
    } else {
        (Severity::Info, K::ClTitle, K::ClDetail)
    };
    Some(
        Finding::new(
            FindingCode::ContentLength,
            severity,
            Text::msg(title),
            Text::msg(detail).with("what", what).with("value", value),
        )
        .fix(Text::msg(K::ClFix))
        .evidence(json_object!({"content_length": length, "header": value, "framing": framing, "verdict": verdict})),
    )
}

/// The `compressed` finding: Content-Encoding, or fewer bytes on the wire than decoded.
pub fn compressed(run: &RunFacts) -> Option<Finding> {
    let RunFacts { trace, verdict, .. } = *run;
    let encoding = trace
        .header("content-encoding")
        .map(str::trim)
        .filter(|e| !e.is_empty() && !e.eq_ignore_ascii_case("identity"));
    let conn = trace.connection.as_ref();
    let encoded = conn.and_then(|c| c.encoded_body_bytes).filter(|&b| b > 0);
    let decoded = conn.and_then(|c| c.decoded_body_bytes).filter(|&b| b > 0);
    let smaller = encoded.zip(decoded).is_some_and(|(e, d)| e < d);
    if encoding.is_none() && !smaller {
        return None;
    }
    let sizes = |key: K, (en, de): (u64, u64)| Text::msg(key).with("encoded", en.to_string()).with("decoded", de.to_string());
    let how = match (encoding, encoded.zip(decoded).filter(|_| smaller)) {
        (Some(e), Some(wire)) => sizes(K::CompressedHowBoth, wire).with("encoding", e),
        (Some(e), None) => Text::msg(K::CompressedHowHeader).with("encoding", e),
        (None, Some(wire)) => sizes(K::CompressedHowSizes, wire),
        (None, None) => Text::empty(),
    };
    let evidence = json_object!({"content_encoding": encoding, "encoded_body_bytes": encoded,
        "decoded_body_bytes": decoded, "verdict": verdict});
    let f = if held(verdict) {
        let was = Text::msg(if verdict == Verdict::Buffered { K::CompressedWasBuffered } else { K::CompressedWasCollected });
        Finding::new(
            FindingCode::Compressed,
            Severity::Warning,
            Text::msg(K::CompressedHeldTitle),
            Text::msg(K::CompressedHeldDetail).with("how", how).with("held", was),
        )
        .fix(Text::msg(K::CompressedHeldFix))
    } else {
        Finding::new(
            FindingCode::Compressed,
            Severity::Info,
            Text::msg(K::CompressedTitle),
            Text::msg(K::CompressedDetail).with("how", how),
        )
    };
    Some(f.evidence(evidence))
}

/// A response header as a sign of a cache: `x-cache: HIT`.
fn header_sign(name: &str, value: impl Into<Text>) -> Text {
    Text::msg(K::HeaderSign).with("name", name).with("value", value)
}

/// The `cached_replay` finding: cache headers, or chunks created long before the run.
pub fn cached_replay(run: &RunFacts) -> Option<Finding> {
    let RunFacts { trace, analysis, .. } = *run;
    let mut signs: Vec<Text> = Vec::new();
    // Said as the server sent it: no float written back.
    if let Some(age) = trace.header("age").map(str::trim).filter(|a| crate::decimal::parse_decimal(a).is_some_and(|a| a > 0.0)) {
        signs.push(header_sign("Age", age.to_string()));
    }
    for name in ["x-cache", "x-cache-status"] {
        if let Some(v) = trace
            .header(name)
            .filter(|v| v.to_ascii_uppercase().contains("HIT"))
        {
            signs.push(header_sign(name, v));
        }
    }
    if let Some(v) = trace
        .header("cf-cache-status")
        .filter(|v| v.trim().eq_ignore_ascii_case("HIT"))
    {
        signs.push(header_sign("cf-cache-status", v));
    }
    if let Some(v) = trace.header("x-varnish") {
        let ids = v
            .split_whitespace()
            .filter(|t| t.chars().all(|c| c.is_ascii_digit()))
            .count();
        if ids >= 2 {
            signs.push(header_sign("x-varnish", v));
        }
    }
    let created_age_s = analysis
        .created_unix_s
        .zip(trace.started_unix_ms)
        .map(|(created, started)| started / 1000.0 - created);
    if let Some(age) = created_age_s.filter(|&a| a > REPLAY_AGE_S) {
        signs.push(Text::msg(K::CreatedBefore).with("age", fmt_ms(age * 1000.0)));
    }
    if signs.is_empty() {
        return None;
    }
    // The evidence lists the signs as the English sentence says them (the contract's words).
    let sign_words: Vec<String> = signs.iter().map(|s| s.render(Lang::En)).collect();
    Some(
        Finding::new(
            FindingCode::CachedReplay,
            Severity::Warning,
            Text::msg(K::CachedTitle),
            Text::msg(K::CachedDetail).with("signs", Text::join(signs, Text::msg(K::ListSep))),
        )
        .fix(Text::msg(K::CachedFix))
        .evidence(json_object!({"signs": sign_words, "age": trace.header("age"), "x_cache": trace.header("x-cache"),
            "cf_cache_status": trace.header("cf-cache-status"), "x_varnish": trace.header("x-varnish"),
            "created_unix_s": analysis.created_unix_s, "started_unix_ms": trace.started_unix_ms,
            "created_age_s": created_age_s})),
    )
}

/// The `slow_first_token` finding: a long wait for the first output, then a normal stream.
pub fn slow_first_token(run: &RunFacts) -> Option<Finding> {
    let RunFacts { trace, analysis, metrics, verdict, .. } = *run;
    if verdict != Verdict::Streaming || metrics.content_events < 2 {
        return None;
    }
    let ttft = metrics.ttft_ms?;
    let first = metrics.reasoning_ttft_ms.map_or(ttft, |r| r.min(ttft));
    let itl_mean = metrics.itl_ms?.mean;
    if first <= SLOW_FIRST_TOKEN_MS || first <= SLOW_FIRST_TOKEN_FACTOR * itl_mean {
        return None;
    }
    let hidden_reasoning = analysis.reasoning_text.is_empty()
        && analysis
            .usage
            .as_ref()
            .and_then(|u| u.reasoning_tokens)
            .is_some_and(|n| n > 0);
    let (severity, note) = if hidden_reasoning {
        (Severity::Info, Text::msg(K::SlowHiddenReasoning))
    } else {
        (Severity::Warning, Text::empty())
    };
    let what = Text::msg(if first < ttft { K::SlowFirstReasoning } else { K::SlowFirstToken });
    Some(
        Finding::new(
            FindingCode::SlowFirstToken,
            severity,
            Text::msg(K::SlowTitle),
            Text::msg(K::SlowDetail)
                .with("what", what)
                .with("first", fmt_ms(first))
                .with("headers", ms_or_na(trace.headers_ms))
                .with("ttfb", ms_or_na(metrics.ttfb_ms))
                .with("itl", fmt_ms(itl_mean))
                .with("note", note),
        )
        .fix(Text::msg(K::SlowFix))
        .evidence(json_object!({"first_output_ms": first, "ttft_ms": ttft, "headers_ms": trace.headers_ms,
            "ttfb_ms": metrics.ttfb_ms, "itl_mean_ms": itl_mean, "hidden_reasoning": hidden_reasoning})),
    )
}

/// The `slow_generation` finding: a streaming run whose tokens (the server's count) came slowly.
pub fn slow_generation(run: &RunFacts) -> Option<Finding> {
    let RunFacts { metrics, verdict, .. } = *run;
    let counted = matches!(metrics.tpot_n_source, Some(TokenCountSource::Usage | TokenCountSource::UsageWithReasoning));
    let (rate, tpot, n) = (metrics.output_tokens_per_s?, metrics.tpot_ms?, metrics.tpot_n?);
    if verdict != Verdict::Streaming || !counted || n < SLOW_GENERATION_MIN_TOKENS || rate >= SLOW_TOKENS_PER_S {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::SlowGeneration,
            Severity::Warning,
            Text::msg(K::SlowGenerationTitle),
            Text::msg(K::SlowGenerationDetail)
                .count("n", n as usize)
                .with("rate", fixed(rate, 1))
                .with("tpot", fmt_ms(tpot)),
        )
        .fix(Text::msg(K::SlowGenerationFix))
        .evidence(json_object!({"output_tokens_per_s": rate, "tpot_ms": tpot, "tokens": n})),
    )
}

/// The `text_in_steps` finding: a streaming run whose content came several events at a time on a
/// regular clock (see the module docs).
pub fn text_in_steps(run: &RunFacts) -> Option<Finding> {
    let RunFacts { delivery, verdict, .. } = *run;
    if verdict != Verdict::Streaming {
        return None;
    }
    let c = &delivery.release_cadence;
    let period = steady_release_period_ms(c, STEP_PERIOD_MIN_MS)?;
    let (regular, per_release) = (c.regular_share?, c.events_per_release_mean?);
    let (cause, fix) = match (server_wrote_releases_together(c, period), c.server_spread_p50_ms) {
        (Some(true), _) => (Text::msg(K::StepsEngine), K::StepsFix),
        (Some(false), Some(spread)) => (Text::msg(K::StepsPath).with("spread", fmt_ms(spread)), K::BurstsFixTimer),
        _ => (Text::msg(K::StepsEither), K::StepsFix),
    };
    Some(
        Finding::new(
            FindingCode::TextInSteps,
            Severity::Info,
            Text::msg(K::StepsTitle),
            Text::msg(K::StepsDetail)
                .with("per_release", fixed(per_release, 1))
                .with("period", fmt_ms(period))
                .with("regular", fixed(regular * 100.0, 0))
                .count("releases", c.releases)
                .with("cause", cause),
        )
        .fix(Text::msg(fix))
        .evidence(json_object!({"releases": c.releases, "period_p50_ms": period, "regular_share": regular,
            "events_per_release_mean": per_release, "server_spread_p50_ms": c.server_spread_p50_ms})),
    )
}

/// The path rules, in report order.
pub const PATH_RULES: [Rule; 8] =
    [bursts, headers_held, content_length, compressed, cached_replay, slow_first_token, slow_generation, text_in_steps];

/// Every path finding that applies, in the order of the module docs (none for an HTTP error). For one
/// JSON answer (a request that did not ask to stream: [`crate::verdict::is_one_json_answer`]) its held
/// headers, its `Content-Length` and its compression are what such an answer always has, not what held
/// it back: only a cache replay is said.
pub fn path_findings(run: &RunFacts) -> Vec<Finding> {
    if run.http_failed {
        return Vec::new();
    }
    if crate::verdict::is_one_json_answer(run.analysis, run.metrics) {
        return cached_replay(run).into_iter().collect();
    }
    PATH_RULES.iter().filter_map(|rule| rule(run)).collect()
}

/// The codes of `findings` that point to why an answer was collected, for the `collected` finding.
pub fn collected_causes(findings: &[Finding]) -> Vec<FindingCode> {
    findings
        .iter()
        .map(|f| f.code.clone())
        .filter(|c| {
            matches!(
                c,
                FindingCode::ContentLength | FindingCode::Compressed | FindingCode::CachedReplay | FindingCode::HeadersHeld
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use super::*;
    use crate::analysis::analyze;
    use crate::measure::{DeliveryStats, Metrics};
    use crate::trace::{ConnectionTiming, Trace, TraceEnd};

    fn content(text: &str) -> String {
        format!("data: {{\"created\":1700000000,\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn done() -> String {
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n".into()
    }

    fn sse(headers_ms: f64, reads: Vec<(f64, String)>) -> Trace {
        let end = reads.last().map_or(0.0, |r| r.0) + 1.0;
        Trace::from_reads(
            200,
            "text/event-stream",
            headers_ms,
            reads,
            TraceEnd::Complete { at_ms: end },
        )
    }

    /// 40 tokens, one per read, 20 ms apart from 300 ms; headers at 10 ms.
    fn streamed() -> Trace {
        let mut reads: Vec<(f64, String)> = (0..40)
            .map(|i| (300.0 + 20.0 * i as f64, content("t")))
            .collect();
        reads.push((1100.0, done()));
        sse(10.0, reads)
    }

    /// 30 tokens in one read at 2.5 s, headers with them.
    fn collected() -> Trace {
        let all: String = (0..30).map(|_| content("t")).collect::<String>() + &done();
        sse(2499.5, vec![(2500.0, all)])
    }

    /// 6 bursts of 20 tokens, 400 ms apart; headers at 10 ms.
    fn buffered() -> Trace {
        let burst: String = (0..20).map(|_| content("t")).collect();
        let mut reads: Vec<(f64, String)> = (0..6)
            .map(|i| (700.0 + 400.0 * i as f64, burst.clone()))
            .collect();
        reads.push((2701.0, done()));
        sse(10.0, reads)
    }

    fn with_header(mut t: Trace, name: &str, value: &str) -> Trace {
        t.headers.push((name.into(), value.into()));
        t
    }

    /// The verdict and findings of a trace (what its report would say).
    struct Said {
        verdict: Verdict,
        findings: Vec<Finding>,
    }

    fn report(t: &Trace) -> Said {
        let a = analyze(t);
        let m = Metrics::derive(t, &a);
        let d = DeliveryStats::derive(t, &a);
        let verdict = crate::verdict::classify_with(t, &a, &m, &d);
        Said { verdict, findings: crate::findings::diagnose_with(t, &a, &m, &d, verdict) }
    }

    fn find(t: &Trace, code: FindingCode) -> Option<Finding> {
        report(t).findings.into_iter().find(|f| f.code == code)
    }

    #[test]
    fn the_three_fixtures_have_their_verdicts() {
        assert_eq!(report(&streamed()).verdict, Verdict::Streaming);
        assert_eq!(report(&collected()).verdict, Verdict::Collected);
        assert_eq!(report(&buffered()).verdict, Verdict::Buffered);
    }

    /// 80 ms tokens from 300 ms, forwarded at every multiple of 250 ms: 3 or 4 per read.
    fn timer_relay() -> Trace {
        let mut reads = Vec::new();
        for k in 2..15 {
            let at = 250.0 * k as f64;
            let n = (0..40).filter(|i| {
                let made = 300.0 + 80.0 * *i as f64;
                made < at && made >= at - 250.0
            });
            let body: String = n.map(|_| content("t")).collect();
            if !body.is_empty() {
                reads.push((at, body));
            }
        }
        reads.push((3501.0, done()));
        sse(10.0, reads)
    }

    #[test]
    fn bursts_finding_for_a_timer_relay_names_the_clock_and_the_flush_interval() {
        let t = timer_relay();
        assert_eq!(report(&t).verdict, Verdict::Buffered);
        let f = find(&t, FindingCode::Bursts).expect("bursts");
        assert_eq!(f.evidence["signals"], json!(["release_cadence"]));
        assert_eq!(f.evidence["release_period_ms"], 250.0);
        assert!(f.detail.contains("one every 250 ms"), "{}", f.detail);
        assert!(f.fix.unwrap().contains("flushInterval"));
    }

    #[test]
    fn bursts_finding_for_a_held_start_says_how_long_the_first_events_waited() {
        // 21 tokens at once at 500 ms, the last 9 at 590 ms: a short answer whose start was held.
        let burst = |n: usize| (0..n).map(|_| content("t")).collect::<String>();
        let t = sse(10.0, vec![(500.0, burst(21)), (590.0, burst(9) + &done())]);
        assert_eq!(report(&t).verdict, Verdict::Buffered);
        let f = find(&t, FindingCode::Bursts).expect("bursts");
        assert_eq!(f.evidence["signals"], json!(["held_start"]));
        assert_eq!(f.evidence["held_start_ms"], 200.0);
        assert_eq!(f.evidence["held_start_pace_ms"], 10.0);
        assert!(
            f.detail.contains("500 ms, 21 events in one delivery") && f.detail.contains("had waited at least 200 ms"),
            "{}",
            f.detail
        );
        assert!(find(&buffered(), FindingCode::Bursts).unwrap().evidence["held_start_ms"].is_null());
    }

    #[test]
    fn bursts_finding_carries_the_delivery_evidence() {
        let f = find(&buffered(), FindingCode::Bursts).unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(f.evidence["burst_count"], 6);
        assert_eq!(f.evidence["events_per_burst_mean"], 20.0);
        assert_eq!(f.evidence["typical_gap_ms"], 400.0);
        assert_eq!(f.evidence["burst_event_share"], 1.0);
        assert_eq!(f.evidence["signals"], json!(["bursts"]));
        assert_eq!(f.evidence["release_period_ms"], 400.0);
        assert!(f.evidence["hold_p90_ms"].is_null());
        assert!(
            f.detail
                .contains("120 content events arrived in 6 bursts of 20.0 events"),
            "{}",
            f.detail
        );
        assert!(f.detail.contains("400 ms of silence"), "{}", f.detail);
        let fix = f.fix.unwrap();
        assert!(
            fix.contains("proxy_buffering off;") && fix.contains("X-Accel-Buffering: no"),
            "{fix}"
        );
        assert!(find(&streamed(), FindingCode::Bursts).is_none());
    }

    #[test]
    fn bursts_of_text_vetted_by_azure_s_content_filter_name_the_filter_not_a_proxy() {
        // Azure OpenAI's default streaming: the prompt's verdicts first, then text released in batches,
        // every chunk carrying its batch's verdicts.
        let vetted = |text: &str| {
            format!("data: {{\"choices\":[{{\"content_filter_results\":{{\"hate\":{{\"filtered\":false,\"severity\":\"safe\"}}}},\"delta\":{{\"content\":\"{text}\"}},\"index\":0}}]}}\n\n")
        };
        let prompt = "data: {\"choices\":[],\"prompt_filter_results\":[{\"prompt_index\":0}]}\n\n".to_string();
        let burst: String = (0..20).map(|_| vetted("t")).collect();
        let mut reads: Vec<(f64, String)> = vec![(300.0, prompt)];
        reads.extend((0..6).map(|i| (700.0 + 400.0 * i as f64, burst.clone())));
        reads.push((2701.0, done()));
        let t = sse(10.0, reads);
        assert_eq!(report(&t).verdict, Verdict::Buffered);
        let f = fires(bursts, t);
        let zh = f.localize(Lang::ZhCn);
        assert!(zh.detail.starts_with("120 个内容事件中有 120 个带着 Azure OpenAI 内容过滤器的判定"), "{}", zh.detail);
        assert!(zh.fix.unwrap().contains("Asynchronous Filter"));
        assert_eq!(f.evidence["content_filter"], "batched");
        assert!(f.detail.starts_with("120 of the 120 content events carry Azure OpenAI's content filter verdicts"), "{}", f.detail);
        assert!(f.detail.contains("120 content events arrived in 6 bursts of 20.0 events"), "{}", f.detail);
        let fix = f.fix.unwrap();
        assert!(fix.contains("Asynchronous Filter") && !fix.contains("proxy_buffering"), "{fix}");
        // Without the verdicts, the same bursts are a proxy's to look for.
        let plain = find(&buffered(), FindingCode::Bursts).unwrap();
        assert!(plain.evidence["content_filter"].is_null());
        assert!(!plain.detail.contains("Azure"), "{}", plain.detail);
    }

    #[test]
    fn compressed_stream_that_was_held_is_a_warning_with_the_gzip_fix() {
        let f = find(
            &with_header(collected(), "content-encoding", "gzip"),
            FindingCode::Compressed,
        )
        .unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(f.evidence["content_encoding"], "gzip");
        assert!(f.fix.unwrap().contains("gzip_types"));
        let f = find(
            &with_header(buffered(), "content-encoding", "br"),
            FindingCode::Compressed,
        )
        .unwrap();
        assert_eq!(f.severity, Severity::Warning);
    }

    #[test]
    fn compressed_stream_that_still_streamed_is_info() {
        let f = find(
            &with_header(streamed(), "content-encoding", "gzip"),
            FindingCode::Compressed,
        )
        .unwrap();
        assert_eq!((f.severity, f.fix), (Severity::Info, None));
        assert!(find(
            &with_header(streamed(), "content-encoding", "identity"),
            FindingCode::Compressed
        )
        .is_none());
    }

    #[test]
    fn compression_seen_by_resource_timing_alone() {
        let mut t = collected();
        t.connection = Some(ConnectionTiming {
            encoded_body_bytes: Some(900),
            decoded_body_bytes: Some(4000),
            ..ConnectionTiming::default()
        });
        let f = find(&t, FindingCode::Compressed).unwrap();
        assert_eq!(
            (
                f.evidence["encoded_body_bytes"].as_u64(),
                f.evidence["decoded_body_bytes"].as_u64()
            ),
            (Some(900), Some(4000))
        );
        assert!(
            f.detail.contains("900 bytes on the wire for 4000 decoded"),
            "{}",
            f.detail
        );
    }

    #[test]
    fn resource_timing_without_timing_allow_origin_is_not_compression() {
        let mut t = streamed();
        t.connection = Some(ConnectionTiming {
            encoded_body_bytes: Some(0),
            decoded_body_bytes: Some(0),
            ..ConnectionTiming::default()
        });
        assert!(find(&t, FindingCode::Compressed).is_none());
    }

    #[test]
    fn content_length_on_a_collected_event_stream() {
        let f = find(
            &with_header(collected(), "content-length", "5120"),
            FindingCode::ContentLength,
        )
        .unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(f.evidence["content_length"], 5120);
        assert!(f.detail.contains("Content-Length: 5120"), "{}", f.detail);
        assert!(f.fix.unwrap().contains("chunked"));
        let f = find(
            &with_header(streamed(), "content-length", "5120"),
            FindingCode::ContentLength,
        )
        .unwrap();
        assert_eq!(f.severity, Severity::Info);
    }

    #[test]
    fn content_length_on_raw_text_is_not_reported() {
        let t = Trace::from_reads(
            200,
            "text/plain",
            5.0,
            vec![(10.0, "hello")],
            TraceEnd::Complete { at_ms: 11.0 },
        );
        assert!(find(&with_header(t, "content-length", "5"), FindingCode::ContentLength).is_none());
    }

    #[test]
    fn collected_finding_names_causes_and_points_to_the_evidence() {
        let t = with_header(
            with_header(collected(), "content-length", "5120"),
            "content-encoding",
            "gzip",
        );
        let f = find(&t, FindingCode::Collected).unwrap();
        for words in [
            "collects the model's answer",
            "proxy buffering",
            "compression",
            "cache",
        ] {
            assert!(f.detail.contains(words), "{words}: {}", f.detail);
        }
        assert!(
            f.detail.contains("(content_length)") && f.detail.contains("(compressed)"),
            "{}",
            f.detail
        );
        assert_eq!(
            f.evidence["see"],
            json!(["headers_held", "content_length", "compressed"])
        );
    }

    #[test]
    fn cache_headers_mean_a_replay() {
        for (name, value) in [
            ("age", "300"),
            ("x-cache", "Hit from cloudfront"),
            ("x-cache-status", "HIT"),
            ("cf-cache-status", "HIT"),
            ("x-varnish", "32770 32768"),
        ] {
            let f = find(&with_header(streamed(), name, value), FindingCode::CachedReplay)
                .unwrap_or_else(|| panic!("{name}: {value}"));
            assert_eq!(f.severity, Severity::Warning);
            assert!(f.detail.contains(value), "{}", f.detail);
            assert!(f.fix.unwrap().contains("no-store"));
        }
    }

    #[test]
    fn cache_misses_are_not_a_replay() {
        for (name, value) in [
            ("age", "0"),
            ("x-cache", "MISS"),
            ("cf-cache-status", "DYNAMIC"),
            ("x-varnish", "32770"),
        ] {
            assert!(
                find(&with_header(streamed(), name, value), FindingCode::CachedReplay).is_none(),
                "{name}"
            );
        }
    }

    #[test]
    fn chunks_created_long_before_the_run_are_a_replay() {
        let mut t = streamed();
        t.started_unix_ms = Some(1_700_000_000_000.0 + 3_600_000.0);
        let f = find(&t, FindingCode::CachedReplay).unwrap();
        assert_eq!(f.evidence["created_age_s"], 3600.0);
        assert!(f.detail.contains("created"), "{}", f.detail);
        t.started_unix_ms = Some(1_700_000_000_000.0 + 5_000.0);
        assert!(find(&t, FindingCode::CachedReplay).is_none(), "5 s old is live");
        t.started_unix_ms = None;
        assert!(
            find(&t, FindingCode::CachedReplay).is_none(),
            "no wall clock, no comparison"
        );
    }

    #[test]
    fn headers_held_with_the_body_of_a_collected_answer() {
        let f = find(&collected(), FindingCode::HeadersHeld).unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(
            (
                f.evidence["headers_ms"].as_f64(),
                f.evidence["ttfb_ms"].as_f64()
            ),
            (Some(2499.5), Some(2500.0))
        );
    }

    /// Regression (issue 9): a proxy holding the headers until the first body byte made a stream whose
    /// server answered at once show headers at 300 ms with the first token, and nothing was said below 1 s.
    #[test]
    fn headers_held_until_the_first_token_at_300ms_are_info() {
        let mut t = streamed();
        t.headers_ms = Some(299.5);
        let f = find(&t, FindingCode::HeadersHeld).expect("headers_held");
        assert_eq!(f.severity, Severity::Info);
        assert_eq!(report(&t).verdict, Verdict::Streaming, "info only: the stream itself flowed");
        for words in ["compression", "buffers the response start", "time-outs"] {
            assert!(f.detail.contains(words), "{words}: {}", f.detail);
        }
        let fix = f.fix.expect("a fix");
        assert!(fix.contains("text/event-stream") && fix.contains("curl"), "{fix}");
    }

    /// Regression: through a relay that wrote headers and the first event in one segment, a loaded
    /// machine measured the headers 3.6 ms before the first byte, past the old 3 ms, and said nothing.
    #[test]
    fn headers_3_6ms_before_the_first_byte_still_came_with_it() {
        let mut reads: Vec<(f64, String)> = (0..10).map(|i| (310.1 + 20.0 * i as f64, content("t"))).collect();
        reads.push((520.0, done()));
        let f = find(&sse(306.5, reads), FindingCode::HeadersHeld).expect("headers_held");
        assert_eq!(f.severity, Severity::Info);
    }

    #[test]
    fn headers_with_an_early_first_event_or_apart_from_it_are_not_reported() {
        // Headers with a first event 60 ms in: below the threshold, costs nothing.
        let mut reads: Vec<(f64, String)> = (0..10).map(|i| (60.0 + 20.0 * i as f64, content("t"))).collect();
        reads.push((300.0, done()));
        assert!(find(&sse(59.5, reads), FindingCode::HeadersHeld).is_none());
        // Headers at once, first token at 300 ms: the response start was not held.
        assert!(find(&streamed(), FindingCode::HeadersHeld).is_none());
        // Buffered, but the headers came at once: the body was held, not the response start.
        assert!(find(&buffered(), FindingCode::HeadersHeld).is_none());
    }

    #[test]
    fn late_headers_with_the_first_byte_on_a_stream_are_info() {
        let mut reads: Vec<(f64, String)> = (0..10)
            .map(|i| (1500.0 + 20.0 * i as f64, content("t")))
            .collect();
        reads.push((1700.0, done()));
        let f = find(&sse(1499.0, reads), FindingCode::HeadersHeld).unwrap();
        assert_eq!(f.severity, Severity::Info);
    }

    /// 60 tokens made 20 ms apart from 300 ms, delivered in steps `period_ms` apart (see [`in_steps_of`]).
    fn in_steps(period_ms: f64, stamps: Option<bool>) -> Trace {
        in_steps_of(20.0, period_ms, stamps)
    }

    /// 60 tokens made `token_ms` apart from 300 ms, delivered in steps `period_ms` apart, each step
    /// holding the tokens made since the last; `stamps`: each event carries the server's time, the time
    /// it was made (`Some(false)`) or its step's time (`Some(true)`, an engine that writes a step at once).
    fn in_steps_of(token_ms: f64, period_ms: f64, stamps: Option<bool>) -> Trace {
        let event = |made: f64, at: f64| match stamps {
            None => content("t"),
            Some(together) => {
                let server_ms = if together { at } else { made };
                format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"t\"}}}}],\"server_ms\":{server_ms}}}\n\n")
            }
        };
        let mut reads = Vec::new();
        let mut k = 1.0;
        loop {
            let at = 300.0 + period_ms * k;
            let body: String = (0..60)
                .map(|i| 300.0 + token_ms * i as f64)
                .filter(|made| *made < at && *made >= at - period_ms)
                .map(|made| event(made, at))
                .collect();
            if body.is_empty() {
                break;
            }
            reads.push((at, body));
            k += 1.0;
        }
        let end = reads.last().map_or(0.0, |r| r.0) + 1.0;
        reads.push((end, done()));
        sse(10.0, reads)
    }

    #[test]
    fn text_in_steps_of_5_every_100_ms_is_info_and_says_both_causes_without_stamps() {
        let t = in_steps(100.0, None);
        assert_eq!(report(&t).verdict, Verdict::Streaming, "100 ms is below the buffered rule's 150 ms");
        let f = fires(text_in_steps, t);
        assert_eq!((f.code, f.severity), (FindingCode::TextInSteps, Severity::Info));
        assert_eq!(f.evidence["period_p50_ms"], 100.0);
        assert_eq!(f.evidence["events_per_release_mean"], 5.0);
        assert_eq!(f.evidence["regular_share"], 1.0);
        assert!(f.evidence["server_spread_p50_ms"].is_null());
        assert!(f.detail.contains("5.0 events at a time, one step every 100 ms"), "{}", f.detail);
        assert!(f.detail.contains("Either the model server batches"), "{}", f.detail);
        assert!(f.fix.unwrap().contains("--stream-interval"));
    }

    #[test]
    fn text_in_steps_names_the_path_when_the_stamps_were_written_one_by_one() {
        let f = fires(text_in_steps, in_steps(100.0, Some(false)));
        assert_eq!(f.evidence["server_spread_p50_ms"], 80.0);
        assert!(f.detail.contains("over 80.0 ms, one by one"), "{}", f.detail);
        assert!(f.fix.unwrap().contains("flushInterval"), "the timer relay's fix");
    }

    #[test]
    fn text_in_steps_names_the_engine_when_it_wrote_each_step_at_once() {
        let f = fires(text_in_steps, in_steps(100.0, Some(true)));
        assert_eq!(f.evidence["server_spread_p50_ms"], 0.0);
        assert!(f.detail.contains("wrote each step's events together"), "{}", f.detail);
        // An engine writing 3 tokens at once every 150 ms keeps the verdict `streaming` (the release
        // cadence rule leaves an engine's own batching alone; 3 events are too few for the bursts
        // signal), and this finding says what the reader sees.
        let t = in_steps_of(50.0, 150.0, Some(true));
        assert_eq!(report(&t).verdict, Verdict::Streaming);
        let f = find(&t, FindingCode::TextInSteps).expect("text_in_steps");
        assert_eq!(f.evidence["period_p50_ms"], 150.0);
    }

    #[test]
    fn text_in_steps_is_silent_below_80_ms_and_when_the_verdict_says_more() {
        // 3 tokens every 60 ms read as flowing text.
        assert_eq!(alone(text_in_steps, in_steps(60.0, None)), None);
        // A relay on a 250 ms clock is buffered: the bursts finding explains it.
        let t = in_steps(250.0, None);
        assert_eq!(report(&t).verdict, Verdict::Buffered);
        assert!(find(&t, FindingCode::TextInSteps).is_none());
        assert_eq!(alone(text_in_steps, buffered()), None);
    }

    #[test]
    fn slow_first_token_then_normal_cadence() {
        let mut reads: Vec<(f64, String)> = (0..30)
            .map(|i| (2000.0 + 20.0 * i as f64, content("t")))
            .collect();
        reads.push((2600.0, done()));
        let f = find(&sse(15.0, reads), FindingCode::SlowFirstToken).unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(
            (
                f.evidence["ttft_ms"].as_f64(),
                f.evidence["itl_mean_ms"].as_f64()
            ),
            (Some(2000.0), Some(20.0))
        );
        assert!(
            f.detail.contains("2.00 s") && f.detail.contains("20.0 ms"),
            "{}",
            f.detail
        );
        assert!(f.fix.unwrap().contains("queue"));
    }

    #[test]
    fn slow_first_token_needs_a_wait_far_above_the_cadence() {
        // 1.2 s to the first token of a 100 ms/token model: 12 gaps, not a separate problem.
        let reads: Vec<(f64, String)> = (0..10)
            .map(|i| (1200.0 + 100.0 * i as f64, content("t")))
            .collect();
        assert!(find(&sse(15.0, reads), FindingCode::SlowFirstToken).is_none());
        assert!(find(&streamed(), FindingCode::SlowFirstToken).is_none());
        assert!(
            find(&collected(), FindingCode::SlowFirstToken).is_none(),
            "collected is the path, not the model"
        );
    }

    #[test]
    fn hidden_reasoning_makes_a_slow_first_token_info() {
        let mut reads: Vec<(f64, String)> = (0..30)
            .map(|i| (3000.0 + 20.0 * i as f64, content("t")))
            .collect();
        reads.push((3700.0, "data: {\"choices\":[],\"usage\":{\"completion_tokens\":400,\"completion_tokens_details\":{\"reasoning_tokens\":370}}}\n\n".into()));
        let f = find(&sse(15.0, reads), FindingCode::SlowFirstToken).unwrap();
        assert_eq!(f.severity, Severity::Info);
        assert_eq!(f.evidence["hidden_reasoning"], true);
    }

    /// `n` tokens, one every `gap_ms` from 300 ms, then OpenAI's usage chunk counting them (unless
    /// `counted` is false) and the end.
    fn paced(n: usize, gap_ms: f64, counted: bool) -> Trace {
        let mut reads: Vec<(f64, String)> = (0..n).map(|i| (300.0 + gap_ms * i as f64, content("t"))).collect();
        let end = 300.0 + gap_ms * n as f64;
        if counted {
            reads.push((end, format!("data: {{\"choices\":[],\"usage\":{{\"completion_tokens\":{n}}}}}\n\n")));
        }
        reads.push((end + 1.0, done()));
        sse(10.0, reads)
    }

    #[test]
    fn slow_generation_says_the_time_went_to_generating_the_tokens() {
        // 30 tokens, one every 200 ms: 5 a second.
        let f = fires(slow_generation, paced(30, 200.0, true));
        assert_eq!((f.code, f.severity), (FindingCode::SlowGeneration, Severity::Warning));
        assert_eq!(f.evidence["tokens"], 30);
        assert!((f.evidence["output_tokens_per_s"].as_f64().unwrap() - 5.0).abs() < 1e-9, "{}", f.evidence);
        assert!(f.detail.contains("the 30 tokens the server counted came at 5.0 a second (one every 200 ms)"), "{}", f.detail);
        assert!(f.fix.as_ref().is_some_and(|fix| fix.contains("concurrency sweep")), "{:?}", f.fix);
        assert_eq!(report(&paced(30, 200.0, true)).verdict, Verdict::Streaming);
        // 20 a second, a stream without the server's count (an event can hold several tokens), a short
        // answer and a held one say nothing.
        assert_eq!(alone(slow_generation, paced(30, 50.0, true)), None);
        assert_eq!(alone(slow_generation, paced(30, 200.0, false)), None);
        assert_eq!(alone(slow_generation, paced(19, 200.0, true)), None);
        assert_eq!(alone(slow_generation, buffered()), None);
    }

    /// Calls one path rule alone on the facts of `t`.
    fn alone(rule: Rule, t: Trace) -> Option<Finding> {
        rule(&crate::findings::testkit::Facts::of(t).run())
    }

    /// Calls one path rule alone on `t` and expects a finding, every word of it from the catalogue and
    /// said in Chinese too.
    fn fires(rule: Rule, t: Trace) -> Finding {
        let f = alone(rule, t).expect("the rule should fire");
        crate::findings::testkit::assert_worded(&f);
        f
    }

    #[test]
    fn every_path_rule_is_silent_on_a_healthy_stream() {
        for (i, rule) in PATH_RULES.iter().enumerate() {
            assert_eq!(alone(*rule, streamed()), None, "rule {i}");
            assert_eq!(alone(*rule, crate::findings::testkit::healthy()), None, "rule {i}");
        }
    }

    #[test]
    fn bursts_alone_explains_a_buffered_verdict() {
        let f = fires(bursts, buffered());
        assert_eq!((f.code, f.severity), (FindingCode::Bursts, Severity::Warning));
        assert_eq!(f.evidence["burst_count"], 6);
        assert_eq!(f.evidence["content_events_per_read_max"], 20);
        assert_eq!(f.evidence["ttft_ms"], 700.0);
        assert_eq!(alone(bursts, collected()), None, "collected is explained by its own finding");
    }

    #[test]
    fn headers_held_alone_needs_held_content_or_late_headers() {
        let f = fires(headers_held, collected());
        assert_eq!((f.code, f.severity), (FindingCode::HeadersHeld, Severity::Warning));
        assert_eq!(f.evidence["verdict"], "collected");
        assert_eq!((f.evidence["headers_ms"].as_f64(), f.evidence["ttfb_ms"].as_f64()), (Some(2499.5), Some(2500.0)));
        let mut early = streamed();
        early.headers_ms = Some(80.0);
        early.reads[0].at_ms = 80.5;
        assert_eq!(alone(headers_held, early), None, "with a first byte at 80 ms: normal");
    }

    #[test]
    fn content_length_alone_on_an_event_stream() {
        let f = fires(content_length, with_header(collected(), "content-length", "5120"));
        assert_eq!((f.code, f.severity), (FindingCode::ContentLength, Severity::Warning));
        assert_eq!((f.evidence["content_length"].as_u64(), f.evidence["header"].as_str()), (Some(5120), Some("5120")));
        assert_eq!(f.evidence["framing"], "sse");
        let f = fires(content_length, with_header(streamed(), "content-length", "abc"));
        assert_eq!((f.severity, f.evidence["content_length"].is_null()), (Severity::Info, true));
    }

    #[test]
    fn compressed_alone_by_header_or_by_resource_timing() {
        let f = fires(compressed, with_header(buffered(), "content-encoding", "gzip"));
        assert_eq!((f.code, f.severity), (FindingCode::Compressed, Severity::Warning));
        assert_eq!((f.evidence["content_encoding"].as_str(), f.evidence["verdict"].as_str()), (Some("gzip"), Some("buffered")));
        let mut t = streamed();
        t.connection =
            Some(ConnectionTiming { encoded_body_bytes: Some(100), decoded_body_bytes: Some(400), ..ConnectionTiming::default() });
        let f = fires(compressed, t);
        assert_eq!(f.severity, Severity::Info);
        assert!(f.evidence["content_encoding"].is_null());
        assert_eq!(f.evidence["encoded_body_bytes"], 100);
    }

    #[test]
    fn cached_replay_alone_lists_every_sign() {
        let mut t = with_header(with_header(streamed(), "age", "30"), "x-cache", "HIT");
        t.started_unix_ms = Some(1_700_000_000_000.0 + 3_600_000.0);
        let f = fires(cached_replay, t);
        assert_eq!((f.code, f.severity), (FindingCode::CachedReplay, Severity::Warning));
        assert_eq!(f.evidence["signs"].as_array().map(Vec::len), Some(3), "{}", f.evidence);
        assert_eq!((f.evidence["age"].as_str(), f.evidence["created_age_s"].as_f64()), (Some("30"), Some(3600.0)));
    }

    #[test]
    fn slow_first_token_alone_compares_the_wait_with_the_cadence() {
        let mut reads: Vec<(f64, String)> = (0..30).map(|i| (2000.0 + 20.0 * i as f64, content("t"))).collect();
        reads.push((2600.0, done()));
        let f = fires(slow_first_token, sse(15.0, reads));
        assert_eq!((f.code, f.severity), (FindingCode::SlowFirstToken, Severity::Warning));
        assert_eq!((f.evidence["first_output_ms"].as_f64(), f.evidence["itl_mean_ms"].as_f64()), (Some(2000.0), Some(20.0)));
        assert_eq!(f.evidence["hidden_reasoning"], false);
        assert_eq!(alone(slow_first_token, collected()), None, "only a streaming verdict");
    }

    /// Every variant of every path finding says its words from the catalogue, in Chinese too: figures and
    /// header values read the same in both languages, and `cached_replay`'s evidence keeps its English
    /// signs whatever the language.
    #[test]
    fn every_path_finding_variant_is_said_in_both_languages() {
        let zh = |f: &Finding| f.localize(Lang::ZhCn);
        let f = fires(bursts, timer_relay());
        assert!(zh(&f).detail.starts_with("内容按固定节拍分 13 次送达，每 250 ms 一次"), "{}", zh(&f).detail);
        assert!(zh(&f).fix.unwrap().contains("flushInterval"));
        let f = fires(bursts, buffered());
        assert!(zh(&f).detail.starts_with("120 个内容事件分 6 批到达，平均每批 20.0 个事件，每批之前通常静默 400 ms"));
        let mut late = streamed();
        late.headers_ms = Some(299.5);
        let f = fires(headers_held, late);
        assert_eq!(f.severity, Severity::Info);
        assert!(zh(&f).fix.unwrap().contains("'%{time_starttransfer}'"), "doubled braces say one");

        let mut t = with_header(with_header(collected(), "content-encoding", "gzip"), "x-cache", "HIT");
        t.connection =
            Some(ConnectionTiming { encoded_body_bytes: Some(900), decoded_body_bytes: Some(4000), ..ConnectionTiming::default() });
        t.started_unix_ms = Some(1_700_000_000_000.0 + 3_600_000.0);
        let f = fires(compressed, t.clone());
        assert!(f.detail.contains("(Content-Encoding: gzip; 900 bytes on the wire for 4000 decoded)"), "{}", f.detail);
        assert!(zh(&f).detail.contains("（Content-Encoding 为 gzip；网络上传输 900 字节，解码后 4000 字节）"));
        assert!(zh(&f).detail.contains("被攒成一整块再发"), "{}", zh(&f).detail);
        let f = fires(cached_replay, t);
        let signs = json!(["x-cache: HIT", "the chunks were created 3600 s before the run"]);
        assert_eq!((&f.evidence["signs"], &zh(&f).evidence["signs"]), (&signs, &signs));
        assert!(zh(&f).detail.contains("（x-cache: HIT；分块的 created 时间比本次运行早 3600 s）"), "{}", zh(&f).detail);

        let lines: Vec<(f64, String)> =
            (0..20).map(|i| (300.0 + 20.0 * i as f64, format!("{{\"response\":\"t\",\"done\":{}}}\n", i == 19))).collect();
        let ndjson = Trace::from_reads(200, "application/x-ndjson", 10.0, lines, TraceEnd::Complete { at_ms: 800.0 });
        let f = fires(content_length, with_header(ndjson, "content-length", "999"));
        assert!(f.detail.starts_with("The JSON-lines stream came with Content-Length: 999:"), "{}", f.detail);
        assert!(zh(&f).detail.starts_with("JSON 行流带有 Content-Length: 999："), "{}", zh(&f).detail);

        let mut reads: Vec<(f64, String)> = (0..30).map(|i| (3000.0 + 20.0 * i as f64, content("t"))).collect();
        reads.push((3700.0, "data: {\"choices\":[],\"usage\":{\"completion_tokens\":400,\"completion_tokens_details\":{\"reasoning_tokens\":370}}}\n\n".into()));
        let mut t = sse(15.0, reads);
        t.headers_ms = None;
        let f = fires(slow_first_token, t);
        assert_eq!(f.severity, Severity::Info);
        assert!(f.detail.contains("(headers at n/a, first byte at 3.00 s)"), "{}", f.detail);
        assert!(zh(&f).detail.starts_with("第一个输出 token 在 3.00 s 才到达（响应头在 未知，首字节在 3.00 s）"), "{}", zh(&f).detail);
        assert!(zh(&f).detail.ends_with("这解释了一部分等待。"), "{}", zh(&f).detail);
    }

    #[test]
    fn http_errors_get_no_path_findings() {
        let t = Trace::from_reads(
            503,
            "text/plain",
            5.0,
            vec![(10.0, "down")],
            TraceEnd::Complete { at_ms: 11.0 },
        );
        let t = with_header(with_header(t, "age", "30"), "content-encoding", "gzip");
        let a = analyze(&t);
        let m = Metrics::derive(&t, &a);
        let d = DeliveryStats::derive(&t, &a);
        assert!(path_findings(&RunFacts::new(&t, &a, &m, &d, Verdict::Failed)).is_empty());
    }
}
