//! `streamscope-lab --addr 127.0.0.1:8787 --static <dir>`: runs the lab until killed.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use streamscope_lab::{serve, LabConfig};

const USAGE: &str = "usage: streamscope-lab [--addr 127.0.0.1:8787] [--static <dir>]";

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
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    Ok((addr, config))
}
