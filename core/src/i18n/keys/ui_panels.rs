//! Keys of the page's words for the multi-run panels, said by the UI through [`crate::i18n::Text`].

key_group! {
    /// A word of the multi-run panels.
    pub enum UiPanelsKey {
    }
}
