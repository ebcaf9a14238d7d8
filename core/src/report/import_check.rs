//! What an imported export's traces must satisfy before the page recomputes them: the facts this page
//! records could never break these rules, so a file that does was edited or damaged, and saying so
//! (with the JSON path of the first bad value) beats showing numbers derived from it.
//!
//! Decided per case:
//!
//! - **NaN and infinite times** cannot be written in JSON: `NaN`, `Infinity` and numbers too large for an
//!   f64 (`1e999`) are refused by the JSON parser, whose message gives the line and column.
//! - **Negative times** are rejected: every time (`headers_ms`, each read's `at_ms`, the end's `at_ms`, a
//!   time-out's `limit_ms`) counts ms since `fetch()` was called.
//! - **Absurd times** are rejected: above [`MAX_TIME_MS`] (10^10 ms, about 116 days) no run went on.
//! - **Reads out of time order** are rejected: the page stamps reads with a monotonic clock, in order.
//! - **Absurd sizes** are rejected: a read's `elided_bytes` above [`MAX_READ_BYTES`] (1 GiB; no browser
//!   hands over such a chunk). Sums of read lengths saturate anyway ([`crate::trace::ReadChunk::len_bytes`]).
//! - **Many reads** are accepted: 1,000,000 reads are checked and recomputed in linear time, in memory a
//!   small multiple of the file's size (the file is parsed straight into its types, never into a JSON
//!   tree).
//! - **Long model lists** are sanitized, and the fact said: a probe's `ids` past
//!   [`MODEL_IDS_KEPT`] are cut as a live probe cuts them, with the full count in `ids_total` (the
//!   `model_not_found` finding then says how many the server listed).
//!
//! Checking is one pass over the runs and their reads.

use super::export::ExportedRun;
use crate::dialect::models_list::MODEL_IDS_KEPT;
use crate::i18n::keys::ImportKey as K;
use crate::i18n::Text;
use crate::trace::{Trace, TraceEnd};

/// The latest time an imported trace may hold, in ms since `fetch()` (10^10 ms, about 116 days).
pub const MAX_TIME_MS: f64 = 1e10;

/// The most bytes one imported read may say it delivered (1 GiB).
pub const MAX_READ_BYTES: usize = 1 << 30;

/// Checks every run of an import (see the module docs) and cuts over-long model lists; the error names
/// the first bad value by its JSON path (`runs[1].trace.reads[17].at_ms`) and says what is wrong.
pub fn check_runs(runs: &mut [ExportedRun]) -> Result<(), Text> {
    for (i, run) in runs.iter_mut().enumerate() {
        check_trace(&run.trace, &format!("runs[{i}].trace"))?;
        cut_model_lists(&mut run.trace);
    }
    Ok(())
}

