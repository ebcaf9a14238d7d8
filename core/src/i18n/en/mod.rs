//! The English catalogue: one exhaustive `match` per key group.

mod rules;
mod report;
mod compare;
mod hops;
mod sweep;
mod import;
mod markdown;

use super::Key;

/// The English template of `key`.
pub fn template(key: Key) -> &'static str {
    match key {
        Key::Rules(k) => rules::template(k),
        Key::Report(k) => report::template(k),
        Key::Compare(k) => compare::template(k),
        Key::Hops(k) => hops::template(k),
        Key::Sweep(k) => sweep::template(k),
        Key::Import(k) => import::template(k),
        Key::Markdown(k) => markdown::template(k),
    }
}
