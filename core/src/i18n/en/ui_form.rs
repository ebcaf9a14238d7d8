//! English words of the form and its links.

use crate::i18n::keys::UiFormKey;

/// The English template of `key`.
pub fn template(key: UiFormKey) -> &'static str {
    match key {
    }
}
