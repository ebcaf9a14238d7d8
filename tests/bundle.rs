//! End-to-end: the release package where it is used. `scripts/package.sh` packs the built page; its
//! tarball is unpacked, its checksums checked, and its `site/` served under `/tools/streamscope/`
//! through the shipped nginx and Caddy snippets (the shipped text, only its two placeholders filled in)
//! next to the lab's API under `/v1/`, on ONE origin. The lab is asked for no CORS header at all
//! (`cors=0`), so a request the browser treated as cross-origin would fail. The page opened at the
//! sub-path must run as it does at the lab's root: verdict `streaming`, measured in its worker, every
//! file of its own fetched under the sub-path and nothing from the origin's root; over HTTP/1.1 and over
//! HTTP/2 with TLS (`h2`) the same verdict; through Caddy too.
//!
//! Needs a built page (`trunk build --release`), chromium, chromium-driver, nginx, openssl and caddy.

use std::time::Duration;

use serde_json::Value;
use streamscope_e2e::{with_page, Check, Outcomes, Package, Page, SiteCaddy, SiteNginx, Snippet};

/// Where the snippets put the page.
const SUB_PATH: &str = "/tools/streamscope/";
/// The sub-path without its slash, which the snippets redirect.
const BARE_SUB_PATH: &str = "/tools/streamscope";
/// What the servers' readiness probe asks the API for (the lab's model list).
const API_PROBE: &str = "/v1/models";
/// The reference stream (50 tokens, 20 ms apart, the first after 300 ms) without any CORS header.
const REFERENCE: &str = "tokens=50&cadence_ms=20&first_ms=300&cors=0";
/// A short stream without CORS headers, for reading the API's headers from the page.
const SHORT: &str = "tokens=2&cadence_ms=5&first_ms=5&cors=0";
/// The page's own response headers the snippets must send, lower case as `fetch` reads them.
const PAGE_HEADERS: [&str; 3] = ["content-security-policy", "x-content-type-options", "referrer-policy"];

fn package() -> Package {
    Package::make().unwrap_or_else(|err| panic!("{err}"))
}

/// Opens `origin` + [`SUB_PATH`] running the reference stream from the same origin's `/v1/`, and checks
/// the report, the network log (the page's files under the sub-path, nothing at the origin's root),
/// the page's headers and the API's missing CORS headers.
async fn run_at_sub_path(page: &Page, package: &Package, name: &str, origin: &str, protocol: &str) -> Check {
    let target = format!("{origin}/v1/chat/completions?{REFERENCE}");
    let page_url = format!("{origin}{SUB_PATH}?{}", page.query_for(&target, ""));
    let report = page.report_at(&page_url).await;
    let json = if report.json.is_null() { Value::String(report.text.clone()) } else { report.json.clone() };
    let mut check = Check::new(name, &json);
    check.verdict("streaming").no_finding("bursts").no_finding("collected");
    check.that(json["content_events"] == 50, || format!("content_events {}, expected 50", json["content_events"]));
    check.that(json["measured_in"] == "worker", || {
        format!("measured_in {}, expected \"worker\" (the worker loads from the sub-path)", json["measured_in"])
    });
    let next_hop = json["connection"]["next_hop_protocol"].clone();
    check.that(next_hop == protocol, || format!("connection.next_hop_protocol {next_hop}, expected {protocol:?}"));

    // The network log is written as it goes; give it a moment for the last entries.
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Every request to this origin (the server is fresh, its port new) since the browser started.
    let paths: Vec<String> = page
        .requested()
        .into_iter()
        .filter_map(|r| r.url.strip_prefix(origin).map(String::from))
        .collect();
    let stray: Vec<&String> = paths.iter().filter(|p| !p.starts_with(SUB_PATH) && !p.starts_with("/v1/")).collect();
    check.that(stray.is_empty(), || format!("requested outside {SUB_PATH} and /v1/: {stray:?} (all: {paths:?})"));
    for file in site_files(package) {
        let wanted = format!("{SUB_PATH}{file}");
        check.that(paths.contains(&wanted), || format!("the page's {file} was not fetched as {wanted}: {paths:?}"));
    }
    let measured = format!("/v1/chat/completions?{REFERENCE}");
    check.that(paths.contains(&measured), || format!("the measured request is not in the log: {paths:?}"));

    // The page's headers as the snippet sends them, and an API that sends no CORS header at all.
    let (status, values) = page.fetch_headers(&format!("{origin}{SUB_PATH}"), &PAGE_HEADERS).await;
    let expected = [Some(streamscope_lab::PAGE_CSP.to_string()), Some("nosniff".into()), Some("no-referrer".into())];
    check.that(status == 200 && values == expected, || format!("the page: status {status}, {PAGE_HEADERS:?} = {values:?}"));
    let api = format!("{origin}/v1/chat/completions?{SHORT}");
    let (status, values) = page.fetch_headers(&api, &["access-control-allow-origin"]).await;
    check.that(status == 200 && values == [None], || {
        format!("the API from the page: status {status}, access-control-allow-origin {values:?} (expected 200 and none)")
    });
    check
}

