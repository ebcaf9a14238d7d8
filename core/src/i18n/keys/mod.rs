//! Every message key, in one group per part of core; [`Key`] is any of them.
//!
//! A group is declared with [`key_group!`]; adding a key to a group fails the build until both
//! catalogues ([`super::en`], [`super::zh_cn`]) say it.

/// Declares a group of message keys: a `Copy` enum plus, for the catalogue tests, the list of all.
macro_rules! key_group {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident, )* }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every key of the group, in declaration order (the order of a catalogue file's templates).
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
        }
    };
}

/// Declares [`Key`] over the groups, with a `From` per group.
macro_rules! keys {
    ( $( $(#[$vmeta:meta])* $variant:ident($group:ty), )* ) => {
        /// Any message key.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Key {
            $( $(#[$vmeta])* $variant($group), )*
        }

        $(
            impl From<$group> for Key {
                fn from(k: $group) -> Key {
                    Key::$variant(k)
                }
            }
        )*

        impl Key {
            /// How many keys there are, over every group.
            pub const COUNT: usize = 0 $( + <$group>::ALL.len() )*;

            /// Every key of every group, in order: `Key::all()[k.index()] == k`.
            pub fn all() -> Vec<Key> {
                let mut all = Vec::with_capacity(Key::COUNT);
                $( for &k in <$group>::ALL { all.push(Key::$variant(k)); } )*
                all
            }

            /// This key's position in [`Key::all`]: groups in order, keys in declaration order.
            pub fn index(self) -> usize {
                let mut base = 0;
                $(
                    if let Key::$variant(k) = self {
                        return base + k as usize;
                    }
                    base += <$group>::ALL.len();
                )*
                base
            }
        }
    };
}

pub mod rules;
pub mod ui;
pub mod ui_form;
pub mod ui_metrics;
pub mod ui_panels;
pub mod triage_http;
pub mod triage_url;
pub mod triage_net;
pub mod prefix;
pub mod path;
pub mod campaign;
pub mod report;
pub mod compare;
pub mod hops;
pub mod sweep;
pub mod import;
pub mod markdown;

pub use rules::RulesKey;
pub use ui::UiKey;
pub use ui_form::UiFormKey;
pub use ui_metrics::UiMetricsKey;
pub use ui_panels::UiPanelsKey;
pub use triage_http::TriageHttpKey;
pub use triage_url::TriageUrlKey;
pub use triage_net::TriageNetKey;
pub use prefix::PrefixKey;
pub use path::PathKey;
pub use campaign::CampaignKey;
pub use report::ReportKey;
pub use compare::CompareKey;
pub use hops::HopsKey;
pub use sweep::SweepKey;
pub use import::ImportKey;
pub use markdown::MarkdownKey;

keys! {
    /// The findings about how a run ended and what its stream looked like (`findings::rules`).
    Rules(RulesKey),
    /// The page's own words (`src/ui`).
    Ui(UiKey),
    /// The form, its links and the session's notes (`src/ui/form.rs`, `handoff.rs`, `session.rs`).
    UiForm(UiFormKey),
    /// The metrics grid, the timeline, the text and raw views (`src/ui/metrics_panel.rs`, `timeline.rs`, ...).
    UiMetrics(UiMetricsKey),
    /// The compare, hops, sweep, cache/connection and prefix-check panels.
    UiPanels(UiPanelsKey),
    /// The HTTP error triage (`findings::triage::http`).
    TriageHttp(TriageHttpKey),
    /// The URL triage (`findings::triage::url`).
    TriageUrl(TriageUrlKey),
    /// The network triage (`findings::triage::net`).
    TriageNet(TriageNetKey),
    /// The prefix check's cache-breaker warnings (`prefix::warnings`).
    Prefix(PrefixKey),
    /// The path findings and `collected` (`findings::path`, `findings`).
    Path(PathKey),
    /// The findings about several runs together (`findings::campaign`).
    Campaign(CampaignKey),
    /// The words the report's files share: verdict names, the connection-cost note (`report`).
    Report(ReportKey),
    /// The A/B comparison's sentence (`report::compare`).
    Compare(CompareKey),
    /// The hop ladder's sentence (`report::hops`).
    Hops(HopsKey),
    /// The concurrency sweep's sentence (`report::sweep`).
    Sweep(SweepKey),
    /// What an import says is wrong with a file (`report::export`, `report::import_check`).
    Import(ImportKey),
    /// The Markdown summary's headings, table headers and labels (`report::markdown`).
    Markdown(MarkdownKey),
}
