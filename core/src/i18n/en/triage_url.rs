//! English words of the URL triage.

use crate::i18n::keys::TriageUrlKey as K;

/// The English template of `key`.
pub fn template(key: K) -> &'static str {
    match key {
        K::WhatRequestUrl => "request URL",
        K::WhatBaseUrl => "base URL",
        K::WhitespaceTitle => "Whitespace in the {what}",
        K::WhitespaceInside => "The {what} contains a space, tab or line break inside it; it will be sent percent-encoded (%20) or rejected, and the server will not find the route.",
        K::WhitespaceAround => "The {what} has leading or trailing whitespace (a space or line break pasted with it); the page trims it, but a client or config file may not.",
        K::WhitespaceFix => "Remove the whitespace: {url}",
        K::DoubledTitle => "The URL has /{version}/{version}",
        K::DoubledDetail => "The path {path} repeats /{version}: a base URL that already ends in /{version} plus a client (or proxy) that adds /{version} again. The server has no such route and will answer 404.",
        K::DoubledFix => "Drop one /{version}: {fixed}. In an SDK, set the base URL either with /{version} or without it, as the SDK expects, not both.",
        K::SuffixTitle => "The URL has {suffix} twice",
        K::SuffixDetail => "The path {path} carries an endpoint path twice: a base URL that already ended in an endpoint (…{suffix}) got {suffix} appended again. The server will answer 404.",
        K::SuffixFix => "Use {fixed}; as a base URL give only the part before the endpoint ({base}).",
        K::BaseSuffixTitle => "The base URL already ends in {suffix}",
        K::BaseSuffixDetail => "The preset sends POST {{base}}/chat/completions, so this base gives …{suffix}/chat/completions, which the server does not know (404).",
        K::BaseSuffixFix => "Use the base without the endpoint: {fixed}",
        K::BaseDoubledTitle => "The base URL has /{version}/{version}",
        K::BaseDoubledDetail => "The base path {path} repeats /{version}; the server will answer 404.",
        K::BaseDoubledFix => "Use {fixed}",
        K::SlashEndTitle => "The URL path ends with a slash",
        K::SlashEndDetail => "The path {path} ends with a slash. Some servers answer 404 or redirect (a redirect turns POST into GET or drops the body).",
        K::SlashDoubleTitle => "The URL path has an empty segment (//)",
        K::SlashDoubleDetail => "The path {path} has an empty segment (//). A base URL with a trailing slash was joined with a path that starts with one; many servers do not treat // as /.",
        K::SlashFix => "Write the path exactly as documented (…/v1/chat/completions, no trailing slash, no //).",
        K::MixedTitle => "An http: URL from an https: page",
        K::MixedDetail => "This page was loaded over https:, and browsers block requests from it to plain http: URLs ({origin}) as mixed content, before anything is sent.",
        K::MixedFix => "Serve the endpoint over https: (https://{host}…), or open this page over http: (e.g. run it locally) to test a plain-http endpoint.",
        K::MissingV1Title => "The base URL is missing /v1",
        K::MissingV1Detail => "The request got 404. {base}/models did not answer ({without}) but {url} did (HTTP {status}): this server's API lives under /v1.",
        K::MissingV1NoResponse => "no response",
        K::MissingV1Fix => "Use the base URL {base} (the request then goes to {url}).",
        K::SchemeTitle => "The URL does not start with http:// or https://",
        K::SchemeDetail => "{url} has no http:// or https:// in front. A browser fetches only those: it refuses localhost:8080/… as a URL of an unknown scheme (\"Failed to fetch\", before anything is sent), and reads api.example.com/… as a path on this page's own server.",
        K::SchemeFix => "Write the scheme in front: {fixed}",
    }
}
