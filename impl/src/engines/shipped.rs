//! The shipped engine: pi-bgrun 0.7.1's `bgtail`, byte for byte, bugs included.
//!
//! Section numbers (§) refer to `docs/pi-bgrun-0.7.1.md`, pi-bgrun 0.7.1's bgtail in this
//! project's words. The two defects of issue #28 live here on purpose: coverage is one number
//! (`served`, the trailing run believed shown), and the bookmark is written before the
//! condenser, which keeps the *oldest* lines that fit its budget — so a capped read marks lines
//! as read that the agent never saw.

use crate::interface::api::{
    error_reply, gated_reply, Counts, Engine, Job, ReadKind, Rejected, Reply, Request, ResetReason,
    ShownLine,
};
use crate::source::{read_span, LogSource, SourceError};
use crate::upstream::condense::condense_oldest_first;
use crate::upstream::details::Details;
use crate::upstream::js::{format_bytes, group_thousands, plural, Utf16Prefix};
use crate::upstream::limits::Limits;
use crate::upstream::tool::{
    cap_note, check_id, clamp_window, normalize_lines, running_state_line,
};
use crate::upstream::view::View;
use serde::{Deserialize, Serialize};

/// One id's bookmark (§3).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShippedBookmark {
    /// Content lines of the view at the last read.
    pub lines: u64,
    /// The file's size at the last read.
    pub bytes: u64,
    /// The view's first content line, cut to 200 UTF-16 units and compared by code unit.
    pub first: Utf16Prefix,
    /// The view size used.
    pub window: u64,
    /// The path the id resolved to at the last read.
    pub path: String,
    /// Length of the trailing run of content lines believed shown.
    pub served: u64,
}

/// All bookmarks, in insertion order (JavaScript `Map`): eviction removes the first inserted,
/// and re-setting a key does not move it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShippedState {
    /// Every job's bookmark, in insertion order.
    pub bookmarks: Vec<(String, ShippedBookmark)>,
}

impl ShippedState {
    /// The bookmark of job `id`, if it has one.
    pub fn get(&self, id: &str) -> Option<&ShippedBookmark> {
        self.bookmarks.iter().find(|(k, _)| k == id).map(|(_, b)| b)
    }

    fn set(&mut self, id: &str, bookmark: ShippedBookmark, capacity: usize) {
        if let Some(slot) = self.bookmarks.iter_mut().find(|(k, _)| k == id) {
            slot.1 = bookmark;
            return;
        }
        self.bookmarks.push((id.to_owned(), bookmark));
        if self.bookmarks.len() > capacity && self.bookmarks[0].0 != id {
            self.bookmarks.remove(0);
        }
    }
}

/// Upstream 0.7.1, optionally with 0.8.0's running-job gate.
#[derive(Clone, Debug, Default)]
pub struct ShippedEngine {
    /// The limits this engine reads with.
    pub limits: Limits,
    /// 0.8.0: a read of a running job without `peek` returns the state line only.
    pub running_gate: bool,
}

impl ShippedEngine {
    /// A shipped engine with these limits (upstream's are [`Limits::default`]).
    pub fn new(limits: Limits) -> Self {
        ShippedEngine {
            limits,
            running_gate: false,
        }
    }

    /// Upstream 0.8.0: 0.7.1 plus the running-job gate (§4.1).
    pub fn v080(limits: Limits) -> Self {
        ShippedEngine {
            limits,
            running_gate: true,
        }
    }
}

/// Which row of the decision table (§4) a read takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    First,
    Raw,
    Reset(ResetReason),
    Delta { clipped: bool },
    NoNew,
    Widened,
}

impl Engine for ShippedEngine {
    type State = ShippedState;

    fn name(&self) -> &'static str {
        "shipped"
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn text_format(&self) -> crate::upstream::condense::TextFormat {
        crate::upstream::condense::TextFormat::Upstream
    }

