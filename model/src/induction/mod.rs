//! The inductive check: the contract for read sequences of **any** length, over logs of up to
//! N lines.
//!
//! A bounded check explores the states a few steps reach. This check instead starts from
//! **every** state that satisfies an invariant `Inv` — the log, what the last read saw, the
//! engine's bookmark and the judge's record of what was delivered, related as below — and
//! applies every action of the model once. If every reply keeps every `always` property and
//! every successor satisfies `Inv` again, then, since the initial state satisfies `Inv`, no
//! sequence of any length breaks a guarantee (induction on the sequence's length).
//!
//! # The invariant (exact engine)
//! With `P` the log as the last read saw it (its bytes, and whether the job was running), `L`
//! the log now, `D` the complete lines the judge holds delivered in this generation, `C` the
//! lines inside the bookmark's coverage ranges:
//! - **no read, no bookmark**: before any read there is no bookmark and the judge saw nothing;
//! - **the bookmark describes P**: one bookmark, at the job's path and file, its size, settled
//!   end (where P's complete lines end), head fingerprint (P's first bytes, up to the head
//!   probe) and settled fingerprint (the 64 bytes before the settled end) are P's;
//! - **the judge saw P**: the judge's last read is P's length, hash and settled end;
//! - **delivered lines are P's**: `D` ⊆ P's complete content lines, but for spans of lines
//!   that have grown since they were delivered (a finished job's last line, flushed late):
//!   inert, as no line of the generation has their span again, and left out of the
//!   enumeration; the conjuncts below speak of `D`'s current lines;
//! - **coverage lies on complete lines**: every coverage range starts where a complete
//!   content line of P starts and ends where one ends, at most `coverage_ranges_max` ranges;
//! - **coverage was delivered** (the contract's "nothing lost"): `C` ⊆ `D`;
//! - **delivered is covered until forgotten**: unless the engine said it forgot coverage in
//!   this generation, `D` ⊆ `C`;
//! - **the newest delivered line is covered**: the highest line of `D` lies in `C`, forgot
//!   or not (coverage forgets its oldest ranges first);
//! - **the partial line seen is P's**: the bookmark's `partial_seen` is none, or P's own
//!   partial line while the job runs;
//! - **the index is true**: every mark of the line index lies at a line start of P at or
//!   before the settled end, marks increase, and the differences of their numbers are P's
//!   content-line and newline counts;
//! - **a finished job writes nothing** but the end of its partial line: if the job now runs,
//!   it ran at P; if it had finished at P, `L`'s lines are a prefix of P's with P's partial
//!   line completed (output flushed after the exit was seen), in either variant;
//! - **within the bound**: `P` and `L` hold at most N lines.
//!
//! `L` is otherwise free: any log of the model's line kinds that continues `P`, or any that
//! does not (a reset since the bookmark was written, in either text variant).
//!
//! # What the enumeration assumes
//! The states are enumerated, not sampled: every `P` and `L` of up to N lines of the model's
//! kinds (a partial line, or a completed one, at any position), every `D`, every coverage of
//! at most `coverage_ranges_max` runs, the forgot flag, `partial_seen`, every view, a running
//! or finished job; then filtered by `Inv`. Three dimensions are fixed, each for a stated
//! reason:
//! - `P` is written in the first text variant: a rewrite changes one letter of every line
//!   (`s`↔`t`, `p`↔`q`), and `L` takes both variants, so only "same variant or not" matters;
//! - the bookmark's generation number is 1: it numbers the reply's claims and appears in no
//!   text and in no check;
//! - the line index is enumerated empty or complete (a mark at every line start): it is a
//!   cache the engine may thin; any index that `Inv` accepts lies between the two, and each
//!   successor's index is checked against `Inv` whatever the engine made of it.
//!
//! Two quotients by the judge's own code, not the engine's: the judge's record of partial
//! lines delivered feeds only a `sometimes` flag, so it starts empty; and a read of a log that
//! does not continue `P` begins a generation, where the judge drops `D` and the forgot flag
//! before it checks anything, so of the states that differ only in those (with the same `P`,
//! bookmark and `L`) one stands for all. Counters of reads and resets are the bounded model's,
//! not the contract's: every action is enabled in every state.
//!
//! # The factoring of reset states
//! The engine's part is merged only where the engine's own code says a read cannot tell it
//! apart: a read of a log its generation check does not continue depends on the bookmark only
//! through the reason and the generation number, and on the judge only through
//! [`Judge::opening`]. [`factor`] groups those states by what such a read can see, runs every
//! action from one member of each group, and compares its reads with those of the group's
//! most different members; [`Factoring::Compared`] runs every member and compares each.
//! [`Factoring::Full`] runs every state on its own.

