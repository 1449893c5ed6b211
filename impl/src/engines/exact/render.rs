//! What the exact engine shows for one read, and the coverage that results.
//!
//! A read runs in four phases, one module each: which lines the text carries and the coverage
//! that results ([`select`](super::select)), the numbers the text states
//! ([`numbers`](super::numbers)), and the text itself ([`text`](super::text)); [`respond`]
//! runs them and assembles the reply.

use super::coverage::Coverage;
use super::numbers::{add_notes, count};
use super::scan::Scan;
use super::select::{next_coverage, select, shown_lines, PartialLine};
use super::start::Start;
use super::text::compose;
use crate::interface::api::{Counts, Job, ReadKind, Reply, Request};
use crate::upstream::details::Details;
use crate::upstream::limits::Limits;

pub(crate) struct Outcome {
    pub reply: Reply,
    /// The extent of the partial line as the caller has now seen it (see `Start`).
    pub partial_seen: Option<(u64, u64)>,
    pub coverage: Coverage,
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

/// The reply's `details`, in upstream's key order with the exact engine's keys after its own.
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
