//! The hand-off file: a campaign's configuration (no secrets), its report as it was, and every run's raw
//! trace, so another person's page shows exactly what this one showed, charts included.
//!
//! [`import`] reads any text without trusting it: the JSON is parsed straight into its types in linear
//! time (never into a `serde_json::Value` tree, which takes tens of times the file's size; nesting
//! deeper than 128 levels is refused by the parser), then every trace is checked
//! ([`super::import_check`]: times, order, sizes, with the JSON path of the first bad value in the
//! error). Every error says in plain words what is wrong and, where it can, where.
//! Of the report written in an export only how its runs were grouped is read ([`ImportedExport`]): what
//! the page shows is recomputed from the traces.

use serde::{Deserialize, Serialize};

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use super::campaign::{CampaignReport, CompareSetup, Layout, RunTag};
use super::import_check::check_runs;
use super::compare::{Side, Subject};
use super::hops::HopsSetup;
use super::sweep::SweepSetup;
use super::Report;
use crate::config::PageConfig;
use crate::i18n::keys::ImportKey as K;
use crate::i18n::{Lang, Text};
use crate::json_in;
use crate::trace::Trace;

/// Format version of [`Export`].
pub const EXPORT_VERSION: u32 = 1;

/// One run's raw facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportedRun {
    /// A or B.
    pub side: Side,
    /// The sweep level or hop index the run belongs to (0 otherwise, and in files written before sweeps).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub group: u32,
    /// What the browser saw.
    pub trace: Trace,
}

/// The exported file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// Always [`EXPORT_VERSION`]; tells an export from a bare report.
    pub streamscope_export: u32,
    /// The language of the report's texts (`en`, `zh-CN`); a file written before it was recorded reads as
    /// English. An import recomputes the report from the traces, in the page's language, whatever it says.
    #[serde(default)]
    pub lang: Lang,
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
    Export(Box<ImportedExport>),
    /// Only a report (e.g. the text of `#report-json`): numbers, but no traces to draw.
    ReportOnly(Box<CampaignReport>),
}

impl Export {
    /// The export of `report` and its runs, with the report's texts said in `lang`.
    pub fn new(config: Option<PageConfig>, report: &CampaignReport, runs: Vec<ExportedRun>, lang: Lang) -> Export {
        Export { streamscope_export: EXPORT_VERSION, lang, config, report: report.localize(lang), runs }
    }

    /// Pretty JSON of the export.
    pub fn to_json_pretty(&self) -> String {
        super::pretty_json::pretty_json(self, || "{\"error\":\"the export could not be written as JSON\"}".into())
    }
}

/// Reads an export or a bare report; the error says in plain English what is wrong with the text, and
/// where (a line and column, or the JSON path of a bad value). [`import_in`] says it in any language.
pub fn import(text: &str) -> Result<Imported, String> {
    import_in(text, Lang::En)
}

/// [`import`], with the error said in `lang` (the parser's own message and JSON paths stay as they are).
pub fn import_in(text: &str, lang: Lang) -> Result<Imported, String> {
    read(text).map_err(|e| e.render(lang))
}

fn read(text: &str) -> Result<Imported, Text> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Text::msg(K::Empty));
    }
    // A first pass checks the syntax (skipping every value); a second reads only the version.
    if let Err(e) = serde_json::from_str::<IgnoredAny>(text) {
        return Err(Text::msg(K::NotJson).with("error", e.to_string()));
    }
    let version = serde_json::from_str::<Version>(text).ok().and_then(|v| v.0);
    if let Some(version) = version {
        if version.as_u64() != Some(EXPORT_VERSION as u64) {
            return Err(Text::msg(K::Version).with("version", version.to_string()).count("ours", EXPORT_VERSION as usize));
        }
        let mut file = json_in::from_str::<ExportText>(text).map_err(|e| Text::msg(K::Damaged).with("error", e.to_string()))?;
        if file.runs.is_empty() {
            // Its report could say anything: with no trace there is nothing to recompute it from.
            return Err(Text::msg(K::NoRuns));
        }
        check_runs(&mut file.runs).map_err(|e| Text::msg(K::DamagedAt).with("problem", e))?;
        let export = ImportedExport { lang: file.lang, config: file.config, layout: file.report.layout(), runs: file.runs };
        return Ok(Imported::Export(Box::new(export)));
    }
    json_in::from_str::<CampaignReport>(text)
        .map(|r| Imported::ReportOnly(Box::new(r)))
        .map_err(|_| Text::msg(K::NotOurs))
}

