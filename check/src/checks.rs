//! One run of the command: targets → page and WebDriver → every target (bounded in parallel) →
//! a line per target as it ends, its report file, the JUnit file, a summary on stderr, the exit code.

use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;

use tokio::time::Instant;

use crate::args::{Options, PageSource};
use crate::env::Env;
use crate::exit::Exit;
use crate::help::USAGE;
use crate::outcome::{Outcome, TargetResult};
use crate::output::console::Console;
use crate::output::files::{report_paths, write_report};
use crate::output::junit::junit;
use crate::output::line::line;
use crate::plan;
use crate::redact::Redactor;
use crate::runner::{missing, spawn_all, Event};
use crate::setup::Setup;
use crate::target::Target;

/// Runs the checks `options` describe; when `stop` resolves first, the targets still running are
/// cancelled and end as "could not run" with its reason.
pub async fn check(options: &Options, env: &Env, console: &mut Console<'_>, stop: impl Future<Output = String>) -> Exit {
    let targets = match plan::targets(options) {
        Ok(targets) => targets,
        Err(err) => {
            console.note(&err);
            console.note(USAGE);
            return Exit::CouldNotRun;
        }
    };
    let key = env.api_key();
    let mut urls: Vec<&str> = targets.iter().flat_map(Target::urls).collect();
    urls.extend(options.webdriver.as_deref());
    if let PageSource::Url(page) = &options.page {
        urls.push(page);
    }
    console.set_redactor(Redactor::new(key.as_ref(), urls));
    let paths = match prepare_outputs(options, &targets) {
        Ok(paths) => paths,
        Err(err) => {
            console.note(&err);
            return Exit::CouldNotRun;
        }
    };

    let started = Instant::now();
    let mut results: BTreeMap<usize, TargetResult> = BTreeMap::new();
    let mut stopped: Option<String> = None;
    match Setup::start(options, env, console).await {
        Ok(setup) => {
            let (count, parallel) = (targets.len(), options.parallel.min(targets.len()));
            if count > 1 {
                console.note(&format!("{count} targets, {parallel} at once"));
            }
            let (mut tasks, mut events) = spawn_all(&targets, setup.plan.clone(), parallel);
            let mut stop = std::pin::pin!(stop);
            loop {
                tokio::select! {
                    event = events.recv() => match event {
                        Some(Event::Progress(i, text)) => {
                            console.note(&format!("[{}/{count}] {}: {text}", i + 1, targets[i].display_name()))
                        }
                        Some(Event::Done(result)) => {
                            finish(&result, paths.get(result.target.index).and_then(Option::as_ref), console);
                            results.insert(result.target.index, *result);
                        }
                        // Every task has ended (or was cancelled below).
                        None => break,
                    },
                    why = &mut stop, if stopped.is_none() => {
                        console.note(&format!("{why}: stopping"));
                        tasks.abort_all();
                        stopped = Some(why);
                    }
                }
            }
            drop(tasks);
            setup.stop().await;
        }
        Err(reason) => {
            console.note(&format!("cannot run any check: {reason}"));
            for target in &targets {
                let result = TargetResult {
                    target: target.clone(),
                    elapsed: std::time::Duration::ZERO,
                    outcome: Outcome::CouldNotRun(reason.clone()),
                };
                finish(&result, None, console);
                results.insert(target.index, result);
            }
        }
    }
    let unfinished = stopped.map_or_else(|| "ended without a result (internal error)".to_string(), |why| format!("{why} before it ended"));
    let results: Vec<TargetResult> = targets
        .iter()
        .map(|t| {
            results.remove(&t.index).unwrap_or_else(|| {
                let result = missing(t, &unfinished);
                finish(&result, None, console);
                result
            })
        })
        .collect();

    let mut exit = results.iter().map(TargetResult::exit).fold(Exit::Pass, Exit::worst);
    if let Some(path) = &options.junit {
        let xml = junit(&results, started.elapsed(), console.redactor());
        if let Err(err) = std::fs::write(path, xml) {
            console.note(&format!("cannot write the JUnit file {}: {err}", path.display()));
            exit = exit.worst(Exit::CouldNotRun);
        }
    }
    let count = |e: Exit| results.iter().filter(|r| r.exit() == e).count();
    console.note(&format!(
        "{} target(s): {} passed, {} failed, {} could not run (exit {})",
        results.len(),
        count(Exit::Pass),
        count(Exit::Fail),
        count(Exit::CouldNotRun),
        exit.code()
    ));
    exit
}

/// Creates `--out` and the JUnit file's directory up front (a typo fails before any browser starts)
/// and picks each target's report file.
fn prepare_outputs(options: &Options, targets: &[Target]) -> Result<Vec<Option<PathBuf>>, String> {
    if let Some(parent) = options.junit.as_deref().and_then(|p| p.parent()).filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|err| format!("--junit: cannot create {}: {err}", parent.display()))?;
    }
    let Some(dir) = &options.out_dir else {
        return Ok(vec![None; targets.len()]);
    };
    std::fs::create_dir_all(dir).map_err(|err| format!("--out: cannot create {}: {err}", dir.display()))?;
    Ok(report_paths(dir, targets).into_iter().map(Some).collect())
}

/// Prints a finished target's line and writes its report file.
fn finish(result: &TargetResult, report_path: Option<&PathBuf>, console: &mut Console<'_>) {
    let text = line(result, console.redactor());
    console.out(&text);
    if let (Outcome::Checked { report, .. }, Some(path)) = (&result.outcome, report_path) {
        if let Err(err) = write_report(path, report, console.redactor()) {
            console.note(&err);
        }
    }
}
