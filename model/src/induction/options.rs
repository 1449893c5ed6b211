//! What an inductive check is asked to do: which conjunct to leave out, how many threads,
//! which shard, and how the reset states are treated.

use super::invariant::Conjunct;
use super::shard::Shard;

/// How the check treats the reset states (see [`factor`](super::factor)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Factoring {
    /// Every state run in full, each classed by its bytes (continuing or not).
    Full,
    /// The reset states by group: every action once from each group's representative, its
    /// reads compared with those of the group's most different members.
    Factored,
    /// [`Factoring::Factored`], and every member of every group also run: every read
    /// compared, reply and successor, with those of the first member of its group to be run,
    /// and every other action checked as in full; and every mirrored state run too, as under
    /// [`Factoring::MirrorsCompared`]. The check of the factoring itself.
    Compared,
    /// [`Factoring::Factored`], and every continuing state with lines in the other variant
    /// also run: every action's outcome compared with its mirror's
    /// ([`mirror`](super::mirror)). The check of the symmetry alone, without the cost of
    /// running every reset state.
    MirrorsCompared,
}

impl Factoring {
    /// Whether the mirrored states are run and compared with their mirrors.
    pub fn compares_mirrors(self) -> bool {
        matches!(self, Factoring::Compared | Factoring::MirrorsCompared)
    }
}

/// What a check takes: which conjunct to leave out, threads, shard and factoring.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Options {
    /// A conjunct left out of the invariant (to show the rest is not enough).
    pub dropped: Option<Conjunct>,
    pub threads: usize,
    pub shard: Shard,
    pub factoring: Factoring,
}

impl Options {
    /// The whole check, factored, on `threads` threads.
    pub fn new(threads: usize) -> Options {
        Options {
            dropped: None,
            threads,
            shard: Shard::WHOLE,
            factoring: Factoring::Factored,
        }
    }

    /// These options with `conjunct` left out of the invariant.
    pub fn dropping(self, conjunct: Conjunct) -> Options {
        Options {
            dropped: Some(conjunct),
            ..self
        }
    }

    /// These options, over the items and groups `shard` takes only.
    pub fn shard(self, shard: Shard) -> Options {
        Options { shard, ..self }
    }

    /// These options with `factoring`.
    pub fn factoring(self, factoring: Factoring) -> Options {
        Options { factoring, ..self }
    }
}
