//! End-to-end: the release package where it is used. `scripts/package.sh` packs the built page; its
//! tarball is unpacked, its checksums checked, and its `site/` served under `/tools/streamscope/`
//! through the shipped nginx and Caddy snippets (the shipped text, only its two placeholders filled in)
//! next to the lab's API under `/v1/`, on ONE origin. The lab is asked for no CORS header at all
//! (`cors=0`), so a request the browser treated as cross-origin would fail. The page opened at the
//! sub-path must run as it does at the lab's root: verdict `streaming`, measured in its worker, every
//! file of its own fetched under the sub-path (in Chinese, so its words' file too; after the run an
//! import, so the import's reading code too, which a run never fetches) and nothing from the
//! origin's root; over HTTP/1.1 and over HTTP/2 with TLS (`h2`) the same verdict; through Caddy too.
//!
//! The package ships `NAME.gz` and `NAME.br` next to each file that compresses; the snippets send them
//! as they are: nginx's `gzip_static` the `.gz` byte for byte to a client that accepts gzip (and the
//! browser's own download of the wasm is that file), Caddy's `precompressed` the `.br` or the `.gz`,
//! the plain file to a client that accepts neither, and never a compressed stream from `/v1/`, even
//! under an `http` block that gzips event streams.
//!
//! Needs a built page (`trunk build --release`), chromium, chromium-driver, nginx, openssl, caddy, gzip
//! and brotli.

use std::process::{Command, Stdio};
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
/// The bundle's files that get precompressed copies (scripts/package.sh).
const COMPRESSIBLE: [&str; 6] = [".wasm", ".js", ".css", ".html", ".json", ".txt"];
/// The precompressed copies' suffixes, with the `Content-Encoding` each is served with and the command
/// that decodes it.
const ENCODINGS: [(&str, &str, &str); 2] = [(".gz", "gzip", "gzip"), (".br", "br", "brotli")];

fn package() -> Package {
    Package::make().unwrap_or_else(|err| panic!("{err}"))
}

/// Opens `origin` + [`SUB_PATH`] running the reference stream from the same origin's `/v1/`, and checks
/// the report, the network log (the page's files under the sub-path, nothing at the origin's root),
/// the page's headers and the API's missing CORS headers.
async fn run_at_sub_path(page: &Page, package: &Package, name: &str, origin: &str, protocol: &str) -> Check {
    let target = format!("{origin}/v1/chat/completions?{REFERENCE}");
    // In Chinese, so the page also fetches its words (zh-CN.txt) from beside itself: every file of the
    // bundle is then asked for under the sub-path.
    let page_url = format!("{origin}{SUB_PATH}?{}", page.query_for(&target, "lang=zh-CN"));
    let report = page.report_at(&page_url).await;
    let json = if report.json.is_null() { Value::String(report.text.clone()) } else { report.json.clone() };
    let mut check = Check::new(name, &json);
    check.verdict("streaming").no_finding("bursts").no_finding("collected").no_finding("compressed");
    check.that(json["content_events"] == 50, || format!("content_events {}, expected 50", json["content_events"]));
    check.that(json["lang"] == "zh-CN", || format!("lang {}, expected \"zh-CN\" (its words loaded from the sub-path)", json["lang"]));
    check.that(json["measured_in"] == "worker", || {
        format!("measured_in {}, expected \"worker\" (the worker loads from the sub-path)", json["measured_in"])
    });
    // The start-up mark of the automation contract, set once (the run that followed did not set it again).
    let marks = page
        .client()
        .execute("return performance.getEntriesByName('streamscope:ready').map(e => e.startTime);", vec![])
        .await
        .unwrap_or_else(|err| panic!("reading the ready mark: {err}"));
    check.that(marks.as_array().is_some_and(|m| m.len() == 1 && m[0].as_f64().is_some_and(|t| t > 0.0)), || {
        format!("performance marks 'streamscope:ready': {marks}, expected one")
    });
    let next_hop = json["connection"]["next_hop_protocol"].clone();
    check.that(next_hop == protocol, || format!("connection.next_hop_protocol {next_hop}, expected {protocol:?}"));
    if protocol == "h2" {
        // One origin over h2: the stream rides the connection that brought the page (its frames among
        // the page's), no connection of its own.
        let reused = json["connection"]["reused"].clone();
        check.that(reused == true, || format!("connection.reused {reused} over h2, expected true (one connection)"));
    }

    // An import: its reading code is fetched on the first one (never by a run), from the sub-path too.
    page.apply_import("{not json").await;
    let note = page.wait_for_testid_text("handoff-note", Duration::from_secs(10), |t| !t.is_empty()).await;
    check.that(!note.contains("(import)") && !note.contains("（import）"), || format!("the import's code did not load: {note}"));

    // A campaign of more than one run: its views' code comes with its start, from the sub-path too.
    let repeat_target = format!("{origin}/v1/chat/completions?{SHORT}");
    let repeat = page.report_at(&format!("{origin}{SUB_PATH}?{}", page.query_for(&repeat_target, "repeat=2"))).await;
    let runs = repeat.json["runs"].as_array().map(Vec::len);
    check.that(repeat.state == "done" && runs == Some(2), || format!("a repeat of two runs: {} {}", repeat.state, repeat.text));

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

/// The bundle's files the page loads itself (all but `index.html`, which is the sub-path, and the
/// precompressed copies, which a server sends in their place).
fn site_files(package: &Package) -> Vec<String> {
    bundle_files(package).into_iter().filter(|f| f != "index.html").collect()
}

/// The bundle's own files (below `site/`), without the precompressed copies.
fn bundle_files(package: &Package) -> Vec<String> {
    package
        .files()
        .into_iter()
        .filter_map(|f| f.strip_prefix("site/").map(String::from))
        .filter(|f| !ENCODINGS.iter().any(|(suffix, _, _)| f.ends_with(suffix)))
        .collect()
}

/// The bundle's files that compress (one of [`COMPRESSIBLE`]), relative to `site/`.
fn compressible_files(package: &Package) -> Vec<String> {
    bundle_files(package).into_iter().filter(|f| COMPRESSIBLE.iter().any(|ext| f.ends_with(ext))).collect()
}

/// The URL path of a bundle file under [`SUB_PATH`] (`index.html` is the sub-path itself, as browsers ask).
fn url_path(file: &str) -> String {
    if file == "index.html" { SUB_PATH.to_string() } else { format!("{SUB_PATH}{file}") }
}

fn read_site(package: &Package, file: &str) -> Vec<u8> {
    let path = package.site().join(file);
    std::fs::read(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()))
}

