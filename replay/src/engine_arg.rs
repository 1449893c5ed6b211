//! Which of the in-crate engines a command runs, and with which limits, as the command line
//! names them.

use bgtail::Limits;
use clap::ValueEnum;

/// Which engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    Exact,
    Shipped,
    Both,
}

/// The limits an in-crate engine runs with, when another process compares or serves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ServedLimits {
    Default,
    Model,
}

impl ServedLimits {
    /// Upstream's limits (`default`), or the model checker's tiny ones (`model`).
    pub fn limits(self) -> Limits {
        match self {
            ServedLimits::Default => Limits::default(),
            ServedLimits::Model => bgtail_model::ModelConfig::tiny_limits(),
        }
    }
}
