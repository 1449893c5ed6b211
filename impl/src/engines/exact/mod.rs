//! The exact engine: issue #28 fixed, by keeping coverage as what the caller was really shown.
//!
//! The contract is `docs/contract.md`. In short: lines are identified by their
//! byte offset in the current *generation* of the log; coverage is a set of byte ranges built
//! only from lines a reply carried; a condensed read shows the window's uncovered lines, newest
//! first within the budget; nothing is ever marked covered that was not shown.

mod coverage;
mod index;
mod numbers;
mod render;
mod scan;
mod select;
mod text;

pub use coverage::Coverage;
pub use index::{LineIndex, Mark};
use scan::{Prior, Scan, Scanner, Want};

use crate::interface::api::{
    check_id, clamp_window, error_reply, gated_reply, Engine, Job, Rejected, Reply, Request,
    ResetReason,
};
use crate::source::{read_span, LogIdentity, LogSource, LogStat, SourceError};
use crate::upstream::limits::Limits;
use crate::upstream::view::View;
use serde::{Deserialize, Serialize};

/// How many bytes before the settled end a bookmark fingerprints.
const SETTLED_PRINT_BYTES: u64 = 64;

/// A fingerprint of `len` bytes at `offset`: the log's head (to notice a log rewritten in
/// place) and the bytes before the settled end (a log cut and regrown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BytePrint {
    /// 0 for the head (state files from before the settled fingerprint have no offset).
    #[serde(default)]
    pub offset: u64,
    /// How many bytes the fingerprint covers.
    pub len: u64,
    /// FNV-1a of those bytes.
    pub hash: u64,
}

impl BytePrint {
    fn of(offset: u64, bytes: &[u8]) -> Self {
        BytePrint {
            offset,
            len: bytes.len() as u64,
            hash: fnv1a(bytes),
        }
    }

    /// Whether `bytes`, read at `self.offset`, start with the fingerprinted ones.
    fn matches(&self, bytes: &[u8]) -> bool {
        bytes
            .get(..self.len as usize)
            .is_some_and(|prefix| fnv1a(prefix) == self.hash)
    }

    /// Whether the log still holds the same bytes there.
    fn holds(&self, log: &dyn LogSource, bytes_read: &mut u64) -> Result<bool, SourceError> {
        Ok(self.matches(&read_span(log, self.offset, self.len, bytes_read)?))
    }
}

/// One id's bookmark.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExactBookmark {
    /// The path the id resolved to at the last read.
    pub path: String,
    /// Counts the generations this bookmark has seen, from 1.
    pub generation: u64,
    /// Which file sat at the path (device and inode), when the source knows.
    pub identity: Option<LogIdentity>,
    /// The log's size at the last read.
    pub size: u64,
    /// Lines starting at or after this offset were not complete at the last read: they are
    /// "new". (The start of the unterminated last segment, else the size.)
    pub settled_end: u64,
    /// The log's first bytes (at most `Limits::head_probe_bytes`), as this read saw them.
    pub head: BytePrint,
    /// The bytes just before `settled_end`, as this read saw them: the head alone misses a
    /// log cut and regrown past its old size, which would leave coverage on other lines.
    #[serde(default)]
    pub settled_print: Option<BytePrint>,
    /// The complete lines the caller was shown in this generation, as byte ranges.
    pub coverage: Coverage,
    /// The partial line the caller was last shown, so that an unchanged one is not sent on
    /// every poll. Never coverage: it is shown again once it grows or completes.
    pub partial_seen: Option<(u64, u64)>,
    /// Line numbers at known offsets, so that the next read need not count the whole view
    /// again. A cache: it takes no part in equality (see [`LineIndex`]).
    #[serde(default)]
    pub index: LineIndex,
}

/// What of a bookmark tells whether the log is still its generation: where it was, which file,
/// how long, and the fingerprints of its head and of the bytes before its settled end.
///
/// The generation check sees a bookmark only through this: coverage, the partial line seen
/// and the line index cannot change whether a read starts over, nor why. The inductive check
/// (`bgtail_model::induction`) rests on that to answer every bookmark of one generation print
/// and reason with one read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerationPrint<'a> {
    /// The path the id resolved to.
    pub path: &'a str,
    /// Which file sat at the path, when the source knows.
    pub identity: Option<LogIdentity>,
    /// The log's size.
    pub size: u64,
    /// The log's first bytes.
    pub head: BytePrint,
    /// The bytes before the settled end.
    pub settled_print: Option<BytePrint>,
}

impl ExactBookmark {
    /// What of this bookmark the generation check reads.
    pub fn generation_print(&self) -> GenerationPrint<'_> {
        GenerationPrint {
            path: &self.path,
            identity: self.identity,
            size: self.size,
            head: self.head,
            settled_print: self.settled_print,
        }
    }
}

