//! The page's parts that come after it ([`super::split`]): the panels a reader needs only after a run or
//! on demand. Each is fetched as soon as the page has mounted, so it is there by the time a run ends.

use leptos::prelude::*;

use super::cache_connection::CacheAndConnection;
use super::compare_panel::ComparePanel;
use super::form::FormState;
use super::handoff::Handoff;
use super::hops_panel::HopsPanel;
use super::prefix_check::PrefixCheckPanel;
use super::raw_view::RawView;
use super::session::Session;
use super::split::{split_part, PartMissing};
use super::sweep_panel::SweepPanel;

split_part!(preload_compare_panel; fn compare_panel(session: Session) -> AnyView {
    view! { <ComparePanel session=session /> }.into_any()
});

split_part!(preload_sweep_panel; fn sweep_panel(session: Session) -> AnyView {
    view! { <SweepPanel session=session /> }.into_any()
});

split_part!(preload_hops_panel; fn hops_panel(session: Session) -> AnyView {
    view! { <HopsPanel session=session /> }.into_any()
});

split_part!(preload_cache_panel; fn cache_panel(session: Session) -> AnyView {
    view! { <CacheAndConnection session=session /> }.into_any()
});

split_part!(preload_prefix_panel; fn prefix_panel(form: FormState) -> AnyView {
    view! { <PrefixCheckPanel form=form /> }.into_any()
});

split_part!(preload_raw_panel; fn raw_panel(session: Session) -> AnyView {
    view! { <RawView session=session /> }.into_any()
});

split_part!(preload_share_panel; fn share_panel(session: Session) -> AnyView {
    view! { <Handoff session=session /> }.into_any()
});

/// Fetches every part's code; `Err` when one did not arrive (that part says so where it would be).
pub async fn preload_all() -> Result<(), PartMissing> {
    preload_compare_panel().await?;
    preload_sweep_panel().await?;
    preload_hops_panel().await?;
    preload_cache_panel().await?;
    preload_prefix_panel().await?;
    preload_raw_panel().await?;
    preload_share_panel().await?;
    Ok(())
}

/// The panels of the compare, sweep and hop-ladder campaigns and the cache and connection card, in the
/// page's order (between the form and the metrics).
pub fn campaign_panels(session: Session, form: FormState) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {lazy_panel("compare", compare_panel(session))}
        {lazy_panel("sweep", sweep_panel(session))}
        {lazy_panel("hops", hops_panel(session))}
        {lazy_panel("cache", cache_panel(session))}
        {lazy_panel("prefix", prefix_panel(form))}
    }
}

/// The raw reads and the share and import card, in the page's order (after the text).
pub fn after_text_panels(session: Session) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {lazy_panel("raw", raw_panel(session))}
        {lazy_panel("share", share_panel(session))}
    }
}
