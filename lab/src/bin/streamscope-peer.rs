//! `streamscope-peer [-X METHOD] [-H 'Name: value']... [-d BODY] [--detail] [--curl] URL`: sends one
//! request over a plain `TcpStream` with `TCP_NODELAY` and prints, as JSON, when the headers, the first
//! byte and the first token came, every read (with `--detail`: its time, size and events) and every
//! event's arrival and `server_ms`. Times are ms from just before `connect`. With `--curl` the GET goes
//! through `curl --trace-time --trace` instead, read back into the same report (`peer::curl`). See
//! `streamscope_lab::peer`.

use std::process::ExitCode;

use streamscope_lab::peer::{curl, run, PeerRequest};

const USAGE: &str = "usage: streamscope-peer [-X METHOD] [-H 'Name: value']... [-d BODY] [--detail] [--curl] http://host:port/path?query";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut request = PeerRequest::get("");
    let mut detail = false;
    let mut method = None;
    let mut with_curl = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-X" => method = args.next(),
            "-H" => match args.next().as_deref().and_then(|h| h.split_once(':')) {
                Some((name, value)) => request.headers.push((name.trim().into(), value.trim().into())),
                None => return usage("-H needs 'Name: value'"),
            },
            "-d" => match args.next() {
                Some(body) => request.body = Some(body.into_bytes()),
                None => return usage("-d needs a body"),
            },
            "--detail" => detail = true,
            "--curl" => with_curl = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            url if request.url.is_empty() && !url.starts_with('-') => request.url = url.to_string(),
            other => return usage(&format!("unexpected argument {other:?}")),
        }
    }
    if request.url.is_empty() {
        return usage("no URL");
    }
    if with_curl && (method.is_some() || request.body.is_some() || !request.headers.is_empty()) {
        return usage("--curl sends a plain GET: no -X, -H or -d");
    }
    request.method = method.unwrap_or_else(|| if request.body.is_some() { "POST" } else { "GET" }.into());
    let report = if with_curl { curl::run(&request.url, false) } else { run(&request) };
    println!("{}", report.to_json(detail));
    if report.error.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("{message}\n{USAGE}");
    ExitCode::from(2)
}