/// Where an imported report's figures come from, as `#report-json` says (`imported_from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportSource {
    /// Recomputed here from the export's traces (the file's own report is not used).
    Traces,
    /// A bare report: its figures as written in the file, with nothing to recompute them from.
    Report,
}

read_by_name!(ImportSource {
    Traces = "traces",
    Report = "report",
});

/// An export as an import reads it: of the report written in the file only how its runs were grouped;
/// everything shown is recomputed from the traces ([`ImportedExport::recompute`]). So a report the page
/// could not read (written by another version, edited by hand) does not stop an import whose traces are
/// sound, and nothing in it can reach the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedExport {
    /// The language the file's texts were written in.
    pub lang: Lang,
    /// The configuration that ran (no API key, no header values).
    pub config: Option<PageConfig>,
    /// How the runs were grouped (sides, levels or hops; labels and URLs are the file's words, shown as
    /// text).
    pub layout: Layout,
    /// Every run, checked ([`super::import_check`]), in the order they ran.
    pub runs: Vec<ExportedRun>,
}

/// An export's fields as read.
#[derive(Deserialize)]
struct ExportText {
    #[serde(default)]
    lang: Lang,
    config: Option<PageConfig>,
    report: LayoutText,
    runs: Vec<ExportedRun>,
}

/// The fields of a written report that say how its runs were grouped; the rest is skipped unread.
#[derive(Deserialize)]
struct LayoutText {
    subject: Option<Subject>,
    label_a: Option<String>,
    label_b: Option<String>,
    sweep: Option<Vec<LevelText>>,
    per_level: Option<u32>,
    hops: Option<Vec<HopText>>,
}

#[derive(Deserialize)]
struct LevelText {
    level: u32,
}

#[derive(Deserialize)]
struct HopText {
    url: String,
    label: String,
}

impl LayoutText {
    /// The layout, tried in [`CampaignReport`]'s order: a comparison, a sweep, a ladder, else runs.
    fn layout(self) -> Layout {
        if let (Some(subject), Some(label_a), Some(label_b)) = (self.subject, self.label_a, self.label_b) {
            return Layout::Compare(CompareSetup { subject, label_a, label_b });
        }
        if let (Some(sweep), Some(per_level)) = (self.sweep, self.per_level) {
            return Layout::Sweep(SweepSetup { levels: sweep.into_iter().map(|l| l.level).collect(), per_level });
        }
        match self.hops {
            Some(hops) => {
                let (urls, labels) = hops.into_iter().map(|h| (h.url, h.label)).unzip();
                Layout::Hops(HopsSetup { urls, labels })
            }
            None => Layout::Runs,
        }
    }
}

impl ImportedExport {
    /// How the file's runs were grouped.
    pub fn layout(&self) -> Layout {
        self.layout.clone()
    }

    /// How the file's runs were compared (subject and labels), when its report was a comparison.
    pub fn compare_setup(&self) -> Option<CompareSetup> {
        match self.layout() {
            Layout::Compare(setup) => Some(setup),
            _ => None,
        }
    }

