//! The exact engine's part of the invariant: every bookmark it allows, and its conjuncts.

use super::enumerate::{ranges_of, spans_of};
use super::enumerate::{Facts, Log, Written};
use super::invariant::{Conjunct, Inductive, ResetCheck};
use crate::{LineKind, ModelConfig, PARTIAL_REST};
use crate::{JOB_ID, JOB_PATH};
use bgtail::exact::{fnv1a, BytePrint, Coverage, ExactBookmark, ExactState, GenerationPrint, Mark};
use bgtail::judge::Judge;
use bgtail::source::{LogIdentity, SliceLog};
use bgtail::{Engine, ExactEngine, LineIndex};

/// A fingerprint of `bytes[offset..offset + len]`.
fn print(bytes: &[u8], offset: u64, len: u64) -> BytePrint {
    BytePrint {
        offset,
        len,
        hash: fnv1a(&bytes[offset as usize..(offset + len) as usize]),
    }
}

/// The fingerprints a read of `facts` leaves: of the log's head, and of the
/// `settled_print_bytes` before its settled end.
fn prints(limits: &bgtail::Limits, facts: &Facts) -> (BytePrint, BytePrint) {
    let size = facts.bytes.len() as u64;
    let settled_from = facts.settled.saturating_sub(limits.settled_print_bytes);
    (
        print(&facts.bytes, 0, size.min(limits.head_probe_bytes)),
        print(&facts.bytes, settled_from, facts.settled - settled_from),
    )
}

/// The file every bookmark of the check saw.
const IDENTITY: LogIdentity = LogIdentity {
    device: 0,
    inode: 0,
};

/// What the bookmark of a read of `facts` must say of the log, whatever else it holds.
fn described(limits: &bgtail::Limits, facts: &Facts) -> ExactBookmark {
    let (head, settled_print) = prints(limits, facts);
    ExactBookmark {
        path: JOB_PATH.to_owned(),
        generation: 1,
        identity: Some(IDENTITY),
        size: facts.bytes.len() as u64,
        settled_end: facts.settled,
        head,
        settled_print: Some(settled_print),
        coverage: Coverage::default(),
        partial_seen: None,
        // Of P's partial line, shown or not.
        partial_print: partial_print(limits, facts, facts.partial),
        index: LineIndex::default(),
    }
}

