//! Reading reports back (an import, a test): a [`CampaignReport`] or a [`Report`] is first read into one
//! `serde_json::Value` and written back as JSON text (a report is small: no traces), and every report
//! type is then read from that text, with the same reader ([`crate::json_in`]) as the traces of an export
//! and the worker's messages, so each type's reading code exists once in the page's wasm.
//!
//! Why not the derives: an untagged enum and a flattened field make serde buffer the input in its private
//! `Content` type and read every type again from that buffer, which put more copies of all the report
//! types' reading code in the wasm (twiggy: the derived reader kept 148 KB of 1.29 MB; reading through
//! one `Value` saved 41 KB raw, 16 KB gzipped; reading text instead of `&Value`, BENCHMARKS.md).
//! What is accepted is unchanged: the variants are tried in the enum's order, the first that reads wins,
//! and a report's metrics are read from the same object as its other fields.

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::campaign::CampaignReport;
use crate::json_in::{self, Objects};
use super::Report;

impl Serialize for Report {
    /// The derived writer: the report's fields, then its metrics flattened into the same object.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Report::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for Report {
    /// The report's own fields and its metrics, both read from the one JSON object.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Report, D::Error> {
        report(&text_of(d)?).map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for CampaignReport {
    /// The first variant that reads, in the enum's order (compare, sweep, hops, repeat, single).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CampaignReport, D::Error> {
        campaign(&text_of(d)?)
            .ok_or_else(|| D::Error::custom("data did not match any variant of untagged enum CampaignReport"))
    }
}

/// The JSON text of the value `d` holds, whatever the deserializer (read into a `Value`, written back).
fn text_of<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Value::deserialize(d)?.to_string())
}

fn report(text: &str) -> Result<Report, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut report = Report::deserialize(Objects(&mut de))?;
    de.end()?;
    report.metrics = json_in::from_str(text)?;
    Ok(report)
}

fn campaign(text: &str) -> Option<CampaignReport> {
    use CampaignReport as C;
    json_in::from_str(text)
        .map(|r| C::Compare(Box::new(r)))
        .or_else(|_| json_in::from_str(text).map(|r| C::Sweep(Box::new(r))))
        .or_else(|_| json_in::from_str(text).map(|r| C::Hops(Box::new(r))))
        .or_else(|_| json_in::from_str(text).map(|r| C::Repeat(Box::new(r))))
        .or_else(|_| report(text).map(|r| C::Single(Box::new(r))))
        .ok()
}
