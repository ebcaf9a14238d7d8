//! Prompt-cache figures of one run, from the usage the server reported: DeepSeek's hit/miss fields,
//! OpenAI's (and Responses', Gemini's) `cached_tokens` out of the prompt, Anthropic's cache reads.

use serde::{Deserialize, Serialize};

use crate::dialect::{Dialect, Usage};

/// Which usage fields the cache figures came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheSource {
    /// DeepSeek `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`.
    Deepseek,
    /// OpenAI `prompt_tokens_details.cached_tokens` out of `prompt_tokens`.
    Openai,
    /// OpenAI Responses `input_tokens_details.cached_tokens` out of `input_tokens`.
    #[serde(rename = "openai-responses")]
    OpenaiResponses,
    /// Anthropic: hit = `cache_read_input_tokens`; miss = `input_tokens` + `cache_creation_input_tokens`
    /// (tokens written to the cache were not served from it).
    Anthropic,
    /// Gemini `cachedContentTokenCount` out of `promptTokenCount`.
    Gemini,
}

read_by_name!(CacheSource {
    Deepseek = "deepseek",
    Openai = "openai",
    OpenaiResponses = "openai-responses",
    Anthropic = "anthropic",
    Gemini = "gemini",
});

impl CacheSource {
    /// The shortest prompt, in tokens, this provider caches at all: below it every request misses, and
    /// a low hit ratio says nothing about the prompt. DeepSeek caches in 64-token units; OpenAI's
    /// prompt caching, Anthropic's cache breakpoints and Gemini's implicit caching start at 1024 tokens
    /// (some models need more).
    pub fn min_cacheable_prompt_tokens(self) -> u64 {
        match self {
            CacheSource::Deepseek => 64,
            CacheSource::Openai | CacheSource::OpenaiResponses | CacheSource::Anthropic | CacheSource::Gemini => 1024,
        }
    }
}

/// Prompt-cache figures of one run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CacheStats {
    /// Prompt tokens served from the cache.
    pub hit_tokens: u64,
    /// Prompt tokens not served from the cache.
    pub miss_tokens: u64,
    /// hit / (hit + miss), `None` when both are zero.
    pub hit_ratio: Option<f64>,
    /// Which fields the figures came from.
    pub source: CacheSource,
}

impl CacheStats {
    /// Cache figures from a usage report: DeepSeek's hit/miss fields, else OpenAI's `cached_tokens` out of
    /// `prompt_tokens`; `None` when the server reported neither.
    pub fn from_usage(usage: &Usage) -> Option<CacheStats> {
        if usage.cache_read_input_tokens.is_some() || usage.cache_creation_input_tokens.is_some() {
            let hit = usage.cache_read_input_tokens.unwrap_or(0);
            let miss = match usage.prompt_tokens {
                Some(prompt) => prompt.saturating_sub(hit),
                None => usage.cache_creation_input_tokens.unwrap_or(0),
            };
            return Some(CacheStats::of(hit, miss, CacheSource::Anthropic));
        }
        let (hit, miss, source) = match (
            usage.prompt_cache_hit_tokens,
            usage.prompt_cache_miss_tokens,
        ) {
            (Some(h), Some(m)) => (h, m, CacheSource::Deepseek),
            (Some(h), None) => (
                h,
                usage.prompt_tokens.unwrap_or(h).saturating_sub(h),
                CacheSource::Deepseek,
            ),
            (None, Some(m)) => (
                usage.prompt_tokens.unwrap_or(m).saturating_sub(m),
                m,
                CacheSource::Deepseek,
            ),
            (None, None) => {
                let cached = usage.cached_tokens?;
                let prompt = usage.prompt_tokens.unwrap_or(cached);
                (cached, prompt.saturating_sub(cached), CacheSource::Openai)
            }
        };
        Some(CacheStats::of(hit, miss, source))
    }

    /// Like [`CacheStats::from_usage`], naming the source after the dialect that reported
    /// `cached_tokens` (OpenAI chat, Responses or Gemini all use that field).
    pub fn from_usage_in(usage: &Usage, dialect: Dialect) -> Option<CacheStats> {
        let mut stats = CacheStats::from_usage(usage)?;
        if stats.source == CacheSource::Openai {
            match dialect {
                Dialect::OpenaiResponses => stats.source = CacheSource::OpenaiResponses,
                Dialect::Gemini => stats.source = CacheSource::Gemini,
                _ => {}
            }
        }
        Some(stats)
    }

    fn of(hit: u64, miss: u64, source: CacheSource) -> CacheStats {
        let total = hit.saturating_add(miss);
        CacheStats {
            hit_tokens: hit,
            miss_tokens: miss,
            hit_ratio: (total > 0).then(|| hit as f64 / total as f64),
            source,
        }
    }
}
