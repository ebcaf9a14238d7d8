//! Many targets, at most `--parallel` sessions at once: one task per target, a semaphore for the
//! bound and nothing more (a Selenium Grid spreads the sessions over its nodes). Tasks only send
//! [`Event`]s; the caller prints them, so output is written from one place.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::assess::assess;
use crate::outcome::{Outcome, TargetResult};
use crate::session::{measure, SessionPlan};
use crate::target::Target;

/// What a target's task reports.
#[derive(Debug)]
pub enum Event {
    /// Progress of target `index` (for stderr).
    Progress(usize, String),
    /// Target done.
    Done(Box<TargetResult>),
}

/// Starts every target; events arrive on the receiver, which closes when all tasks have ended.
pub fn spawn_all(targets: &[Target], plan: Arc<SessionPlan>, parallel: usize) -> (JoinSet<()>, mpsc::UnboundedReceiver<Event>) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let slots = Arc::new(Semaphore::new(parallel.max(1)));
    let mut tasks = JoinSet::new();
    for target in targets.iter().cloned() {
        let (sender, slots, plan) = (sender.clone(), slots.clone(), plan.clone());
        tasks.spawn(async move {
            let Ok(_slot) = slots.acquire_owned().await else { return };
            let index = target.index;
            let progress_sender = sender.clone();
            let progress = move |text: String| {
                let _ = progress_sender.send(Event::Progress(index, text));
            };
            let started = Instant::now();
            let outcome = match measure(&plan, &target, &progress).await {
                Ok(report) => Outcome::Checked { assessment: assess(&report, &target.criteria), report },
                Err(reason) => Outcome::CouldNotRun(reason),
            };
            let result = TargetResult { target, elapsed: started.elapsed(), outcome };
            let _ = sender.send(Event::Done(Box::new(result)));
        });
    }
    (tasks, receiver)
}

/// A result for a target whose task ended without one (it was cancelled, or panicked): could not
/// run, because of `why`.
pub fn missing(target: &Target, why: &str) -> TargetResult {
    TargetResult { target: target.clone(), elapsed: Duration::ZERO, outcome: Outcome::CouldNotRun(why.to_string()) }
}
