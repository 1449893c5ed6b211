//! One module per subcommand, each its arguments, a call into the library or the model crate,
//! and the printing; each has a `run` (`bgtail import` is `commands::import::run`).

pub mod audit;
pub mod check;
pub mod compare;
pub mod explore;
pub mod generate;
pub mod import;
pub mod mcp;
pub mod read;
pub mod readers;
pub mod record;
pub mod replay;
pub mod serve;
pub mod verify;