/// A number as written in JSON, short (`1e300`, not three hundred digits).
fn num(v: f64) -> String {
    if v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A time in ms since `fetch()`: finite, not negative, at most [`MAX_TIME_MS`].
fn check_time(at: &str, value_ms: f64) -> Result<(), Text> {
    let key = if !value_ms.is_finite() {
        K::NotATime
    } else if value_ms < 0.0 {
        K::Negative
    } else if value_ms > MAX_TIME_MS {
        K::TooLate
    } else {
        return Ok(());
    };
    Err(Text::msg(key).with("at", at).with("value", num(value_ms)).with("max", num(MAX_TIME_MS)))
}

fn check_trace(trace: &Trace, at: &str) -> Result<(), Text> {
    if let Some(h) = trace.headers_ms {
        check_time(&format!("{at}.headers_ms"), h)?;
    }
    let mut previous_ms = 0.0;
    for (j, read) in trace.reads.iter().enumerate() {
        let here = || format!("{at}.reads[{j}]");
        check_time(&format!("{}.at_ms", here()), read.at_ms)?;
        if j > 0 && read.at_ms < previous_ms {
            return Err(Text::msg(K::OutOfOrder)
                .with("at", format!("{}.at_ms", here()))
                .with("value", num(read.at_ms))
                .with("previous", num(previous_ms)));
        }
        previous_ms = read.at_ms;
        if read.elided_bytes > MAX_READ_BYTES {
            return Err(Text::msg(K::TooLarge)
                .with("at", format!("{}.elided_bytes", here()))
                .with("value", read.elided_bytes.to_string())
                .with("max", MAX_READ_BYTES.to_string()));
        }
    }
    if let Some(end) = &trace.end {
        check_time(&format!("{at}.end.at_ms"), end.at_ms())?;
        if let TraceEnd::Timeout { limit_ms, .. } = end {
            check_time(&format!("{at}.end.limit_ms"), *limit_ms)?;
        }
    }
    Ok(())
}

/// Cuts each probe's ids to [`MODEL_IDS_KEPT`], keeping the full count in `ids_total`.
fn cut_model_lists(trace: &mut Trace) {
    for probe in &mut trace.probes.models {
        if probe.ids.len() > MODEL_IDS_KEPT {
            probe.ids_total = Some(probe.ids_listed());
            probe.ids.truncate(MODEL_IDS_KEPT);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::i18n::Lang;
    use crate::report::campaign::CampaignReport;
    use crate::report::compare::Side;
    use crate::report::export::{import, Export, ExportedRun, Imported};
    use crate::report::Report;
    use crate::trace::{Trace, TraceEnd};

    /// A real one-run export (two reads at 10 and 20 ms), as JSON to break.
    fn export() -> Value {
        let trace = Trace::from_reads(
            200,
            "text/plain",
            5.0,
            vec![(10.0, "a"), (20.0, "b")],
            TraceEnd::Complete { at_ms: 30.0 },
        );
        let report = CampaignReport::Single(Box::new(Report::from_trace(&trace)));
        let export = Export {
            streamscope_export: 1,
            lang: Lang::En,
            config: None,
            report,
            runs: vec![ExportedRun {
                side: Side::A,
                group: 0,
                trace,
            }],
        };
        serde_json::to_value(export).unwrap()
    }

    fn error_of(v: &Value) -> String {
        match import(&v.to_string()) {
            Err(e) => e,
            Ok(_) => panic!("imported: {v}"),
        }
    }

    #[test]
    fn a_real_export_imports() {
        assert!(matches!(
            import(&export().to_string()),
            Ok(Imported::Export(_))
        ));
    }

    #[test]
    fn nan_infinite_and_overflowing_numbers_are_not_json() {
        let text = serde_json::to_string_pretty(&export()).unwrap();
        assert!(text.contains("\"at_ms\": 20.0"));
        for bad in ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"] {
            let e = import(&text.replacen("\"at_ms\": 20.0", &format!("\"at_ms\": {bad}"), 1))
                .unwrap_err();
            // The syntax pass refuses the words; a number too large for an f64 is refused when it is read.
            assert!(
                e.starts_with("This is not JSON") || e.contains("number out of range"),
                "{bad}: {e}"
            );
            assert!(
                e.contains(" at line ") && e.contains(" column "),
                "{bad}: {e}"
            );
        }
    }

    /// Regression: a negative time was taken as is and fed the metrics (a TTFB before fetch()).
    #[test]
    fn a_negative_time_is_rejected_with_its_path() {
        let mut v = export();
        v["runs"][0]["trace"]["reads"][0]["at_ms"] = json!(-5.0);
        let e = error_of(&v);
        assert!(
            e.contains("runs[0].trace.reads[0].at_ms is -5") && e.contains("never negative"),
            "{e}"
        );
        let mut v = export();
        v["runs"][0]["trace"]["headers_ms"] = json!(-1);
        assert!(error_of(&v).contains("runs[0].trace.headers_ms is -1"));
        let mut v = export();
        v["runs"][0]["trace"]["end"] =
            json!({"kind": "timeout", "at_ms": 3.0, "timeout": "total", "limit_ms": -1});
        assert!(error_of(&v).contains("runs[0].trace.end.limit_ms is -1"));
        let mut v = export();
        v["runs"][0]["trace"]["end"] = json!({"kind": "cancelled", "at_ms": -0.5});
        assert!(error_of(&v).contains("runs[0].trace.end.at_ms is -0.5"));
    }

    #[test]
    fn an_absurd_time_is_rejected() {
        let mut v = export();
        v["runs"][0]["trace"]["reads"][1]["at_ms"] = json!(1e300);
        let e = error_of(&v);
        assert!(
            e.contains("runs[0].trace.reads[1].at_ms is 1e300 ms, over 10000000000 ms"),
            "{e}"
        );
    }

    /// Regression: reads out of time order were taken as is (negative gaps in the ITL and the bursts).
    #[test]
    fn reads_out_of_time_order_are_rejected() {
        let mut v = export();
        v["runs"][0]["trace"]["reads"][1]["at_ms"] = json!(7.5);
        let e = error_of(&v);
        assert!(
            e.contains(
                "runs[0].trace.reads[1].at_ms is 7.5 ms, before the read ahead of it (10 ms)"
            ),
            "{e}"
        );
        // Equal times are in order.
        v["runs"][0]["trace"]["reads"][1]["at_ms"] = json!(10.0);
        assert!(import(&v.to_string()).is_ok());
    }

    /// Regression: an `elided_bytes` of `u64::MAX` overflowed the sums of read lengths (a panic in a
    /// debug build).
    #[test]
    fn an_absurd_read_size_is_rejected() {
        for size in [u64::MAX, 1 << 40] {
            let mut v = export();
            v["runs"][0]["trace"]["reads"][1]["elided_bytes"] = json!(size);
            let e = error_of(&v);
            assert!(
                e.contains(&format!(
                    "runs[0].trace.reads[1].elided_bytes is {size}, over"
                )),
                "{e}"
            );
        }
    }

    #[test]
    fn a_long_model_list_is_cut_and_counted() {
        let mut v = export();
        let ids: Vec<String> = (0..5000).map(|i| format!("m{i}")).collect();
        v["runs"][0]["trace"]["probes"]["models"] =
            json!([{"url": "u", "status": 200, "ids": ids}]);
        let Ok(Imported::Export(export)) = import(&v.to_string()) else {
            panic!("not imported")
        };
        let probe = &export.runs[0].trace.probes.models[0];
        assert_eq!(
            (probe.ids.len(), probe.ids_total),
            (super::MODEL_IDS_KEPT, Some(5000))
        );
    }

    #[test]
    fn a_null_version_is_a_version_error_and_syntax_errors_say_where() {
        assert!(import(r#"{"streamscope_export":null}"#)
            .unwrap_err()
            .contains("format version null"));
        let e = import("{\"a\":\n[1,}").unwrap_err();
        assert!(
            e.starts_with("This is not JSON") && e.contains("line 2"),
            "{e}"
        );
        for not_ours in ["[1,2]", "[1]", "3", "\"s\""] {
            assert_eq!(
                import(not_ours).unwrap_err(),
                "This JSON is neither a streamscope export nor a streamscope report."
            );
        }
        // Deep nesting is refused by the parser (recursion limit 128), never a stack overflow.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            import(&deep).unwrap_err(),
            "This JSON is neither a streamscope export nor a streamscope report."
        );
        let deep = format!(
            r#"{{"streamscope_export":1,"config":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let e = import(&deep).unwrap_err();
        assert!(
            e.starts_with("This streamscope export is damaged") && e.contains("at line 1"),
            "{e}"
        );
    }
}
