//! The budget leaves out only what does not fit (docs/contract.md, the read rule's step 4:
//! emissions are taken from the newest backwards *while they fit*). A reply that says the
//! budget left lines out, when the newest of them would have fit beside what it kept, tells
//! the agent something untrue about why it sees less: [`AnomalyKind::DishonestCount`].
//!
//! The judge decides only where the contract fixes the cost on its own: the newest line left
//! out sits right below a line the reply carried (one run of candidates, so no marker between
//! them), and it prints alone — its clean text is not its neighbours', so no fold takes it.
//! Its cost is then its emission's (what the line prints, plus its newline), the rule `align`
//! already reads body lines by. Elsewhere (a fold, a marker, a partial line left out) the
//! judge says nothing.

use super::align::Aligned;
use super::print::exact_line;
use super::truth::Truth;
use super::verdict::{Anomaly, AnomalyKind, LineRef, Verdict};
use crate::upstream::js::utf16_len;
use crate::upstream::limits::Limits;

/// One condensed read of the exact format, as the check reads it.
pub(super) struct Kept<'a> {
    pub truth: &'a Truth,
    pub aligned: &'a Aligned,
    /// The window's lines never delivered before this read, ascending: the complete candidates.
    pub undelivered: &'a [usize],
    /// What the body, markers included, takes of the budget: its lines' UTF-16 units and a
    /// newline each (an empty body takes nothing).
    pub used: usize,
}

impl<'a> Kept<'a> {
    /// The read's facts, with the body measured as the budget counts it.
    pub fn of(
        truth: &'a Truth,
        aligned: &'a Aligned,
        undelivered: &'a [usize],
        body: &[&str],
    ) -> Self {
        Kept {
            truth,
            aligned,
            undelivered,
            used: if body.is_empty() {
                0
            } else {
                utf16_len(&body.join("\n")) + 1
            },
        }
    }
}

/// Flags a newest left-out line that fits the budget beside the body.
pub(super) fn check(kept: &Kept<'_>, limits: &Limits, v: &mut Verdict) {
    let Kept { truth, aligned, .. } = *kept;
    let carried = |i: usize| aligned.complete.binary_search(&i).is_ok();
    // A partial line the reply left out stopped the walk before any complete line.
    if truth.partial().is_some() && !aligned.partial {
        return;
    }
    let Some(&newest_out) = kept.undelivered.iter().rev().find(|&&i| !carried(i)) else {
        return;
    };
    let next = newest_out + 1;
    if next >= truth.complete || !carried(next) || !prints_alone(truth, newest_out, limits) {
        return;
    }
    let cost = cost_of(truth.text(newest_out), limits);
    let used = kept.used;
    if used + cost <= limits.text_budget {
        v.push(Anomaly::new(
            AnomalyKind::DishonestCount,
            Some(LineRef::of(truth, newest_out)),
            format!(
                "lines left out only once the newest of them does not fit: {cost} units beside \
                 {used} of the {}-unit budget",
                limits.text_budget
            ),
            "the line left out",
        ));
    }
}

/// Whether window line `i` is an emission of its own: its clean text differs from the lines
/// beside it in the window, so no run of equal lines folds it.
fn prints_alone(truth: &Truth, i: usize, limits: &Limits) -> bool {
    let clean = |j: usize| exact_line(truth.text(j), limits.line_cap).clean;
    let own = clean(i);
    let below = i > truth.window_start && clean(i - 1) == own;
    let above = i + 1 < truth.complete && clean(i + 1) == own;
    !below && !above
}

/// What a line alone costs the budget: its printed UTF-16 units and its newline.
fn cost_of(text: &str, limits: &Limits) -> usize {
    exact_line(text, limits.line_cap)
        .printed
        .encode_utf16()
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::super::testing::{lines, wrong_at};
    use super::super::Judge;
    use crate::upstream::limits::Limits;

    /// A first read of the last 2 lines of `log` at a budget of `budget`, with `text`.
    fn first_read(log: &[u8], budget: usize, text: &str) -> Vec<String> {
        let limits = Limits {
            text_budget: budget,
            ..Limits::default()
        };
        wrong_at(&limits, &mut Judge::default(), log, &lines(2.0), text)
    }

    fn left_out_b(budget: usize) -> String {
        format!("first read: 1 line — log at 3 lines\ncc\n\n(1 older line left out by the {budget}-char budget — the next read with lines: 2 returns them)")
    }

    #[test]
    fn a_line_left_out_that_fits_beside_the_body_is_named() {
        // `cc` and its newline cost 3, `bb` 3 more: 6 fit a budget of 6.
        let words = first_read(b"a\nbb\ncc\n", 6, &left_out_b(6));
        assert_eq!(
            words,
            ["lines left out only once the newest of them does not fit: 3 units beside 3 of the 6-unit budget"]
        );
    }

    #[test]
    fn a_line_left_out_that_does_not_fit_is_not() {
        assert!(first_read(b"a\nbb\ncc\n", 5, &left_out_b(5)).is_empty());
    }

    #[test]
    fn a_line_a_fold_may_take_is_not_judged() {
        // `cc` twice: whether a fold takes the older depends on the run, which this check
        // leaves to the rest of the judge.
        let text = "first read: 1 line — log at 3 lines\ncc\n\n(1 older line left out by the 6-char budget — the next read with lines: 2 returns them)";
        let words = first_read(b"a\ncc\ncc\n", 6, text);
        assert!(
            !words.iter().any(|w| w.contains("does not fit")),
            "{words:?}"
        );
    }
}
