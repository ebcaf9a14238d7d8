//! The stream dialects the lab can speak (`dialect=` or a native path), their Content-Types and paths.

/// The wire format of a timed stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireDialect {
    /// OpenAI chat-completions chunks (the default; see [`crate::scenarios::chunks`]).
    OpenaiChat,
    /// OpenAI Responses API events.
    Responses,
    /// Anthropic Messages events.
    Anthropic,
    /// Ollama `/api/chat` JSON lines.
    OllamaChat,
    /// Ollama `/api/generate` JSON lines.
    OllamaGenerate,
    /// Gemini `streamGenerateContent?alt=sse` chunks.
    Gemini,
    /// Cohere v2 chat events (`POST /v2/chat`).
    Cohere,
    /// Cohere v1's chat stream (`POST /v1/chat`): JSON lines with `is_finished`, `application/stream+json`.
    CohereV1,
    /// Cloudflare Workers AI's own stream (`{"response": …}` events, `[DONE]`).
    WorkersAi,
    /// llama.cpp's own completion stream (`POST /completion`).
    LlamaCpp,
    /// Text Generation Inference's own stream (`POST /generate_stream`).
    Tgi,
    /// Gemini's chunks as one streamed JSON array (`streamGenerateContent` without `alt=sse`).
    GeminiArray,
    /// Dify's streaming API (`POST /v1/chat-messages`).
    Dify,
    /// The AG-UI protocol (an agent's run: `TEXT_MESSAGE_CONTENT` events, `RUN_FINISHED`).
    AgUi,
    /// LangGraph's run stream (`event: messages` tuples, `event: end`).
    LangGraph,
    /// LangGraph's run stream with `stream_mode` `messages` (`messages/partial` with the whole message so
    /// far, `messages/complete`, `event: end`).
    LangGraphPartial,
    /// LangServe's `/stream` of a chat model (`event: data` message chunks, CRLF lines, an `event: end`
    /// without data).
    LangServe,
    /// LangServe's `/stream` of a chain whose output is text (`prompt | model | StrOutputParser()`): each
    /// piece a JSON string in an `event: data`, no counts and no stop reason.
    LangServeText,
    /// The Vercel AI SDK's UI message stream (what `toUIMessageStreamResponse()` sends `useChat`).
    AiSdk,
    /// AI SDK 4's data stream protocol (`toDataStreamResponse()`: `0:"text"` lines, as `text/plain`).
    AiSdkDataStream,
    /// A hand-written backend's JSON events (`{"type": "token", "content": …}`, then one with `done`,
    /// `finish_reason` and `usage`), which no API's dialect claims.
    JsonText,
    /// Replicate's prediction stream: the text in `event: output`, then `event: done` with `{}`.
    Replicate,
    /// SSE whose data is the plain token text.
    SseText,
}

impl WireDialect {
    /// Reads a `dialect=` value (`openai-chat`, `responses`, `anthropic`, `ollama-chat`,
    /// `ollama-generate`, `gemini`, `cohere`, `workers-ai`, `llama-cpp`, `tgi`, `ai-sdk`, `ai-sdk-4`, `gemini-array`, `dify`, `ag-ui`, `langgraph`, `langgraph-partial`, `langserve`, `langserve-text`, `cohere-v1`, `replicate`, `json-text`, `sse-text`).
    pub fn parse(value: &str) -> Result<Self, String> {
        Ok(match value {
            "openai-chat" | "openai" | "chat" => Self::OpenaiChat,
            "responses" | "openai-responses" => Self::Responses,
            "anthropic" => Self::Anthropic,
            "ollama-chat" | "ollama" => Self::OllamaChat,
            "ollama-generate" => Self::OllamaGenerate,
            "gemini" => Self::Gemini,
            "cohere" => Self::Cohere,
            "cohere-v1" => Self::CohereV1,
            "workers-ai" => Self::WorkersAi,
            "llama-cpp" => Self::LlamaCpp,
            "tgi" => Self::Tgi,
            "ai-sdk" => Self::AiSdk,
            "ai-sdk-4" => Self::AiSdkDataStream,
            "gemini-array" => Self::GeminiArray,
            "dify" => Self::Dify,
            "ag-ui" => Self::AgUi,
            "langgraph" => Self::LangGraph,
            "langgraph-partial" => Self::LangGraphPartial,
            "langserve" => Self::LangServe,
            "langserve-text" => Self::LangServeText,
            "replicate" => Self::Replicate,
            "json-text" => Self::JsonText,
            "sse-text" => Self::SseText,
            other => return Err(format!(
                "unknown dialect {other:?}; use openai-chat, responses, anthropic, ollama-chat, \
                     ollama-generate, gemini, cohere, workers-ai, llama-cpp, tgi, ai-sdk, ai-sdk-4, gemini-array, dify, ag-ui, langgraph, langgraph-partial, langserve, langserve-text, cohere-v1, replicate, json-text or sse-text"
            )),
        })
    }

