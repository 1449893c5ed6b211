//! The numbers a reply states: the log's size, the new and earlier lines shown, the lines
//! above the window never shown or skipped, and the notes they call for.

use super::coverage::Coverage;
use super::scan::Scan;
use super::select::Selection;
use super::start::Start;
use crate::interface::api::Request;
use crate::upstream::js::{format_bytes, plural};

/// The numbers a reply states.
pub(super) struct Numbers {
    /// Whether the read continues the bookmark's generation.
    pub continuing: bool,
    /// Content lines counted: the view's, when `total` is known.
    pub counted: u64,
    /// The view's line count, when the whole view was counted.
    pub total: Option<u64>,
    /// Lines above the window never shown, and the number of the newest of them.
    pub unseen_above: u64,
    pub newest_unseen: Option<u64>,
    /// Of those, the ones newer than a shown line, and the number of the oldest of them.
    pub skipped_above: u64,
    pub oldest_skipped: Option<u64>,
    pub new_lines: u64,
    pub new_shown: u64,
    pub earlier_shown: u64,
    /// "log at N lines", "N lines in view", or the lazy count's words.
    pub log_words: String,
    /// Whether the count is the whole log's ([`Scan::whole_log`]): only then may a read with no line
    /// to show call the log empty.
    pub whole_log: bool,
}

/// The numbers, from the scan, the bookmark's start and the coverage after the read.
pub(super) fn count(
    scan: &Scan,
    start: &Start,
    coverage: &Coverage,
    shown_complete: &[usize],
) -> Numbers {
    let view = &scan.view;
    let covered_after = |i: usize| {
        let l = &view.lines[i];
        coverage.covers(view.offset(l), view.end_offset(l))
    };
    // Line numbers: the counted lines above the tail come first, known only by count; a tail
    // line `i` is number `above + i`. When the whole view is counted these are view lines.
    let above = scan.lines_above() as u64;
    let whole_view = scan.above.as_ref().is_none_or(|a| a.complete);
    let counted = above + scan.complete as u64;
    let above_covered = above_covered(scan, coverage);
    let above_covered_count: u64 = above_covered.iter().map(|&(s, e)| e - s).sum();
    // Lines above the window never shown: all of them (for the poll text), and those newer than
    // some covered line — lines the caller skipped over, which it may not know it missed.
    let unseen_in_tail: Vec<usize> = (0..scan.window_start)
        .filter(|&i| !covered_after(i))
        .collect();
    let unseen_above = above.saturating_sub(above_covered_count) + unseen_in_tail.len() as u64;
    let newest_unseen = match unseen_in_tail.last() {
        Some(&i) => Some(above + i as u64),
        None => newest_uncovered(&above_covered, above),
    };
    let oldest_covered = match above_covered.first() {
        Some(&(s, _)) => Some(s),
        None => (0..scan.complete)
            .find(|&i| covered_after(i))
            .map(|i| above + i as u64),
    };
    let skipped_in_tail = |c: u64| {
        unseen_in_tail
            .iter()
            .map(|&i| above + i as u64)
            .filter(move |&g| g > c)
    };
    let (skipped_above, oldest_skipped) = match oldest_covered {
        None => (0, None),
        Some(c) if c < above => (
            (above - c).saturating_sub(above_covered_count) + skipped_in_tail(c).count() as u64,
            first_uncovered_after(&above_covered, c, above).or_else(|| skipped_in_tail(c).next()),
        ),
        Some(c) => (skipped_in_tail(c).count() as u64, skipped_in_tail(c).next()),
    };
    let new_line = |i: usize| {
        start
            .settled_before
            .is_some_and(|settled| view.offset(&view.lines[i]) >= settled)
    };
    // Lines above the tail are new only when the bookmark settled before all of them: the tail
    // reaches back to the settled end whenever that lies inside the view.
    let new_above = match (&scan.above, start.settled_before) {
        (Some(a), Some(settled)) if settled <= a.counted.offset => above,
        _ => 0,
    };
    let new_lines = new_above + (0..scan.complete).filter(|&i| new_line(i)).count() as u64;
    let new_shown = shown_complete.iter().filter(|&&i| new_line(i)).count() as u64;
    let continuing = start.settled_before.is_some();
    let earlier_shown = if continuing {
        shown_complete.len() as u64 - new_shown
    } else {
        0
    };
    Numbers {
        continuing,
        counted,
        total: whole_view.then_some(counted),
        unseen_above,
        newest_unseen,
        skipped_above,
        oldest_skipped,
        new_lines,
        new_shown,
        earlier_shown,
        log_words: log_words(scan, whole_view, counted),
        whole_log: scan.whole_log(),
    }
}

