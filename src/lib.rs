//! streamscope, the page: `net` records what the browser sees, `ui` renders what `streamscope_core`
//! derives from it. Dependencies point one way: ui -> net -> core; `split` (code that comes in wasm
//! chunks after the main module) serves both.

pub mod net;
pub mod split;
pub mod task;
pub mod ui;
