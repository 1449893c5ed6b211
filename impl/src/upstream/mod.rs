//! What both engines take from pi-bgrun 0.7.1: JavaScript's string and number rules (`js`),
//! the size limits (`limits`), the `details` object (`details`), the wrapper's exit marker
//! (`marker`), the view of the log's tail (`view`) and the condenser (`condense`). Nothing here knows an engine; each module imports
//! only the ones listed before it in `tests/tests/layers.rs`.

pub mod condense;
pub mod details;
pub(crate) mod js;
pub mod limits;
pub mod marker;
pub(crate) mod tool;
pub mod view;
