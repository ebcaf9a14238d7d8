//! streamscope-check: the streamscope page as a command, for CI jobs and schedulers.
//!
//! It opens the page in a real headless Chromium through WebDriver, with the automation contract's
//! query (`url`, `method`, `body`, `vs`, `hops`, `repeat`, `run=1`), waits for `#report-json` to say
//! `done` or `error`, and judges the report against the target's criteria (verdict and time limits).
//! The API key comes from `STREAMSCOPE_API_KEY` and is typed into the page's key field; it is never
//! in a URL, an argument, the output or a file.
//!
//! Data flows one way, each module with one job:
//! - [`args`] → [`plan`] ([`target`], [`targets_file`], [`criteria`]): what to check;
//! - [`setup`] ([`bundle`], [`chromedriver`], [`browser`]): the page and the WebDriver endpoint;
//! - [`runner`] → [`session`] ([`query`]): one WebDriver session per target, at most `--parallel`;
//! - [`assess`] → [`outcome`]: the judgement; [`output`]: lines, report files, JUnit, all through
//!   [`redact`]; [`exit`]: the exit code. [`checks`] ties them together.

pub mod args;
pub mod assess;
pub mod browser;
pub mod bundle;
pub mod checks;
pub mod chromedriver;
pub mod criteria;
pub mod env;
pub mod exit;
pub mod help;
pub mod outcome;
pub mod output;
pub mod plan;
pub mod query;
pub mod redact;
pub mod runner;
pub mod session;
pub mod setup;
pub mod target;
pub mod targets_file;

use std::io::Write;

pub use env::Env;
pub use exit::Exit;

use crate::args::Command;
use crate::output::console::Console;
use crate::redact::Redactor;

/// Runs the command with `args` (without the program name) in `env`, writing to `stdout` and
/// `stderr`; returns the exit code. Never panics on bad input: that is a message and exit 2.
pub async fn run(args: &[String], env: &Env, stdout: &mut (dyn Write + Send), stderr: &mut (dyn Write + Send)) -> Exit {
    run_until(args, env, stdout, stderr, std::future::pending()).await
}

/// [`run`], stopped early when `stop` resolves (with the reason, e.g. `terminated`): the targets still
/// running end as "could not run", chromedriver and its browsers are stopped, the JUnit file is
/// written, and the exit code is 2.
pub async fn run_until(
    args: &[String],
    env: &Env,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
    stop: impl std::future::Future<Output = String>,
) -> Exit {
    let key = env.api_key();
    let mut console = Console::new(stdout, stderr, Redactor::new(key.as_ref(), []));
    match args::parse(args) {
        Ok(Command::Help) => {
            console.out(help::HELP.trim_end());
            Exit::Pass
        }
        Ok(Command::Version) => {
            console.out(&format!("streamscope-check {}", env!("CARGO_PKG_VERSION")));
            Exit::Pass
        }
        Ok(Command::Check(options)) => checks::check(&options, env, &mut console, stop).await,
        Err(message) => {
            console.note(&message);
            console.note(help::USAGE);
            Exit::CouldNotRun
        }
    }
}

/// The process's entry: its arguments and environment, real stdout and stderr, and `SIGINT` /
/// `SIGTERM` ending the run early (see [`run_until`]).
pub fn run_process() -> std::process::ExitCode {
    // The key is read once, into the check's own `Env`, and taken out of the process's environment
    // before any thread or child exists: nothing the check starts (chromedriver, `kill`, …) can inherit
    // it, whichever way it is spawned.
    let env = Env::from_process();
    std::env::remove_var(env::API_KEY_VAR);
    let args: Vec<String> = match std::env::args_os().skip(1).map(|a| a.into_string()).collect() {
        Ok(args) => args,
        Err(arg) => {
            eprintln!("{}: an argument is not UTF-8: {arg:?}", output::console::PROGRAM);
            return Exit::CouldNotRun.into();
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("{}: cannot start the async runtime: {err}", output::console::PROGRAM);
            return Exit::CouldNotRun.into();
        }
    };
    let (mut stdout, mut stderr) = (std::io::stdout(), std::io::stderr());
    // Watched from here on (not only once the targets run): a signal during set-up is kept for then.
    let stop = {
        let _context = runtime.enter();
        interrupted()
    };
    runtime.block_on(run_until(&args, &env, &mut stdout, &mut stderr, stop)).into()
}

/// Registers for `SIGINT` and `SIGTERM` now (inside a runtime context) and returns a future that
/// resolves with the first one's name (never, when they cannot be watched).
fn interrupted() -> impl std::future::Future<Output = String> {
    use tokio::signal::unix::{signal, SignalKind};
    let signals = (signal(SignalKind::interrupt()), signal(SignalKind::terminate()));
    async move {
        match signals {
            (Ok(mut int), Ok(mut term)) => tokio::select! {
                _ = int.recv() => "interrupted (SIGINT)".into(),
                _ = term.recv() => "terminated (SIGTERM)".into(),
            },
            _ => std::future::pending().await,
        }
    }
}