    fn read(
        &self,
        state: &mut ShippedState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        // Order of §9: lines, id required, window, id valid, then the read.
        let lines = normalize_lines(request.lines, &self.limits);
        let window = clamp_window(request.bytes, &self.limits);
        check_id(job.id).map_err(Rejected)?;
        let gated = self.running_gate && request.running;
        if gated && !request.peek {
            // Nothing was shown, so the bookmark is left alone (§4.1, recommended).
            return Ok(gated_reply(job, request));
        }
        let mut reply = self.read_log(state, job, log, request, lines, window);
        if gated && !reply.is_error {
            reply.text = format!(
                "{}\n\n{}",
                running_state_line(request.elapsed_secs),
                reply.text
            );
            reply.details.insert("running", true);
        }
        Ok(reply)
    }
}

impl ShippedEngine {
    /// One read of the log (upstream's `bgtailCore`), in its phases: read the view, choose the
    /// row and the selection, write the bookmark (before condensing, §9), condense, compose.
    fn read_log(
        &self,
        state: &mut ShippedState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
        lines: f64,
        window: u64,
    ) -> Reply {
        let (view, bytes_read) = match self.read_view(log, window) {
            Ok(v) => v,
            Err(e) => return error_reply(job, &e),
        };
        let size = view.size;
        let total = view.lines.len() as u64;
        let first = view
            .lines
            .first()
            .map(|l| Utf16Prefix::of(&view.text(l), self.limits.first_line_units))
            .unwrap_or_default();

        let prev = state.get(job.id).cloned();
        let reset = reset_reason(prev.as_ref(), job.path, window, total, size, &first);
        let row = choose_row(prev.as_ref(), reset, request.raw, lines, total);
        let (selection, served) = selection(row, prev.as_ref(), lines, total);
        // The bookmark is written before condensing (§9): the condenser cannot influence it.
        state.set(
            job.id,
            ShippedBookmark {
                lines: total,
                bytes: size,
                first,
                window,
                path: job.path.to_owned(),
                served,
            },
            self.limits.bookmark_capacity,
        );

        let selected: Vec<String> = view.lines[selection.clone()]
            .iter()
            .map(|l| view.text(l).into_owned())
            .collect();
        let (body, notes, rendered) = self.condense(row, &selected);
        let fresh = match (row, &prev) {
            (Row::Delta { .. }, Some(p)) => total - p.lines,
            _ => 0,
        };
        let rows = RowFacts {
            row,
            fresh,
            total,
            lines,
            served,
            selected: selected.len(),
        };
        let tail = self.log_notes(&view, window);
        let (text, body_range) = compose(&rows, &body, &notes, &tail);
        let truncated_at = view.truncated_at();
        let details = details(job, &rows, &notes, window, truncated_at);
        let shown = shown_lines(&view, selection, rendered);
        let counts = counts(&rows, shown.len() as u64, rendered);
        Reply {
            text,
            body: body_range,
            is_error: false,
            kind: row.kind(),
            reset,
            counts,
            shown,
            notes,
            details,
            bytes_read,
        }
    }

    /// The body, the condenser's notes and how many selected lines the body stands for: a
    /// raw read's lines verbatim, else upstream's oldest-first condenser.
    fn condense(&self, row: Row, selected: &[String]) -> (String, Vec<String>, usize) {
        if row == Row::Raw {
            (selected.join("\n"), Vec::new(), selected.len())
        } else {
            let c = condense_oldest_first(selected, &self.limits);
            (c.body, c.notes, c.lines_rendered)
        }
    }

    /// The last `window` bytes of the log, scanned (upstream's read window and line bound),
    /// and how many bytes were read.
    fn read_view(&self, log: &dyn LogSource, window: u64) -> Result<(View, u64), SourceError> {
        let size = log.stat()?.size;
        let mut bytes_read = 0;
        let len = size.min(window);
        let buf = if size == 0 {
            Vec::new()
        } else {
            read_span(log, size - len, len, &mut bytes_read)?
        };
        let view = View::scan(size - len, size, buf, self.limits.scan_lines_max);
        Ok((view, bytes_read))
    }

    /// The notes about the log itself, each after a blank line: the wrapper's cap, a window
    /// smaller than the log, the line bound.
    fn log_notes(&self, view: &View, window: u64) -> String {
        let mut tail = String::new();
        if let Some(cap) = view.truncated_at() {
            tail.push_str(&cap_note(cap));
        }
        if view.size > window {
            tail.push_str(&format!(
                "\n\n(searched the last {} of {} — the earlier bytes were not searched; pass a larger `bytes` (max {}) or read the log path directly)",
                format_bytes(window as f64),
                format_bytes(view.size as f64),
                format_bytes(self.limits.view_max as f64)
            ));
        }
        if view.line_bound_hit {
            tail.push_str(&format!(
                "\n\n(and only the last {} lines of that window were scanned)",
                group_thousands(self.limits.scan_lines_max as u64)
            ));
        }
        tail
    }
}

