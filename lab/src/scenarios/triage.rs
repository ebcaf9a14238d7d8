//! Failure scenarios of `/v1/chat/completions` for triage, from query parameters:
//!
//! | query | meaning |
//! |---|---|
//! | `status=N` | answer N (400-599) with an error body (see [`crate::scenarios::settings`]) |
//! | `error_style` | `openai` (default), `deepseek` or `anthropic`: the error body's shape |
//! | `retry_after=S` | `Retry-After: S` on a 429 (and 503; default 1) |
//! | `error_body=0` | with `status`, an empty body instead (a gateway that answers with the status alone) |
//! | `html_error=N` | nginx's HTML error page with status N (400-599), `Server: nginx/…` |
//! | `require_key=1` | 401 unless `Authorization: Bearer sk-lab` |
//! | `echo_key=1` | 401 whose error message quotes the `Authorization` header it got (servers that echo the key) |
//! | `model_check=1` | 404 (DeepSeek style: 400) "The model `x` does not exist" unless the body's model is one of `/v1/models`' ids |
//! | `cors=0` | no CORS headers at all, on this response and on its preflight |
//!
//! Checked in that order after the stream settings: `html_error`, `require_key`, `model_check`, `status`.

use crate::scenarios::errors::{nginx_page, ErrorStyle, NGINX_SERVER};
use crate::http::query::Query;
use crate::http::request::Request;
use crate::http::response::Fixed;
use crate::scenarios::settings::StreamSettings;

/// The model ids `/v1/models` lists (and `model_check=1` accepts).
pub const MODEL_IDS: &[&str] = &["streamscope-lab", "lab-10ms", "lab-40ms"];

/// The only API key `require_key=1` accepts.
pub const LAB_KEY: &str = "sk-lab";

/// Whether `cors=0` asks for a response without any CORS header.
pub fn cors_off(query: &Query) -> bool {
    matches!(query.get("cors"), Some("0" | "false" | "no" | "off"))
}

/// The triage parameters of one request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Triage {
    /// Error body shape.
    pub style: ErrorStyle,
    /// `Retry-After` value for 429 and 503, in seconds.
    pub retry_after_s: Option<u64>,
    /// Status of an nginx-style HTML error page.
    pub html_error: Option<u16>,
    /// Refuse requests without the lab key.
    pub require_key: bool,
    /// Refuse models `/v1/models` does not list.
    pub model_check: bool,
    /// Answer 401 quoting the key that was sent.
    pub echo_key: bool,
    /// `error_body=0`: a forced status comes with an empty body.
    pub empty_error_body: bool,
}

impl Triage {
    /// Reads the parameters; the error is a message for a 400.
    pub fn from_query(query: &Query) -> Result<Triage, String> {
        let style = query.get("error_style").map_or(Ok(ErrorStyle::Openai), ErrorStyle::parse)?;
        let retry_after_s = match query.get("retry_after") {
            None => None,
            Some(raw) => Some(raw.trim().parse::<u64>().map_err(|_| format!("retry_after must be seconds, not {raw:?}"))?),
        };
        let html_error = match query.get("html_error") {
            None => None,
            Some(raw) => match raw.trim().parse::<u16>() {
                Ok(code @ 400..=599) => Some(code),
                _ => return Err(format!("html_error must be 400-599, not {raw:?}")),
            },
        };
        let on = |key: &str| match query.get(key) {
            None | Some("0" | "false" | "no" | "off") => Ok(false),
            Some("1" | "true" | "yes" | "on" | "") => Ok(true),
            Some(raw) => Err(format!("{key} must be 0 or 1, not {raw:?}")),
        };
        Ok(Triage {
            style,
            retry_after_s,
            html_error,
            require_key: on("require_key")?,
            model_check: on("model_check")?,
            echo_key: on("echo_key")?,
            empty_error_body: query.get("error_body").is_some() && !on("error_body")?,
        })
    }

    /// The error answer these parameters call for, or `None` to go on and stream.
    pub fn answer(&self, request: &Request, settings: &StreamSettings) -> Option<Fixed> {
        if let Some(status) = self.html_error {
            return Some(
                Fixed::new(status, "text/html", nginx_page(status)).with_header("Server", NGINX_SERVER),
            );
        }
        if self.echo_key {
            let sent = request.header("authorization").unwrap_or("(none)");
            return Some(self.error(401, &format!("Incorrect API key provided: {sent}. You can find your API key at https://lab.example/keys.")));
        }
        if self.require_key && request.header("authorization") != Some(&format!("Bearer {LAB_KEY}")) {
            return Some(
                self.error(401, &self.style.bad_key()).with_header("WWW-Authenticate", "Bearer realm=\"streamscope-lab\""),
            );
        }
        if self.model_check && !MODEL_IDS.contains(&settings.model.as_str()) {
            let (status, body) = self.style.model_not_found(&settings.model);
            return Some(Fixed::json(status, &body));
        }
        settings.status.map(|status| match self.empty_error_body {
            true => self.with_retry_after(status, Fixed::new(status, "text/plain", Vec::new())),
            false => self.error(status, &format!("streamscope lab: forced status {status} (status={status} in the query)")),
        })
    }

    fn error(&self, status: u16, message: &str) -> Fixed {
        self.with_retry_after(status, Fixed::json(status, &self.style.body(status, message)))
    }

    fn with_retry_after(&self, status: u16, response: Fixed) -> Fixed {
        if status == 429 || status == 503 {
            response.with_header("Retry-After", self.retry_after_s.unwrap_or(1).to_string())
        } else {
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses_bad_values() {
        let t = Triage::from_query(&Query::parse("error_style=anthropic&retry_after=7&html_error=502&require_key=1&model_check=1")).unwrap();
        assert_eq!(
            t,
            Triage {
                style: ErrorStyle::Anthropic,
                retry_after_s: Some(7),
                html_error: Some(502),
                require_key: true,
                model_check: true,
                echo_key: false,
                empty_error_body: false,
            }
        );
        assert_eq!(Triage::from_query(&Query::parse("")).unwrap(), Triage::default());
        assert!(Triage::from_query(&Query::parse("error_body=0")).unwrap().empty_error_body);
        assert!(!Triage::from_query(&Query::parse("error_body=1")).unwrap().empty_error_body);
        for bad in ["error_style=x", "retry_after=-1", "html_error=200", "html_error=x", "require_key=2", "model_check=maybe", "error_body=2"] {
            assert!(Triage::from_query(&Query::parse(bad)).is_err(), "{bad}");
        }
        assert!(cors_off(&Query::parse("cors=0")) && !cors_off(&Query::parse("cors=1")) && !cors_off(&Query::parse("")));
    }
}
