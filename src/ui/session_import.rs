//! Showing an import honestly: an export is recomputed from its traces (the verdict, findings and compare
//! sentence written in the file are never shown), a bare report is marked as figures taken from the file,
//! either cancels a campaign in progress and replaces everything shown, and what was shown before stays
//! one click away ([`Session::back_from_import`]).

use leptos::prelude::*;
use streamscope_core::analysis::analyze;
use streamscope_core::report::campaign::{CampaignReport, Layout};
use streamscope_core::report::export::{ImportSource, ImportedExport};
use streamscope_core::report::Report;

use super::live_view::{raw_rows, LiveView, RawRow, RAW_PREVIEW_TOTAL_BYTES};
use super::session::{RunRecord, RunState, Session};

/// Everything the page shows of a campaign, kept to go back to after an import.
#[derive(Clone)]
pub struct Shown {
    state: RunState,
    live: LiveView,
    raw_rows: Vec<RawRow>,
    report: Option<Report>,
    records: Vec<RunRecord>,
    campaign: Option<CampaignReport>,
    layout: Layout,
    progress: (usize, usize),
    config: Option<streamscope_core::config::page_config::PageConfig>,
    imported: Option<ImportSource>,
}

impl Session {
    /// What is shown now.
    fn shown(self) -> Shown {
        Shown {
            state: self.state.get_untracked(),
            live: self.live.get_untracked(),
            raw_rows: self.raw_rows.get_untracked(),
            report: self.report.get_untracked(),
            records: self.records.get_untracked(),
            campaign: self.campaign.get_untracked(),
            layout: self.layout.get_untracked(),
            progress: self.progress.get_untracked(),
            config: self.config.get_untracked(),
            imported: self.imported.get_untracked(),
        }
    }

    fn show(self, s: Shown) {
        self.live.set(s.live);
        self.raw_rows.set(s.raw_rows);
        self.report.set(s.report);
        self.records.set(s.records);
        self.campaign.set(s.campaign);
        self.layout.set(s.layout);
        self.progress.set(s.progress);
        self.config.set(s.config);
        self.imported.set(s.imported);
        self.state.set(s.state);
    }

    /// Stops anything running and keeps what is shown (a measurement, not an earlier import) to go back to.
    fn before_import(self) {
        self.cancel();
        self.local.update_value(|l| l.campaign_id += 1);
        let something = self.campaign.with_untracked(Option::is_some)
            || self.records.with_untracked(|r| !r.is_empty())
            || self.state.get_untracked() == RunState::Running;
        let measured = self.imported.get_untracked().is_none() && something;
        if measured {
            let shown = self.shown();
            // A campaign cut short by the import is shown as it stood, not as still running.
            let shown = Shown { state: if shown.state == RunState::Running { RunState::Idle } else { shown.state }, ..shown };
            self.before_import.set_value(Some(shown));
        }
    }

    /// Whether a measurement is kept to go back to.
    pub fn can_go_back(self) -> bool {
        self.before_import.with_value(Option::is_some)
    }

    /// Shows again what was shown before the import.
    pub fn back_from_import(self) {
        if let Some(shown) = self.before_import.try_update_value(Option::take).flatten() {
            self.show(shown);
        }
    }

    /// Shows an export, recomputed from its traces: each run's report from its trace, the campaign from
    /// those reports (the file's own report is not used).
    pub fn show_export(self, export: ImportedExport) {
        self.before_import();
        let layout = export.layout();
        let records: Vec<RunRecord> = export
            .runs
            .into_iter()
            .map(|run| {
                let analysis = analyze(&run.trace);
                let report = Report::from_analysis(&run.trace, &analysis);
                let live = LiveView::of_run(self.new_run_id(), &run.trace, &analysis);
                RunRecord { side: run.side, group: run.group, report, live, trace: run.trace }
            })
            .collect();
        let campaign = CampaignReport::of(records.iter().map(|r| (r.tag(), r.report.clone())).collect(), &layout);
        let last = records.last().cloned();
        self.show(Shown {
            state: if campaign.failed() { RunState::Error } else { RunState::Done },
            raw_rows: last.as_ref().map(|r| raw_rows(0, &r.trace.reads, &mut { RAW_PREVIEW_TOTAL_BYTES })).unwrap_or_default(),
            live: last.as_ref().map(|r| r.live.clone()).unwrap_or_default(),
            report: last.map(|r| r.report),
            progress: (records.len(), records.len()),
            records,
            campaign: Some(campaign),
            layout,
            config: export.config,
            imported: Some(ImportSource::Traces),
        });
    }

    /// Shows a bare report (no traces): its figures as written in the file, marked so; the old timeline,
    /// text and raw reads are cleared.
    pub fn show_report_only(self, report: CampaignReport) {
        self.before_import();
        let last = match &report {
            CampaignReport::Single(r) => Some((**r).clone()),
            CampaignReport::Repeat(s) => s.runs.last().cloned(),
            CampaignReport::Compare(c) => c.b.runs.last().or(c.a.runs.last()).cloned(),
            // A sweep's or a ladder's report keeps summaries, not runs.
            CampaignReport::Sweep(_) | CampaignReport::Hops(_) => None,
        };
        let layout = report.layout();
        self.show(Shown {
            state: if report.failed() { RunState::Error } else { RunState::Done },
            live: LiveView::default(),
            raw_rows: Vec::new(),
            report: last,
            records: Vec::new(),
            layout,
            progress: (0, 0),
            config: None,
            imported: Some(ImportSource::Report),
            campaign: Some(report),
        });
    }
}
