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
//! bookmark and `L`) one stands for all. The engine's part is never merged: every coverage,
//! `partial_seen` and index meets every reset. Counters of reads and resets are the bounded
//! model's, not the contract's: every action is enabled in every state.

use crate::{line_text, partial_text, Action, LineKind, ModelConfig, TailModel, TailState};
use crate::{JOB_ID, JOB_PATH};
use bgtail::exact::{fnv1a, BytePrint, Coverage, ExactBookmark, ExactState, Mark};
use bgtail::judge::{settled_end, Judge};
use bgtail::shipped::ShippedBookmark;
use bgtail::source::{LogIdentity, SliceLog};
use bgtail::{Engine, ExactEngine, Job, LineIndex, Request, ShippedEngine, ShippedState};
use stateright::{Expectation, Model};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A log as the model writes it, and whether its job was running when a read saw it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Written {
    pub lines: Vec<LineKind>,
    pub partial: bool,
    pub variant: bool,
    pub running: bool,
}

/// A state of the inductive check: a model state, and the log its last read saw.
#[derive(Clone, Debug)]
pub struct Candidate<S> {
    pub state: TailState<S>,
    /// `None` before any read.
    pub seen: Option<Written>,
}

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

/// What the invariant says about one written log, worked out once.
#[derive(Clone, Debug)]
pub struct Facts {
    pub bytes: Vec<u8>,
    /// Complete content lines `(offset, end)` (end past the `\n`), oldest first.
    pub complete: Vec<(u64, u64)>,
    /// The partial line's extent, while the job runs.
    pub partial: Option<(u64, u64)>,
    /// Every line start (complete lines, then the partial one), with whether it is content.
    pub starts: Vec<(u64, bool)>,
    pub settled: u64,
}

impl Facts {
    /// Whether `span` was a line of an earlier read that has grown since: it starts where a
    /// line of this log starts and ends before that line does. The judge keeps such spans
    /// among the lines delivered, and no line of the generation ever has their span again.
    pub fn grown_from(&self, span: (u64, u64)) -> bool {
        self.complete
            .iter()
            .chain(&self.partial)
            .any(|l| l.0 == span.0 && span.1 < l.1)
    }

    /// Those of `spans` that are complete content lines of this log.
    pub fn lines_of(&self, spans: &[(u64, u64)]) -> Vec<(u64, u64)> {
        spans
            .iter()
            .copied()
            .filter(|s| self.complete.binary_search(s).is_ok())
            .collect()
    }
}

impl Written {
    /// The log's lines, complete and partial.
    pub fn len(&self) -> usize {
        self.lines.len() + usize::from(self.partial)
    }

    /// Whether the log has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The log's bytes and the facts the invariant speaks of.
    pub fn facts(&self, config: &ModelConfig) -> Facts {
        let mut bytes = Vec::new();
        let mut complete = Vec::new();
        let mut starts = Vec::new();
        for (i, &kind) in self.lines.iter().enumerate() {
            let text = line_text(i, kind, self.variant, &config.limits);
            let start = bytes.len() as u64;
            let content = !matches!(kind, LineKind::Blank | LineKind::Wrapper);
            starts.push((start, content));
            if content {
                complete.push((start, start + text.len() as u64 + 1));
            }
            bytes.extend_from_slice(text.as_bytes());
            bytes.push(b'\n');
        }
        let mut partial = None;
        if self.partial {
            let text = partial_text(self.lines.len(), self.variant);
            let start = bytes.len() as u64;
            let extent = (start, start + text.len() as u64);
            starts.push((start, true));
            if self.running {
                partial = Some(extent);
            } else {
                // A finished job's last line is an ordinary line.
                complete.push(extent);
            }
            bytes.extend_from_slice(text.as_bytes());
        }
        let settled = settled_end(&bytes, self.running);
        Facts {
            bytes,
            complete,
            partial,
            starts,
            settled,
        }
    }

    /// The log a model state holds now.
    pub fn of<S>(state: &TailState<S>) -> Written {
        Written {
            lines: state.lines.clone(),
            partial: state.partial,
            variant: state.variant,
            running: state.running,
        }
    }
}

