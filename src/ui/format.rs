//! Number formatting for the page: one place decides how ms, bytes and rates read.

use streamscope_core::fixed::fixed;

/// A time as [`streamscope_core::text::ms`] writes it (`"12.3 ms"`, `"312 ms"`, `"2.31 s"`), or `"–"`
/// when there is no value.
pub fn ms(value: Option<f64>) -> String {
    streamscope_core::text::ms_or(value, "–")
}

/// A size as [`streamscope_core::text::bytes`] writes it: `"812 B"`, `"4.0 KiB"`, `"1.00 MiB"`.
pub fn bytes(value: usize) -> String {
    streamscope_core::text::bytes(value as f64)
}

/// A plain number with at most one decimal, or `"–"`.
pub fn number(value: Option<f64>) -> String {
    match value {
        None => "–".into(),
        Some(v) if (v - v.round()).abs() < 1e-9 => fixed(v, 0),
        Some(v) => fixed(v, 1),
    }
}

/// The CSS class suffix of a finding's severity (`info`, `warning`, `error`).
pub fn severity(severity: streamscope_core::findings::Severity) -> &'static str {
    use streamscope_core::findings::Severity;
    match severity {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}
