//! Chinese words of the multi-run panels.

use crate::i18n::keys::UiPanelsKey;

/// The Chinese template of `key`.
pub fn template(key: UiPanelsKey) -> &'static str {
    match key {
    }
}
