//! The page's configuration: the automation contract on the way in ([`page_config`]: the query
//! parameters, the form's fields, the request they make) and the API presets ([`presets`]).
//!
//! Depends on [`crate::findings::triage::url`] (the endpoint suffixes it knows) and nothing else.

pub mod page_config;
pub mod presets;

pub use page_config::PageConfig;
pub use presets::ApiPreset;
