//! Which lines a read's text carries, and the coverage that results: the window verbatim for
//! a raw read; else the window's lines not covered (and a partial line that grew), condensed
//! newest first within the budget.

use super::coverage::Coverage;
use super::scan::Scan;
use super::start::Start;
use crate::interface::api::{Request, ShownLine};
use crate::upstream::condense::newest_first::{self, Run};
use crate::upstream::js::plural;
use crate::upstream::limits::Limits;

/// The partial line, against the one the caller last saw.
pub(super) struct PartialLine {
    /// The partial line, when it has grown since a condensed reply carried it (or was never
    /// carried): only then is it offered again, so that an unchanged one does not repeat
    /// itself on every poll.
    pub new: Option<usize>,
    /// A partial line is there but unchanged, so not offered.
    pub pending: bool,
    /// The extent the caller saw, when continuing a generation.
    pub seen_before: Option<(u64, u64)>,
}

impl PartialLine {
    pub(super) fn of(scan: &Scan, start: &Start) -> Self {
        let view = &scan.view;
        let extent = |i: usize| (view.offset(&view.lines[i]), view.end_offset(&view.lines[i]));
        let seen_before = start
            .partial_seen
            .filter(|_| start.settled_before.is_some());
        let new = scan.partial.filter(|&p| Some(extent(p)) != seen_before);
        PartialLine {
            new,
            pending: scan.partial.is_some() && new.is_none(),
            seen_before,
        }
    }
}

/// What the text carries.
pub(super) struct Selection {
    /// View indices of the complete lines it carries, ascending.
    pub shown_complete: Vec<usize>,
    pub partial_shown: bool,
    pub notes: Vec<String>,
    /// Candidates the budget left out.
    pub left_out: u64,
    /// Lines selected before the budget (the window for a raw read, else the candidates).
    pub selected: u64,
    /// The body; `None` when there is nothing to show.
    pub body: Option<String>,
}

/// Which lines the text carries: the window verbatim for a raw read; else the window's lines
/// not covered (and a new partial line), condensed newest first within the budget.
pub(super) fn select(
    limits: &Limits,
    request: &Request,
    lines: usize,
    scan: &Scan,
    start: &Start,
    new_partial: Option<usize>,
) -> Selection {
    let view = &scan.view;
    let covered_before = |i: usize| {
        let l = &view.lines[i];
        start.coverage.covers(view.offset(l), view.end_offset(l))
    };
    let window_lines = scan.window_start..scan.complete;
    let mut sel = Selection {
        shown_complete: Vec::new(),
        partial_shown: false,
        notes: Vec::new(),
        left_out: 0,
        selected: 0,
        body: None,
    };
    if request.raw {
        sel.shown_complete = window_lines.collect();
        sel.partial_shown = scan.partial.is_some();
        sel.selected = sel.shown_complete.len() as u64;
        let texts: Vec<String> = sel
            .shown_complete
            .iter()
            .chain(scan.partial.iter())
            .map(|&i| view.text(&view.lines[i]).into_owned())
            .collect();
        sel.body = Some(if texts.is_empty() && scan.whole_log() {
            "(empty log)".to_owned()
        } else if texts.is_empty() {
            "(nothing in view)".to_owned()
        } else {
            texts.join("\n")
        });
        return sel;
    }
    let candidates: Vec<usize> = window_lines.filter(|&i| !covered_before(i)).collect();
    sel.selected = candidates.len() as u64;
    if candidates.is_empty() && new_partial.is_none() {
        return sel;
    }
    let text = |i: usize| view.text(&view.lines[i]).into_owned();
    let partial = new_partial.map(|p| Run {
        first: p,
        texts: vec![text(p)],
    });
    let condensed = newest_first::condense(limits, runs_of(&candidates, text), partial);
    sel.shown_complete = condensed.shown;
    sel.shown_complete.sort_unstable();
    sel.partial_shown = condensed.partial_shown;
    sel.left_out = sel.selected - sel.shown_complete.len() as u64;
    if sel.left_out > 0 {
        let again = if lines == usize::MAX {
            "the same `lines`".to_owned()
        } else {
            format!("lines: {lines}")
        };
        sel.notes.push(format!(
            "{} older {} left out by the {}-char budget — the next read with {again} returns them",
            sel.left_out,
            plural(sel.left_out, "line", "lines"),
            limits.text_budget
        ));
    }
    sel.notes.extend(condensed.notes);
    sel.body = Some(condensed.body);
    sel
}

