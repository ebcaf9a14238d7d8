//! `streamscope-relay --listen 127.0.0.1:8788 --upstream 127.0.0.1:8787 [--flush-ms N] [--hold-headers]`:
//! a byte relay in front of a stream server, flushing on a timer and/or holding the response head
//! until the first body byte, until killed. See `streamscope_lab::relay`.

use std::net::SocketAddr;
use std::process::ExitCode;

use streamscope_lab::relay::{relay, RelayPolicy};

const USAGE: &str = "usage: streamscope-relay [--listen 127.0.0.1:8788] [--upstream 127.0.0.1:8787] [--flush-ms N] [--hold-headers]";
/// Where the relay listens when `--listen` is not given.
const DEFAULT_LISTEN: &str = "127.0.0.1:8788";
/// Where the relay connects when `--upstream` is not given (the lab's default address).
const DEFAULT_UPSTREAM: &str = "127.0.0.1:8787";
/// Largest `--flush-ms` (ten minutes, the lab's longest delay).
const MAX_FLUSH_MS: u64 = 600_000;

/// What the command line asked for.
struct Args {
    listen: SocketAddr,
    upstream: SocketAddr,
    policy: RelayPolicy,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(args.listen).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("streamscope relay: cannot listen on {}: {err}", args.listen);
            return ExitCode::FAILURE;
        }
    };
    let mut url_addr = listener.local_addr().unwrap_or(args.listen);
    if url_addr.ip().is_unspecified() {
        url_addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    println!(
        "streamscope relay: http://{url_addr}/ -> {} ({})",
        args.upstream, args.policy
    );
    relay(listener, args.upstream, args.policy).await;
    ExitCode::SUCCESS
}

/// The arguments, `None` for `--help`, or a message for a usage error.
fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut parsed = Args {
        listen: address("--listen", DEFAULT_LISTEN)?,
        upstream: address("--upstream", DEFAULT_UPSTREAM)?,
        policy: RelayPolicy::default(),
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listen" => {
                let value = args.next().ok_or("--listen needs an address")?;
                parsed.listen = address("--listen", &value)?;
            }
            "--upstream" => {
                let value = args.next().ok_or("--upstream needs an address")?;
                parsed.upstream = address("--upstream", &value)?;
            }
            "--flush-ms" => {
                let value = args.next().ok_or("--flush-ms needs a number of ms")?;
                parsed.policy.flush_every_ms = Some(flush_ms(&value)?);
            }
            "--hold-headers" => parsed.policy.hold_headers = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    Ok(Some(parsed))
}

/// `value` as a flush period in ms (1 to [`MAX_FLUSH_MS`]), or a message saying what is allowed.
fn flush_ms(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(ms @ 1..=MAX_FLUSH_MS) => Ok(ms),
        _ => Err(format!(
            "--flush-ms: a whole number of ms from 1 to {MAX_FLUSH_MS}, not {value:?}"
        )),
    }
}

/// `value` as a socket address, or a message naming `flag`.
fn address(flag: &str, value: &str) -> Result<SocketAddr, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: not an address: {value}"))
}
