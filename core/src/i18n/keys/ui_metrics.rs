//! Keys of the page's words for the metrics and timeline, said by the UI through [`crate::i18n::Text`].

key_group! {
    /// A word of the metrics and timeline.
    pub enum UiMetricsKey {
    }
}
