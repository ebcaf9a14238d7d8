//! The page URL for a target: the page's address plus the automation contract's query (`url`,
//! `method`, `body`, `vs`, `hops`, `hop_labels`, `repeat`, further page parameters, and `run=1` when
//! no key has to be typed first), every value percent-encoded. Never a secret: the API key is typed
//! into the page, not put here.

use streamscope_core::config::page_config::percent_encode;

use crate::target::Target;

/// The query string (without `?`) that sets up `target`; with `run_on_load`, the page starts the run
/// by itself once loaded.
pub fn query(target: &Target, run_on_load: bool) -> String {
    let mut pairs: Vec<(&str, String)> = vec![("url", target.url.clone())];
    if let Some(method) = &target.method {
        pairs.push(("method", method.clone()));
    }
    if let Some(body) = &target.body {
        pairs.push(("body", body.clone()));
    }
    if let Some(vs) = &target.vs {
        pairs.push(("vs", vs.clone()));
    }
    if !target.hops.is_empty() {
        pairs.push(("hops", target.hops.join(",")));
    }
    if !target.hop_labels.is_empty() {
        pairs.push(("hop_labels", target.hop_labels.join(",")));
    }
    if let Some(repeat) = target.repeat {
        pairs.push(("repeat", repeat.to_string()));
    }
    for (key, value) in &target.page_params {
        pairs.push((key.as_str(), value.clone()));
    }
    if run_on_load {
        pairs.push(("run", "1".into()));
    }
    pairs.iter().map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v))).collect::<Vec<_>>().join("&")
}

/// `page` (the page's address) with `query` added: after an existing query with `&`, before a
/// fragment.
pub fn page_url(page: &str, query: &str) -> String {
    let (base, fragment) = match page.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (page, None),
    };
    let separator = match base.find('?') {
        None => "?",
        Some(at) if at + 1 == base.len() || base.ends_with('&') => "",
        Some(_) => "&",
    };
    let mut url = format!("{base}{separator}{query}");
    if let Some(fragment) = fragment {
        url.push('#');
        url.push_str(fragment);
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::TargetSpec;

    fn target(spec: TargetSpec) -> Target {
        spec.resolve(0).unwrap()
    }

    #[test]
    fn every_value_is_percent_encoded() {
        let t = target(TargetSpec {
            url: Some("http://h:1/v1/chat/completions?tokens=5&a=b+c".into()),
            body: Some("{\"messages\": [{\"content\": \"é & ?\"}]}".into()),
            hops: Some(vec!["http://a/x".into(), "http://b/x".into()]),
            repeat: Some(3),
            page_params: vec![("idle_timeout_s".into(), "2".into())],
            ..TargetSpec::default()
        });
        assert_eq!(
            query(&t, true),
            "url=http%3A%2F%2Fh%3A1%2Fv1%2Fchat%2Fcompletions%3Ftokens%3D5%26a%3Db%2Bc\
             &body=%7B%22messages%22%3A%20%5B%7B%22content%22%3A%20%22%C3%A9%20%26%20%3F%22%7D%5D%7D\
             &hops=http%3A%2F%2Fa%2Fx%2Chttp%3A%2F%2Fb%2Fx&repeat=3&idle_timeout_s=2&run=1"
        );
        assert!(!query(&t, false).contains("run="));
    }

    /// The page reads the query back with the core's own parser: the same request comes out.
    #[test]
    fn the_page_reads_back_what_was_meant() {
        let t = target(TargetSpec {
            url: Some("http://h/x?q=1&r=2".into()),
            method: Some("put".into()),
            body: Some("{\"a\": \"+ %20\"}".into()),
            vs: Some("http://b/x".into()),
            ..TargetSpec::default()
        });
        let q = query(&t, true);
        let pairs: Vec<(String, String)> = q
            .split('&')
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap();
                (k.to_string(), streamscope_core::secrets::url::percent_decode(v))
            })
            .collect();
        let config = streamscope_core::PageConfig::from_query("http://page", &pairs);
        assert_eq!((config.url.as_str(), config.method.as_str()), ("http://h/x?q=1&r=2", "PUT"));
        assert_eq!(config.body, "{\"a\": \"+ %20\"}");
        assert_eq!(config.vs_url.as_deref(), Some("http://b/x"));
        assert!(config.run_on_load);
    }

    #[test]
    fn the_query_goes_before_a_fragment_and_after_an_existing_query() {
        assert_eq!(page_url("http://p/", "a=1"), "http://p/?a=1");
        assert_eq!(page_url("http://p/ss/?theme=dark", "a=1"), "http://p/ss/?theme=dark&a=1");
        assert_eq!(page_url("http://p/?", "a=1"), "http://p/?a=1");
        assert_eq!(page_url("http://p/#top", "a=1"), "http://p/?a=1#top");
    }
}
