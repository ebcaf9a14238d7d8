//! The form's API presets: how each common streaming API is asked for a stream (path, body, how the key
//! is sent), so a person only types a base URL, a model and a prompt.

use serde::Serialize;

/// A streaming API the form can build a request for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApiPreset {
    /// `POST {base}/chat/completions` (OpenAI and every compatible server).
    #[default]
    OpenaiChat,
    /// `POST {base}/responses` (OpenAI Responses API).
    OpenaiResponses,
    /// `POST {base}/messages` (Anthropic Messages).
    Anthropic,
    /// `POST {base}/api/chat` (Ollama).
    Ollama,
    /// `POST {base}/models/{model}:streamGenerateContent?alt=sse` (Gemini).
    Gemini,
}

deserialize_by_name!(ApiPreset => name);

impl ApiPreset {
    /// Every preset, in the form's order.
    pub const ALL: [ApiPreset; 5] =
        [ApiPreset::OpenaiChat, ApiPreset::OpenaiResponses, ApiPreset::Anthropic, ApiPreset::Ollama, ApiPreset::Gemini];

    /// The name used in URLs (`preset=`), e.g. `openai-chat`.
    pub fn name(self) -> &'static str {
        match self {
            ApiPreset::OpenaiChat => "openai-chat",
            ApiPreset::OpenaiResponses => "openai-responses",
            ApiPreset::Anthropic => "anthropic",
            ApiPreset::Ollama => "ollama",
            ApiPreset::Gemini => "gemini",
        }
    }

    /// The preset with this name.
    pub fn from_name(name: &str) -> Option<ApiPreset> {
        ApiPreset::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// An example base URL for the form's placeholder.
    pub fn example_base(self) -> &'static str {
        match self {
            ApiPreset::OpenaiChat | ApiPreset::OpenaiResponses => "https://api.openai.com/v1",
            ApiPreset::Anthropic => "https://api.anthropic.com/v1",
            ApiPreset::Ollama => "http://localhost:11434",
            ApiPreset::Gemini => "https://generativelanguage.googleapis.com/v1beta",
        }
    }

    /// The URL that asks this API for a stream. The base is used as typed except for surrounding
    /// whitespace and trailing slashes (URL mistakes are diagnosed, not repaired).
    pub fn url(self, base: &str, model: &str) -> String {
        let base = base.trim().trim_end_matches('/');
        match self {
            ApiPreset::OpenaiChat => format!("{base}/chat/completions"),
            ApiPreset::OpenaiResponses => format!("{base}/responses"),
            ApiPreset::Anthropic => format!("{base}/messages"),
            ApiPreset::Ollama => format!("{base}/api/chat"),
            ApiPreset::Gemini => format!("{base}/models/{model}:streamGenerateContent?alt=sse"),
        }
    }

    /// The URL ([`ApiPreset::url`]) and JSON body that ask this API for a stream.
    pub fn request(self, base: &str, model: &str, prompt: &str, max_tokens: u32) -> (String, String) {
        let user = [json_object!({"role": "user", "content": prompt})];
        let body = match self {
            ApiPreset::OpenaiChat => json_object!({"model": model, "messages": user, "stream": true,
                "stream_options": json_object!({"include_usage": true}), "max_tokens": max_tokens}),
            ApiPreset::OpenaiResponses => {
                json_object!({"model": model, "input": prompt, "stream": true, "max_output_tokens": max_tokens})
            }
            ApiPreset::Anthropic => json_object!({"model": model, "messages": user, "stream": true, "max_tokens": max_tokens}),
            ApiPreset::Ollama => json_object!({"model": model, "messages": user, "stream": true,
                "options": json_object!({"num_predict": max_tokens})}),
            ApiPreset::Gemini => json_object!({
                "contents": [json_object!({"role": "user", "parts": [json_object!({"text": prompt})]})],
                "generationConfig": json_object!({"maxOutputTokens": max_tokens})}),
        };
        (self.url(base, model), body.to_string())
    }

    /// The headers that carry an API key for this API (none for an empty key) at `url`, plus the fixed
    /// headers the API needs from a browser. On Azure OpenAI's hosts ([`is_azure_openai`]) the key goes in
    /// an `api-key` header, the one way Azure documents for a key on its classic deployment paths (where
    /// `Authorization: Bearer` must carry a Microsoft Entra ID token) and on its v1 paths alike.
    pub fn headers(self, key: &str, url: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        if self == ApiPreset::Anthropic {
            out.push(("anthropic-version".into(), "2023-06-01".into()));
            out.push(("anthropic-dangerous-direct-browser-access".into(), "true".into()));
        }
        if !key.is_empty() {
            out.push(match self {
                ApiPreset::Anthropic => ("x-api-key".into(), key.into()),
                ApiPreset::Gemini => ("x-goog-api-key".into(), key.into()),
                ApiPreset::OpenaiChat | ApiPreset::OpenaiResponses if is_azure_openai(url) => ("api-key".into(), key.into()),
                _ => ("Authorization".into(), format!("Bearer {key}")),
            });
        }
        out
    }
}