/// How the text names the log's size: its line count, the view's, or the lazy count's words.
fn log_words(scan: &Scan, whole_view: bool, counted: u64) -> String {
    let view = &scan.view;
    match (&scan.above, whole_view) {
        (_, true) if scan.whole_log() => {
            format!("log at {counted} {}", plural(counted, "line", "lines"))
        }
        (_, true) => format!("{counted} {} in view", plural(counted, "line", "lines")),
        (Some(a), false) => format!(
            "{counted} {} in the last {} (the view above is not counted yet)",
            plural(counted, "line", "lines"),
            format_bytes((view.size - a.counted.offset) as f64)
        ),
        (None, false) => unreachable!("a tail that is the whole view counts it"),
    }
}

/// The notes the numbers call for: forgotten coverage, lines skipped above the window, a
/// partial line still being written.
pub(super) fn add_notes(request: &Request, n: &Numbers, forgotten: u64, sel: &mut Selection) {
    if forgotten > 0 {
        sel.notes.push(format!(
            "bookmark full: forgot the {forgotten} oldest shown {} — their lines may be shown again",
            plural(forgotten, "range", "ranges")
        ));
    }
    if let (Some(oldest), true) = (n.oldest_skipped, sel.body.is_some() && !request.raw) {
        sel.notes.push(format!(
            "{} skipped {} above this window — lines: {} reaches {}",
            n.skipped_above,
            plural(n.skipped_above, "line", "lines"),
            n.counted - oldest,
            plural(n.skipped_above, "it", "them")
        ));
    }
    if sel.partial_shown && !request.raw {
        sel.notes
            .push("the last line is still being written; it is shown again once complete".into());
    }
}

/// The view lines above the tail that `coverage` covers, as sorted, disjoint half-open
/// intervals of view line numbers (touching ones stay apart).
fn above_covered(scan: &Scan, coverage: &Coverage) -> Vec<(u64, u64)> {
    let Some(a) = &scan.above else {
        return Vec::new();
    };
    coverage
        .ranges()
        .iter()
        .filter(|&&(s, e)| s < a.tail.offset && e > a.counted.offset)
        .map(|&(s, e)| {
            (
                a.lines_before(s, &scan.index),
                a.lines_before(e, &scan.index),
            )
        })
        .filter(|&(s, e)| s < e)
        .collect()
}

/// The highest line number below `n` that no interval covers.
fn newest_uncovered(covered: &[(u64, u64)], n: u64) -> Option<u64> {
    let mut top = n;
    for &(s, e) in covered.iter().rev() {
        if e < top {
            break;
        }
        top = s;
    }
    top.checked_sub(1)
}

/// The lowest line number in `(after, n)` that no interval covers.
fn first_uncovered_after(covered: &[(u64, u64)], after: u64, n: u64) -> Option<u64> {
    let mut g = after + 1;
    for &(s, e) in covered {
        if e <= g {
            continue;
        }
        if s > g {
            break;
        }
        g = e;
    }
    (g < n).then_some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_uncovered_line_is_below_the_covered_top() {
        // Lines 0..10; 6..10 and 3..6 covered (touching intervals stay apart).
        assert_eq!(newest_uncovered(&[(3, 6), (6, 10)], 10), Some(2));
        assert_eq!(newest_uncovered(&[(3, 6)], 10), Some(9));
        assert_eq!(newest_uncovered(&[(0, 10)], 10), None);
        assert_eq!(newest_uncovered(&[], 0), None);
    }

    #[test]
    fn the_first_uncovered_line_after_one_skips_the_intervals_it_meets() {
        assert_eq!(first_uncovered_after(&[(2, 5)], 1, 10), Some(5));
        assert_eq!(first_uncovered_after(&[(2, 5), (5, 7)], 1, 10), Some(7));
        assert_eq!(first_uncovered_after(&[(4, 5)], 1, 10), Some(2));
        assert_eq!(first_uncovered_after(&[(2, 10)], 1, 10), None);
        assert_eq!(first_uncovered_after(&[], 9, 10), None);
    }
}
