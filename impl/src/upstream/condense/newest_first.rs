//! The exact engine's selection: the **newest** emissions that fit the budget, with a marker
//! between runs of lines that are not adjacent in the log. The emissions are upstream's own
//! ([`build_emissions`] in the exact format); only the walk is the engine's.

use super::{build_emissions, common_notes, Emission, TextFormat};
use crate::upstream::js::{plural, utf16_len};
use crate::upstream::limits::Limits;

/// Lines adjacent in the log, to be condensed together.
///
/// Invariant: the lines are numbered `first`, `first + 1`, …, one per text; runs given to
/// [`condense`] are in ascending order and do not overlap, so the lines between two runs are
/// exactly the gap a marker names.
pub(crate) struct Run {
    /// The number of the run's first line (the exact engine's view index).
    pub first: usize,
    /// The lines' texts, in order.
    pub texts: Vec<String>,
}

impl Run {
    /// One past the number of the run's last line.
    fn end(&self) -> usize {
        self.first + self.texts.len()
    }
}

/// What [`condense`] keeps.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NewestFirst {
    /// The body: the kept emissions and markers, joined by `\n`.
    pub body: String,
    /// The numbers of the complete lines the body carries, in body order.
    pub shown: Vec<usize>,
    /// Whether the body carries the partial line.
    pub partial_shown: bool,
    /// The condenser's notes: escapes, folds, capped lines, a crowded-out partial line.
    pub notes: Vec<String>,
}

/// An emission, with the run it came from.
struct Item {
    run: usize,
    emission: Emission,
}

/// Condenses the runs (and the partial line, a run of its own after them) and keeps the
/// newest emissions that fit the budget.
///
/// Budget: Σ(emission or marker length + 1) ≤ `text_budget`, as upstream counts, so the body
/// (joined by `\n`) is at most `text_budget − 1` units. The newest complete line's emission
/// always fits (`Limits::validate`), and the partial line yields to it, which is what makes
/// every read make progress.
pub(crate) fn condense(limits: &Limits, mut runs: Vec<Run>, partial: Option<Run>) -> NewestFirst {
    // The partial line is its own run: it never folds with the complete lines before it.
    let has_partial = partial.is_some();
    runs.extend(partial);
    let mut items = emissions(&runs, limits);
    let mut kept_from = keep_newest(&items, &runs, limits.text_budget);
    // The partial line is the newest emission, but the newest *complete* line has priority:
    // when the partial line (and the marker before it) crowds that line out, it is dropped.
    let complete_items = items.len() - usize::from(has_partial);
    let partial_crowded_out = has_partial && complete_items > 0 && kept_from >= complete_items;
    if partial_crowded_out {
        items.pop();
        runs.pop();
        kept_from = keep_newest(&items, &runs, limits.text_budget);
    }
    let partial_run = (has_partial && !partial_crowded_out).then(|| runs.len() - 1);
    let mut kept = assemble(&items[kept_from..], &runs, partial_run, limits);
    if partial_crowded_out {
        kept.notes.push(
            "a partial last line is being written; it did not fit the budget this time".into(),
        );
    }
    kept
}

/// Every run's emissions, oldest first.
fn emissions(runs: &[Run], limits: &Limits) -> Vec<Item> {
    let mut items = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        for emission in build_emissions(&run.texts, limits, TextFormat::Exact).list {
            items.push(Item { run: r, emission });
        }
    }
    items
}

/// The body of the kept emissions, with a marker wherever two of them come from runs with
/// lines between them, and the lines they stand for.
fn assemble(
    kept: &[Item],
    runs: &[Run],
    partial_run: Option<usize>,
    limits: &Limits,
) -> NewestFirst {
    let mut out: Vec<String> = Vec::with_capacity(kept.len() + runs.len());
    let mut shown = Vec::new();
    let mut partial_shown = false;
    let (mut ansi, mut folds, mut capped) = (0, 0, 0);
    for (k, item) in kept.iter().enumerate() {
        if k > 0 && kept[k - 1].run != item.run {
            let gap = gap_between(runs, kept[k - 1].run, item.run);
            if gap > 0 {
                out.push(marker(gap));
            }
        }
        out.push(item.emission.text.clone());
        if Some(item.run) == partial_run {
            partial_shown = true;
        } else {
            let first = runs[item.run].first + item.emission.first;
            shown.extend(first..first + item.emission.count);
        }
        ansi += item.emission.ansi_sequences;
        folds += usize::from(item.emission.count > 1);
        capped += usize::from(item.emission.line_capped);
    }
    NewestFirst {
        body: out.join("\n"),
        shown,
        partial_shown,
        notes: common_notes(ansi, folds, capped, limits),
    }
}

