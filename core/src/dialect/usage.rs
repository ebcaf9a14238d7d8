//! Token usage and prompt-cache figures a server reports in its stream.
//!
//! Every dialect is read into the same [`Usage`], in OpenAI's sense: `prompt_tokens` is the whole prompt
//! (cached or not), `completion_tokens` everything generated (reasoning included), `reasoning_tokens` the
//! reasoning part of it. Dialects that report in several messages (Anthropic `message_start` then
//! `message_delta`, Gemini on every chunk) are combined with [`Usage::merge`].
//!
//! What counts as a count ([`as_count`]): a count is whatever a server sent, so it is read strictly and
//! combined without overflow (the bug this guards: `input_tokens + cache_read_input_tokens` of a
//! `u64::MAX` usage panicked in a debug build and wrapped to a small number in a release build).
//!
//! - A JSON integer from 0 to `u64::MAX` is taken as it is.
//! - A float is taken only when it is exact: finite, not negative, without a fraction and at most
//!   2^53 ([`MAX_EXACT_FLOAT_COUNT`], the range where every integer is exactly a float): `12.0` is 12,
//!   while `1e30` is ignored (past 2^53 the number is not the count the server meant).
//! - Anything else is not a count and is ignored, as if the field were absent: a negative number
//!   (`-1`), a fraction (`12.5`), a string (`"12"`: no API sends one, and guessing would hide a broken
//!   server), `null`, `true`, an array or an object.
//!
//! Counts derived from several fields (Anthropic's prompt = `input_tokens` + both cache fields, Gemini's
//! completion = candidates + thoughts, Anthropic's and Ollama's `total_tokens`) use [`checked_sum`] or
//! `checked_add`: a sum past `u64::MAX` is no count either, so the derived field is left out (`None`),
//! never wrapped nor pinned at the maximum. Differences saturate at 0 ([`Usage::answer_tokens`], the
//! cache figures); sums over runs saturate ([`crate::report::runs`]).

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

/// The largest float taken as a count: 2^53, below which every integer is exactly a float.
pub const MAX_EXACT_FLOAT_COUNT: f64 = 9_007_199_254_740_992.0;

/// A JSON value as a token count, `None` when it is not one (see the module docs: non-negative
/// integers up to `u64::MAX`, integral floats up to [`MAX_EXACT_FLOAT_COUNT`]; never a string).
pub fn as_count(v: Option<&Value>) -> Option<u64> {
    let v = v?;
    if let Some(n) = v.as_u64() {
        return Some(n);
    }
    // `as_f64` is also `Some` for a negative integer: the filter refuses it like any negative float.
    v.as_f64()
        .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0 && *f <= MAX_EXACT_FLOAT_COUNT)
        .map(|f| f as u64)
}

/// The sum of the counts that are present, `None` when none is or when the sum passes `u64::MAX` (a
/// sum that does not fit is no count: it is left out, never wrapped).
pub fn checked_sum(counts: &[Option<u64>]) -> Option<u64> {
    let mut sum = None;
    for &n in counts {
        if let Some(n) = n {
            sum = Some(sum.unwrap_or(0u64).checked_add(n)?);
        }
    }
    sum
}

impl Usage {
    /// The usage of a prompt and an answer counted (their total derived, see [`checked_sum`]); `None`
    /// when neither is a count.
    #[inline(never)]
    pub fn of_counts(prompt: Option<u64>, completion: Option<u64>) -> Option<Usage> {
        (prompt.is_some() || completion.is_some()).then(|| Usage {
            prompt_tokens: prompt,
            completion_tokens: completion,
            total_tokens: prompt.zip(completion).and_then(|(p, c)| p.checked_add(c)),
            ..Usage::default()
        })
    }

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