/// The fingerprint a read leaves of the partial line `seen` it found in `facts`, if any: of
/// its last `partial_print_bytes`, all of a shorter line. `None` for an extent `facts` does
/// not hold.
fn partial_print(
    limits: &bgtail::Limits,
    facts: &Facts,
    seen: Option<(u64, u64)>,
) -> Option<BytePrint> {
    let (start, end) = seen?;
    let from = end.saturating_sub(limits.partial_print_bytes).max(start);
    let bytes = facts.bytes.get(from as usize..end as usize)?;
    Some(BytePrint {
        offset: from,
        len: end - from,
        hash: fnv1a(bytes),
    })
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
        let flushed = flushed_first_part(seen, facts);
        let mut out = Vec::new();
        for (covered, first_part) in coverings(k, flushed) {
            let Some(runs) = covering_runs(covered, first_part, facts, self.limits()) else {
                continue;
            };
            let mut coverage = Coverage::default();
            coverage.rebuild_from(0, &runs);
            for delivered in 0..1u64 << k {
                for forgot in [false, true] {
                    let coverage_delivered =
                        covered & !delivered == 0 || dropped == Some(Conjunct::CoverageDelivered);
                    let delivered_covered = forgot
                        || delivered & !covered == 0
                        || dropped == Some(Conjunct::DeliveredCoveredUntilForgotten);
                    // The highest set bit of `delivered` is the newest line delivered.
                    let newest = (delivered != 0).then(|| 63 - delivered.leading_zeros());
                    // A covered first part of a line flushed late is newer than every
                    // complete line delivered.
                    let newest_covered = newest.is_none_or(|i| covered >> i & 1 == 1)
                        || first_part.is_some()
                        || dropped == Some(Conjunct::NewestDeliveredCovered);
                    // The line flushed late is delivered whole only by a read that covers it
                    // whole.
                    let part_alone = first_part.is_none() || delivered >> (k - 1) & 1 == 0;
                    if !(coverage_delivered && delivered_covered && newest_covered && part_alone) {
                        continue;
                    }
                    // The first part covered was delivered, as a line, by the read that
                    // covered it.
                    let mut spans = spans_of(delivered, facts);
                    spans.extend(first_part);
                    let judge = Judge::after_read(&facts.bytes, 0, seen.running, spans, forgot);
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
        let delivered = facts.lines_of(judge.delivered());
        let flushed = flushed_first_part(seen, facts);
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
                coverage_on_lines(
                    &b.coverage,
                    facts,
                    flushed,
                    self.limits().coverage_ranges_max,
                ) && flushed_part_delivered_alone(&b.coverage, flushed, judge.delivered()),
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
                delivered.last().is_none_or(|l| b.coverage.covers(l.0, l.1))
                    || flushed.is_some_and(|f| b.coverage.covers(f.0, f.1)),
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

    /// The line index is all that equality leaves out of a bookmark: each job's marks, and
    /// whether they were found contradicted, alike.
    fn alike_beyond_eq(a: &ExactState, b: &ExactState) -> bool {
        a.bookmarks.len() == b.bookmarks.len()
            && a.bookmarks
                .iter()
                .zip(&b.bookmarks)
                .all(|((_, x), (_, y))| {
                    x.index.marks() == y.index.marks()
                        && x.index.is_poisoned() == y.index.is_poisoned()
                })
    }

    fn no_bookmark(state: &ExactState) -> bool {
        state.bookmarks.is_empty()
    }

    /// The engine's own check ([`ExactEngine::generation_check`]) against the generation
    /// print every start of `seen` shares: the part `described` fixes (path, file, size and
    /// the fingerprints of the head, of the bytes before the settled end and of P's partial
    /// line). The check reads nothing else of a bookmark.
    fn reset_check<'a>(
        &'a self,
        _config: &'a ModelConfig,
        _seen: &'a Written,
        facts: &'a Facts,
    ) -> ResetCheck<'a> {
        let (head, settled_print) = prints(self.limits(), facts);
        let print = GenerationPrint {
            path: JOB_PATH,
            identity: Some(IDENTITY),
            size: facts.bytes.len() as u64,
            head,
            settled_print: Some(settled_print),
            // Every start of `seen` fingerprints P's partial line, shown or not: the reason
            // this print gives is the reason for every start.
            partial_print: partial_print(self.limits(), facts, facts.partial),
        };
        Box::new(move |log: &Log| {
            let source = SliceLog {
                bytes: &log.bytes,
                file_number: 0,
                missing: false,
            };
            self.generation_check(&print, JOB_PATH, &source)
                .expect("a log in memory is always readable")
        })
    }
}

/// The first part of P's last line, when a finished job flushed it late (its partial line
/// completed after the exit was seen): a read before the flush covered that part as a line,
/// and a read whose view cut the line since leaves the range as it was.
fn flushed_first_part(seen: &Written, facts: &Facts) -> Option<(u64, u64)> {
    let late = !seen.running && !seen.partial && seen.lines.last() == Some(&LineKind::Completed);
    let &(start, end) = facts.complete.last().filter(|_| late)?;
    Some((start, end - 1 - PARTIAL_REST.len() as u64))
}

/// The lines a start may cover, as a bitmask over P's complete lines, each without and with
/// the flushed line's first part (never beside the whole line, which covers it).
fn coverings(
    k: usize,
    flushed: Option<(u64, u64)>,
) -> impl Iterator<Item = (u64, Option<(u64, u64)>)> {
    (0..1u64 << k).flat_map(move |covered| {
        let whole_last = k > 0 && covered >> (k - 1) & 1 == 1;
        let part = flushed.filter(|_| !whole_last);
        std::iter::once((covered, None)).chain(part.map(|p| (covered, Some(p))))
    })
}

/// The coverage ranges of `covered`, with the flushed line's `first_part` joined to them;
/// `None` past the bound the engine's coverage type forgets through.
fn covering_runs(
    covered: u64,
    first_part: Option<(u64, u64)>,
    facts: &Facts,
    limits: &bgtail::Limits,
) -> Option<Vec<(u64, u64)>> {
    let mut runs = ranges_of(covered, facts);
    if let Some(part) = first_part {
        match runs.last_mut() {
            Some(run) if run.1 == part.0 => run.1 = part.1,
            _ => runs.push(part),
        }
    }
    (runs.len() <= limits.coverage_ranges_max).then_some(runs)
}

/// Where `coverage` ends a range at the flushed line's first part, the judge holds that part
/// delivered (the read that covered it delivered it as a line) and not the whole line (a read
/// that delivers the line whole covers it whole).
fn flushed_part_delivered_alone(
    coverage: &Coverage,
    flushed: Option<(u64, u64)>,
    delivered: &[(u64, u64)],
) -> bool {
    flushed.is_none_or(|f| {
        let part_covered = coverage.ranges().iter().any(|r| r.1 == f.1);
        let whole = delivered.iter().any(|d| d.0 == f.0 && d.1 > f.1);
        !part_covered || (delivered.contains(&f) && !whole)
    })
}

/// "Coverage lies on complete lines": at most `max` ranges, each from a complete content
/// line's start to a complete content line's end (or to the end of the `flushed` first part
/// of the last line), with an uncovered line between two.
fn coverage_on_lines(
    coverage: &Coverage,
    facts: &Facts,
    flushed: Option<(u64, u64)>,
    max: usize,
) -> bool {
    let last = facts.complete.len().checked_sub(1);
    let line_of = |x: u64, by_end: bool| {
        let at = facts
            .complete
            .iter()
            .position(|l| if by_end { l.1 == x } else { l.0 == x });
        at.or_else(|| last.filter(|_| by_end && flushed.is_some_and(|f| f.1 == x)))
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