/// How many lines lie between two runs (all of them already shown).
fn gap_between(runs: &[Run], older: usize, newer: usize) -> usize {
    runs[newer].first - runs[older].end()
}

/// Walks the emissions newest → oldest, charging each its length + 1 and a marker where it
/// is not adjacent to the newer one kept; stops at the first that does not fit. Returns the
/// index of the oldest emission kept (`items.len()` when none fits).
fn keep_newest(items: &[Item], runs: &[Run], budget: usize) -> usize {
    let mut total = 0usize;
    let mut kept_from = items.len();
    let mut last_run: Option<usize> = None;
    for (idx, item) in items.iter().enumerate().rev() {
        let mut cost = item.emission.cost();
        if let Some(newer) = last_run.filter(|&r| r != item.run) {
            let gap = gap_between(runs, item.run, newer);
            if gap > 0 {
                cost += utf16_len(&marker(gap)) + 1;
            }
        }
        if total + cost > budget {
            break;
        }
        total += cost;
        kept_from = idx;
        last_run = Some(item.run);
    }
    kept_from
}

/// The line that stands for `gap` lines already shown, between two kept runs.
fn marker(gap: usize) -> String {
    format!(
        "… {gap} {} already shown …",
        plural(gap as u64, "line", "lines")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(first: usize, texts: &[&str]) -> Run {
        Run {
            first,
            texts: texts.iter().map(|t| t.to_string()).collect(),
        }
    }

    fn budget(text_budget: usize) -> Limits {
        Limits {
            text_budget,
            ..Limits::default()
        }
    }

    #[test]
    fn runs_apart_in_the_log_are_joined_by_a_marker_naming_the_gap() {
        let kept = condense(
            &budget(4000),
            vec![run(0, &["a"]), run(3, &["b", "c"])],
            None,
        );
        assert_eq!(kept.body, "a\n… 2 lines already shown …\nb\nc");
        assert_eq!(kept.shown, [0, 3, 4]);
        assert!(!kept.partial_shown && kept.notes.is_empty());
    }

    #[test]
    fn the_budget_keeps_the_newest_and_counts_each_line_with_its_newline() {
        // "aa\n" + "bb\n" + "cc\n" = 9 units; 6 keep the newest two, exactly.
        let kept = condense(&budget(6), vec![run(0, &["aa", "bb", "cc"])], None);
        assert_eq!(kept.body, "bb\ncc");
        assert_eq!(kept.shown, [1, 2]);
        let kept = condense(&budget(5), vec![run(0, &["aa", "bb", "cc"])], None);
        assert_eq!(kept.shown, [2]);
    }

    #[test]
    fn a_marker_is_charged_against_the_budget() {
        // "… 1 line already shown …" is 24 units, 25 with its newline; "a" and "b" cost 2 each.
        let runs = || vec![run(0, &["a"]), run(2, &["b"])];
        assert_eq!(condense(&budget(29), runs(), None).shown, [0, 2]);
        assert_eq!(condense(&budget(28), runs(), None).shown, [2]);
    }

    #[test]
    fn a_partial_line_is_its_own_run_and_never_folds_with_the_line_before() {
        let kept = condense(&budget(4000), vec![run(0, &["x"])], Some(run(1, &["x"])));
        assert_eq!(kept.body, "x\nx");
        assert_eq!(kept.shown, [0]);
        assert!(kept.partial_shown);
    }

    #[test]
    fn a_partial_line_that_crowds_out_the_newest_complete_line_yields_to_it() {
        let kept = condense(&budget(4), vec![run(0, &["abc"])], Some(run(1, &["d"])));
        assert_eq!(kept.body, "abc");
        assert_eq!(kept.shown, [0]);
        assert!(!kept.partial_shown);
        assert_eq!(
            kept.notes,
            ["a partial last line is being written; it did not fit the budget this time"]
        );
    }

    #[test]
    fn a_folded_run_stands_for_all_its_lines() {
        let kept = condense(&budget(4000), vec![run(5, &["x", "x", "x", "y"])], None);
        assert_eq!(kept.shown, [5, 6, 7, 8]);
        assert_eq!(kept.notes, ["1 repeated-line run collapsed"]);
    }
}
