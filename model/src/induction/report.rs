//! What an inductive check found: its counts, and the first failure with the state, the
//! action and what broke.

use super::enumerate::Candidate;
use super::invariant::Conjunct;
use super::options::Factoring;
use super::shard::Shard;
use crate::Action;

/// What broke, one step from a state of the invariant.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Broke {
    /// A start the enumeration made breaks the invariant (the enumeration is wrong).
    Start(Conjunct),
    /// The reply broke an `always` property: its text and what the judge found.
    Property {
        name: &'static str,
        text: String,
        anomalies: Vec<bgtail::judge::Anomaly>,
    },
    /// The successor breaks the invariant.
    Invariant(Conjunct),
    /// A member of a group of reset states read otherwise than the group's first member:
    /// the factoring's premise is false for this engine. The member, what differed
    /// (`"reply"` or `"successor"`), and that part as the group read it and as the member did.
    Unfactorable {
        member: String,
        part: &'static str,
        group: String,
        found: String,
    },
    /// A continuing state's action gave another outcome than the same action from its mirror
    /// (the state with the lines of `swapped` in the other variant; see
    /// [`mirror`](super::mirror)), or the mirror is not a state of the same kind: the
    /// symmetry the check takes is false for this engine. The mirror's outcome, and the
    /// state's with the swapped lines' names swapped back.
    Asymmetric {
        swapped: u64,
        mirror: String,
        found: String,
    },
}

/// A state of the invariant, an action, and what broke.
#[derive(Clone, Debug)]
pub struct Failure<S> {
    pub candidate: Candidate<S>,
    /// `None` for a start that breaks the invariant.
    pub action: Option<Action>,
    pub broke: Broke,
}

/// What an inductive check did.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Report<S> {
    pub max_lines: u8,
    /// The line kinds the logs are written in.
    pub kinds: Vec<crate::LineKind>,
    /// Which share of the items and groups this check took ([`Shard::WHOLE`]: all of them).
    pub shard: Shard,
    pub factoring: Factoring,
    /// Items (logs a last read can have seen, and "no read yet") this check took, and the
    /// enumeration's items in all.
    pub items: u64,
    pub items_total: u64,
    /// Groups of reset states this check ran, and the enumeration's groups in all (0 when
    /// the check is not factored).
    pub groups: u64,
    pub groups_total: u64,
    /// States of the invariant covered: before any read, continuing the bookmark's
    /// generation, and reset since the bookmark was written. Factored, a state is `reset`
    /// when the engine's own check starts over; `disputed` counts the states whose log does
    /// not continue the bookmark's bytes but which the engine continues (run in full).
    pub fresh: u64,
    pub continuing: u64,
    pub reset: u64,
    pub disputed: u64,
    /// Members of groups run in full and compared with their group ([`Factoring::Compared`]).
    pub compared: u64,
    /// Of the continuing states, those with lines in the other variant that the check covers
    /// by their mirror ([`mirror`](super::mirror)); where the mirrors are compared
    /// ([`Factoring::compares_mirrors`]), run in full and compared with their mirror. 0 when
    /// not factored.
    pub mirrored: u64,
    /// Actions applied (successors judged and checked against the invariant).
    pub steps: u64,
    /// Reads among them.
    pub reads: u64,
    pub seconds: f64,
    /// Of `seconds`, those spent listing the groups (every shard lists all of them, so that
    /// each takes its own share without asking the others).
    pub group_seconds: f64,
    /// The first failure found (the check stops there); empty when the step holds.
    pub failures: Vec<Failure<S>>,
}

impl<S> Report<S> {
    /// Every state of the invariant covered.
    pub fn states(&self) -> u64 {
        self.fresh + self.continuing + self.reset + self.disputed
    }

    /// Whether every step kept every property and the invariant.
    pub fn proved(&self) -> bool {
        self.failures.is_empty()
    }
}