/// Coverage after the read: it gains exactly the shown complete lines; then the oldest
/// ranges over the bound are forgotten (how many is the second value).
pub(super) fn next_coverage(
    limits: &Limits,
    scan: &Scan,
    start: &Start,
    shown_complete: &[usize],
) -> (Coverage, u64) {
    let view = &scan.view;
    let covered_before = |i: usize| {
        let l = &view.lines[i];
        start.coverage.covers(view.offset(l), view.end_offset(l))
    };
    let mut coverage = start.coverage.clone();
    // Runs are rebuilt over the window, where every shown line lies, and the content line just
    // above it, so that covered lines join across the blank and wrapper lines between them
    // instead of fragmenting the coverage.
    if scan.window_start < scan.complete {
        let from = scan.window_start.saturating_sub(1);
        let mut runs: Vec<(u64, u64)> = Vec::new();
        let mut run_open = false;
        for i in from..scan.complete {
            let l = &view.lines[i];
            if covered_before(i) || shown_complete.binary_search(&i).is_ok() {
                if run_open {
                    runs.last_mut().expect("an open run").1 = view.end_offset(l);
                } else {
                    runs.push((view.offset(l), view.end_offset(l)));
                    run_open = true;
                }
            } else {
                run_open = false;
            }
        }
        coverage.rebuild_from(view.offset(&view.lines[from]), &runs);
    } else if let Some(p) = scan.partial {
        // The rebuild, which runs from below the partial line over complete lines only, would
        // uncover it; without one, it can still be covered: a finished job's last line, covered
        // as an ordinary line, that a running job writes again (the log rewritten and cut back
        // to the same bytes, so no new generation). A partial line is never covered.
        coverage.rebuild_from(view.offset(&view.lines[p]), &[]);
    }
    let forgotten = coverage.forget_oldest(limits.coverage_ranges_max) as u64;
    (coverage, forgotten)
}

/// The lines the text carries, as the reply claims them: the complete ones, then the partial.
pub(super) fn shown_lines(scan: &Scan, generation: u64, sel: &Selection) -> Vec<ShownLine> {
    let mut shown: Vec<ShownLine> = sel
        .shown_complete
        .iter()
        .map(|&i| shown_line(scan, i, generation, false))
        .collect();
    if sel.partial_shown {
        let partial = scan.partial.expect("a partial line");
        shown.push(shown_line(scan, partial, generation, true));
    }
    shown
}

fn shown_line(scan: &Scan, index: usize, generation: u64, partial: bool) -> ShownLine {
    let l = &scan.view.lines[index];
    ShownLine {
        generation,
        offset: scan.view.offset(l),
        end: scan.view.end_offset(l),
        view_line: scan
            .above
            .as_ref()
            .is_none_or(|a| a.complete)
            .then_some((scan.lines_above() + index) as u64 + 1),
        partial,
    }
}

/// The candidates (view indices, ascending) grouped into runs of adjacent lines, with their
/// texts.
fn runs_of(candidates: &[usize], text: impl Fn(usize) -> String) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for &i in candidates {
        match runs.last_mut() {
            Some(run) if run.first + run.texts.len() == i => run.texts.push(text(i)),
            _ => runs.push(Run {
                first: i,
                texts: vec![text(i)],
            }),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_group_into_runs_of_adjacent_lines() {
        let runs = runs_of(&[2, 3, 4, 7, 9, 10], |i| format!("l{i}"));
        let got: Vec<(usize, Vec<String>)> = runs.into_iter().map(|r| (r.first, r.texts)).collect();
        assert_eq!(
            got,
            [
                (2, vec!["l2".into(), "l3".into(), "l4".into()]),
                (7, vec!["l7".into()]),
                (9, vec!["l9".into(), "l10".into()]),
            ]
        );
        assert!(runs_of(&[], |_| String::new()).is_empty());
    }
}
