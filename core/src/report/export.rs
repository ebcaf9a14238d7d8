//! The hand-off file: a campaign's configuration (no secrets), its report as it was, and every run's raw
//! trace, so another person's page shows exactly what this one showed, charts included.

use serde::{Deserialize, Serialize};

use super::campaign::CampaignReport;
use super::compare::Side;
use crate::config::PageConfig;
use crate::trace::Trace;

/// Format version of [`Export`].
pub const EXPORT_VERSION: u32 = 1;

/// One run's raw facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportedRun {
    /// A or B.
    pub side: Side,
    /// What the browser saw.
    pub trace: Trace,
}

/// The exported file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// Always [`EXPORT_VERSION`]; tells an export from a bare report.
    pub streamscope_export: u32,
    /// The configuration that ran (it holds no API key and no header values).
    pub config: Option<PageConfig>,
    /// The report exactly as the page showed it.
    pub report: CampaignReport,
    /// Every run, in the order they ran.
    pub runs: Vec<ExportedRun>,
}

/// What a pasted or dropped file turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum Imported {
    /// A full export: report and traces.
    Export(Box<Export>),
    /// Only a report (e.g. the text of `#report-json`): numbers, but no traces to draw.
    ReportOnly(Box<CampaignReport>),
}

impl Export {
    /// Pretty JSON of the export.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// Reads an export or a bare report; the error says in plain words what is wrong with the text.
pub fn import(text: &str) -> Result<Imported, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Nothing to import: paste a streamscope export (or report JSON), or drop the file.".into());
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("This is not JSON ({e}). Paste the whole exported file."))?;
    if let Some(version) = value.get("streamscope_export") {
        if version.as_u64() != Some(EXPORT_VERSION as u64) {
            return Err(format!("This export has format version {version}; this page reads version {EXPORT_VERSION}."));
        }
        return serde_json::from_value::<Export>(value)
            .map(|e| Imported::Export(Box::new(e)))
            .map_err(|e| format!("This streamscope export is damaged or incomplete ({e})."));
    }
    serde_json::from_value::<CampaignReport>(value)
        .map(|r| Imported::ReportOnly(Box::new(r)))
        .map_err(|_| "This JSON is neither a streamscope export nor a streamscope report.".into())
}
