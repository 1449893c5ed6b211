//! The invariant of the inductive check, conjunct by conjunct (see the module docs of
//! [`induction`](super)), and what an engine must tell the check to be held to it.

use super::enumerate::{Candidate, Facts, Log, Written};
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
    /// The model's scope (`crate::scope`): the log continues P, is shorter, or holds other
    /// bytes than P at a place the contract compares.
    LogInScope,
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
            Conjunct::LogInScope => "the log is one the contract sees",
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

    /// Whether two states that are equal (`==`) are also alike in what equality leaves out
    /// (a cache, such as the exact engine's line index): the factoring's cross-checks hold a
    /// member's successor to its group's whole.
    fn alike_beyond_eq(a: &Self::State, b: &Self::State) -> bool;

    /// Why a read of a log starts a new generation from every bookmark the invariant allows
    /// after a read saw `seen`, by the engine's own generation check — for an engine whose
    /// read then depends on the old bookmark only through that reason and the generation
    /// number (see [`factor`](super::factor)). The check returned answers for one log at a
    /// time; `None`: the read continues, or the engine makes no such promise (the default);
    /// those states are run in full. Built once per seen log, so that an engine works out
    /// what it needs of `seen` once, and asked only of the logs the listing needs.
    fn reset_check<'a>(
        &'a self,
        _config: &'a ModelConfig,
        _seen: &'a Written,
        _facts: &'a Facts,
    ) -> ResetCheck<'a> {
        Box::new(|_| None)
    }
}

/// A check of one log against what a read saw: [`Inductive::reset_check`].
pub type ResetCheck<'a> = Box<dyn Fn(&Log) -> Option<bgtail::ResetReason> + 'a>;

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
pub(super) fn broken_conjunct_with<E: Inductive>(
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
pub(super) fn log_conjuncts<E: Inductive>(
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
    if keep(Conjunct::FinishedJobWritesNothing) && !writes {
        return Some(Conjunct::FinishedJobWritesNothing);
    }
    // P's bytes as the state keeps them (the enumeration writes them, a read sets them) and
    // where the judge saw its complete lines end.
    let limits = &model.config.limits;
    let in_scope = match (seen, state.judge.last_extent()) {
        (Some(_), Some((_, settled))) => {
            let now = state.render(limits).bytes;
            crate::scope::contract_sees(&state.seen, settled, &now, limits)
        }
        _ => true,
    };
    (keep(Conjunct::LogInScope) && !in_scope).then_some(Conjunct::LogInScope)
}

/// "A finished job writes nothing" but its partial line's end: running now only if running
/// at the last read; after a finish, the log only completes its partial line (output flushed
/// late), loses lines (a truncation) or changes text (a rewrite of every line): its lines are a
/// prefix of the seen log's, with the partial line completed, each rewritten on its own and
/// grown as it was, and the partial line is kept only with all of them.
pub(super) fn writes_allowed(seen: &Written, running: bool, now: &Written) -> bool {
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
    // Rewriting one line and growing the partial one are the job's: the lines kept are as
    // they were.
    let kept = 1u64
        .checked_shl(now.len() as u32)
        .map_or(u64::MAX, |bit| bit - 1);
    let as_they_were =
        (now.edited ^ seen.edited) & kept == 0 && (now.grown ^ seen.grown) & kept == 0;
    !running
        && prefix
        && as_they_were
        && (!now.partial || (seen.partial && now.lines.len() == seen.lines.len()))
}
