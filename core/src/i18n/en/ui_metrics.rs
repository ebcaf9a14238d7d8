//! English words of the metrics and timeline.

use crate::i18n::keys::UiMetricsKey;

/// The English template of `key`.
pub fn template(key: UiMetricsKey) -> &'static str {
    match key {
    }
}
