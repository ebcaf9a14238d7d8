//! The page: thin Leptos components that render signals derived from `streamscope_core` types.

mod app;
mod cache_connection;
mod campaign_findings;
mod compare_panel;
mod erased;
mod findings;
mod form;
mod format;
mod handoff;
mod hops_panel;
mod lang;
mod level_chart;
mod live_view;
mod metrics_panel;
mod nice;
mod on_demand;
mod pace;
mod parts;
mod prefix_check;
mod query;
mod raw_view;
mod replay;
mod report_json;
mod session;
mod session_import;
mod split;
mod sweep_panel;
mod text_view;
mod timeline;
mod timeline_bins;
mod timeline_live;
mod timeline_svg;
mod triage_hints;

#[cfg(test)]
mod tests;

pub use app::App;
