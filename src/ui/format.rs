//! Number formatting for the page: one place decides how ms, bytes and rates read.

/// `"312.4 ms"`, `"2.31 s"` above 10 s, or `"–"` when there is no value.
pub fn ms(value: Option<f64>) -> String {
    match value {
        None => "–".into(),
        Some(v) if v.abs() >= 10_000.0 => format!("{:.2} s", v / 1000.0),
        Some(v) if v.abs() >= 100.0 => format!("{v:.0} ms"),
        Some(v) => format!("{v:.1} ms"),
    }
}

/// `"812 B"`, `"4.0 KiB"`, `"1.00 MiB"`.
pub fn bytes(value: usize) -> String {
    let v = value as f64;
    if v >= 1024.0 * 1024.0 {
        format!("{:.2} MiB", v / (1024.0 * 1024.0))
    } else if v >= 1024.0 {
        format!("{:.1} KiB", v / 1024.0)
    } else {
        format!("{value} B")
    }
}

/// A plain number with at most one decimal, or `"–"`.
pub fn number(value: Option<f64>) -> String {
    match value {
        None => "–".into(),
        Some(v) if (v - v.round()).abs() < 1e-9 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
    }
}

/// The CSS class suffix of a finding's severity (`info`, `warning`, `error`).
pub fn severity(severity: streamscope_core::finding::Severity) -> &'static str {
    use streamscope_core::finding::Severity;
    match severity {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}
