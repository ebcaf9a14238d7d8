//! [`Said`]: the catalogue text behind words a struct stores as rendered English, kept to say them again
//! in another language.

use super::{Lang, Text};

/// A [`Text`] (or any group of texts `T`) kept beside the English words a serialised struct stores (a
/// `summary: String` of the JSON contract), so the struct can be said again in another language.
///
/// Mark the field `#[serde(skip)]`: it is never serialised, and a struct read back from JSON has none (its
/// words stay as they were written). Equality ignores it: a struct read back equals the one written.
#[derive(Debug, Clone)]
pub struct Said<T = Text>(Option<T>);

impl<T> Default for Said<T> {
    fn default() -> Said<T> {
        Said(None)
    }
}

impl<T> PartialEq for Said<T> {
    fn eq(&self, _: &Said<T>) -> bool {
        true
    }
}

impl<T> Said<T> {
    /// Keeps `words`.
    pub fn new(words: T) -> Said<T> {
        Said(Some(words))
    }

    /// The kept words; `None` when the struct was read back from JSON.
    pub fn get(&self) -> Option<&T> {
        self.0.as_ref()
    }
}

impl Said<Text> {
    /// `text` rendered in English (what the struct stores) and kept.
    pub fn english(text: Text) -> (String, Said) {
        (text.render(Lang::En), Said::new(text))
    }

    /// The kept text in `lang`; `None` when none was kept.
    pub fn render(&self, lang: Lang) -> Option<String> {
        self.0.as_ref().map(|t| t.render(lang))
    }

    /// Replaces `words` with the kept text said in `lang`; leaves them as they are when none was kept.
    pub fn resay(&self, words: &mut String, lang: Lang) {
        if let Some(said) = self.render(lang) {
            *words = said;
        }
    }

    /// Whether every word of the kept text comes from the catalogue (`false` when none was kept).
    pub fn is_worded(&self) -> bool {
        self.0.as_ref().is_some_and(Text::is_worded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::keys::ReportKey;

    #[test]
    fn keeps_the_text_ignores_it_in_equality_and_resays_it() {
        let (english, said) = Said::english(Text::msg(ReportKey::VerdictBuffered));
        assert_eq!(english, "buffered");
        assert_eq!(said, Said::default());
        let mut words = english.clone();
        said.resay(&mut words, Lang::ZhCn);
        assert_eq!(words, "缓冲");
        Said::default().resay(&mut words, Lang::En);
        assert_eq!(words, "缓冲", "nothing kept: the words stay");
        assert!(said.is_worded() && !Said::<Text>::default().is_worded());
    }
}
