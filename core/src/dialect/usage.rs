//! Token usage and prompt-cache figures a server reports in its stream.
//!
//! Every dialect is read into the same [`Usage`], in OpenAI's sense: `prompt_tokens` is the whole prompt
//! (cached or not), `completion_tokens` everything generated (reasoning included), `reasoning_tokens` the
//! reasoning part of it. Dialects that report in several messages (Anthropic `message_start` then
//! `message_delta`, Gemini on every chunk) are combined with [`Usage::merge`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Token counts reported by the server (OpenAI `usage`, DeepSeek cache fields, Ollama counters, Responses,
/// Anthropic and Gemini usage).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Usage {
    /// Tokens in the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Tokens generated (on reasoning models this usually includes the reasoning tokens).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    /// Prompt plus completion tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// DeepSeek: prompt tokens served from the prefix cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_cache_hit_tokens: Option<u64>,
    /// DeepSeek: prompt tokens not found in the prefix cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_cache_miss_tokens: Option<u64>,
    /// OpenAI: `prompt_tokens_details.cached_tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached_tokens: Option<u64>,
    /// OpenAI: `completion_tokens_details.reasoning_tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    /// Anthropic: prompt tokens read from the prompt cache (`cache_read_input_tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_input_tokens: Option<u64>,
    /// Anthropic: prompt tokens written to the prompt cache (`cache_creation_input_tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_creation_input_tokens: Option<u64>,
}

/// A JSON number as a token count (non-negative integers; integral floats such as `12.0` accepted).
pub(crate) fn as_count(v: Option<&Value>) -> Option<u64> {
    let v = v?;
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    })
}

impl Usage {
    /// Reads an OpenAI-style `usage` object; `None` when it is not an object (many servers send
    /// `"usage": null` on every chunk) or carries no count at all.
    pub fn from_openai(v: &Value) -> Option<Usage> {
        let obj = v.as_object()?;
        let u = Usage {
            prompt_tokens: as_count(obj.get("prompt_tokens")),
            completion_tokens: as_count(obj.get("completion_tokens")),
            total_tokens: as_count(obj.get("total_tokens")),
            prompt_cache_hit_tokens: as_count(obj.get("prompt_cache_hit_tokens")),
            prompt_cache_miss_tokens: as_count(obj.get("prompt_cache_miss_tokens")),
            cached_tokens: as_count(v.pointer("/prompt_tokens_details/cached_tokens")),
            reasoning_tokens: as_count(v.pointer("/completion_tokens_details/reasoning_tokens")),
            ..Usage::default()
        };
        (!u.is_empty()).then_some(u)
    }

    /// Takes every count `newer` carries and keeps the others (later reports are cumulative).
    pub fn merge(&mut self, newer: &Usage) {
        let fields = [
            (&mut self.prompt_tokens, newer.prompt_tokens),
            (&mut self.completion_tokens, newer.completion_tokens),
            (&mut self.total_tokens, newer.total_tokens),
            (
                &mut self.prompt_cache_hit_tokens,
                newer.prompt_cache_hit_tokens,
            ),
            (
                &mut self.prompt_cache_miss_tokens,
                newer.prompt_cache_miss_tokens,
            ),
            (&mut self.cached_tokens, newer.cached_tokens),
            (&mut self.reasoning_tokens, newer.reasoning_tokens),
            (
                &mut self.cache_read_input_tokens,
                newer.cache_read_input_tokens,
            ),
            (
                &mut self.cache_creation_input_tokens,
                newer.cache_creation_input_tokens,
            ),
        ];
        for (old, new) in fields {
            if new.is_some() {
                *old = new;
            }
        }
    }

    /// The tokens of answer text: `completion_tokens` less `reasoning_tokens` when both are known (and
    /// the difference is positive), else `completion_tokens`.
    pub fn answer_tokens(&self) -> Option<u64> {
        let completion = self.completion_tokens?;
        match self.reasoning_tokens {
            Some(r) if r < completion => Some(completion - r),
            _ => Some(completion),
        }
    }

    /// Whether no count at all is present.
    pub fn is_empty(&self) -> bool {
        *self == Usage::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deepseek_usage_with_cache_fields() {
        let u = Usage::from_openai(&json!({
            "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120,
            "prompt_cache_hit_tokens": 80, "prompt_cache_miss_tokens": 20,
            "completion_tokens_details": {"reasoning_tokens": 5}
        }))
        .unwrap();
        assert_eq!(u.prompt_cache_hit_tokens, Some(80));
        assert_eq!(u.prompt_cache_miss_tokens, Some(20));
        assert_eq!(u.reasoning_tokens, Some(5));
        assert_eq!(u.cached_tokens, None);
    }

    #[test]
    fn openai_usage_with_cached_tokens() {
        let u = Usage::from_openai(&json!({
            "prompt_tokens": 2006, "completion_tokens": 300, "total_tokens": 2306,
            "prompt_tokens_details": {"cached_tokens": 1920}
        }))
        .unwrap();
        assert_eq!(
            (u.prompt_tokens, u.cached_tokens, u.completion_tokens),
            (Some(2006), Some(1920), Some(300))
        );
    }

    #[test]
    fn null_or_empty_usage_is_none() {
        assert_eq!(Usage::from_openai(&Value::Null), None);
        assert_eq!(Usage::from_openai(&json!({})), None);
        assert_eq!(Usage::from_openai(&json!({"prompt_tokens": "many"})), None);
    }

    #[test]
    fn merge_keeps_earlier_counts_and_takes_newer_ones() {
        let mut u = Usage {
            prompt_tokens: Some(30),
            cache_read_input_tokens: Some(20),
            completion_tokens: Some(1),
            ..Usage::default()
        };
        u.merge(&Usage {
            completion_tokens: Some(42),
            ..Usage::default()
        });
        assert_eq!(
            (
                u.prompt_tokens,
                u.cache_read_input_tokens,
                u.completion_tokens
            ),
            (Some(30), Some(20), Some(42))
        );
    }

    #[test]
    fn answer_tokens_leave_reasoning_out() {
        let u = Usage {
            completion_tokens: Some(50),
            reasoning_tokens: Some(20),
            ..Usage::default()
        };
        assert_eq!(u.answer_tokens(), Some(30));
        let all_reasoning = Usage {
            completion_tokens: Some(5),
            reasoning_tokens: Some(5),
            ..Usage::default()
        };
        assert_eq!(all_reasoning.answer_tokens(), Some(5));
        assert_eq!(Usage::default().answer_tokens(), None);
    }

    #[test]
    fn integral_float_counts_are_accepted() {
        assert_eq!(
            Usage::from_openai(&json!({"completion_tokens": 12.0}))
                .unwrap()
                .completion_tokens,
            Some(12)
        );
        assert_eq!(Usage::from_openai(&json!({"completion_tokens": -1})), None);
    }
}