/// Whether `url` is on an Azure OpenAI host: `{resource}.openai.azure.com`, `.cognitiveservices.azure.com`
/// or Azure AI Foundry's `.services.ai.azure.com`.
pub fn is_azure_openai(url: &str) -> bool {
    let Some(origin) = crate::secrets::url::origin(url) else { return false };
    let host = origin.rsplit_once(':').filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit())).map_or(origin.as_str(), |(h, _)| h);
    [".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"].iter().any(|s| host.ends_with(s))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use super::*;

    fn body(preset: ApiPreset) -> (String, serde_json::Value) {
        let (url, body) = preset.request(" http://h/v1/ ", "m", "hi", 64);
        (url, serde_json::from_str(&body).unwrap())
    }

    #[test]
    fn each_preset_asks_for_a_stream_its_own_way() {
        let (url, b) = body(ApiPreset::OpenaiChat);
        assert_eq!(url, "http://h/v1/chat/completions");
        assert_eq!((b["stream"].clone(), b["stream_options"]["include_usage"].clone()), (json!(true), json!(true)));
        let (url, b) = body(ApiPreset::OpenaiResponses);
        assert_eq!((url.as_str(), b["input"].as_str(), b["max_output_tokens"].as_u64()), ("http://h/v1/responses", Some("hi"), Some(64)));
        let (url, b) = body(ApiPreset::Anthropic);
        assert_eq!((url.as_str(), b["max_tokens"].as_u64()), ("http://h/v1/messages", Some(64)));
        let (url, b) = body(ApiPreset::Ollama);
        assert_eq!((url.as_str(), b["options"]["num_predict"].as_u64()), ("http://h/v1/api/chat", Some(64)));
        let (url, b) = body(ApiPreset::Gemini);
        assert_eq!(url, "http://h/v1/models/m:streamGenerateContent?alt=sse");
        assert_eq!(b["contents"][0]["parts"][0]["text"], "hi");
    }

    #[test]
    fn keys_travel_in_each_apis_header() {
        let url = "https://api.openai.com/v1/chat/completions";
        assert_eq!(ApiPreset::OpenaiChat.headers("k", url), vec![("Authorization".to_string(), "Bearer k".to_string())]);
        assert!(ApiPreset::Anthropic.headers("k", url).contains(&("x-api-key".into(), "k".into())));
        assert!(ApiPreset::Anthropic.headers("", url).iter().any(|(n, _)| n == "anthropic-version"));
        assert_eq!(ApiPreset::Gemini.headers("k", url), vec![("x-goog-api-key".to_string(), "k".to_string())]);
        assert!(ApiPreset::Ollama.headers("", url).is_empty());
        // Azure OpenAI: an `api-key` header, whatever the path (v1 or a deployment's).
        for azure in [
            "https://my-res.openai.azure.com/openai/v1/chat/completions",
            "https://My-Res.OpenAI.Azure.com:443/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
            "https://my-res.cognitiveservices.azure.com/openai/v1/responses",
            "https://my-hub.services.ai.azure.com/openai/v1/chat/completions",
        ] {
            assert!(is_azure_openai(azure), "{azure}");
            assert_eq!(ApiPreset::OpenaiResponses.headers("k", azure), vec![("api-key".to_string(), "k".to_string())]);
        }
        for other in ["https://openai.azure.com.evil.example/v1", "http://127.0.0.1:8080/openai.azure.com/v1", "not a url"] {
            assert!(!is_azure_openai(other), "{other}");
        }
    }

    #[test]
    fn names_round_trip() {
        for p in ApiPreset::ALL {
            assert_eq!(ApiPreset::from_name(p.name()), Some(p));
            assert_eq!(serde_json::to_value(p).unwrap(), p.name());
        }
        assert_eq!(ApiPreset::from_name("nope"), None);
    }
}
