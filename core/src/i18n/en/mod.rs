//! The English catalogue: one exhaustive `match` per key group.

mod rules;
mod ui;

use super::Key;

/// The English template of `key`.
pub fn template(key: Key) -> &'static str {
    match key {
        Key::Rules(k) => rules::template(k),
        Key::Ui(k) => ui::template(k),
    }
}