    /// The campaign report recomputed from the runs' traces alone (verdicts, findings, the compare
    /// sentence, the knee, the first bad hop): what an import shows, never the report written in the file.
    pub fn recompute(&self) -> CampaignReport {
        let runs = self.runs.iter().map(|r| (RunTag { side: r.side, group: r.group }, Report::from_trace(&r.trace))).collect();
        CampaignReport::of(runs, &self.layout())
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The JSON text `#report-json` shows for `report`: its texts said in `lang`, with `lang` at the top level
/// (a bare imported report keeps the words of its file, which cannot be said again); for an import,
/// `imported: true` and `imported_from` too.
///
/// The fields after the report's are written into the report's own pretty JSON, before its closing brace,
/// rather than through a struct that flattens the report: that compiled a second writer for every report
/// shape (BENCHMARKS.md, "Size").
pub fn report_json_text(report: &CampaignReport, imported_from: Option<ImportSource>, lang: Lang) -> String {
    match report {
        CampaignReport::Single(run) => run_report_json_text(run, imported_from, lang),
        campaign => with_page_fields(campaign.localize(lang).to_json_pretty(), imported_from, lang),
    }
}

/// [`report_json_text`] of a single run's report (a [`CampaignReport::Single`] is written as its
/// report): without the writers of a campaign of several runs, which a page that shows only single runs
/// need not carry.
pub fn run_report_json_text(report: &Report, imported_from: Option<ImportSource>, lang: Lang) -> String {
    with_page_fields(report.localize(lang).to_json_pretty(), imported_from, lang)
}

/// `text` (a JSON object, pretty) with the page's fields added at its end: `lang`, and for an import
/// `imported` and `imported_from`.
fn with_page_fields(mut text: String, imported_from: Option<ImportSource>, lang: Lang) -> String {
    let Some(close) = text.rfind('}') else { return text };
    text.truncate(close);
    text.truncate(text.trim_end().len());
    let mut field = |key: &str, value: String| text.push_str(&format!(",\n  \"{key}\": {value}"));
    field("lang", serde_json::to_string_pretty(&lang).unwrap_or_default());
    if let Some(source) = imported_from {
        field("imported", "true".into());
        field("imported_from", serde_json::to_string_pretty(&source).unwrap_or_default());
    }
    text.push_str("\n}");
    text
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

#[cfg(test)]
mod import_tests {
    use super::*;
    use crate::trace::TraceEnd;
    use crate::verdict::Verdict;

    fn run(side: Side) -> ExportedRun {
        let content = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let reads: Vec<(f64, String)> = (0..10).map(|i| (300.0 + 20.0 * i as f64, content.to_string())).collect();
        ExportedRun { side, group: 0, trace: Trace::from_reads(200, "text/event-stream", 5.0, reads, TraceEnd::Complete { at_ms: 600.0 }) }
    }

    /// An export of runs tagged `tags` grouped as `layout`, and the report the page showed for them.
    fn export_of(layout: &Layout, tags: &[RunTag]) -> (Export, CampaignReport) {
        let runs: Vec<ExportedRun> = tags.iter().map(|t| ExportedRun { group: t.group, ..run(t.side) }).collect();
        let report = CampaignReport::of(runs.iter().map(|r| (RunTag { side: r.side, group: r.group }, Report::from_trace(&r.trace))).collect(), layout);
        (Export::new(None, &report, runs, Lang::En), report)
    }

    #[test]
    fn an_import_reads_how_the_runs_were_grouped_from_every_kind_of_report() {
        let (a, b) = (RunTag { side: Side::A, group: 0 }, RunTag { side: Side::B, group: 0 });
        let level = |group| RunTag { side: Side::A, group };
        let cases = [
            (Layout::Compare(CompareSetup { subject: Subject::Model, label_a: "m-a".into(), label_b: "m-b".into() }), vec![a, b, a, b]),
            (Layout::Sweep(SweepSetup { levels: vec![1, 2], per_level: 1 }), vec![level(1), level(2), level(2)]),
            (
                Layout::Hops(HopsSetup { urls: vec!["http://edge/v1".into(), "http://origin/v1".into()], labels: vec!["edge".into(), "origin".into()] }),
                vec![level(0), level(1)],
            ),
            (Layout::Runs, vec![a, a]),
        ];
        for (layout, tags) in cases {
            let (export, shown) = export_of(&layout, &tags);
            assert_eq!(export.report.layout(), layout, "the report written says it");
            let Ok(Imported::Export(back)) = import(&export.to_json_pretty()) else { panic!("imports: {layout:?}") };
            assert_eq!(back.layout(), layout);
            assert_eq!(back.recompute(), shown, "the import shows what the page showed");
        }
    }

    /// The report written in an export is never shown, so one this page cannot read (another version's,
    /// a hand-edited one) must not stop an import whose traces are sound.
    #[test]
    fn a_report_the_page_cannot_read_does_not_stop_an_export() {
        let (export, _) = export_of(&Layout::Runs, &[RunTag::default()]);
        let mut json = serde_json::to_value(&export).unwrap();
        json["report"]["verdict"] = 42.into();
        json["report"]["findings"] = "none".into();
        json["report"]["ttft_ms"] = "soon".into();
        assert!(import(&json["report"].to_string()).is_err(), "as a bare report it is refused");
        let Ok(Imported::Export(back)) = import(&json.to_string()) else { panic!("imports") };
        let CampaignReport::Single(r) = back.recompute() else { panic!("single") };
        assert_eq!(r.verdict, Verdict::Streaming);
        // The grouping must still be there to be read.
        json.as_object_mut().unwrap().remove("report");
        assert!(import(&json.to_string()).unwrap_err().contains("damaged"));
    }

    /// Regression (issue 10): an export's written verdict became the banner; only its traces count.
    #[test]
    fn a_made_up_verdict_in_the_file_is_replaced_by_the_recomputed_one() {
        let honest = Export {
            streamscope_export: EXPORT_VERSION,
            lang: Lang::En,
            config: None,
            report: CampaignReport::from_runs(vec![(Side::A, Report::from_trace(&run(Side::A).trace))], None),
            runs: vec![run(Side::A)],
        };
        let mut json = serde_json::to_value(&honest).unwrap();
        json["report"]["verdict"] = "collected".into();
        json["report"]["findings"] = serde_json::json!([]);
        let Ok(Imported::Export(export)) = import(&json.to_string()) else { panic!("imports") };
        let CampaignReport::Single(r) = export.recompute() else { panic!("single") };
        assert_eq!(r.verdict, Verdict::Streaming);
        assert!(!r.findings.is_empty());
    }

    #[test]
    fn an_export_without_runs_is_refused() {
        let export = Export {
            streamscope_export: EXPORT_VERSION,
            lang: Lang::En,
            config: None,
            report: CampaignReport::from_runs(vec![(Side::A, Report::from_trace(&run(Side::A).trace))], None),
            runs: Vec::new(),
        };
        let err = import(&serde_json::to_string(&export).unwrap()).unwrap_err();
        assert!(err.contains("no runs"), "{err}");
    }

    #[test]
    fn the_report_json_of_an_import_says_so() {
        let report = CampaignReport::from_runs(vec![(Side::A, Report::from_trace(&run(Side::A).trace))], None);
        let plain: serde_json::Value = serde_json::from_str(&report_json_text(&report, None, Lang::En)).unwrap();
        assert!(plain.get("imported").is_none());
        let marked: serde_json::Value = serde_json::from_str(&report_json_text(&report, Some(ImportSource::Traces), Lang::En)).unwrap();
        assert_eq!((marked["imported"].as_bool(), marked["imported_from"].as_str()), (Some(true), Some("traces")));
        assert_eq!(marked["verdict"], plain["verdict"]);
        // The report's own fields, then the language: the same object as the report with `lang` added.
        let mut expected = serde_json::to_value(&report).unwrap();
        expected["lang"] = "en".into();
        assert_eq!(plain, expected);
        let text = report_json_text(&report, None, Lang::ZhCn);
        assert!(text.ends_with(",\n  \"lang\": \"zh-CN\"\n}"), "{text}");
    }

    /// A single run's text, written by its own writer (the page's runs), is byte for byte what the
    /// campaign's writer makes of the same report as a [`CampaignReport::Single`].
    #[test]
    fn a_single_run_s_report_json_is_the_campaign_writer_s() {
        let report = Report::from_trace(&run(Side::A).trace);
        let single = CampaignReport::Single(Box::new(report.clone()));
        for (imported, lang) in [(None, Lang::En), (Some(ImportSource::Report), Lang::ZhCn), (Some(ImportSource::Traces), Lang::En)] {
            let as_campaign = with_page_fields(single.localize(lang).to_json_pretty(), imported, lang);
            assert_eq!(run_report_json_text(&report, imported, lang), as_campaign);
            assert_eq!(report_json_text(&single, imported, lang), as_campaign);
        }
    }
}