/// `decoder -dc` of `path`'s bytes (gzip and brotli both decode to stdout so).
fn decoded(decoder: &str, path: &std::path::Path) -> Vec<u8> {
    let output = Command::new(decoder)
        .arg("-dc")
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|err| panic!("cannot run {decoder} (apt-get install {decoder}): {err}"));
    assert!(output.status.success(), "{decoder} -dc {}: {}", path.display(), String::from_utf8_lossy(&output.stderr));
    output.stdout
}

/// The value of header `name` in an HTTP/1.1 `head` (names compared without case).
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// Asks for every compressible bundle file with `Accept-Encoding: accept` through `get` and expects the
/// shipped copy with `suffix` byte for byte, sent with `Content-Encoding: encoding` (the wasm still as
/// `application/wasm`, which streaming compilation needs) and `Vary: Accept-Encoding`.
async fn serves_precompressed<F, Fut>(check: &mut Check, package: &Package, get: F, accept: &str, suffix: &str, encoding: &str)
where
    F: Fn(String, String) -> Fut,
    Fut: std::future::Future<Output = (String, Vec<u8>)>,
{
    for file in compressible_files(package) {
        let (head, body) = get(url_path(&file), accept.to_string()).await;
        let shipped = read_site(package, &format!("{file}{suffix}"));
        let first_line = head.lines().next().unwrap_or_default().to_string();
        check.that(first_line.contains(" 200") && header(&head, "content-encoding") == Some(encoding), || {
            format!("GET {file} (Accept-Encoding: {accept}): expected 200 with Content-Encoding: {encoding}, got:\n{head}")
        });
        check.that(body == shipped, || {
            format!("GET {file} (Accept-Encoding: {accept}): {} bytes, not the shipped {file}{suffix} ({} bytes)", body.len(), shipped.len())
        });
        check.that(header(&head, "vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")), || {
            format!("GET {file} (Accept-Encoding: {accept}): no Vary: Accept-Encoding:\n{head}")
        });
        if file.ends_with(".wasm") {
            check.that(header(&head, "content-type") == Some("application/wasm"), || format!("GET {file}: not application/wasm:\n{head}"));
        }
    }
}

/// Asks for every compressible bundle file with no `Accept-Encoding` through `get` and expects the file
/// itself, not encoded.
async fn serves_plain_without_accept_encoding<F, Fut>(check: &mut Check, package: &Package, get: F)
where
    F: Fn(String, String) -> Fut,
    Fut: std::future::Future<Output = (String, Vec<u8>)>,
{
    for file in compressible_files(package) {
        let (head, body) = get(url_path(&file), String::new()).await;
        let plain = read_site(package, &file);
        check.that(header(&head, "content-encoding").is_none() && body == plain, || {
            format!("GET {file} without Accept-Encoding: expected the plain {} bytes, got {} bytes after:\n{head}", plain.len(), body.len())
        });
    }
}

