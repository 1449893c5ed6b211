//! The exact engine: issue #28 fixed, by keeping coverage as what the caller was really shown.
//!
//! The contract is `shared/design/exact-engine.md`. In short: lines are identified by their
//! byte offset in the current *generation* of the log; coverage is a set of byte ranges built
//! only from lines a reply carried; a condensed read shows the window's uncovered lines, newest
//! first within the budget; nothing is ever marked covered that was not shown.

mod coverage;
mod render;

pub use coverage::Coverage;

use crate::api::{
    check_id, clamp_window, error_reply, gated_reply, Engine, Job, Rejected, Reply, Request,
    ResetReason,
};
use crate::limits::Limits;
use crate::source::{read_span, LogIdentity, LogSource, LogStat};
use crate::view::View;
use serde::{Deserialize, Serialize};

/// A fingerprint of the log's first bytes, to notice a log rewritten in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HeadPrint {
    /// How many bytes were hashed (at most `Limits::head_probe_bytes`).
    pub len: u64,
    /// FNV-1a of those bytes.
    pub hash: u64,
}

/// One id's bookmark.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExactBookmark {
    pub path: String,
    /// Counts the generations this bookmark has seen, from 1.
    pub generation: u64,
    pub identity: Option<LogIdentity>,
    /// The log's size at the last read.
    pub size: u64,
    /// Lines starting at or after this offset were not complete at the last read: they are
    /// "new". (The start of the unterminated last segment, else the size.)
    pub settled_end: u64,
    pub head: HeadPrint,
    pub coverage: Coverage,
    /// The partial line the caller was last shown, so that an unchanged one is not sent on
    /// every poll. Never coverage: it is shown again once it grows or completes.
    pub partial_seen: Option<(u64, u64)>,
}

/// All bookmarks, least recently read first; the least recently read is evicted when full.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExactState {
    pub bookmarks: Vec<(String, ExactBookmark)>,
}

impl ExactState {
    pub fn get(&self, id: &str) -> Option<&ExactBookmark> {
        self.bookmarks.iter().find(|(k, _)| k == id).map(|(_, b)| b)
    }

    fn take(&mut self, id: &str) -> Option<ExactBookmark> {
        let i = self.bookmarks.iter().position(|(k, _)| k == id)?;
        Some(self.bookmarks.remove(i).1)
    }

    fn put(&mut self, id: &str, bookmark: ExactBookmark, capacity: usize) {
        self.bookmarks.push((id.to_owned(), bookmark));
        let excess = self.bookmarks.len().saturating_sub(capacity);
        self.bookmarks.drain(..excess);
    }
}

/// The exact engine.
#[derive(Clone, Debug, Default)]
pub struct ExactEngine {
    pub limits: Limits,
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

    pub fn try_new(limits: Limits) -> Result<Self, String> {
        limits.validate()?;
        Ok(ExactEngine { limits })
    }
}

