//! The exact engine: issue #28 fixed, by keeping coverage as what the caller was really shown.
//!
//! The contract is `docs/contract.md`. In short: lines are identified by their
//! byte offset in the current *generation* of the log; coverage is a set of byte ranges built
//! only from lines a reply carried; a condensed read shows the window's uncovered lines, newest
//! first within the budget; nothing is ever marked covered that was not shown.
//!
//! A read runs in phases, a module each: the generation check (`generation`), the scan
//! of the view (`scan`), the reply (`render`, over `select`, `numbers` and `text`), and the
//! settling of the next bookmark (`settle`); this module runs them in order.

mod bookmark;
mod count;
mod coverage;
mod generation;
mod index;
mod numbers;
mod render;
mod scan;
mod select;
mod settle;
mod start;
mod text;

pub use bookmark::{fnv1a, BytePrint, ExactBookmark, ExactState, GenerationPrint};
pub use coverage::Coverage;
pub use index::{LineIndex, Mark};
use scan::{Prior, Scan, Scanner, Want};
use start::{Opening, Start};

use crate::interface::api::{
    error_reply, gated_reply, Engine, Job, Rejected, Reply, Request, ResetReason,
};
use crate::source::{read_measured_span, LogSource, LogStat, SourceError};
use crate::upstream::limits::Limits;
use crate::upstream::tool::{check_id, clamp_window};

/// The exact engine.
#[derive(Clone, Debug, Default)]
pub struct ExactEngine {
    /// The limits this engine reads with, validated by [`ExactEngine::try_new`] (private, so
    /// that no engine holds limits the guarantees cannot rest on; read them with
    /// [`Engine::limits`]).
    limits: Limits,
}

impl ExactEngine {
    /// An exact engine with these limits.
    ///
    /// # Panics
    /// When the limits break a relation the guarantees rest on ([`Limits::validate`]); use
    /// [`ExactEngine::try_new`] for limits that come from a user.
    pub fn new(limits: Limits) -> Self {
        Self::try_new(limits).unwrap_or_else(|why| panic!("invalid limits: {why}"))
    }

    /// An exact engine with these limits, or the relation they break.
    pub fn try_new(limits: Limits) -> Result<Self, crate::upstream::limits::LimitsError> {
        limits.validate()?;
        Ok(ExactEngine { limits })
    }
}

/// `lines` for the exact engine: the default when absent or NaN, at least 1, and "the whole
/// view" for +Infinity or anything larger than the view could hold (`as` saturates a float
/// past `usize::MAX` to `usize::MAX`).
pub fn exact_lines(lines: Option<f64>, limits: &Limits) -> usize {
    match lines {
        Some(n) if !n.is_nan() => n.floor().max(1.0) as usize,
        _ => limits.default_lines as usize,
    }
}

impl Engine for ExactEngine {
    type State = ExactState;

    fn name(&self) -> &'static str {
        "exact"
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn text_format(&self) -> crate::upstream::condense::TextFormat {
        crate::upstream::condense::TextFormat::Exact
    }

    fn read(
        &self,
        state: &mut ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        let lines = exact_lines(request.lines, &self.limits);
        let window = clamp_window(request.bytes, &self.limits);
        check_id(job.id).map_err(Rejected)?;
        if request.running && !request.peek {
            return Ok(gated_reply(job, request));
        }
        // A log that shrank while it was read (a piece came back shorter than the size the read
        // measured) is read once more from a fresh look at it, so that the reply is of the log
        // as it now is; the bookmark is untouched until a read completes.
        let reply = match self.read_log(state, job, log, request, lines, window) {
            Err(SourceError::Shrank) => self.read_log(state, job, log, request, lines, window),
            other => other,
        };
        Ok(reply.unwrap_or_else(|e| error_reply(job, &e)))
    }
}

impl ExactEngine {
    /// One read of a request already checked: the log's head and its generation against the
    /// bookmark, the scan and the reply, then the next bookmark. An error reading the log
    /// leaves the bookmark as it was.
    fn read_log(
        &self,
        state: &mut ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
        lines: usize,
        window: u64,
    ) -> Result<Reply, SourceError> {
        let stat = log.stat()?;
        let mut bytes_read = 0;
        // The log's first bytes both identify this generation and are compared with what the
        // bookmark saw, before anything else is read: the bookmark's index and settled end
        // describe its generation only.
        let head_len = stat.size.min(self.limits.head_probe_bytes);
        let head_bytes = read_measured_span(log, 0, head_len, &mut bytes_read)?;
        let head = BytePrint::of(0, &head_bytes);
        let opening = match state.get(job.id) {
            None => Opening::First,
            Some(prev) => {
                let print = prev.generation_print();
                match generation::change(&print, job.path, stat, &head_bytes, log, &mut bytes_read)?
                {
                    None => Opening::Continues(prev),
                    Some(reason) => Opening::Reset {
                        generation: prev.generation,
                        reason,
                    },
                }
            }
        };
        let continuing = opening.continuing();
        let start = Start::of(&opening);
        let read = Read {
            job,
            request,
            lines,
            window,
            stat,
        };
        let (scan, outcome) =
            self.scan_and_respond(log, &read, continuing, &start, &mut bytes_read)?;
        state.take(job.id);
        let (mut reply, bookmark) =
            self.next_bookmark(log, job, stat, head, &start, scan, outcome, &mut bytes_read);
        state.put(job.id, bookmark, self.limits.bookmark_capacity);
        reply.bytes_read = bytes_read;
        Ok(reply)
    }

