//! What the exact engine shows for one read, and the coverage that results.

use super::scan::Scan;
use super::Coverage;
use crate::interface::api::{Counts, Job, ReadKind, Reply, Request, ResetReason, ShownLine};
use crate::upstream::condense::{build_emissions, common_notes, Emission, TextFormat};
use crate::upstream::details::Details;
use crate::upstream::js::{format_bytes, group_thousands, plural, utf16_len};
use crate::upstream::limits::Limits;
use std::fmt::Write as _;

/// Where a read starts from: the bookmark's memory, or a fresh one.
pub(crate) struct Start {
    pub generation: u64,
    pub coverage: Coverage,
    /// The bookmark's `settled_end` when continuing a generation; `None` on a first read or
    /// a new generation.
    pub settled_before: Option<u64>,
    /// The bookmark's `size` when continuing a generation. The bytes from `settled_before` up
    /// to it were the last read's unterminated last segment: they held no `\n`.
    pub size_before: Option<u64>,
    pub reset: Option<ResetReason>,
    /// The extent of the partial line the last condensed reply carried, if any.
    pub partial_seen: Option<(u64, u64)>,
}

impl Start {
    /// Where a read starts from, given the bookmark (if any) and the new generation's reason
    /// (if the log is another generation than the bookmark's).
    pub fn after(prev: Option<&super::ExactBookmark>, reset: Option<ResetReason>) -> Start {
        match (prev, reset) {
            (Some(p), None) => Start {
                generation: p.generation,
                coverage: p.coverage.clone(),
                settled_before: Some(p.settled_end),
                size_before: Some(p.size),
                reset: None,
                partial_seen: p.partial_seen,
            },
            (Some(p), Some(_)) => Start {
                generation: p.generation + 1,
                coverage: Coverage::default(),
                settled_before: None,
                size_before: None,
                reset,
                partial_seen: None,
            },
            (None, _) => Start {
                generation: 1,
                coverage: Coverage::default(),
                settled_before: None,
                size_before: None,
                reset: None,
                partial_seen: None,
            },
        }
    }
}

pub(crate) struct Outcome {
    pub reply: Reply,
    /// The extent of the partial line as the caller has now seen it (see `Start`).
    pub partial_seen: Option<(u64, u64)>,
    pub coverage: Coverage,
}

/// An emission of the candidates, with the run of adjacent candidates it came from.
struct Item {
    run: usize,
    emission: Emission,
}

/// A run of candidates that are adjacent in the view: their view indices, ascending and
/// consecutive.
struct Run {
    lines: Vec<usize>,
}

/// The reply to a read, or `None` when the reply must print the view's line count and the
/// scan counted only part of the view: the engine then scans again, counting all of it.
///
/// Four phases: which lines the text carries ([`select`]), the coverage that results
/// ([`next_coverage`]), the numbers the text states ([`count`]), and the text itself
/// ([`compose`]); then the reply is assembled.
pub(crate) fn respond(
    limits: &Limits,
    job: Job<'_>,
    request: &Request,
    lines: usize,
    window: u64,
    scan: &Scan,
    start: &Start,
) -> Option<Outcome> {
    let partial = PartialLine::of(scan, start);
    let mut sel = select(limits, request, lines, scan, start, partial.new);
    let (coverage, forgotten) = next_coverage(limits, scan, start, &sel.shown_complete);
    let numbers = count(scan, start, &coverage, &sel.shown_complete);
    if numbers.total.is_none() && sel.body.is_none() && !request.raw {
        // "Nothing new" states the log's line count and the lines never shown above.
        return None;
    }
    add_notes(request, &numbers, forgotten, &mut sel);
    let (text, body_range) = compose(
        limits,
        request,
        window,
        scan,
        start,
        &mut sel,
        &numbers,
        partial.pending,
    );
    let counts = Counts {
        total_lines: numbers.total,
        new_lines: numbers.new_lines,
        selected: sel.selected,
        shown: sel.shown_complete.len() as u64,
        new_shown: numbers.new_shown,
        earlier_shown: numbers.earlier_shown,
        left_out: sel.left_out,
        unseen_above: numbers.total.map(|_| numbers.unseen_above),
        skipped_above: numbers.skipped_above,
        forgotten_ranges: forgotten,
        partial_shown: sel.partial_shown,
    };
    let kind = if request.raw {
        ReadKind::Raw
    } else if !numbers.continuing {
        ReadKind::First
    } else if sel.body.is_some() {
        ReadKind::Delta
    } else {
        ReadKind::NothingNew
    };
    let details = details(job, request, window, &counts, &sel.notes, scan.truncated_at);
    let extent = |i: usize| {
        let l = &scan.view.lines[i];
        (scan.view.offset(l), scan.view.end_offset(l))
    };
    let partial_seen = match scan.partial {
        Some(p) if sel.partial_shown => Some(extent(p)),
        Some(_) if partial.pending => partial.seen_before,
        _ => None,
    };
    Some(Outcome {
        partial_seen,
        reply: Reply {
            text,
            body: body_range,
            is_error: false,
            kind,
            reset: start.reset,
            shown: shown_lines(scan, start.generation, &sel),
            counts,
            notes: sel.notes,
            details,
            bytes_read: 0,
        },
        coverage,
    })
}