/// All bookmarks, least recently read first; the least recently read is evicted when full.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExactState {
    /// Every job's bookmark, in insertion order; the oldest is forgotten past `bookmark_capacity`.
    pub bookmarks: Vec<(String, ExactBookmark)>,
}

impl ExactState {
    /// The bookmark of job `id`, if it has one.
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

/// FNV-1a, 64 bits: the hash the exact engine fingerprints a log's bytes with (its head and
/// the bytes before where the last read ended).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
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
        check_id(job.id)?;
        if request.running && !request.peek {
            return Ok(gated_reply(job, request));
        }
        let reply = self.read_log(state, job, log, request, lines, window);
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
        let head_bytes = read_span(log, 0, head_len, &mut bytes_read)?;
        let head = BytePrint::of(0, &head_bytes);
        let opening = match state.get(job.id) {
            None => render::Opening::First,
            Some(prev) => {
                let print = prev.generation_print();
                match Self::generation_change(
                    &print,
                    job.path,
                    stat,
                    &head_bytes,
                    log,
                    &mut bytes_read,
                )? {
                    None => render::Opening::Continues(prev),
                    Some(reason) => render::Opening::Reset {
                        generation: prev.generation,
                        reason,
                    },
                }
            }
        };
        let continuing = opening.continuing();
        let start = render::Start::of(&opening);
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
        start: &render::Start,
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
        start: &render::Start,
        scan: Scan,
        outcome: render::Outcome,
        bytes_read: &mut u64,
    ) -> (Reply, ExactBookmark) {
        // An unterminated last segment may still grow into a new line while the job runs; it
        // starts where it really starts, even when the buffer cut it. Past the buffer's first
        // byte, the `\n` before it is in the buffer: nothing to read back.
        let settled_end = match unterminated_tail_start(&scan.view) {
            Some(tail) if scan.still_writing && tail > scan.view.origin => tail,
            Some(tail) if scan.still_writing => partial_line_start(log, start, tail, bytes_read),
            _ => stat.size,
        };
        let settled_print = settled_print(log, &scan, settled_end, bytes_read);
        let index = next_index(&self.limits, scan, &outcome.coverage, settled_end);
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
            index,
        };
        (outcome.reply, bookmark)
    }
}

/// The fingerprint of the `SETTLED_PRINT_BYTES` before the settled end, from the tail when it
/// holds them, else read. `None` when the log shrank while it was read (the next read sees
/// the shrink anyway).
fn settled_print(
    log: &dyn LogSource,
    scan: &Scan,
    settled_end: u64,
    bytes_read: &mut u64,
) -> Option<BytePrint> {
    let view = &scan.view;
    if settled_end > view.origin + view.buf.len() as u64 {
        return None;
    }
    let from = settled_end.saturating_sub(SETTLED_PRINT_BYTES);
    let held = from.checked_sub(view.origin).and_then(|start| {
        view.buf
            .get(start as usize..(settled_end - view.origin) as usize)
    });
    match held {
        Some(bytes) => Some(BytePrint::of(from, bytes)),
        None => {
            let bytes = read_span(log, from, settled_end - from, bytes_read).ok()?;
            (bytes.len() as u64 == settled_end - from).then(|| BytePrint::of(from, &bytes))
        }
    }
}

