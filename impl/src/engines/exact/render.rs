//! What the exact engine shows for one read, and the coverage that results.
//!
//! A read runs in four phases, one module each: which lines the text carries and the coverage
//! that results ([`select`](super::select)), the numbers the text states
//! ([`numbers`](super::numbers)), and the text itself ([`text`](super::text)); [`respond`]
//! runs them and assembles the reply.

use super::numbers::{add_notes, count};
use super::scan::Scan;
use super::select::{next_coverage, select, shown_lines, PartialLine};
use super::text::compose;
use super::Coverage;
use crate::interface::api::{Counts, Job, ReadKind, Reply, Request, ResetReason};
use crate::upstream::details::Details;
use crate::upstream::limits::Limits;

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

/// What a read found of the bookmark's generation, once the generation check ran.
///
/// A read that starts over holds only the generation it follows and the reason: nothing of
/// the bookmark's coverage, partial line or index can reach its reply or its next bookmark.
pub(crate) enum Opening<'a> {
    /// No bookmark: the job's first read.
    First,
    /// The log continues the bookmark's generation.
    Continues(&'a super::ExactBookmark),
    /// The log is another generation than the bookmark's, numbered `generation`.
    Reset {
        generation: u64,
        reason: ResetReason,
    },
}

impl<'a> Opening<'a> {
    /// The bookmark, when the read continues its generation.
    pub fn continuing(&self) -> Option<&'a super::ExactBookmark> {
        match *self {
            Opening::Continues(p) => Some(p),
            _ => None,
        }
    }
}

impl Start {
    /// Where a read starts from: the bookmark's memory when it continues, else a fresh one.
    pub fn of(opening: &Opening<'_>) -> Start {
        match *opening {
            Opening::Continues(p) => Start {
                generation: p.generation,
                coverage: p.coverage.clone(),
                settled_before: Some(p.settled_end),
                size_before: Some(p.size),
                reset: None,
                partial_seen: p.partial_seen,
            },
            Opening::Reset { generation, reason } => Start {
                generation: generation + 1,
                reset: Some(reason),
                ..Start::fresh()
            },
            Opening::First => Start::fresh(),
        }
    }

    /// The start of a generation's first read.
    fn fresh() -> Start {
        Start {
            generation: 1,
            coverage: Coverage::default(),
            settled_before: None,
            size_before: None,
            reset: None,
            partial_seen: None,
        }
    }
}

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
