//! The measuring worker: a second wasm bin (`streamscope-worker`, built by Trunk as a Web Worker) runs
//! the reader loop off the page's main thread, so the page's rendering, however heavy, can never delay a
//! timestamp or merge two reads. [`client`] is the page's side, [`serve`] the worker's, [`protocol`] the
//! messages between them.

pub mod client;
pub mod protocol;
pub mod serve;
