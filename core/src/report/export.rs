//! The hand-off file: a campaign's configuration (no secrets), its report as it was, and every run's raw
//! trace, so another person's page shows exactly what this one showed, charts included.
//!
//! [`import`] reads any text without trusting it: the JSON is parsed straight into its types in linear
//! time (never into a `serde_json::Value` tree, which takes tens of times the file's size; nesting
//! deeper than 128 levels is refused by the parser), then every trace is checked
//! ([`super::import_check`]: times, order, sizes, with the JSON path of the first bad value in the
//! error). Every error says in plain words what is wrong and, where it can, where.

use serde::{Deserialize, Serialize};

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use super::campaign::CampaignReport;
use super::import_check::check_runs;
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

/// Reads an export or a bare report; the error says in plain words what is wrong with the text, and
/// where (a line and column, or the JSON path of a bad value).
pub fn import(text: &str) -> Result<Imported, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Nothing to import: paste a streamscope export (or report JSON), or drop the file.".into());
    }
    // A first pass checks the syntax (skipping every value); a second reads only the version.
    if let Err(e) = serde_json::from_str::<IgnoredAny>(text) {
        return Err(format!("This is not JSON ({e}). Paste the whole exported file."));
    }
    let version = serde_json::from_str::<Version>(text).ok().and_then(|v| v.0);
    if let Some(version) = version {
        if version.as_u64() != Some(EXPORT_VERSION as u64) {
            return Err(format!("This export has format version {version}; this page reads version {EXPORT_VERSION}."));
        }
        let mut export = serde_json::from_str::<Export>(text)
            .map_err(|e| format!("This streamscope export is damaged or incomplete ({e})."))?;
        check_runs(&mut export.runs).map_err(|e| format!("This streamscope export is damaged: {e}."))?;
        return Ok(Imported::Export(Box::new(export)));
    }
    serde_json::from_str::<CampaignReport>(text)
        .map(|r| Imported::ReportOnly(Box::new(r)))
        .map_err(|_| "This JSON is neither a streamscope export nor a streamscope report.".into())
}

/// The `streamscope_export` value of a JSON object (`Some` whenever the key is there, `null` included);
/// anything but an object is an error.
struct Version(Option<serde_json::Value>);

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Version, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Version;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Version, A::Error> {
                let mut version = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key == "streamscope_export" {
                        version = Some(map.next_value()?);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Version(version))
            }
        }
        d.deserialize_map(Keys)
    }
}