/// The index the next read starts from: what this read counted, plus marks in the tail at
/// every coverage boundary, at the settled end and about every `mark_spacing` bytes, less
/// the marks no view can need any more.
fn next_index(limits: &Limits, scan: Scan, coverage: &Coverage, settled_end: u64) -> LineIndex {
    let Some(base) = scan.tail_mark else {
        return LineIndex::default();
    };
    let view = &scan.view;
    let buf_end = view.origin + view.buf.len() as u64;
    if settled_end > buf_end {
        // The log shrank while it was read: nothing to number; the next read starts over.
        return LineIndex::default();
    }
    let is_line_start = |x: u64| {
        x == base.offset
            || (x > view.origin
                && x <= buf_end
                && view.buf[(x - view.origin - 1) as usize] == b'\n')
    };
    let mut pinned: Vec<u64> = coverage
        .ranges()
        .iter()
        .flat_map(|&(s, e)| [s, e])
        .collect();
    if is_line_start(settled_end) {
        pinned.push(settled_end);
    }
    let mut wanted: Vec<u64> = pinned
        .iter()
        .copied()
        .filter(|&x| x >= base.offset && x <= settled_end && is_line_start(x))
        .collect();
    let mut last_spaced = base.offset;
    for l in &view.lines {
        let at = view.offset(l);
        if at >= settled_end {
            break;
        }
        if at >= base.offset && at - last_spaced >= limits.mark_spacing {
            wanted.push(at);
            last_spaced = at;
        }
    }
    wanted.sort_unstable();
    wanted.dedup();
    pinned.sort_unstable();
    pinned.dedup();

    let mut index = scan.index;
    index.insert(base);
    let (mut lines, mut newlines, mut at) = (base.lines, base.newlines, base.offset);
    let mut next_line = view.lines.partition_point(|l| view.offset(l) < base.offset);
    for x in wanted {
        while next_line < view.lines.len() && view.offset(&view.lines[next_line]) < x {
            lines += 1;
            next_line += 1;
        }
        let from = (at - view.origin) as usize;
        let to = (x - view.origin) as usize;
        newlines += memchr::memchr_iter(b'\n', &view.buf[from..to]).count() as i64;
        at = x;
        index.insert(Mark {
            offset: x,
            lines,
            newlines,
        });
    }
    if index.is_poisoned() {
        return LineIndex::default();
    }
    index.thin(
        view.size.saturating_sub(limits.view_max),
        limits.mark_spacing,
        &pinned,
    );
    index
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

/// Where the partial line holding byte `tail - 1` starts, when the view cut it. Searched back
/// no further than the last read's settled end when it lies before `tail` (no line can start
/// between the two, or the last read would have seen its `\n`), and over none of the bytes
/// between that end and the last read's size: they were its unterminated last segment, so
/// a progress line longer than the view costs each poll what was appended, not its length.
fn partial_line_start(
    log: &dyn LogSource,
    start: &render::Start,
    tail: u64,
    bytes_read: &mut u64,
) -> u64 {
    match (start.settled_before, start.size_before) {
        (Some(settled), Some(size)) if settled <= tail => {
            let searched_from = size.clamp(settled, tail);
            // A `\n` at `searched_from - 1` would lie in the segment that held none, unless
            // the segment is empty: so `searched_from` means "no `\n` found".
            match line_start_before(log, tail, searched_from, bytes_read) {
                at if at == searched_from => settled,
                at => at,
            }
        }
        _ => line_start_before(log, tail, 0, bytes_read),
    }
}

/// Where the line holding byte `start - 1` begins: `start` when the byte before it is a `\n`
/// (or `start` is 0); else one past the nearest `\n` before it, searched back in 64 KiB pieces
/// no further than `floor`. An unreadable piece ends the search where it stands, so that a
/// line that cannot be read back counts as starting there.
fn line_start_before(log: &dyn LogSource, start: u64, floor: u64, bytes_read: &mut u64) -> u64 {
    const PIECE: u64 = 64 * 1024;
    let mut end = start;
    while end > floor {
        let from = end.saturating_sub(PIECE).max(floor);
        let Ok(piece) = read_span(log, from, end - from, bytes_read) else {
            return end;
        };
        if let Some(i) = memchr::memrchr(b'\n', &piece) {
            return from + i as u64 + 1;
        }
        if piece.len() as u64 != end - from {
            return end;
        }
        end = from;
    }
    floor
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
        let head = read_span(log, 0, head_len, &mut bytes_read)?;
        Self::generation_change(print, path, stat, &head, log, &mut bytes_read)
    }
}

impl ExactEngine {
    /// Whether the log is another generation than the bookmark's, and why. `head` holds the
    /// log's first bytes, at least as many as the bookmark hashed unless the log shrank.
    ///
    /// Last, the bytes before the bookmark's settled end are read back and compared: a log cut
    /// and regrown past its old size behind an unchanged head is another generation too.
    fn generation_change(
        prev: &GenerationPrint<'_>,
        path: &str,
        stat: LogStat,
        head: &[u8],
        log: &dyn LogSource,
        bytes_read: &mut u64,
    ) -> Result<Option<ResetReason>, SourceError> {
        if prev.path != path {
            return Ok(Some(ResetReason::PathChanged));
        }
        if let (Some(a), Some(b)) = (prev.identity, stat.identity) {
            if a != b {
                return Ok(Some(ResetReason::FileReplaced));
            }
        }
        if stat.size < prev.size {
            return Ok(Some(ResetReason::Shrank));
        }
        // Compare the same prefix the bookmark hashed. Fewer bytes than that (the log shrank
        // while it was read) cannot prove the same log, so they count as a rewrite: coverage
        // starts over, which can only repeat lines.
        if !prev.head.matches(head) {
            return Ok(Some(ResetReason::Rewritten));
        }
        match prev.settled_print {
            Some(print) if !print.holds(log, bytes_read)? => Ok(Some(ResetReason::RegrownPastCut)),
            _ => Ok(None),
        }
    }
}