/// The selection (a range of indices into the view's content lines) and the `served` the
/// bookmark records, by row (docs/pi-bgrun-0.7.1.md §4).
fn selection(
    row: Row,
    prev: Option<&ShippedBookmark>,
    lines: f64,
    total: u64,
) -> (std::ops::Range<usize>, u64) {
    let t = total as usize;
    let last_n = |n: f64| -> usize { t - slice_len(t, n) };
    match row {
        Row::First | Row::Raw | Row::Reset(_) => {
            let start = last_n(lines);
            (start..t, (t - start) as u64)
        }
        Row::Delta { clipped } => {
            let p = prev.expect("a delta has a bookmark");
            let fresh = t - p.lines as usize;
            if clipped {
                (last_n(lines)..t, lines as u64)
            } else {
                (t - fresh..t, (p.served + fresh as u64).min(total))
            }
        }
        Row::NoNew => (t..t, prev.map_or(0, |p| p.served)),
        Row::Widened => {
            let p = prev.expect("a widening has a bookmark");
            let start = (total as f64 - lines).max(0.0) as usize;
            (start..t - p.served as usize, lines.min(total as f64) as u64)
        }
    }
}

/// What the header, the text and `details` are made from.
struct RowFacts {
    row: Row,
    /// Content lines appended since the last read (a delta's `fresh`).
    fresh: u64,
    total: u64,
    lines: f64,
    served: u64,
    /// Lines selected (before the condenser's cap).
    selected: usize,
}

/// The header line of a row that has one.
fn header(f: &RowFacts) -> Option<String> {
    let (fresh, total) = (f.fresh, f.total);
    match f.row {
        Row::First | Row::Raw | Row::NoNew => None,
        Row::Reset(reason) => Some(format!("{} — showing full tail", reset_words(reason))),
        Row::Delta { clipped } => Some(format!(
            "+{fresh} new {} since last read — log at {total} lines{}",
            plural(fresh, "line", "lines"),
            if clipped {
                format!(" (showing last {})", f.lines as u64)
            } else {
                String::new()
            }
        )),
        Row::Widened => Some(format!(
            "no new lines since last read — showing the {k} earlier {} of the widened window (now the last {wt} of {total})",
            plural(f.selected as u64, "line", "lines"),
            k = f.selected,
            wt = f.served
        )),
    }
}

/// The text and where its body is: the "nothing new" line, or the header, the body (`(empty
/// log)` when nothing was selected), the condenser's notes; then the log's notes.
fn compose(
    f: &RowFacts,
    body: &str,
    notes: &[String],
    tail: &str,
) -> (String, std::ops::Range<usize>) {
    if f.row == Row::NoNew {
        let text = format!(
            "(no new lines since last read — log at {} {}){tail}",
            f.total,
            plural(f.total, "line", "lines")
        );
        return (text, 0..0);
    }
    let mut text = header(f).map(|h| h + "\n").unwrap_or_default();
    let mut body_range = 0..0;
    if f.selected == 0 {
        text.push_str("(empty log)");
    } else {
        body_range = text.len()..text.len() + body.len();
        text.push_str(body);
    }
    if !notes.is_empty() {
        text.push_str(&format!("\n\n({})", notes.join("; ")));
    }
    text.push_str(tail);
    (text, body_range)
}

/// Upstream's `details`, keys in its order.
fn details(
    job: Job<'_>,
    f: &RowFacts,
    notes: &[String],
    window: u64,
    truncated_at: Option<f64>,
) -> Details {
    let row = f.row;
    let mut details = crate::interface::api::details_head(job, f.selected as u64, row != Row::Raw);
    if matches!(row, Row::Delta { .. } | Row::NoNew | Row::Widened) {
        details.push_new("newLines", f.fresh);
        details.push_new("totalLines", f.total);
    }
    if row == Row::Widened {
        details.push_new("widened", true);
    } else if !notes.is_empty() {
        details.push_new("condenserNotes", notes.to_vec());
    }
    crate::interface::api::details_tail(&mut details, window, truncated_at);
    details
}

