//! Mirrored states: a continuing state with some lines in the other text variant, checked as
//! the state with those lines swapped back.
//!
//! A rewrite of one line changes one letter of it (`s`↔`t`, `p`↔`q`) and keeps its length.
//! Where `L` continues `P`, swapping the variant of one line *in both* — or of a line `L`
//! has and `P` has not — changes no offset, no length, no line's kind and no equality
//! between two pieces of the logs: the line names are unique per index, so no two lines are
//! alike in either variant. The engine and the judge decide by offsets, kinds and byte
//! equality (fingerprints compare bytes; the condenser folds equal lines only), so from the
//! swapped state every action gives the same reply with those lines' letters swapped, the
//! same verdict and the swapped successor. The enumeration holds both states; the check runs
//! the one whose seen lines and new lines are all unedited (the *mirror*) and counts the
//! other as covered by it.
//!
//! The swap is not taken for reset states: there `L` may be shorter than `P`, and a line
//! appended after the cut is compared with `P`'s line at the same index, whose variant the
//! swap would change on one side only. Nor for the wrapper's exit line, whose variant is its
//! exit status (`__BGRUN_EXIT__=0` or `=1`): it is never edited on its own.
//!
//! [`Factoring::MirrorsCompared`](super::Factoring::MirrorsCompared) (and
//! [`Factoring::Compared`](super::Factoring::Compared)) runs every mirrored state as well and
//! compares each action's outcome with its mirror's, the reply with the letters swapped
//! back: a difference fails the check as [`Broke::Asymmetric`].

use super::enumerate::Log;
use super::enumerate::{Candidate, Written};
use super::factor;
use super::invariant::{broken_conjunct_with, log_conjuncts, Inductive};
use super::plan::{Item, Plan};
use super::pool::{Count, Shared};
use super::report::{Broke, Failure};
use crate::scope::contract_sees;
use crate::{Action, Bytes};
use bgtail::judge::Judge;
use stateright::Model;

/// The lines whose variant a continuing state `(seen, now)` swaps to reach its mirror: every
/// line of `seen` edited on its own, and every line `now` has past `seen`'s edited on its own.
/// 0 for a mirror itself.
pub fn swapped(seen: &Written, now: &Written) -> u64 {
    let below = low_bits(seen.len());
    seen.edited | (now.edited & !below)
}

/// The mask of indices below `n`.
fn low_bits(n: usize) -> u64 {
    1u64.checked_shl(n as u32).map_or(u64::MAX, |bit| bit - 1)
}

/// `log` with the lines of `swap` in the other variant.
pub fn swap(log: &Written, swap: u64) -> Written {
    Written {
        edited: (log.edited ^ swap) & low_bits(log.len()),
        ..log.clone()
    }
}

/// `text` with the names of the lines of `swap` in the other variant: `s3`↔`t3`, `p3`↔`q3`.
/// A name is a letter not after a letter or digit, then the line's index in decimal.
pub fn swap_names(text: &str, swap: u64) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    for at in 0..bytes.len() {
        let other = match bytes[at] {
            b's' => b't',
            b't' => b's',
            b'p' => b'q',
            b'q' => b'p',
            _ => continue,
        };
        if at > 0 && bytes[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let index = std::str::from_utf8(&bytes[at + 1..at + 1 + digits])
            .ok()
            .and_then(|d| d.parse::<u32>().ok());
        if index.is_some_and(|i| i < 64 && swap >> i & 1 == 1) {
            out[at] = other;
        }
    }
    String::from_utf8(out).expect("only ASCII letters are swapped")
}

