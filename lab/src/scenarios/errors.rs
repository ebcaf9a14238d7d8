//! Error bodies as real APIs and proxies send them: OpenAI and DeepSeek `{"error":{…}}`, Anthropic
//! `{"type":"error","error":{…}}`, and nginx's HTML error page.

use serde_json::{json, Value};

use crate::http::response::{openai_error, reason};

/// Whose error format a forced error uses (`error_style=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorStyle {
    /// `{"error":{"message","type","param","code"}}`.
    #[default]
    Openai,
    /// The OpenAI shape with DeepSeek's types and messages (`code` is `invalid_request_error`).
    Deepseek,
    /// `{"type":"error","error":{"type","message"}}`.
    Anthropic,
}

impl ErrorStyle {
    /// Reads `openai`, `deepseek` or `anthropic`.
    pub fn parse(raw: &str) -> Result<ErrorStyle, String> {
        match raw {
            "openai" => Ok(ErrorStyle::Openai),
            "deepseek" => Ok(ErrorStyle::Deepseek),
            "anthropic" => Ok(ErrorStyle::Anthropic),
            other => Err(format!("error_style must be openai, deepseek or anthropic, not {other:?}")),
        }
    }

    /// The error body for `status` with `message`, in this style.
    pub fn body(self, status: u16, message: &str) -> Value {
        match self {
            ErrorStyle::Openai => openai_error(status, message),
            ErrorStyle::Deepseek => {
                let kind = match status {
                    401 => "authentication_error",
                    402 => "insufficient_balance",
                    429 => "rate_limit_error",
                    s if s >= 500 => "server_error",
                    _ => "invalid_request_error",
                };
                json!({"error": {"message": message, "type": kind, "param": null, "code": "invalid_request_error"}})
            }
            ErrorStyle::Anthropic => {
                let kind = match status {
                    401 => "authentication_error",
                    403 => "permission_error",
                    404 => "not_found_error",
                    413 => "request_too_large",
                    429 => "rate_limit_error",
                    529 => "overloaded_error",
                    s if s >= 500 => "api_error",
                    _ => "invalid_request_error",
                };
                json!({"type": "error", "error": {"type": kind, "message": message}})
            }
        }
    }

    /// Status and body for a model this server does not have.
    pub fn model_not_found(self, model: &str) -> (u16, Value) {
        match self {
            ErrorStyle::Openai => {
                let message = format!("The model `{model}` does not exist or you do not have access to it.");
                let mut body = self.body(404, &message);
                body["error"]["code"] = json!("model_not_found");
                (404, body)
            }
            ErrorStyle::Deepseek => (400, self.body(400, "Model Not Exist")),
            ErrorStyle::Anthropic => (404, self.body(404, &format!("model: {model}"))),
        }
    }

    /// The message for a missing or wrong API key.
    pub fn bad_key(self) -> String {
        match self {
            ErrorStyle::Openai => {
                "Incorrect API key provided. The lab accepts only `Authorization: Bearer sk-lab`.".to_string()
            }
            ErrorStyle::Deepseek => "Authentication Fails (the lab accepts only Bearer sk-lab)".to_string(),
            ErrorStyle::Anthropic => "invalid x-api-key".to_string(),
        }
    }
}

/// The version nginx signs its pages with.
pub const NGINX_SERVER: &str = "nginx/1.22.1";

/// nginx's own HTML error page for `status`, byte for byte as nginx writes it.
pub fn nginx_page(status: u16) -> String {
    let title = format!("{status} {}", reason(status));
    format!(
        "<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n<center><h1>{title}</h1></center>\r\n\
         <hr><center>{NGINX_SERVER}</center>\r\n</body>\r\n</html>\r\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_shapes() {
        assert_eq!(ErrorStyle::Openai.body(429, "m")["error"]["type"], "rate_limit_error");
        let d = ErrorStyle::Deepseek.body(401, "m");
        assert_eq!((d["error"]["type"].as_str(), d["error"]["code"].as_str()), (Some("authentication_error"), Some("invalid_request_error")));
        let a = ErrorStyle::Anthropic.body(404, "model: x");
        assert_eq!((a["type"].as_str(), a["error"]["type"].as_str()), (Some("error"), Some("not_found_error")));
        assert!(ErrorStyle::parse("gemini").is_err());
    }

    #[test]
    fn nginx_page_has_title_and_signature() {
        let page = nginx_page(502);
        assert!(page.contains("<title>502 Bad Gateway</title>") && page.contains("<center>nginx/1.22.1</center>"));
    }
}
