//! Keys of the page's words for the form and its links, said by the UI through [`crate::i18n::Text`].

key_group! {
    /// A word of the form and its links.
    pub enum UiFormKey {
    }
}
