//! The English catalogue: one exhaustive `match` per key group.

mod rules;
mod path;
mod campaign;

use super::Key;

/// The English template of `key`.
pub fn template(key: Key) -> &'static str {
    match key {
        Key::Rules(k) => rules::template(k),
        Key::Path(k) => path::template(k),
        Key::Campaign(k) => campaign::template(k),
    }
}