/// Every log shape of up to `max_lines` lines of the model's kinds (a completed line among
/// them when the model writes partial lines), with or without a partial line, first variant.
pub fn log_shapes(config: &ModelConfig, max_lines: usize) -> Vec<(Vec<LineKind>, bool)> {
    let mut kinds = config.kinds.clone();
    if config.partial_lines {
        kinds.push(LineKind::Completed);
    }
    let mut out = vec![(Vec::new(), false)];
    let mut layer = vec![Vec::new()];
    for n in 0..=max_lines {
        if n > 0 {
            layer = layer
                .iter()
                .flat_map(|l: &Vec<LineKind>| {
                    kinds.iter().map(move |&k| {
                        let mut l = l.clone();
                        l.push(k);
                        l
                    })
                })
                .collect();
            out.extend(layer.iter().map(|l| (l.clone(), false)));
        }
        if config.partial_lines && n < max_lines {
            out.extend(layer.iter().map(|l| (l.clone(), true)));
        }
    }
    out
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
    let mut most = seen.lines.clone();
    if seen.partial {
        most.push(LineKind::Completed);
    }
    !running
        && most.starts_with(&now.lines)
        && (!now.partial || (seen.partial && now.lines.len() == seen.lines.len()))
}

/// The covered lines of a bitmask over `facts.complete`, as maximal runs of byte ranges.
fn ranges_of(mask: u64, facts: &Facts) -> Vec<(u64, u64)> {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    let mut open = false;
    for (i, &(start, end)) in facts.complete.iter().enumerate() {
        if mask >> i & 1 == 1 {
            match runs.last_mut() {
                Some(run) if open => run.1 = end,
                _ => runs.push((start, end)),
            }
            open = true;
        } else {
            open = false;
        }
    }
    runs
}

/// The lines `(offset, end)` of a bitmask over `facts.complete`.
fn spans_of(mask: u64, facts: &Facts) -> Vec<(u64, u64)> {
    (0..facts.complete.len())
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| facts.complete[i])
        .collect()
}

/// A fingerprint of `bytes[offset..offset + len]`.
fn print(bytes: &[u8], offset: u64, len: u64) -> BytePrint {
    BytePrint {
        offset,
        len,
        hash: fnv1a(&bytes[offset as usize..(offset + len) as usize]),
    }
}

/// What the bookmark of a read of `facts` must say of the log, whatever else it holds.
fn described(limits: &bgtail::Limits, facts: &Facts) -> ExactBookmark {
    let size = facts.bytes.len() as u64;
    let settled_from = facts.settled.saturating_sub(64);
    ExactBookmark {
        path: JOB_PATH.to_owned(),
        generation: 1,
        identity: Some(LogIdentity {
            device: 0,
            inode: 0,
        }),
        size,
        settled_end: facts.settled,
        head: print(&facts.bytes, 0, size.min(limits.head_probe_bytes)),
        settled_print: Some(print(
            &facts.bytes,
            settled_from,
            facts.settled - settled_from,
        )),
        coverage: Coverage::default(),
        partial_seen: None,
        index: LineIndex::default(),
    }
}

/// The line starts of `facts` at or before its settled end: where a mark may lie.
fn mark_places(facts: &Facts) -> impl Iterator<Item = u64> + '_ {
    let b = &facts.bytes;
    (0..=facts.settled).filter(move |&x| x == 0 || b[x as usize - 1] == b'\n')
}

/// The true mark at `offset` (counted from the log's start).
fn true_mark(facts: &Facts, offset: u64) -> Mark {
    Mark {
        offset,
        lines: facts.complete.iter().filter(|l| l.0 < offset).count() as i64,
        newlines: facts.bytes[..offset as usize]
            .iter()
            .filter(|&&c| c == b'\n')
            .count() as i64,
    }
}

/// "The index is true": marks increase, lie at line starts at or before the settled end, and
/// their differences are the log's counts.
fn index_true(index: &LineIndex, facts: &Facts) -> bool {
    let places: Vec<u64> = mark_places(facts).collect();
    let marks = index.marks();
    marks.windows(2).all(|w| w[0].offset < w[1].offset)
        && marks
            .iter()
            .all(|m| places.binary_search(&m.offset).is_ok())
        && marks.first().is_none_or(|first| {
            let anchor = true_mark(facts, first.offset);
            marks.iter().all(|m| {
                let t = true_mark(facts, m.offset);
                m.lines - first.lines == t.lines - anchor.lines
                    && m.newlines - first.newlines == t.newlines - anchor.newlines
            })
        })
}

