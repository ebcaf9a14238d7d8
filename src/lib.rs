//! streamscope, the page: `net` records what the browser sees, `ui` renders what `streamscope_core`
//! derives from it. Dependencies point one way: ui -> net -> core.

pub mod net;
pub mod ui;