/// The partial line, against the one the caller last saw.
struct PartialLine {
    /// The partial line, when it has grown since a condensed reply carried it (or was never
    /// carried): only then is it offered again, so that an unchanged one does not repeat
    /// itself on every poll.
    new: Option<usize>,
    /// A partial line is there but unchanged, so not offered.
    pending: bool,
    /// The extent the caller saw, when continuing a generation.
    seen_before: Option<(u64, u64)>,
}

impl PartialLine {
    fn of(scan: &Scan, start: &Start) -> Self {
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
struct Selection {
    /// View indices of the complete lines it carries, ascending.
    shown_complete: Vec<usize>,
    partial_shown: bool,
    notes: Vec<String>,
    /// Candidates the budget left out.
    left_out: u64,
    /// Lines selected before the budget (the window for a raw read, else the candidates).
    selected: u64,
    /// The body; `None` when there is nothing to show.
    body: Option<String>,
}

/// Which lines the text carries: the window verbatim for a raw read; else the window's lines
/// not covered (and a new partial line), condensed newest first within the budget.
fn select(
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
        sel.body = Some(if texts.is_empty() {
            "(empty log)".to_owned()
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
    let condensed = condense_newest_first(limits, scan, &candidates, new_partial);
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
fn next_coverage(
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

/// The numbers a reply states.
struct Numbers {
    /// Whether the read continues the bookmark's generation.
    continuing: bool,
    /// Content lines counted: the view's, when `total` is known.
    counted: u64,
    /// The view's line count, when the whole view was counted.
    total: Option<u64>,
    /// Lines above the window never shown, and the number of the newest of them.
    unseen_above: u64,
    newest_unseen: Option<u64>,
    /// Of those, the ones newer than a shown line, and the number of the oldest of them.
    skipped_above: u64,
    oldest_skipped: Option<u64>,
    new_lines: u64,
    new_shown: u64,
    earlier_shown: u64,
    /// "log at N lines", "N lines in view", or the lazy count's words.
    log_words: String,
}

/// The numbers, from the scan, the bookmark's start and the coverage after the read.
fn count(scan: &Scan, start: &Start, coverage: &Coverage, shown_complete: &[usize]) -> Numbers {
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
    }
}

/// How the text names the log's size: its line count, the view's, or the lazy count's words.
fn log_words(scan: &Scan, whole_view: bool, counted: u64) -> String {
    let view = &scan.view;
    match (&scan.above, whole_view) {
        (_, true) if scan.origin == 0 && !scan.line_bound_hit => {
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
fn add_notes(request: &Request, n: &Numbers, forgotten: u64, sel: &mut Selection) {
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

/// The text: the header (or the status line when nothing is new) and the body, the notes,
/// then the notes about the log itself (its cap, the view, the line bound). A raw read's reset
/// note goes first among the notes. Returns the text and where its body is.
///
/// Every part is written into the text in place (`push_fmt`): the model renders a reply for
/// every read it explores, and a `format!` per part cost it an allocation and a copy each.
#[allow(clippy::too_many_arguments)]
fn compose(
    limits: &Limits,
    request: &Request,
    window: u64,
    scan: &Scan,
    start: &Start,
    sel: &mut Selection,
    n: &Numbers,
    partial_pending: bool,
) -> (String, std::ops::Range<usize>) {
    let reset = start.reset.map(reset_words);
    let body_len = sel.body.as_ref().map_or(0, String::len);
    let mut text = String::with_capacity(body_len + 256);
    let mut body_range = 0..0;
    match (&sel.body, request.raw) {
        (Some(body), true) => {
            if !sel.shown_complete.is_empty() || sel.partial_shown {
                body_range = 0..body.len();
            }
            text.push_str(body);
            if let Some(words) = reset {
                sel.notes
                    .insert(0, format!("{words}, so the bookmark started over"));
            }
        }
        (Some(body), false) => {
            push_prefix(&mut text, reset, n);
            push_header_what(&mut text, sel, n);
            push_fmt(&mut text, format_args!(" — {}\n", n.log_words));
            body_range = text.len()..text.len() + body.len();
            text.push_str(body);
        }
        (None, _) => {
            push_prefix(&mut text, reset, n);
            push_status(&mut text, n, partial_pending);
        }
    }
    if !sel.notes.is_empty() {
        text.push_str("\n\n(");
        push_joined(&mut text, sel.notes.iter().map(String::as_str));
        text.push(')');
    }
    push_log_notes(&mut text, limits, window, scan);
    (text, body_range)
}

/// Appends formatted text (writing into a `String` cannot fail).
fn push_fmt(text: &mut String, args: std::fmt::Arguments<'_>) {
    text.write_fmt(args).expect("a String takes any text");
}

/// Appends the notes joined by `"; "`.
fn push_joined<'a>(text: &mut String, parts: impl Iterator<Item = &'a str>) {
    for (k, part) in parts.enumerate() {
        if k > 0 {
            text.push_str("; ");
        }
        text.push_str(part);
    }
}

/// What a condensed text starts with: why the bookmark starts over, or that this is the first
/// read, or nothing when continuing.
fn push_prefix(text: &mut String, reset: Option<&str>, n: &Numbers) {
    match reset {
        Some(words) => push_fmt(text, format_args!("{words}, so the bookmark starts over: ")),
        None if !n.continuing => text.push_str("first read: "),
        None => {}
    }
}

/// What a condensed header says the text carries: new and earlier lines when continuing, else
/// how many lines; and a partial line. The parts are joined by `", "`.
fn push_header_what(text: &mut String, sel: &Selection, n: &Numbers) {
    let shown = sel.shown_complete.len() as u64;
    let (new_shown, new_lines, earlier) = (n.new_shown, n.new_lines, n.earlier_shown);
    let mut first = true;
    let mut part = |text: &mut String, args: std::fmt::Arguments<'_>| {
        if !std::mem::take(&mut first) {
            text.push_str(", ");
        }
        push_fmt(text, args);
    };
    if n.continuing {
        if new_shown > 0 && new_shown < new_lines {
            part(text, format_args!("+{new_shown} of {new_lines} new lines"));
        } else if new_shown > 0 {
            let noun = plural(new_shown, "line", "lines");
            part(text, format_args!("+{new_shown} new {noun}"));
        }
        if earlier > 0 {
            let noun = plural(earlier, "line", "lines");
            part(
                text,
                format_args!("{earlier} earlier {noun} not shown before"),
            );
        }
    } else if shown > 0 || !sel.partial_shown {
        part(
            text,
            format_args!("{shown} {}", plural(shown, "line", "lines")),
        );
    }
    if sel.partial_shown {
        part(text, format_args!("a partial line"));
    }
}

/// The status of a reply with nothing to show: the log's size, the lines above never shown
/// and the `lines` that reaches them, a partial line still being written.
fn push_status(text: &mut String, n: &Numbers, partial_pending: bool) {
    if n.counted == 0 {
        push_fmt(text, format_args!("(empty log — {}", n.log_words));
    } else {
        push_fmt(text, format_args!("(no new lines — {}", n.log_words));
        if let Some(newest) = n.newest_unseen {
            push_fmt(
                text,
                format_args!(
                    "; {} earlier {} never shown — lines: {} reaches the newest",
                    n.unseen_above,
                    plural(n.unseen_above, "line", "lines"),
                    n.counted - newest
                ),
            );
        }
    }
    if partial_pending {
        text.push_str("; the last line is still being written");
    }
    text.push(')');
}

/// The notes about the log itself: the wrapper's cap, a view smaller than the log, the line
/// bound.
fn push_log_notes(text: &mut String, limits: &Limits, window: u64, scan: &Scan) {
    let view = &scan.view;
    if let Some(cap) = scan.truncated_at {
        text.push_str(&crate::interface::api::cap_note(cap));
    }
    if scan.origin > 0 {
        push_fmt(text, format_args!(
            "\n\n(view: the last {} of {} — earlier lines are not counted; pass a larger `bytes` (max {}) to reach them)",
            format_bytes(window as f64),
            format_bytes(view.size as f64),
            format_bytes(limits.view_max as f64)
        ));
    }
    if scan.line_bound_hit {
        push_fmt(
            text,
            format_args!(
                "\n\n(only the last {} lines of the view were scanned)",
                group_thousands(limits.scan_lines_max as u64)
            ),
        );
    }
}

/// The lines the text carries, as the reply claims them: the complete ones, then the partial.
fn shown_lines(scan: &Scan, generation: u64, sel: &Selection) -> Vec<ShownLine> {
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

fn details(
    job: Job<'_>,
    request: &Request,
    window: u64,
    counts: &Counts,
    notes: &[String],
    truncated_at: Option<f64>,
) -> Details {
    let shown = counts.shown + u64::from(counts.partial_shown);
    let mut d = crate::interface::api::details_head(job, shown, !request.raw);
    d.push_new("newLines", counts.new_lines);
    d.push_new("earlierLines", counts.earlier_shown);
    d.push_new("totalLines", counts.total_lines);
    d.push_new("leftOut", counts.left_out);
    d.push_new("unseenAbove", counts.unseen_above);
    d.push_new("skippedAbove", counts.skipped_above);
    if !notes.is_empty() {
        d.push_new("notes", notes.to_vec());
    }
    crate::interface::api::details_tail(&mut d, window, truncated_at);
    d
}

fn reset_words(reason: ResetReason) -> &'static str {
    match reason {
        ResetReason::PathChanged => "the id now resolves to another log path",
        ResetReason::Shrank => "the log shrank since the last read",
        ResetReason::Replaced | ResetReason::FileReplaced => {
            "another file now sits at the log path"
        }
        ResetReason::Rewritten => "the log was rewritten (its first bytes changed)",
        ResetReason::RegrownPastCut => {
            "the log was cut and has grown again (the bytes before the last read's end changed)"
        }
        ResetReason::WindowChanged => "the view changed",
    }
}

struct Condensed {
    body: String,
    /// View indices of the complete lines the body carries.
    shown: Vec<usize>,
    partial_shown: bool,
    notes: Vec<String>,
}

/// Condenses the candidates (plus the partial line) and keeps the newest emissions that fit
/// the budget, with a marker between runs that are not adjacent in the view.
///
/// Budget: Σ(emission or marker length + 1) ≤ `text_budget`, as upstream counts, so the body
/// (joined by `\n`) is at most `text_budget − 1` units. The newest complete line's emission
/// always fits (`Limits::validate`), and the partial line yields to it, which is what makes
/// every read make progress.
fn condense_newest_first(
    limits: &Limits,
    scan: &Scan,
    candidates: &[usize],
    partial: Option<usize>,
) -> Condensed {
    let view = &scan.view;
    let mut runs: Vec<Run> = Vec::new();
    for &i in candidates {
        match runs.last_mut() {
            Some(run) if run.lines.last() == Some(&(i - 1)) => run.lines.push(i),
            _ => runs.push(Run { lines: vec![i] }),
        }
    }
    // The partial line is its own run: it never folds with the complete lines before it.
    if let Some(p) = partial {
        runs.push(Run { lines: vec![p] });
    }
    let mut items: Vec<Item> = Vec::new();
    for (r, run) in runs.iter().enumerate() {
        let texts: Vec<String> = run
            .lines
            .iter()
            .map(|&i| view.text(&view.lines[i]).into_owned())
            .collect();
        for emission in build_emissions(&texts, limits, TextFormat::Exact).list {
            items.push(Item { run: r, emission });
        }
    }
    let mut kept_from = keep_newest(&items, &runs, limits.text_budget);
    // The partial line is the newest emission, but the newest *complete* line has priority:
    // when the partial line (and the marker before it) crowds that line out, it is dropped.
    let complete_items = items.len() - usize::from(partial.is_some());
    let partial_crowded_out =
        partial.is_some() && complete_items > 0 && kept_from >= complete_items;
    if partial_crowded_out {
        items.pop();
        runs.pop();
        kept_from = keep_newest(&items, &runs, limits.text_budget);
    }

    let kept = &items[kept_from..];
    let mut out: Vec<String> = Vec::with_capacity(kept.len() + runs.len());
    let mut shown = Vec::new();
    let mut partial_shown = false;
    let (mut ansi, mut folds, mut capped) = (0, 0, 0);
    for (k, item) in kept.iter().enumerate() {
        if k > 0 && kept[k - 1].run != item.run {
            let gap = gap_between(&runs, kept[k - 1].run, item.run);
            if gap > 0 {
                out.push(marker(gap));
            }
        }
        out.push(item.emission.text.clone());
        let run = &runs[item.run];
        for &i in &run.lines[item.emission.first..item.emission.first + item.emission.count] {
            if Some(i) == partial {
                partial_shown = true;
            } else {
                shown.push(i);
            }
        }
        ansi += item.emission.ansi_sequences;
        folds += usize::from(item.emission.count > 1);
        capped += usize::from(item.emission.line_capped);
    }
    let mut notes = common_notes(ansi, folds, capped, limits);
    if partial_crowded_out {
        notes.push(
            "a partial last line is being written; it did not fit the budget this time".into(),
        );
    }
    Condensed {
        body: out.join("\n"),
        shown,
        partial_shown,
        notes,
    }
}

/// How many content lines lie between two runs (all of them already shown).
fn gap_between(runs: &[Run], older: usize, newer: usize) -> usize {
    runs[newer].lines[0] - runs[older].lines.last().expect("a run has lines") - 1
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

fn marker(gap: usize) -> String {
    format!(
        "… {gap} {} already shown …",
        plural(gap as u64, "line", "lines")
    )
}