/// The number of maximal runs of set bits among the low `k` bits.
fn runs(mask: u64, k: usize) -> usize {
    (0..k)
        .filter(|&i| mask >> i & 1 == 1 && (i == 0 || mask >> (i - 1) & 1 == 0))
        .count()
}

impl Inductive for ExactEngine {
    fn starts(
        &self,
        _config: &ModelConfig,
        seen: &Written,
        facts: &Facts,
        dropped: Option<Conjunct>,
    ) -> Vec<(ExactState, Judge)> {
        let k = facts.complete.len();
        assert!(k < 64, "a log of {k} lines is past the check's bitmasks");
        let base = described(self.limits(), facts);
        let complete_index = {
            let mut index = LineIndex::default();
            for x in mark_places(facts) {
                index.insert(true_mark(facts, x));
            }
            index
        };
        let partial_seen: Vec<_> = std::iter::once(None)
            .chain(facts.partial.map(Some))
            .collect();
        let mut out = Vec::new();
        for covered in 0..1u64 << k {
            // Coverage within its bound is kept by the type the engine forgets through.
            if runs(covered, k) > self.limits().coverage_ranges_max {
                continue;
            }
            let mut coverage = Coverage::default();
            coverage.rebuild_from(0, &ranges_of(covered, facts));
            for delivered in 0..1u64 << k {
                for forgot in [false, true] {
                    let coverage_delivered =
                        covered & !delivered == 0 || dropped == Some(Conjunct::CoverageDelivered);
                    let delivered_covered = forgot
                        || delivered & !covered == 0
                        || dropped == Some(Conjunct::DeliveredCoveredUntilForgotten);
                    // The highest set bit of `delivered` is the newest line delivered.
                    let newest = (delivered != 0).then(|| 63 - delivered.leading_zeros());
                    let newest_covered = newest.is_none_or(|i| covered >> i & 1 == 1)
                        || dropped == Some(Conjunct::NewestDeliveredCovered);
                    if !(coverage_delivered && delivered_covered && newest_covered) {
                        continue;
                    }
                    let judge = Judge::after_read(
                        &facts.bytes,
                        0,
                        seen.running,
                        spans_of(delivered, facts),
                        forgot,
                    );
                    for &seen_partial in &partial_seen {
                        for index in [LineIndex::default(), complete_index.clone()] {
                            let bookmark = ExactBookmark {
                                coverage: coverage.clone(),
                                partial_seen: seen_partial,
                                index,
                                ..base.clone()
                            };
                            let state = ExactState {
                                bookmarks: vec![(JOB_ID.to_owned(), bookmark)],
                            };
                            out.push((state, judge.clone()));
                        }
                    }
                }
            }
        }
        out
    }

    fn bookmark_conjuncts(
        &self,
        _config: &ModelConfig,
        state: &ExactState,
        _seen: &Written,
        facts: &Facts,
        judge: &Judge,
        dropped: Option<Conjunct>,
    ) -> Option<Conjunct> {
        let keep = |c: Conjunct| dropped != Some(c);
        let [(id, b)] = state.bookmarks.as_slice() else {
            return keep(Conjunct::BookmarkDescribesSeen)
                .then_some(Conjunct::BookmarkDescribesSeen);
        };
        let delivered = facts.lines_of(judge.delivered());
        let expected = ExactBookmark {
            generation: b.generation,
            coverage: b.coverage.clone(),
            partial_seen: b.partial_seen,
            ..described(self.limits(), facts)
        };
        let checks = [
            (
                Conjunct::BookmarkDescribesSeen,
                id == JOB_ID && b.generation >= 1 && *b == expected,
            ),
            (
                Conjunct::CoverageOnCompleteLines,
                coverage_on_lines(&b.coverage, facts, self.limits().coverage_ranges_max),
            ),
            (
                Conjunct::CoverageDelivered,
                facts
                    .complete
                    .iter()
                    .filter(|l| b.coverage.covers(l.0, l.1))
                    .all(|l| judge.delivered().binary_search(l).is_ok()),
            ),
            (
                Conjunct::DeliveredCoveredUntilForgotten,
                judge.forgot() || delivered.iter().all(|l| b.coverage.covers(l.0, l.1)),
            ),
            (
                Conjunct::NewestDeliveredCovered,
                delivered.last().is_none_or(|l| b.coverage.covers(l.0, l.1)),
            ),
            (
                Conjunct::PartialSeenIsSeens,
                b.partial_seen.is_none() || b.partial_seen == facts.partial,
            ),
            (Conjunct::IndexTrue, index_true(&b.index, facts)),
        ];
        checks
            .into_iter()
            .find(|&(c, holds)| !holds && keep(c))
            .map(|(c, _)| c)
    }

