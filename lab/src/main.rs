//! `streamscope-lab --addr 127.0.0.1:8787 --static <dir> [limits]`: runs the lab until killed. Every
//! field of [`streamscope_lab::Limits`] has a flag of its own (defaults in the README's Limits table).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use streamscope_lab::{serve, LabConfig};

const USAGE: &str = "usage: streamscope-lab [--addr 127.0.0.1:8787] [--static <dir>] [--max-connections N] \
[--idle-limit-ms MS] [--head-deadline-ms MS] [--body-deadline-min-ms MS] [--body-min-rate-bytes-per-s N] \
[--write-timeout-ms MS]";

/// Sets one number of [`streamscope_lab::Limits`].
type SetLimit = fn(&mut streamscope_lab::Limits, u64);

/// The flag of each number in [`streamscope_lab::Limits`], and where it goes.
const LIMIT_FLAGS: [(&str, SetLimit); 6] = [
    ("--max-connections", |l, v| l.max_connections = v as usize),
    ("--idle-limit-ms", |l, v| l.idle_limit_ms = v),
    ("--head-deadline-ms", |l, v| l.head_deadline_ms = v),
    ("--body-deadline-min-ms", |l, v| l.body_deadline_min_ms = v),
    ("--body-min-rate-bytes-per-s", |l, v| l.body_min_rate_bytes_per_s = v),
    ("--write-timeout-ms", |l, v| l.write_timeout_ms = v),
];

#[tokio::main]
async fn main() -> ExitCode {
    let (addr, config) = match parse_args(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("streamscope lab: cannot listen on {addr}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let mut url_addr = listener.local_addr().unwrap_or(addr);
    if url_addr.ip().is_unspecified() {
        url_addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    println!("streamscope lab: http://{url_addr}/");
    serve(listener, config).await;
    ExitCode::SUCCESS
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<(SocketAddr, LabConfig), String> {
    let mut addr: SocketAddr = "127.0.0.1:8787"
        .parse()
        .map_err(|_| "bad default address")?;
    let mut config = LabConfig::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--addr" => {
                let value = args.next().ok_or("--addr needs a value")?;
                addr = value
                    .parse()
                    .map_err(|_| format!("--addr: not an address: {value}"))?;
            }
            "--static" => {
                let dir = PathBuf::from(args.next().ok_or("--static needs a directory")?);
                if !dir.is_dir() {
                    return Err(format!("--static: not a directory: {}", dir.display()));
                }
                config.static_dir = Some(dir);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            flag => {
                let Some((_, set)) = LIMIT_FLAGS.iter().find(|(name, _)| *name == flag) else {
                    return Err(format!("unknown argument: {flag}"));
                };
                let value = args.next().ok_or(format!("{flag} needs a number"))?;
                let number = value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or(format!("{flag}: not a positive whole number: {value}"))?;
                set(&mut config.limits, number);
            }
        }
    }
    Ok((addr, config))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<(SocketAddr, LabConfig), String> {
        parse_args(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn every_limit_has_a_flag() {
        let (_, config) = parse(&[
            "--max-connections", "64", "--idle-limit-ms", "5000", "--head-deadline-ms", "2000",
            "--body-deadline-min-ms", "3000", "--body-min-rate-bytes-per-s", "1024", "--write-timeout-ms", "7000",
        ])
        .unwrap();
        let l = config.limits;
        assert_eq!(l.max_connections, 64);
        assert_eq!((l.idle_limit_ms, l.head_deadline_ms, l.body_deadline_min_ms), (5000, 2000, 3000));
        assert_eq!((l.body_min_rate_bytes_per_s, l.write_timeout_ms), (1024, 7000));
    }

    #[test]
    fn a_bad_limit_is_refused_with_its_flag() {
        assert!(parse(&["--max-connections"]).unwrap_err().contains("--max-connections needs a number"));
        assert!(parse(&["--write-timeout-ms", "0"]).unwrap_err().contains("not a positive whole number"));
        assert!(parse(&["--idle-limit-ms", "soon"]).unwrap_err().contains("--idle-limit-ms"));
        assert!(parse(&["--nope"]).unwrap_err().contains("unknown argument"));
    }
}
