//! Azure OpenAI's content filter as it shows in chat chunks: the mark one chunk carries.
//!
//! Azure OpenAI runs a content filter over the prompt and the answer and says so inside the stream
//! (learn.microsoft.com, Azure OpenAI "Content streaming"):
//! - a prompt annotation first: `{"choices": [], "prompt_filter_results": [...]}` (older API versions:
//!   `prompt_annotations`);
//! - in its **default** streaming mode the answer is held until each batch of it has been checked, then the
//!   batch is released at once, every text chunk carrying the batch's verdicts in
//!   `choices[0].content_filter_results` (`{"hate": {"filtered": false, "severity": "safe"}, ...}`);
//! - with the **Asynchronous Filter** the text streams as it is made, unmarked, and the verdicts follow in
//!   chunks of their own that carry `choices[0].content_filter_offsets` and no text.
//!
//! So a stream whose text chunks carry verdicts was batched by the filter: the bursts it shows are the
//! filter's, not a proxy's.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What one chunk says about a content filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilterMark {
    /// Nothing.
    #[default]
    None,
    /// The filter's verdicts on the prompt (`prompt_filter_results`, `prompt_annotations`).
    Prompt,
    /// Text that carries the filter's verdicts (`content_filter_results` with at least one category):
    /// the default mode, which releases text once its batch is checked.
    Vetted,
    /// Verdicts on text already sent, without text (`content_filter_offsets`): the Asynchronous Filter.
    Annotation,
}

/// The mark of a chat chunk `v` whose first choice is `choice`; `carried_text` says whether the chunk
/// carried answer or reasoning text.
pub fn mark(v: &Value, choice: Option<&Value>, carried_text: bool) -> FilterMark {
    let verdicts = choice
        .and_then(|c| c.get("content_filter_results"))
        .and_then(Value::as_object)
        .is_some_and(|results| !results.is_empty());
    if carried_text && verdicts {
        return FilterMark::Vetted;
    }
    if !carried_text && choice.is_some_and(|c| c.get("content_filter_offsets").is_some_and(Value::is_object)) {
        return FilterMark::Annotation;
    }
    if ["prompt_filter_results", "prompt_annotations"].iter().any(|k| v.get(k).is_some_and(Value::is_array)) {
        return FilterMark::Prompt;
    }
    FilterMark::None
}

/// How many chunks of a stream carried each [`FilterMark`] (the analysis's count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterMarks {
    /// Prompt annotations.
    pub prompt: usize,
    /// Chunks of answer text that carried the filter's verdicts.
    pub vetted_content: usize,
    /// Verdicts without text.
    pub annotations: usize,
}

impl FilterMarks {
    /// Counts one chunk's `mark`; `content` says whether the chunk carried answer text (vetted reasoning
    /// alone is not counted: the share of vetted text is taken over content events).
    pub fn count(&mut self, mark: FilterMark, content: bool) {
        match mark {
            FilterMark::None => {}
            FilterMark::Prompt => self.prompt += 1,
            FilterMark::Vetted if content => self.vetted_content += 1,
            FilterMark::Vetted => {}
            FilterMark::Annotation => self.annotations += 1,
        }
    }

    /// What the marks say about a stream of `content_events` content events; `None` when it carried none.
    pub fn seen(&self, content_events: usize) -> Option<ContentFilter> {
        let mode = if self.vetted_content > 0 && self.vetted_content * 2 >= content_events {
            FilterMode::Batched
        } else if self.annotations > 0 {
            FilterMode::Asynchronous
        } else if self.prompt > 0 || self.vetted_content > 0 {
            FilterMode::TextUnmarked
        } else {
            return None;
        };
        Some(ContentFilter { mode, vetted_content_events: self.vetted_content, annotation_events: self.annotations })
    }
}

/// How the content filter handled the answer, as its marks show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FilterMode {
    /// At least half of the content events carried the filter's verdicts: Azure's default streaming, which
    /// holds the text until its batch is checked and releases the batch at once.
    Batched,
    /// Verdicts came in chunks of their own, after the text they checked: the Asynchronous Filter, which
    /// does not hold the text.
    Asynchronous,
    /// The filter marked the prompt (or a few chunks) but not the text.
    TextUnmarked,
}

