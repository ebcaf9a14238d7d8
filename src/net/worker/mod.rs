//! The measuring worker: a module Web Worker (`streamscope-worker_loader.js`) that runs the page's own
//! wasm (one file to download, compiled once) and in it the reader loop, off the page's main thread, so
//! the page's rendering, however heavy, can never delay a timestamp or merge two reads. `main` tells the
//! two places apart ([`serve::in_worker`]). [`client`] is the page's side, [`serve`] the worker's,
//! [`protocol`] the messages between them.

pub mod client;
pub mod protocol;
pub mod serve;
