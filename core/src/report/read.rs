//! Reading reports back (an import, a test): a [`CampaignReport`] or a [`Report`] is first read into one
//! `serde_json::Value` (a report is small: no traces), and every report type is then read from
//! `&Value`, so each type's reading code exists once in the page's wasm.
//!
//! Why not the derives: an untagged enum and a flattened field make serde buffer the input in its private
//! `Content` type and read every type again from that buffer, which put two more copies of all the
//! report types' reading code in the wasm (about 150 KB of 1.29 MB, measured with twiggy: issue 13).
//! What is accepted is unchanged: the variants are tried in the enum's order, the first that reads wins,
//! and a report's metrics are read from the same object as its other fields.

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::campaign::CampaignReport;
use super::compare::Comparison;
use super::hops::HopLadder;
use super::runs::RunsSummary;
use super::sweep::SweepReport;
use super::Report;
use crate::measure::Metrics;

impl Serialize for Report {
    /// The derived writer: the report's fields, then its metrics flattened into the same object.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Report::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for Report {
    /// The report's own fields and its metrics, both read from the one JSON object.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Report, D::Error> {
        report(&Value::deserialize(d)?).map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for CampaignReport {
    /// The first variant that reads, in the enum's order (compare, sweep, hops, repeat, single).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CampaignReport, D::Error> {
        campaign(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("data did not match any variant of untagged enum CampaignReport"))
    }
}

fn report(value: &Value) -> Result<Report, serde_json::Error> {
    let mut report = Report::deserialize(value)?;
    report.metrics = Metrics::deserialize(value)?;
    Ok(report)
}

fn campaign(value: &Value) -> Option<CampaignReport> {
    use CampaignReport as C;
    Comparison::deserialize(value)
        .map(|r| C::Compare(Box::new(r)))
        .or_else(|_| SweepReport::deserialize(value).map(|r| C::Sweep(Box::new(r))))
        .or_else(|_| HopLadder::deserialize(value).map(|r| C::Hops(Box::new(r))))
        .or_else(|_| RunsSummary::deserialize(value).map(|r| C::Repeat(Box::new(r))))
        .or_else(|_| report(value).map(|r| C::Single(Box::new(r))))
        .ok()
}