    /// The dialect a native API path speaks: `/v1/responses`, `/v1/messages`, `/api/chat`,
    /// `/api/generate`, `/v2/chat`, `/completion`, `/generate_stream`, `/v1/chat-messages`, `/v1beta/models/{model}:streamGenerateContent`.
    pub fn for_path(path: &str) -> Option<Self> {
        match path {
            "/v1/responses" => Some(Self::Responses),
            "/v1/messages" => Some(Self::Anthropic),
            "/api/chat" => Some(Self::OllamaChat),
            "/api/generate" => Some(Self::OllamaGenerate),
            "/v2/chat" => Some(Self::Cohere),
            "/completion" => Some(Self::LlamaCpp),
            "/generate_stream" => Some(Self::Tgi),
            "/v1/chat-messages" => Some(Self::Dify),
            _ if path.starts_with("/v1beta/models/")
                && path.ends_with(":streamGenerateContent") =>
            {
                Some(Self::Gemini)
            }
            _ => None,
        }
    }

    /// The response's Content-Type.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::OllamaChat | Self::OllamaGenerate => "application/x-ndjson",
            Self::CohereV1 => "application/stream+json",
            Self::AiSdkDataStream => "text/plain; charset=utf-8",
            Self::GeminiArray => "application/json; charset=UTF-8",
            _ => "text/event-stream",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_paths_and_content_types() {
        assert_eq!(WireDialect::parse("responses"), Ok(WireDialect::Responses));
        assert_eq!(
            WireDialect::parse("ollama-generate"),
            Ok(WireDialect::OllamaGenerate)
        );
        assert!(WireDialect::parse("bedrock").is_err());
        assert_eq!((WireDialect::parse("cohere"), WireDialect::for_path("/v2/chat")), (Ok(WireDialect::Cohere), Some(WireDialect::Cohere)));
        assert_eq!(WireDialect::parse("workers-ai"), Ok(WireDialect::WorkersAi));
        assert_eq!(WireDialect::parse("cohere-v1").map(WireDialect::content_type), Ok("application/stream+json"));
        assert_eq!(WireDialect::parse("replicate"), Ok(WireDialect::Replicate));
        assert_eq!(WireDialect::parse("json-text"), Ok(WireDialect::JsonText));
        assert_eq!((WireDialect::parse("llama-cpp"), WireDialect::for_path("/completion")), (Ok(WireDialect::LlamaCpp), Some(WireDialect::LlamaCpp)));
        assert_eq!((WireDialect::parse("tgi"), WireDialect::for_path("/generate_stream")), (Ok(WireDialect::Tgi), Some(WireDialect::Tgi)));
        assert_eq!(WireDialect::parse("ai-sdk"), Ok(WireDialect::AiSdk));
        assert_eq!(WireDialect::parse("ag-ui"), Ok(WireDialect::AgUi));
        assert_eq!(WireDialect::parse("langgraph"), Ok(WireDialect::LangGraph));
        assert_eq!(WireDialect::parse("langgraph-partial"), Ok(WireDialect::LangGraphPartial));
        assert_eq!(WireDialect::parse("langserve"), Ok(WireDialect::LangServe));
        assert_eq!(WireDialect::parse("langserve-text"), Ok(WireDialect::LangServeText));
        assert_eq!((WireDialect::parse("dify"), WireDialect::for_path("/v1/chat-messages")), (Ok(WireDialect::Dify), Some(WireDialect::Dify)));
        assert_eq!(WireDialect::AiSdkDataStream.content_type(), "text/plain; charset=utf-8");
        assert_eq!(WireDialect::parse("gemini-array").map(WireDialect::content_type), Ok("application/json; charset=UTF-8"));
        assert_eq!(
            WireDialect::for_path("/v1beta/models/gemini-2.5-flash:streamGenerateContent"),
            Some(WireDialect::Gemini)
        );
        assert_eq!(
            WireDialect::for_path("/v1/messages"),
            Some(WireDialect::Anthropic)
        );
        assert_eq!(WireDialect::for_path("/v1/chat/completions"), None);
        assert_eq!(
            WireDialect::OllamaChat.content_type(),
            "application/x-ndjson"
        );
        assert_eq!(WireDialect::Gemini.content_type(), "text/event-stream");
    }
}