mod driver;
mod enumerate;
mod exact;
pub mod factor;
pub mod shard;
mod shipped;

pub use driver::{check, Broke, Factoring, Failure, Options, Report};
pub use enumerate::{log_shapes, Candidate, Facts, Written};

use crate::{LineKind, ModelConfig, TailModel, TailState};
use bgtail::judge::Judge;
use bgtail::Engine;

/// One conjunct of the invariant, by name (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Conjunct {
    NoReadNoBookmark,
    BookmarkDescribesSeen,
    JudgeSawSeen,
    DeliveredAreCompleteLines,
    CoverageOnCompleteLines,
    CoverageDelivered,
    DeliveredCoveredUntilForgotten,
    NewestDeliveredCovered,
    PartialSeenIsSeens,
    IndexTrue,
    FinishedJobWritesNothing,
    WithinBound,
    /// The shipped engine's analogue of "coverage was delivered": the run of lines its
    /// bookmark believes shown was delivered.
    BelievedShownDelivered,
}

impl Conjunct {
    /// The conjunct's name, as the module docs state it.
    pub fn name(self) -> &'static str {
        match self {
            Conjunct::NoReadNoBookmark => "no read, no bookmark",
            Conjunct::BookmarkDescribesSeen => "the bookmark describes P",
            Conjunct::JudgeSawSeen => "the judge saw P",
            Conjunct::DeliveredAreCompleteLines => "delivered lines are P's",
            Conjunct::CoverageOnCompleteLines => "coverage lies on complete lines",
            Conjunct::CoverageDelivered => "coverage was delivered",
            Conjunct::DeliveredCoveredUntilForgotten => "delivered is covered until forgotten",
            Conjunct::NewestDeliveredCovered => "the newest delivered line is covered",
            Conjunct::PartialSeenIsSeens => "the partial line seen is P's",
            Conjunct::IndexTrue => "the index is true",
            Conjunct::FinishedJobWritesNothing => "a finished job writes nothing",
            Conjunct::WithinBound => "within the bound",
            Conjunct::BelievedShownDelivered => "the lines believed shown were delivered",
        }
    }
}

/// An engine whose bookmarks the inductive check can enumerate and hold to its invariant.
pub trait Inductive: Engine<State: Send + Sync> + Send + Sync + Sized + 'static {
    /// Every engine state and judge that the invariant allows after a read saw `seen`, but
    /// for the conjunct `dropped` (a check that the invariant is not vacuous).
    fn starts(
        &self,
        config: &ModelConfig,
        seen: &Written,
        facts: &Facts,
        dropped: Option<Conjunct>,
    ) -> Vec<(Self::State, Judge)>;

    /// The first of the engine's conjuncts, other than `dropped`, that `state` breaks beside
    /// `judge`, after a read saw `seen`.
    fn bookmark_conjuncts(
        &self,
        config: &ModelConfig,
        state: &Self::State,
        seen: &Written,
        facts: &Facts,
        judge: &Judge,
        dropped: Option<Conjunct>,
    ) -> Option<Conjunct>;

    /// Whether the engine holds no bookmark.
    fn no_bookmark(state: &Self::State) -> bool;

    /// Why a read of each of `logs` starts a new generation from every bookmark the invariant
    /// allows after a read saw `seen`, by the engine's own generation check — for an engine
    /// whose read then depends on the old bookmark only through that reason and the
    /// generation number (see [`factor`]). `None`: the read continues, or the engine makes no
    /// such promise (the default); those states are run in full. Asked once per seen log, so
    /// that an engine works out what it needs of `seen` once.
    fn reset_reasons(
        &self,
        _config: &ModelConfig,
        _seen: &Written,
        _facts: &Facts,
        logs: &[factor::Log],
    ) -> Vec<Option<bgtail::ResetReason>> {
        vec![None; logs.len()]
    }
}

