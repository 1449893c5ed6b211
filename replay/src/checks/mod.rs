//! What every command that model-checks shares (`check`, `verify`, `readers`, `explore`): the
//! bounds, the check runners, and the printers. No command imports another; each takes these.

pub mod bound;
pub mod print;
pub mod run;