    /// Regression: a usage of `u64::MAX` made the adapters' sums panic (debug) or wrap (release).
    #[test]
    fn u64_max_usage_sums_never_overflow_in_any_adapter() {
        let max = u64::MAX;
        let anthropic = crate::dialect::anthropic::usage(
            &json!({"input_tokens": max, "cache_read_input_tokens": max, "cache_creation_input_tokens": 1,
                "output_tokens": max}),
            true,
        )
        .unwrap();
        assert_eq!(anthropic.prompt_tokens, None, "a prompt sum past u64::MAX is no count");
        assert_eq!(anthropic.total_tokens, None);
        assert_eq!((anthropic.completion_tokens, anthropic.cache_read_input_tokens), (Some(max), Some(max)));
        let gemini = crate::dialect::gemini::usage(&json!({"candidatesTokenCount": max, "thoughtsTokenCount": 2}))
            .unwrap();
        assert_eq!((gemini.completion_tokens, gemini.reasoning_tokens), (None, Some(2)));
        let ollama = crate::dialect::ollama::line_facts(&json!({"done": true, "prompt_eval_count": max,
            "eval_count": max}))
        .usage
        .unwrap();
        assert_eq!((ollama.prompt_tokens, ollama.completion_tokens, ollama.total_tokens), (Some(max), Some(max), None));
        // Sums that fit are still made, up to u64::MAX exactly.
        let fits = crate::dialect::anthropic::usage(&json!({"input_tokens": max - 5, "cache_read_input_tokens": 5}), false)
            .unwrap();
        assert_eq!(fits.prompt_tokens, Some(max));
        let u = Usage { completion_tokens: Some(max), reasoning_tokens: Some(max), ..Usage::default() };
        assert_eq!(u.answer_tokens(), Some(max));
    }

    /// Regression: odd usage values (huge, negative, strings, null, fractions) must be ignored or taken
    /// exactly, never wrapped nor guessed.
    #[test]
    fn odd_usage_values_are_ignored_or_taken_exactly() {
        let count = |v: Value| as_count(Some(&v));
        assert_eq!(count(json!(1e30)), None, "beyond 2^53 a float is not an exact count");
        assert_eq!(count(json!(-1)), None);
        assert_eq!(count(json!(-1.0)), None);
        assert_eq!(count(json!("12")), None, "a string is not a count");
        assert_eq!(count(Value::Null), None);
        assert_eq!(count(json!(12.5)), None, "a fraction is not a count");
        assert_eq!(count(json!(true)), None);
        assert_eq!(count(json!([12])), None);
        assert_eq!(count(json!(12.0)), Some(12));
        assert_eq!(count(json!(-0.0)), Some(0));
        assert_eq!(count(json!(u64::MAX)), Some(u64::MAX), "an integer is exact up to u64::MAX");
        assert_eq!(count(json!(MAX_EXACT_FLOAT_COUNT)), Some(1 << 53));
        assert_eq!(count(json!(MAX_EXACT_FLOAT_COUNT * 2.0)), None);
        assert_eq!(count(json!(f64::MAX)), None);
        // From stream text, where serde_json decides integer or float: past u64::MAX it is a float.
        let parsed = |text: &str| count(serde_json::from_str(text).unwrap());
        assert_eq!(parsed("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parsed("18446744073709551616"), None);
        assert_eq!(parsed("1e30"), None);
        assert_eq!(parsed("12.000"), Some(12));
        // Ignored values leave the field absent, and a usage of nothing but ignored values is no usage.
        assert_eq!(Usage::from_openai(&json!({"prompt_tokens": "12", "completion_tokens": null,
            "total_tokens": 1e30, "prompt_tokens_details": {"cached_tokens": -1}})), None);
        let u = Usage::from_openai(&json!({"prompt_tokens": 12.5, "completion_tokens": 7})).unwrap();
        assert_eq!((u.prompt_tokens, u.completion_tokens), (None, Some(7)));
    }

    #[test]
    fn checked_sum_of_present_counts() {
        assert_eq!(checked_sum(&[None, None]), None);
        assert_eq!(checked_sum(&[Some(1), None, Some(2)]), Some(3));
        assert_eq!(checked_sum(&[Some(u64::MAX), Some(0)]), Some(u64::MAX));
        assert_eq!(checked_sum(&[Some(u64::MAX), Some(1)]), None);
    }
}