/// What one action from a state gives, as the check sees it: the reply, the verdict's flags,
/// the `always` properties broken, the successor's log and the conjunct of the invariant it
/// breaks. Written out with the names and variants of `swap` swapped, so that a state's and
/// its mirror's are equal.
fn outcome<E: Inductive>(
    plan: &Plan<'_, E>,
    candidate: &Candidate<E::State>,
    action: &Action,
    swap_lines: u64,
) -> Option<String> {
    let model = plan.model;
    let mut next = model.next_state(&candidate.state, action.clone())?;
    let broken: Vec<&str> = plan
        .properties
        .iter()
        .filter(|p| !(p.condition)(model, &next))
        .map(|p| p.name)
        .collect();
    // The reply of a read (`factor::read_outcome`'s text; empty for any other action).
    let reply =
        factor::read_outcome(model, &candidate.state, action).map_or_else(String::new, |o| o.reply);
    next.reads = 0;
    next.resets = 0;
    let read = action.own_read().is_some();
    let dropped = plan.options.dropped;
    let conjunct = if read {
        let seen = Written::of(&next);
        let facts = seen.facts(&model.config);
        let next = Candidate {
            state: next.clone(),
            seen: Some(seen),
        };
        broken_conjunct_with(model, &next, Some(&facts), dropped)
    } else {
        log_conjuncts(model, candidate.seen.as_ref(), &next, dropped)
    };
    let log = swap(&Written::of(&next), swap_lines);
    Some(format!(
        "reply: {}\nflags: {:?}\nbroken: {broken:?}\nlog: {log:?}, unread rewrite {:?}, view \
         {:?}\ninvariant: {conjunct:?}",
        swap_names(&reply, swap_lines),
        next.last,
        next.unread_rewrite,
        next.view,
    ))
}

/// Every action from `candidate` and from its mirror `mirror` (`candidate` with the lines of
/// `swap_lines` swapped): the first whose outcomes differ, with both outcomes (the mirror's
/// first). An action one of them offers and the other not differs too.
pub(super) fn first_asymmetry<E: Inductive>(
    plan: &Plan<'_, E>,
    candidate: &Candidate<E::State>,
    mirror: &Candidate<E::State>,
    swap_lines: u64,
) -> Option<(Option<Action>, String, String)> {
    let actions = |c: &Candidate<E::State>| {
        let mut out = Vec::new();
        plan.model.actions(&c.state, &mut out);
        out
    };
    let (ours, theirs) = (actions(candidate), actions(mirror));
    if ours != theirs {
        return Some((
            None,
            format!("actions {theirs:?}"),
            format!("actions {ours:?}"),
        ));
    }
    ours.iter().find_map(|action| {
        let expected = outcome(plan, mirror, action, 0);
        let found = outcome(plan, candidate, action, swap_lines);
        (expected != found).then(|| {
            let show = |o: Option<String>| o.unwrap_or_else(|| "(no successor)".into());
            (Some(action.clone()), show(expected), show(found))
        })
    })
}

/// A state's mirror, but for its start and its run: the log its last read saw and the log
/// now, with the swapped lines unedited, and the starts of the mirror's item.
struct Mirror<'a, S> {
    seen: Written,
    log: Log,
    /// In the order of the state's own item's starts.
    starts: &'a [(S, Judge)],
}