/// The bundle's files the page loads itself (all but `index.html`, which is the sub-path).
fn site_files(package: &Package) -> Vec<String> {
    package
        .files()
        .into_iter()
        .filter_map(|f| f.strip_prefix("site/").map(String::from))
        .filter(|f| f != "index.html")
        .collect()
}

/// Expects `head` to redirect [`BARE_SUB_PATH`]`?x=1` with `status` to the sub-path, query kept.
fn redirects(check: &mut Check, head: &str, status: &str) {
    let location = head
        .lines()
        .find_map(|line| line.strip_prefix("Location: ").or_else(|| line.strip_prefix("location: ")))
        .unwrap_or_default();
    check.that(head.starts_with(&format!("HTTP/1.1 {status}")) && location == format!("{SUB_PATH}?x=1"), || {
        format!("GET {BARE_SUB_PATH}?x=1: expected {status} to {SUB_PATH}?x=1, got:\n{head}")
    });
}

#[test]
fn the_package_holds_the_bundle_the_snippets_and_their_sums_and_packs_the_same_twice() {
    let package = package();
    let files = package.files();
    for wanted in ["README.md", "SHA256SUMS", "caddy/Caddyfile", "nginx/streamscope.conf", "site/index.html", "site/boot.js", "site/streamscope-worker_loader.js"] {
        assert!(files.iter().any(|f| f == wanted), "no {wanted} in {}: {files:?}", package.tarball().display());
    }
    let root_name = package.root().file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    assert_eq!(root_name, format!("streamscope-{}", package.version()));
    // SHA256SUMS covers every other file (Package::make already ran `sha256sum -c` on it).
    let others: Vec<String> = files.iter().filter(|f| *f != "SHA256SUMS").cloned().collect();
    assert_eq!(package.summed(), others);
    // Nothing the page names sits at the origin's root.
    let index = std::fs::read_to_string(package.site().join("index.html")).expect("index.html");
    for attribute in ["src=\"/", "href=\"/", "data-js=\"/", "data-wasm=\"/"] {
        assert!(!index.contains(attribute), "index.html has {attribute}…: {index}");
    }
    assert!(index.contains("src=\"./boot.js\""), "{index}");
    let tarball = std::fs::read(package.tarball()).expect("the tarball");
    assert!(package.repack().unwrap_or_else(|err| panic!("{err}")) == tarball, "packing the same build twice gave different tarballs");
    // The snippets filled in as the tests fill them: the site's path in, no placeholder left.
    for which in [Snippet::Nginx, Snippet::Caddy] {
        let filled = package.snippet(which, "http://127.0.0.1:9").unwrap_or_else(|err| panic!("{err}"));
        assert!(filled.contains(&package.site().display().to_string()) && filled.contains("http://127.0.0.1:9"), "{filled}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundle_runs_under_a_sub_path_through_the_nginx_snippet_over_http1_and_h2() {
    with_page(|page: Page| async move {
        let package = package();
        let snippet = package.snippet(Snippet::Nginx, &page.lab_url("")).unwrap_or_else(|err| panic!("{err}"));
        let nginx = SiteNginx::start(&snippet, SUB_PATH, API_PROBE).await.unwrap_or_else(|err| panic!("{err}"));
        let mut outcomes = Outcomes::new();

        let mut http1 = run_at_sub_path(&page, &package, "nginx snippet, HTTP/1.1", &nginx.http_url(""), "http/1.1").await;
        redirects(&mut http1, &nginx.head(&format!("{BARE_SUB_PATH}?x=1")).await, "301");
        let verdict = http1.report()["verdict"].clone();
        outcomes.add(http1);

        let mut h2 = run_at_sub_path(&page, &package, "nginx snippet, HTTP/2 + TLS", &nginx.https_url(""), "h2").await;
        let h2_verdict = h2.report()["verdict"].clone();
        h2.that(h2_verdict == verdict, || format!("verdict {h2_verdict} over HTTP/2, {verdict} over HTTP/1.1"));
        outcomes.add(h2);

        outcomes.finish();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundle_runs_under_a_sub_path_through_the_caddy_snippet() {
    with_page(|page: Page| async move {
        let package = package();
        let snippet = package.snippet(Snippet::Caddy, &page.lab_url("")).unwrap_or_else(|err| panic!("{err}"));
        let caddy = SiteCaddy::start(&snippet, SUB_PATH, API_PROBE).await.unwrap_or_else(|err| panic!("{err}"));
        let mut outcomes = Outcomes::new();
        let mut check = run_at_sub_path(&page, &package, "Caddy snippet, HTTP/1.1", &caddy.url(""), "http/1.1").await;
        redirects(&mut check, &caddy.head(&format!("{BARE_SUB_PATH}?x=1")).await, "308");
        outcomes.add(check);
        outcomes.finish();
    })
    .await;
}
