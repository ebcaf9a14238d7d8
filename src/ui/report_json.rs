//! `#report-json`: the automation contract's output. `data-state` is idle, running, done or error; the
//! text is the JSON report once the run ends. The text is written by a part that comes after the page:
//! a single run's by [`super::parts::report_json`] (`after`, loaded before any run starts), a campaign
//! of several runs' by [`super::parts::campaign_report_json`] (`campaign`, loaded before such a
//! campaign starts or shows); `data-state` says `done` or `error` only once the text is there.

use leptos::prelude::*;

use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::Text;

use super::lang::{lang_getter, word};
use super::parts::{campaign_report_json, ensure_parts, report_json, settle_campaign_views};
use streamscope_core::report::campaign::CampaignReport;
use super::session::{RunState, Session};
use super::split::{ready_now, PartMissing};

/// The JSON report element, always present and visible so automation can read it.
#[component]
pub fn ReportJson(session: Session) -> impl IntoView {
    // An import says so in the contract too: `imported: true` and `imported_from` at the top.
    // Its texts in the page's language, which `lang` says; codes, fields and numbers never change with it.
    let lang = lang_getter();
    // For a campaign shown before the parts that come after the page arrived (an import right after the page opened):
    // bumped when it arrives, or marked missing when it did not: `after`, which writes a single run's
    // text, and `campaign`, which writes a campaign of several runs', each on its own, so that one
    // missing leaves the other's text.
    let part_arrived = RwSignal::new(0_u32);
    let (after_missing, campaign_missing) = (RwSignal::new(false), RwSignal::new(false));
    // `None` while a campaign waits for those parts.
    let json = Memo::new(move |_| {
        part_arrived.track();
        let (imported, lang) = (session.imported.get(), lang());
        let unavailable = move || Text::msg(UiKey::PartUnavailable).with("part", "report").render(lang);
        session.campaign.with(|c| {
            let Some(c) = c.as_ref() else { return Some(String::new()) };
            // A single run's text is written by `after`, a campaign of several runs' by `campaign`.
            let single = matches!(c, CampaignReport::Single(_));
            let missing = if single { after_missing } else { campaign_missing };
            if missing.get() {
                return Some(unavailable());
            }
            let text = match c {
                CampaignReport::Single(run) => ready_now(report_json(run, imported, lang)),
                campaign => ready_now(campaign_report_json(campaign, imported, lang)),
            };
            match text {
                Some(Ok(text)) => Some(text),
                Some(Err(PartMissing)) => Some(unavailable()),
                None => {
                    leptos::task::spawn_local(async move {
                        let arrived = if single { ensure_parts().await } else { settle_campaign_views().await };
                        match arrived {
                            Ok(()) => part_arrived.update(|n| *n += 1),
                            Err(PartMissing) => missing.set(true),
                        }
                    });
                    None
                }
            }
        })
    });
    let state = move || match (session.state.get(), json.with(Option::is_none)) {
        (RunState::Done | RunState::Error, true) => RunState::Running.as_attr(),
        (state, _) => state.as_attr(),
    };
    view! {
        <section class="card report" aria-label=word(UiKey::ReportJsonAria)>
            <h2>{word(UiKey::ReportJsonHeading)}</h2>
            <pre id="report-json" data-testid="report-json" data-state=state>{move || json.get().unwrap_or_default()}</pre>
        </section>
    }
}