    fn no_bookmark(state: &ExactState) -> bool {
        state.bookmarks.is_empty()
    }
}

/// "Coverage lies on complete lines": at most `max` ranges, each from a complete content
/// line's start to a complete content line's end, with an uncovered line between two.
fn coverage_on_lines(coverage: &Coverage, facts: &Facts, max: usize) -> bool {
    let line_of = |x: u64, by_end: bool| {
        facts
            .complete
            .iter()
            .position(|l| if by_end { l.1 == x } else { l.0 == x })
    };
    let mut last_end: Option<usize> = None;
    coverage.ranges().len() <= max
        && coverage.ranges().iter().all(|&(s, e)| {
            let (Some(first), Some(last)) = (line_of(s, false), line_of(e, true)) else {
                return false;
            };
            let separated = last_end.is_none_or(|prev| first > prev + 1);
            last_end = Some(last);
            first <= last && separated
        })
}

impl Inductive for ShippedEngine {
    /// The shipped engine's bookmark is a line count, a fingerprint of the view's first line
    /// and the length of the run of lines it believes shown. Its analogue of the exact
    /// invariant: the bookmark a read of P leaves, under any view, believing any trailing run
    /// shown, and that run was delivered.
    fn starts(
        &self,
        config: &ModelConfig,
        seen: &Written,
        facts: &Facts,
        _dropped: Option<Conjunct>,
    ) -> Vec<(ShippedState, Judge)> {
        let mut out = Vec::new();
        for read in shipped_reads(self, config, seen, facts) {
            for served in 0..=read.lines {
                let run = (served as usize).min(facts.complete.len());
                let delivered = facts.complete[facts.complete.len() - run..].to_vec();
                let judge = Judge::after_read(&facts.bytes, 0, seen.running, delivered, false);
                let bookmark = ShippedBookmark {
                    served,
                    ..read.clone()
                };
                let state = ShippedState {
                    bookmarks: vec![(JOB_ID.to_owned(), bookmark)],
                };
                out.push((state, judge));
            }
        }
        out
    }

    fn bookmark_conjuncts(
        &self,
        config: &ModelConfig,
        state: &ShippedState,
        seen: &Written,
        facts: &Facts,
        judge: &Judge,
        dropped: Option<Conjunct>,
    ) -> Option<Conjunct> {
        let keep = |c: Conjunct| dropped != Some(c);
        let [(id, b)] = state.bookmarks.as_slice() else {
            return keep(Conjunct::BookmarkDescribesSeen)
                .then_some(Conjunct::BookmarkDescribesSeen);
        };
        let described = id == JOB_ID
            && b.served <= b.lines
            && shipped_reads(self, config, seen, facts).iter().any(|r| {
                *r == ShippedBookmark {
                    served: r.served,
                    ..b.clone()
                }
            });
        if !described && keep(Conjunct::BookmarkDescribesSeen) {
            return Some(Conjunct::BookmarkDescribesSeen);
        }
        let run = (b.served as usize).min(facts.complete.len());
        let delivered = facts.complete[facts.complete.len() - run..]
            .iter()
            .all(|l| judge.delivered().binary_search(l).is_ok());
        (!delivered && keep(Conjunct::BelievedShownDelivered))
            .then_some(Conjunct::BelievedShownDelivered)
    }

    fn no_bookmark(state: &ShippedState) -> bool {
        state.bookmarks.is_empty()
    }
}

/// The bookmarks a first read of `seen` leaves, under each view the model passes.
fn shipped_reads(
    engine: &ShippedEngine,
    config: &ModelConfig,
    seen: &Written,
    facts: &Facts,
) -> Vec<ShippedBookmark> {
    views(config)
        .filter_map(|view| {
            let mut state = ShippedState::default();
            let log = SliceLog {
                bytes: &facts.bytes,
                file_number: 0,
                missing: false,
            };
            let request = Request {
                lines: Some(1.0),
                raw: false,
                bytes: view.map(f64::from),
                peek: true,
                running: seen.running,
                elapsed_secs: None,
            };
            let job = Job {
                id: JOB_ID,
                path: JOB_PATH,
            };
            engine.read(&mut state, job, &log, &request).ok()?;
            state.get(JOB_ID).cloned()
        })
        .collect()
}

