//! A stateright model of one job's log read by one agent, driving the **real** engines.
//!
//! The state is the log as a few line kinds, what the agent was really delivered (the
//! crate's one judge, [`bgtail::judge::Judge`], which reads each reply's text), the engine's
//! bookmarks, and the verdict's flags on the last reply. Actions append, write and complete a
//! partial line, read (condensed for each configured `lines`, and raw), change the view,
//! truncate, rewrite the whole log or its last line (complete or partial) in place, and finish
//! the job. Each read calls the engine from the `bgtail` crate on the
//! rendered bytes: there is no second copy of the read logic here.
//!
//! The space is bounded by the log's length; reads and resets are counted only where a
//! bound says how many ([`Times`]), so a bound that takes any number of them covers
//! sequences of every length over its logs.
//!
//! The contract's guarantees (`docs/contract.md`) are `always` properties; the
//! paths they need to be meaningful are `sometimes` properties, so a model that never reaches
//! the budget, a reset, a partial line, coverage overflow, a fold or a rewrite behind the
//! log's head fails instead of passing vacuously.

pub mod checking;
mod config;
mod export;
pub mod induction;
mod model;
mod race;
pub mod reach;
mod requests;
pub mod scope;
mod search;
mod state;

pub use bgtail::judge::Flags as ReplyVerdict;
pub use config::{EngineChoice, ModelConfig, Times, MAX_LINES};
pub use model::{renumber_generations, Explained, TailModel, JOB_ID, JOB_PATH};
pub use requests::{Bytes, Elapsed, Lines, OtherId};
pub use search::{shortest_discovery, shortest_through};
pub use state::{
    line_text, partial_text, push_line_text, Action, InPlace, LineKind, Race, Rendered, SeenBytes,
    TailState, ASTRAL, ASTRAL_APART, ASTRAL_SIBLING, EXIT_LINES, PARTIAL_GROWTH, PARTIAL_REST,
};
