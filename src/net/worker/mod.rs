//! The measuring worker: a module Web Worker (`streamscope-worker_loader.js`) that runs the page's own
//! main module (already downloaded) and the reader loop's chunk (`measure`; the page loads it only to
//! measure on its own thread, see `crate::split`): the reader loop runs there, off the page's main
//! thread, so the page's rendering, however heavy, can never delay a timestamp or merge two reads. `main` tells the
//! two places apart ([`serve::in_worker`]). [`client`] is the page's side, [`serve`] the worker's,
//! [`protocol`] the messages between them, [`spec`] and [`end`] the plain objects a run's spec and its end
//! travel as.

pub mod by_run;
pub mod client;
pub mod end;
pub mod protocol;
pub mod serve;
pub mod spec;