/// The views the model's agent may pass: the default, then each configured one.
fn views(config: &ModelConfig) -> impl Iterator<Item = Option<u16>> + '_ {
    std::iter::once(None).chain(config.views.iter().map(|&v| Some(v)))
}

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
pub struct Report<S> {
    pub max_lines: u8,
    /// States of the invariant checked: before any read, continuing the bookmark's
    /// generation, and reset since the bookmark was written.
    pub fresh: u64,
    pub continuing: u64,
    pub reset: u64,
    /// Actions applied (successors judged and checked against the invariant).
    pub steps: u64,
    /// Reads among them.
    pub reads: u64,
    pub seconds: f64,
    /// The first failure found (the check stops there); empty when the step holds.
    pub failures: Vec<Failure<S>>,
}

impl<S> Report<S> {
    /// Every state of the invariant checked.
    pub fn states(&self) -> u64 {
        self.fresh + self.continuing + self.reset
    }

    /// Whether every step kept every property and the invariant.
    pub fn proved(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Shared between the check's threads.
struct Shared<S> {
    next: AtomicUsize,
    stop: AtomicBool,
    counts: [AtomicUsize; 5],
    failures: Mutex<Vec<Failure<S>>>,
}

/// Every state of the invariant over logs of up to `model.config.max_lines` lines, every
/// action once from each; `dropped` leaves one conjunct out (to show the rest is not enough).
pub fn check<E>(model: &TailModel<E>, dropped: Option<Conjunct>, threads: usize) -> Report<E::State>
where
    E: Inductive,
{
    let started = std::time::Instant::now();
    let config = &model.config;
    let shapes = log_shapes(config, usize::from(config.max_lines));
    let mut items: Vec<Option<Written>> = vec![None];
    for (lines, partial) in &shapes {
        for running in [true, false] {
            if running || config.finish {
                items.push(Some(Written {
                    lines: lines.clone(),
                    partial: *partial,
                    variant: false,
                    running,
                }));
            }
        }
    }
    let logs: Vec<Written> = shapes
        .iter()
        .flat_map(|(lines, partial)| {
            [false, true].map(|variant| Written {
                lines: lines.clone(),
                partial: *partial,
                variant,
                running: true,
            })
        })
        .collect();
    let shared = Shared {
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        counts: Default::default(),
        failures: Mutex::new(Vec::new()),
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = shared.next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() || shared.stop.load(Ordering::Relaxed) {
                    break;
                }
                check_item(model, items[i].as_ref(), &logs, dropped, &shared);
            });
        }
    });
    let count = |i: usize| shared.counts[i].load(Ordering::Relaxed) as u64;
    Report {
        max_lines: config.max_lines,
        fresh: count(0),
        continuing: count(1),
        reset: count(2),
        steps: count(3),
        reads: count(4),
        seconds: started.elapsed().as_secs_f64(),
        failures: shared
            .failures
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
    }
}