/// The lines the condenser rendered, as the reply claims them.
fn shown_lines(view: &View, selection: std::ops::Range<usize>, rendered: usize) -> Vec<ShownLine> {
    view.lines[selection.clone()]
        .iter()
        .take(rendered)
        .enumerate()
        .map(|(i, l)| ShownLine {
            generation: 0,
            offset: view.offset(l),
            end: view.end_offset(l),
            view_line: Some((selection.start + i + 1) as u64),
            partial: false,
        })
        .collect()
}

impl Row {
    fn kind(self) -> ReadKind {
        match self {
            Row::First | Row::Reset(_) => ReadKind::First,
            Row::Raw => ReadKind::Raw,
            Row::Delta { clipped: false } => ReadKind::Delta,
            Row::Delta { clipped: true } => ReadKind::DeltaClipped,
            Row::NoNew => ReadKind::NothingNew,
            Row::Widened => ReadKind::Widened,
        }
    }
}

/// How many of `total` lines JavaScript's `slice(-n)` keeps: `min(n, total)`, all of them for
/// NaN (`slice(NaN)` starts at 0) and for +Infinity.
fn slice_len(total: usize, n: f64) -> usize {
    if n.is_nan() || n >= total as f64 {
        total
    } else {
        n as usize
    }
}

/// The reset flags of §4, in header precedence (path, shrank, replaced, window).
fn reset_reason(
    prev: Option<&ShippedBookmark>,
    path: &str,
    window: u64,
    total: u64,
    size: u64,
    first: &Utf16Prefix,
) -> Option<ResetReason> {
    let p = prev?;
    let path_changed = p.path != path;
    let window_changed = !path_changed && p.window != window;
    let replaced = !window_changed && p.lines > 0 && p.first != *first;
    let shrank = p.lines > total || p.bytes > size;
    if path_changed {
        Some(ResetReason::PathChanged)
    } else if shrank {
        Some(ResetReason::Shrank)
    } else if replaced {
        Some(ResetReason::Replaced)
    } else if window_changed {
        Some(ResetReason::WindowChanged)
    } else {
        None
    }
}

/// The row of §4's table. Raw wins over everything, then a missing bookmark, then a reset;
/// appended lines win over a widening.
fn choose_row(
    prev: Option<&ShippedBookmark>,
    reset: Option<ResetReason>,
    raw: bool,
    lines: f64,
    total: u64,
) -> Row {
    if raw {
        return Row::Raw;
    }
    let Some(p) = prev else {
        return Row::First;
    };
    if let Some(reason) = reset {
        return Row::Reset(reason);
    }
    let fresh = total - p.lines;
    if fresh > 0 {
        Row::Delta {
            clipped: (fresh as f64) > lines,
        }
    } else if lines > p.served as f64 && total > p.served {
        Row::Widened
    } else {
        Row::NoNew
    }
}

fn reset_words(reason: ResetReason) -> &'static str {
    match reason {
        ResetReason::PathChanged => {
            "log path changed since last read (the id now resolves elsewhere)"
        }
        ResetReason::Shrank => "log shrank since last read",
        ResetReason::Replaced => "log was replaced since last read",
        ResetReason::WindowChanged => "search window changed since last read",
        // The exact engine's reasons never arise here.
        ResetReason::FileReplaced
        | ResetReason::Rewritten
        | ResetReason::RegrownPastCut
        | ResetReason::PartialRewritten => "log was replaced since last read",
    }
}
/// The reply's counts: `shown` of the row's selected lines shown, `rendered` of them in the
/// body; a delta's are new, a widening's earlier.
fn counts(rows: &RowFacts, shown: u64, rendered: usize) -> Counts {
    Counts {
        total_lines: Some(rows.total),
        new_lines: rows.fresh,
        selected: rows.selected as u64,
        shown,
        new_shown: if matches!(rows.row, Row::Delta { .. }) {
            shown
        } else {
            0
        },
        earlier_shown: if rows.row == Row::Widened { shown } else { 0 },
        left_out: (rows.selected - rendered) as u64,
        ..Counts::default()
    }
}