read_by_name!(FilterMode {
    Batched = "batched",
    Asynchronous = "asynchronous",
    TextUnmarked = "text_unmarked",
});

/// A content filter the stream showed (the report's `content_filter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentFilter {
    /// How it handled the answer.
    pub mode: FilterMode,
    /// Content events whose chunk carried the filter's verdicts.
    pub vetted_content_events: usize,
    /// Chunks of verdicts without text.
    pub annotation_events: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn of(v: Value, carried_text: bool) -> FilterMark {
        let choice = v.get("choices").and_then(|c| c.get(0)).cloned();
        mark(&v, choice.as_ref(), carried_text)
    }

    #[test]
    fn reads_azure_marks() {
        let safe = json!({"hate": {"filtered": false, "severity": "safe"}});
        assert_eq!(of(json!({"choices": [], "prompt_filter_results": [{"prompt_index": 0}]}), false), FilterMark::Prompt);
        assert_eq!(of(json!({"choices": [], "prompt_annotations": []}), false), FilterMark::Prompt);
        assert_eq!(
            of(json!({"choices": [{"content_filter_results": safe, "delta": {"content": "Hi"}}]}), true),
            FilterMark::Vetted
        );
        // Both offsets and verdicts on text (a newer default-mode chunk) is still vetted text.
        assert_eq!(
            of(json!({"choices": [{"content_filter_offsets": {}, "content_filter_results": safe, "delta": {"content": "x"}}]}), true),
            FilterMark::Vetted
        );
        assert_eq!(
            of(json!({"choices": [{"content_filter_offsets": {"check_offset": 44}, "content_filter_results": safe}]}), false),
            FilterMark::Annotation
        );
    }

    #[test]
    fn empty_verdicts_and_plain_chunks_are_unmarked() {
        // The role chunk of a filtered stream carries an empty object; a plain OpenAI chunk nothing.
        assert_eq!(of(json!({"choices": [{"content_filter_results": {}, "delta": {"role": "assistant"}}]}), false), FilterMark::None);
        assert_eq!(of(json!({"choices": [{"content_filter_results": {}, "delta": {"content": "a"}}]}), true), FilterMark::None);
        assert_eq!(of(json!({"choices": [{"delta": {"content": "a"}}]}), true), FilterMark::None);
        assert_eq!(of(json!({"choices": [{"content_filter_results": "x", "delta": {"content": "a"}}]}), true), FilterMark::None);
    }

    #[test]
    fn the_share_of_vetted_text_decides_the_mode() {
        let marks = |prompt, vetted_content, annotations| FilterMarks { prompt, vetted_content, annotations };
        assert_eq!(marks(0, 0, 0).seen(10), None);
        assert_eq!(marks(1, 10, 0).seen(10).unwrap().mode, FilterMode::Batched);
        assert_eq!(marks(1, 5, 0).seen(10).unwrap().mode, FilterMode::Batched);
        assert_eq!(marks(1, 4, 0).seen(10).unwrap().mode, FilterMode::TextUnmarked);
        assert_eq!(marks(1, 0, 3).seen(10).unwrap().mode, FilterMode::Asynchronous);
        assert_eq!(marks(1, 0, 0).seen(10).unwrap().mode, FilterMode::TextUnmarked);
        let seen = marks(1, 6, 2).seen(10).unwrap();
        assert_eq!((seen.mode, seen.vetted_content_events, seen.annotation_events), (FilterMode::Batched, 6, 2));
        // Reasoning alone is not counted as vetted text.
        let mut counted = FilterMarks::default();
        counted.count(FilterMark::Vetted, false);
        counted.count(FilterMark::Vetted, true);
        counted.count(FilterMark::Annotation, false);
        counted.count(FilterMark::Prompt, false);
        counted.count(FilterMark::None, true);
        assert_eq!(counted, marks(1, 1, 1));
    }
}