/// Every state of the invariant whose last read saw `seen` (none: no read yet), and every
/// action from each.
fn check_item<E>(
    model: &TailModel<E>,
    seen: Option<&Written>,
    logs: &[Written],
    dropped: Option<Conjunct>,
    shared: &Shared<E::State>,
) where
    E: Inductive,
{
    let config = &model.config;
    let facts = seen.map(|w| w.facts(config));
    let starts = match (seen, &facts) {
        (Some(w), Some(f)) => model.engine.starts(config, w, f, dropped),
        _ => vec![(E::State::default(), Judge::default())],
    };
    // Each log now, with whether it continues the one the last read saw.
    let now: Vec<(&Written, bool)> = logs
        .iter()
        .filter(|l| seen.is_some() || !l.variant)
        .map(|l| {
            let bytes = l.facts(config).bytes;
            let continues = facts.as_ref().is_some_and(|f| bytes.starts_with(&f.bytes));
            (l, continues)
        })
        .collect();
    let properties: Vec<_> = model
        .properties()
        .into_iter()
        .filter(|p| p.expectation == Expectation::Always)
        .collect();
    // A read of a log that does not continue the seen one begins a generation, and the
    // judge then forgets what it held delivered before judging anything (`Judge::judge`):
    // starts that differ only in the judge read such a log alike, so one of them stands for
    // all (the engine's part, index included, is kept whole).
    let mut engines_seen = std::collections::HashSet::new();
    for (engine, judge) in starts {
        let stands_for_resets = engines_seen.insert(format!("{engine:?}"));
        let mut whole = true;
        for &(log, continues) in &now {
            if seen.is_some() && !continues && !stands_for_resets {
                continue;
            }
            for running in [true, false] {
                let allowed = seen.is_none_or(|w| writes_allowed(w, running, log));
                if !allowed {
                    continue;
                }
                for view in views(config) {
                    if shared.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let case = match seen {
                        None => 0,
                        Some(_) if continues => 1,
                        Some(_) => 2,
                    };
                    shared.counts[case].fetch_add(1, Ordering::Relaxed);
                    let candidate = Candidate {
                        state: TailState {
                            lines: log.lines.clone(),
                            partial: log.partial,
                            variant: log.variant,
                            running,
                            view,
                            engine: engine.clone(),
                            judge: judge.clone(),
                            ..TailState::empty(E::State::default())
                        },
                        seen: seen.cloned(),
                    };
                    let failure = check_candidate(
                        model,
                        &candidate,
                        facts.as_ref(),
                        std::mem::take(&mut whole),
                        &properties,
                        dropped,
                        shared,
                    );
                    if let Some((action, broke)) = failure {
                        shared.stop.store(true, Ordering::Relaxed);
                        let mut failures =
                            shared.failures.lock().unwrap_or_else(|e| e.into_inner());
                        failures.push(Failure {
                            candidate,
                            action,
                            broke,
                        });
                        return;
                    }
                }
            }
        }
    }
}

/// The candidate against the invariant, then every action from it.
fn check_candidate<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    facts: Option<&Facts>,
    whole: bool,
    properties: &[stateright::Property<TailModel<E>>],
    dropped: Option<Conjunct>,
    shared: &Shared<E::State>,
) -> Option<(Option<Action>, Broke)> {
    // The engine's and the judge's conjuncts are checked once per start (they do not depend
    // on the log now), the log's for every candidate.
    let broke = if whole {
        broken_conjunct_with(model, candidate, facts, dropped)
    } else {
        log_conjuncts(model, candidate.seen.as_ref(), &candidate.state, dropped)
    };
    if let Some(c) = broke {
        return Some((None, Broke::Start(c)));
    }
    let mut actions = Vec::new();
    model.actions(&candidate.state, &mut actions);
    for action in actions {
        shared.counts[3].fetch_add(1, Ordering::Relaxed);
        let read = matches!(action, Action::Read(_) | Action::RawRead(_));
        if read {
            shared.counts[4].fetch_add(1, Ordering::Relaxed);
        }
        let Some(mut next) = model.next_state(&candidate.state, action.clone()) else {
            continue;
        };
        if let Some(p) = properties.iter().find(|p| !(p.condition)(model, &next)) {
            return Some((
                Some(action.clone()),
                explain(model, candidate, &action, p.name),
            ));
        }
        next.reads = 0;
        next.resets = 0;
        // Only a read changes the engine, the judge and the seen log: after any other action
        // only the conjuncts about the log now can break.
        let broke = if !read {
            log_conjuncts(model, candidate.seen.as_ref(), &next, dropped)
        } else {
            let seen = Written::of(&next);
            let facts = seen.facts(&model.config);
            let next = Candidate {
                state: next,
                seen: Some(seen),
            };
            broken_conjunct_with(model, &next, Some(&facts), dropped)
        };
        if let Some(c) = broke {
            return Some((Some(action), Broke::Invariant(c)));
        }
    }
    None
}

/// The reply that broke `property`, read again, with what the judge found in it.
fn explain<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    action: &Action,
    property: &'static str,
) -> Broke {
    let mut s = candidate.state.clone();
    let read = match *action {
        Action::Read(n) => model.read(&mut s, n, false),
        Action::RawRead(n) => model.read(&mut s, n, true),
        _ => None,
    };
    let (text, anomalies) = read.map_or((String::new(), Vec::new()), |(t, v)| (t, v.anomalies));
    Broke::Property {
        name: property,
        text,
        anomalies,
    }
}