impl<E: Inductive> Plan<'_, E> {
    /// `item`'s states beside `log`, a log continuing the seen one whose mirror swaps the
    /// lines of `swap_lines`: counted as covered by their mirror, or, where the item holds
    /// its mirror's starts (the mirrors compared), each run in full and every action's
    /// outcome compared with its mirror's. Returns false once the check stops.
    pub(super) fn check_mirrored(
        &self,
        item: &Item<'_, E::State>,
        log: &Log,
        swap_lines: u64,
        shared: &Shared<E::State>,
    ) -> bool {
        let seen = item.seen.expect("a continuing state's last read saw a log");
        let runs: Vec<_> = self.runs_and_views(Some(seen), log).collect();
        let Some(starts) = item.mirror_starts.as_deref() else {
            let states = item.starts.len() * runs.len();
            shared.add(Count::Continuing, states);
            shared.add(Count::Mirrored, states);
            return true;
        };
        let written = swap(&log.written, swap_lines);
        let mirror = Mirror {
            seen: swap(seen, swap_lines),
            log: Log {
                bytes: written.facts(&self.model.config).bytes,
                written,
            },
            starts,
        };
        if !shared.holds(self.unlike_mirror(item, log, &mirror, &runs, swap_lines)) {
            return false;
        }
        for (start, mirror_start) in item.starts.iter().zip(mirror.starts) {
            for &(running, view) in &runs {
                if shared.stopped() {
                    return false;
                }
                shared.add(Count::Continuing, 1);
                shared.add(Count::Mirrored, 1);
                let candidate = self.candidate(Some(seen), log, running, view, &start.0, &start.1);
                let (engine, judge) = mirror_start;
                let (mirror_seen, mirror_log) = (Some(&mirror.seen), &mirror.log);
                let theirs = self.candidate(mirror_seen, mirror_log, running, view, engine, judge);
                let failure = self
                    .asymmetry(&candidate, &theirs, swap_lines)
                    .or_else(|| self.step(candidate, shared, false));
                if !shared.holds(failure) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the mirror is a state of the same kind: as many starts, the same runs and
    /// views, and a log that continues its seen one within the model's scope. The failure
    /// saying how it is not, if it is not.
    fn unlike_mirror(
        &self,
        item: &Item<'_, E::State>,
        log: &Log,
        mirror: &Mirror<'_, E::State>,
        runs: &[(bool, Option<Bytes>)],
        swap_lines: u64,
    ) -> Option<Failure<E::State>> {
        let limits = &self.model.config.limits;
        let facts = mirror.seen.facts(&self.model.config);
        let shape = |starts: usize, runs: &[(bool, Option<Bytes>)], continues: bool| {
            format!(
                "{starts} starts, runs and views {runs:?}, continuing within scope: {continues}"
            )
        };
        let mirror_runs: Vec<_> = self
            .runs_and_views(Some(&mirror.seen), &mirror.log)
            .collect();
        let continues = mirror.log.bytes.starts_with(&facts.bytes)
            && contract_sees(&facts.bytes, facts.settled, &mirror.log.bytes, limits);
        let (expected, found) = (
            shape(mirror.starts.len(), &mirror_runs, continues),
            shape(item.starts.len(), runs, true),
        );
        (expected != found).then(|| {
            let (engine, judge) = &item.starts[0];
            let (running, view) = runs.first().copied().unwrap_or((true, None));
            Failure {
                candidate: self.candidate(item.seen, log, running, view, engine, judge),
                action: None,
                broke: Broke::Asymmetric {
                    swapped: swap_lines,
                    mirror: expected,
                    found,
                },
            }
        })
    }

    /// The first action whose outcome from `candidate` differs from its mirror's, as a failure.
    fn asymmetry(
        &self,
        candidate: &Candidate<E::State>,
        mirror: &Candidate<E::State>,
        swap_lines: u64,
    ) -> Option<Failure<E::State>> {
        let (action, expected, found) = first_asymmetry(self, candidate, mirror, swap_lines)?;
        Some(Failure {
            candidate: candidate.clone(),
            action,
            broke: Broke::Asymmetric {
                swapped: swap_lines,
                mirror: expected,
                found,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LineKind;

    fn log(lines: usize, partial: bool, edited: u64) -> Written {
        Written {
            lines: vec![LineKind::Short; lines],
            partial,
            variant: false,
            edited,
            grown: 0,
            running: true,
        }
    }

    #[test]
    fn the_swap_takes_the_seen_lines_edits_and_the_new_lines_edits() {
        // Seen: 2 lines and a partial one, line 1 edited; now: 4 lines and a partial one,
        // lines 1 (as seen), 3 and 4 edited.
        let seen = log(2, true, 0b010);
        let now = log(4, true, 0b1_1010);
        assert_eq!(swapped(&seen, &now), 0b1_1010);
        assert_eq!(swap(&now, 0b1_1010).edited, 0);
        assert_eq!(swap(&seen, 0b1_1010).edited, 0);
        // A mirror swaps nothing.
        assert_eq!(swapped(&log(2, true, 0), &log(4, false, 0b011)), 0);
    }

    #[test]
    fn names_of_swapped_lines_change_letter_and_nothing_else_does() {
        let text = "s0\nt1\np2...\nq12 lines s1 (log at 3 lines; last s2)\n__BGRUN_EXIT__=0";
        assert_eq!(
            swap_names(text, 0b110),
            "s0\ns1\nq2...\nq12 lines t1 (log at 3 lines; last t2)\n__BGRUN_EXIT__=0"
        );
        // Letters inside words, and names of lines not swapped, stay.
        assert_eq!(swap_names("lines3 ts1 s3", 0b10), "lines3 ts1 s3");
    }
}