/// `lines` for the exact engine: the default when absent or NaN, at least 1, and "the whole
/// view" for +Infinity or anything larger than the view could hold.
pub fn exact_lines(lines: Option<f64>, limits: &Limits) -> usize {
    match lines {
        None => limits.default_lines as usize,
        Some(n) if n.is_nan() => limits.default_lines as usize,
        Some(n) if n >= usize::MAX as f64 => usize::MAX,
        Some(n) => n.floor().max(1.0) as usize,
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// What one read found in the log, before deciding what to show.
pub(crate) struct Scan {
    pub view: View,
    /// The view's first byte as a file offset (a line starting before it is not in the view).
    pub origin: u64,
    /// The view's content lines that are complete (every one but a trailing partial line).
    pub complete: usize,
    /// Index in `view.lines` of the partial line, if the job may still be writing it.
    pub partial: Option<usize>,
    /// Index in `view.lines` of the window's first line.
    pub window_start: usize,
    /// Whether the job may still write to the log's last line.
    pub still_writing: bool,
}

impl Engine for ExactEngine {
    type State = ExactState;

    fn name(&self) -> &'static str {
        "exact"
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn style(&self) -> crate::condense::Style {
        crate::condense::Style::Exact
    }

    /// The content lines of the log that lie inside the bookmark's coverage.
    fn believed_shown(
        &self,
        state: &ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
    ) -> Vec<(u64, u64)> {
        let Some(b) = state.get(job.id) else {
            return Vec::new();
        };
        let Ok(stat) = log.stat() else {
            return Vec::new();
        };
        // Coverage belongs to its generation: the next read would clear it.
        let mut ignored = 0;
        let Ok(head) = read_span(log, 0, b.head.len, &mut ignored) else {
            return Vec::new();
        };
        if Self::generation_change(b, job.path, stat, &head).is_some() {
            return Vec::new();
        }
        let Ok(view) = View::read_last(log, u64::MAX, usize::MAX) else {
            return Vec::new();
        };
        view.extents()
            .filter(|&(start, end)| b.coverage.covers(start, end))
            .collect()
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
        check_id(job.id)?;
        if request.running && !request.peek {
            return Ok(gated_reply(job, request));
        }
        let stat = match log.stat() {
            Ok(s) => s,
            Err(e) => return Ok(error_reply(job, &e)),
        };
        let mut bytes_read = 0;
        let scan = match self.scan(log, stat, window, lines, request.running, &mut bytes_read) {
            Ok(s) => s,
            Err(e) => return Ok(error_reply(job, &e)),
        };
        // The log's first bytes, read once: they both identify this generation and are
        // compared with what the bookmark saw.
        let head_len = stat.size.min(self.limits.head_probe_bytes);
        let head_bytes = match self.head_bytes(log, &scan, head_len, &mut bytes_read) {
            Ok(b) => b,
            Err(e) => return Ok(error_reply(job, &e)),
        };
        let head = HeadPrint {
            len: head_bytes.len() as u64,
            hash: fnv1a(&head_bytes),
        };

        let prev = state.take(job.id);
        let reset = prev
            .as_ref()
            .and_then(|p| Self::generation_change(p, job.path, stat, &head_bytes));
        let start = match prev {
            Some(p) if reset.is_none() => render::Start {
                generation: p.generation,
                coverage: p.coverage,
                settled_before: Some(p.settled_end),
                reset: None,
                partial_seen: p.partial_seen,
            },
            Some(p) => render::Start {
                generation: p.generation + 1,
                coverage: Coverage::default(),
                settled_before: None,
                reset,
                partial_seen: None,
            },
            None => render::Start {
                generation: 1,
                coverage: Coverage::default(),
                settled_before: None,
                reset: None,
                partial_seen: None,
            },
        };
        let generation = start.generation;
        let outcome = render::respond(&self.limits, job, request, lines, window, &scan, start);
        // An unterminated last segment may still grow into a new line while the job runs.
        let settled_end = match unterminated_tail_start(&scan.view) {
            Some(start) if scan.still_writing => start,
            _ => stat.size,
        };
        state.put(
            job.id,
            ExactBookmark {
                path: job.path.to_owned(),
                generation,
                identity: stat.identity,
                size: stat.size,
                settled_end,
                head,
                coverage: outcome.coverage,
                partial_seen: outcome.partial_seen,
            },
            self.limits.bookmark_capacity,
        );
        let mut reply = outcome.reply;
        reply.bytes_read = bytes_read;
        Ok(reply)
    }
}

/// The file offset where the log's unterminated last segment starts, if it has one.
fn unterminated_tail_start(view: &View) -> Option<u64> {
    match view.buf.last() {
        None | Some(b'\n') => None,
        Some(_) => {
            let start = memchr::memrchr(b'\n', &view.buf).map_or(0, |i| i + 1);
            Some(view.origin + start as u64)
        }
    }
}

impl ExactEngine {
    /// Reads the view and finds its lines, its partial line and the window.
    ///
    /// The view is the last `window` bytes. One byte more is read in front of it, so that a
    /// line starting exactly at the view's first byte is known to be complete; the segment
    /// before it (cut by the view's start) is dropped.
    fn scan(
        &self,
        log: &dyn LogSource,
        stat: LogStat,
        window: u64,
        lines: usize,
        running: bool,
        bytes_read: &mut u64,
    ) -> Result<Scan, crate::source::SourceError> {
        let origin = stat.size - stat.size.min(window);
        let read_from = origin.saturating_sub(1);
        let buf = read_span(log, read_from, stat.size - read_from, bytes_read)?;
        let mut view = View::scan(read_from, stat.size, buf, self.limits.scan_lines_max);
        if origin > 0 && view.lines.first().is_some_and(|l| l.start == 0) {
            view.lines.remove(0);
        }
        // A line still being written is partial only while the job may write: the exit
        // marker, or the caller's word, says it has finished.
        let still_writing = running && !view.exited();
        let partial = match view.lines.last() {
            Some(l) if !l.terminated && still_writing => Some(view.lines.len() - 1),
            _ => None,
        };
        let complete = view.lines.len() - usize::from(partial.is_some());
        let window_start = complete - complete.min(lines);
        Ok(Scan {
            view,
            origin,
            complete,
            partial,
            window_start,
            still_writing,
        })
    }

    /// The log's first `len` bytes, taken from the view when it starts at 0, else read.
    fn head_bytes(
        &self,
        log: &dyn LogSource,
        scan: &Scan,
        len: u64,
        bytes_read: &mut u64,
    ) -> Result<Vec<u8>, crate::source::SourceError> {
        if scan.view.origin == 0 && scan.view.buf.len() as u64 >= len {
            return Ok(scan.view.buf[..len as usize].to_vec());
        }
        read_span(log, 0, len, bytes_read)
    }

    /// Whether the log is another generation than the bookmark's, and why. `head` holds the
    /// log's first bytes, at least as many as the bookmark hashed unless the log shrank.
    fn generation_change(
        prev: &ExactBookmark,
        path: &str,
        stat: LogStat,
        head: &[u8],
    ) -> Option<ResetReason> {
        if prev.path != path {
            return Some(ResetReason::PathChanged);
        }
        if let (Some(a), Some(b)) = (prev.identity, stat.identity) {
            if a != b {
                return Some(ResetReason::FileReplaced);
            }
        }
        if stat.size < prev.size {
            return Some(ResetReason::Shrank);
        }
        // Compare the same prefix the bookmark hashed. Fewer bytes than that (the log shrank
        // while it was read) cannot prove the same log, so they count as a rewrite: coverage
        // starts over, which can only repeat lines.
        match head.get(..prev.head.len as usize) {
            Some(prefix) if fnv1a(prefix) == prev.head.hash => None,
            _ => Some(ResetReason::Rewritten),
        }
    }
}
