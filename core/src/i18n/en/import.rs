//! English words of what an import says is wrong with a file.

use crate::i18n::keys::ImportKey;

/// The English template of `key`.
pub fn template(key: ImportKey) -> &'static str {
    match key {
        ImportKey::Empty => "Nothing to import: paste a streamscope export (or report JSON), or drop the file.",
        ImportKey::NotJson => "This is not JSON ({error}). Paste the whole exported file.",
        ImportKey::Version => "This export has format version {version}; this page reads version {ours}.",
        ImportKey::Damaged => "This streamscope export is damaged or incomplete ({error}).",
        ImportKey::NoRuns => "This export holds no runs: there is nothing to recompute its report from, so it is not shown. Export it again from the page that measured it.",
        ImportKey::DamagedAt => "This streamscope export is damaged: {problem}.",
        ImportKey::NotOurs => "This JSON is neither a streamscope export nor a streamscope report.",
        ImportKey::NotATime => "{at} is {value}, not a time",
        ImportKey::Negative => "{at} is {value}: times count ms since fetch() was called and are never negative",
        ImportKey::TooLate => "{at} is {value} ms, over {max} ms (about 116 days): no run lasts that long",
        ImportKey::OutOfOrder => "{at} is {value} ms, before the read ahead of it ({previous} ms): reads are recorded in time order",
        ImportKey::TooLarge => "{at} is {value}, over {max} (1 GiB): no browser read delivers that much",
    }
}