/// The first conjunct of the invariant, other than `dropped`, that `candidate` breaks.
pub fn broken_conjunct<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    dropped: Option<Conjunct>,
) -> Option<Conjunct> {
    let facts = candidate.seen.as_ref().map(|w| w.facts(&model.config));
    broken_conjunct_with(model, candidate, facts.as_ref(), dropped)
}

/// [`broken_conjunct`], with the facts of the log the last read saw worked out already.
fn broken_conjunct_with<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    facts: Option<&Facts>,
    dropped: Option<Conjunct>,
) -> Option<Conjunct> {
    let keep = |c: Conjunct| dropped != Some(c);
    let s = &candidate.state;
    if let Some(c) = log_conjuncts(model, candidate.seen.as_ref(), s, dropped) {
        return Some(c);
    }
    let Some(seen) = &candidate.seen else {
        let fresh = E::no_bookmark(&s.engine) && s.judge == Judge::default();
        return (keep(Conjunct::NoReadNoBookmark) && !fresh).then_some(Conjunct::NoReadNoBookmark);
    };
    let facts = facts.expect("the facts of the log the last read saw");
    if keep(Conjunct::WithinBound) && seen.len() > usize::from(model.config.max_lines) {
        return Some(Conjunct::WithinBound);
    }
    if keep(Conjunct::JudgeSawSeen) && s.judge.last_saw(&facts.bytes, 0, seen.running) != Some(true)
    {
        return Some(Conjunct::JudgeSawSeen);
    }
    let delivered_ok = s
        .judge
        .delivered()
        .iter()
        .all(|&d| facts.complete.binary_search(&d).is_ok() || facts.grown_from(d));
    if keep(Conjunct::DeliveredAreCompleteLines) && !delivered_ok {
        return Some(Conjunct::DeliveredAreCompleteLines);
    }
    model
        .engine
        .bookmark_conjuncts(&model.config, &s.engine, seen, facts, &s.judge, dropped)
}

/// The first of the conjuncts about the log now (within the bound, a finished job writes
/// nothing), other than `dropped`, that `state` breaks.
fn log_conjuncts<E: Inductive>(
    model: &TailModel<E>,
    seen: Option<&Written>,
    state: &TailState<E::State>,
    dropped: Option<Conjunct>,
) -> Option<Conjunct> {
    let keep = |c: Conjunct| dropped != Some(c);
    let max = usize::from(model.config.max_lines);
    if keep(Conjunct::WithinBound) && state.lines.len() + usize::from(state.partial) > max {
        return Some(Conjunct::WithinBound);
    }
    let writes = seen.is_none_or(|w| writes_allowed(w, state.running, &Written::of(state)));
    (keep(Conjunct::FinishedJobWritesNothing) && !writes)
        .then_some(Conjunct::FinishedJobWritesNothing)
}

/// "A finished job writes nothing" but its partial line's end: running now only if running
/// at the last read; after a finish, the log only completes its partial line (output flushed
/// late), loses lines (a truncation) or changes text (a rewrite): its lines are a prefix of
/// the seen log's, with the partial line completed, and the partial line is kept only with
/// all of them.
fn writes_allowed(seen: &Written, running: bool, now: &Written) -> bool {
    if seen.running {
        return true;
    }
    // The seen lines, then its partial line completed: what a finished job's log may hold.
    let most = seen
        .lines
        .iter()
        .copied()
        .chain(seen.partial.then_some(LineKind::Completed));
    let prefix = now.lines.len() <= seen.len() && most.zip(&now.lines).all(|(a, &b)| a == b);
    !running && prefix && (!now.partial || (seen.partial && now.lines.len() == seen.lines.len()))
}