/// Reads the page's Resource Timing for its wasm (the main thread's; the worker fetches its own) and
/// expects the browser to have downloaded one of the shipped copies `suffixes` (its `encodedBodySize`
/// is that file's size) and decoded it to the wasm itself.
async fn browser_got_precompressed(check: &mut Check, page: &Page, package: &Package, origin: &str, suffixes: &[&str]) {
    let script = "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('.wasm')) \
                  .map(e => [e.name, e.encodedBodySize, e.decodedBodySize]);";
    let entries = page.client().execute(script, vec![]).await.unwrap_or_else(|err| panic!("Resource Timing: {err}"));
    let entries = entries.as_array().cloned().unwrap_or_default();
    check.that(!entries.is_empty(), || "no Resource Timing entry for the page's wasm".to_string());
    let prefix = format!("{origin}{SUB_PATH}");
    for entry in entries {
        let name = entry[0].as_str().unwrap_or_default();
        let (encoded, decoded) = (entry[1].as_u64().unwrap_or(0), entry[2].as_u64().unwrap_or(0));
        let Some(file) = name.strip_prefix(&prefix) else {
            check.that(false, || format!("the page fetched a wasm outside {prefix}: {name}"));
            continue;
        };
        let size = |suffix: &str| std::fs::metadata(package.site().join(format!("{file}{suffix}"))).map_or(0, |m| m.len());
        let copies: Vec<(String, u64)> = suffixes.iter().map(|s| (format!("{file}{s}"), size(s))).collect();
        check.that(copies.iter().any(|(_, len)| *len == encoded) && decoded == size(""), || {
            format!("the browser downloaded {file} as {encoded} bytes decoded to {decoded}: expected one of {copies:?}, decoded to {}", size(""))
        });
    }
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
    // A .gz and a .br next to each file that compresses, each decoding to that file; none elsewhere.
    let compressible = compressible_files(&package);
    assert!(compressible.iter().any(|f| f.ends_with(".wasm")) && compressible.contains(&"index.html".to_string()), "{compressible:?}");
    for file in &compressible {
        for (suffix, _, decoder) in ENCODINGS {
            let copy = package.site().join(format!("{file}{suffix}"));
            assert!(copy.is_file(), "no {file}{suffix} in the package: {files:?}");
            assert!(decoded(decoder, &copy) == read_site(&package, file), "{file}{suffix} does not decode to {file}");
        }
    }
    let copies = files.iter().filter(|f| ENCODINGS.iter().any(|(suffix, _, _)| f.ends_with(suffix))).count();
    assert_eq!(copies, 2 * compressible.len(), "precompressed copies of other files: {files:?}");
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
        browser_got_precompressed(&mut http1, &page, &package, &nginx.http_url(""), &[".gz"]).await;
        let verdict = http1.report()["verdict"].clone();
        outcomes.add(http1);

        // gzip_static: the shipped .gz as it is, the plain file to a client without gzip, and a stream
        // from /v1/ never compressed although the http block around the snippet gzips event streams.
        let server = &nginx;
        let get = move |path: String, accept: String| async move { server.get_encoded(&path, &accept).await };
        let mut files = Check::new("nginx snippet, precompressed files", &Value::Null);
        serves_precompressed(&mut files, &package, get, "gzip, deflate, br", ".gz", "gzip").await;
        serves_plain_without_accept_encoding(&mut files, &package, get).await;
        let (head, _) = nginx.get_encoded(&format!("/v1/chat/completions?{SHORT}"), "gzip, deflate, br").await;
        files.that(head.starts_with("HTTP/1.1 200") && header(&head, "content-encoding").is_none(), || {
            format!("the stream from /v1/ with Accept-Encoding: gzip: expected 200, not encoded, got:\n{head}")
        });
        outcomes.add(files);

        let mut h2 = run_at_sub_path(&page, &package, "nginx snippet, HTTP/2 + TLS", &nginx.https_url(""), "h2").await;
        let h2_verdict = h2.report()["verdict"].clone();
        h2.that(h2_verdict == verdict, || format!("verdict {h2_verdict} over HTTP/2, {verdict} over HTTP/1.1"));
        browser_got_precompressed(&mut h2, &page, &package, &nginx.https_url(""), &[".gz"]).await;
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
        browser_got_precompressed(&mut check, &page, &package, &caddy.url(""), &[".br", ".gz"]).await;
        outcomes.add(check);

        // precompressed br gzip: Brotli when asked (first when both are), gzip when only it is, the
        // plain file otherwise.
        let server = &caddy;
        let get = move |path: String, accept: String| async move { server.get_encoded(&path, &accept).await };
        let mut files = Check::new("Caddy snippet, precompressed files", &Value::Null);
        serves_precompressed(&mut files, &package, get, "gzip, deflate, br", ".br", "br").await;
        serves_precompressed(&mut files, &package, get, "gzip", ".gz", "gzip").await;
        serves_plain_without_accept_encoding(&mut files, &package, get).await;
        outcomes.add(files);
        outcomes.finish();
    })
    .await;
}