    /// The scan and the reply. The view above the tail is counted only as far as the reply
    /// needs: a reply that prints the view's line count asks for a second scan that counts
    /// all of it. A small view is counted whole at once: that costs less than the process
    /// start.
    fn scan_and_respond(
        &self,
        log: &dyn LogSource,
        read: &Read<'_>,
        continuing: Option<&ExactBookmark>,
        start: &Start,
        bytes_read: &mut u64,
    ) -> Result<(Scan, render::Outcome), SourceError> {
        let prior = continuing.map(|p| Prior {
            settled_end: p.settled_end,
            coverage: &p.coverage,
        });
        let bookmark_index = || continuing.map(|p| p.index.clone()).unwrap_or_default();
        let mut index = Some(bookmark_index());
        let mut scanner = Scanner {
            log,
            limits: &self.limits,
            bytes_read,
        };
        let (size, window) = (read.stat.size, read.window);
        let mut whole =
            self.limits.count_whole_view || size.min(window) <= self.limits.count_views_up_to;
        loop {
            let want = Want {
                size,
                window,
                lines: read.lines,
                running: read.request.running,
                whole,
            };
            let bookmark_index = index.take().unwrap_or_else(bookmark_index);
            let scan = scanner.scan(want, prior.as_ref(), bookmark_index)?;
            let (job, request, lines) = (read.job, read.request, read.lines);
            match render::respond(&self.limits, job, request, lines, window, &scan, start) {
                Some(outcome) => return Ok((scan, outcome)),
                None if !whole => whole = true,
                None => unreachable!("a whole scan counts the view"),
            }
        }
    }
}

/// What one read asks of the log, once its request is checked.
struct Read<'a> {
    job: Job<'a>,
    request: &'a Request,
    /// The request's `lines`, by the contract's rule.
    lines: usize,
    /// The view's size, clamped.
    window: u64,
    /// The log as the read found it.
    stat: LogStat,
}

impl ExactEngine {
    /// The bookmark a read leaves: where its complete lines end (a partial line's own start,
    /// read back when the buffer cut it), the fingerprint before that end, the next line
    /// index, and the coverage the reply earned. Returns the reply beside it.
    #[allow(clippy::too_many_arguments)]
    fn next_bookmark(
        &self,
        log: &dyn LogSource,
        job: Job<'_>,
        stat: LogStat,
        head: BytePrint,
        start: &Start,
        scan: Scan,
        outcome: render::Outcome,
        bytes_read: &mut u64,
    ) -> (Reply, ExactBookmark) {
        let search_piece = self.limits.line_search_piece;
        let settled_end = settle::settled_end(log, stat, &scan, start, search_piece, bytes_read);
        let limits = &self.limits;
        let settled_print = settle::settled_print(
            log,
            &scan,
            settled_end,
            limits.settled_print_bytes,
            bytes_read,
        );
        let partial_print = settle::partial_print(
            log,
            &scan,
            settle::partial_extent(&scan, settled_end, stat.size),
            limits.partial_print_bytes,
            bytes_read,
        );
        let index = settle::next_index(&self.limits, scan, &outcome.coverage, settled_end);
        let bookmark = ExactBookmark {
            path: job.path.to_owned(),
            generation: start.generation,
            identity: stat.identity,
            size: stat.size,
            settled_end,
            head,
            settled_print,
            coverage: outcome.coverage,
            partial_seen: outcome.partial_seen,
            partial_print,
            index,
        };
        (outcome.reply, bookmark)
    }
}

impl ExactEngine {
    /// Whether a read of `log` at `path` would start a new generation of the bookmark whose
    /// generation print is `print` ([`ExactBookmark::generation_print`]), and why: the check
    /// a read runs first, on the same bytes (the log's head, then the bytes before the
    /// bookmark's settled end). `Ok(None)`: the read continues the bookmark.
    pub fn generation_check(
        &self,
        print: &GenerationPrint<'_>,
        path: &str,
        log: &dyn LogSource,
    ) -> Result<Option<ResetReason>, SourceError> {
        let stat = log.stat()?;
        let mut bytes_read = 0;
        let head_len = stat.size.min(self.limits.head_probe_bytes);
        let head = read_measured_span(log, 0, head_len, &mut bytes_read)?;
        generation::change(print, path, stat, &head, log, &mut bytes_read)
    }
}
