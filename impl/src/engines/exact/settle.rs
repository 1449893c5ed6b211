//! Settling a read: where its complete lines end (a partial line's own start, read back when
//! the view cut it), the fingerprint of the bytes before that end, and the line index the next
//! read starts from.

use super::bookmark::BytePrint;
use super::coverage::Coverage;
use super::index::{LineIndex, Mark};
use super::scan::Scan;
use super::start::Start;
use crate::source::{read_span, LogSource, LogStat};
use crate::upstream::limits::Limits;
use crate::upstream::view::View;

/// Where the read's complete lines end. An unterminated last segment may still grow into a
/// new line while the job runs; it starts where it really starts, even when the buffer cut
/// it. Past the buffer's first byte, the `\n` before it is in the buffer: nothing to read back.
pub(super) fn settled_end(
    log: &dyn LogSource,
    stat: LogStat,
    scan: &Scan,
    start: &Start,
    search_piece: u64,
    bytes_read: &mut u64,
) -> u64 {
    match unterminated_tail_start(&scan.view) {
        Some(tail) if scan.still_writing && tail > scan.view.origin => tail,
        Some(tail) if scan.still_writing => {
            partial_line_start(log, start, tail, search_piece, bytes_read)
        }
        _ => stat.size,
    }
}

/// The fingerprint of the `print_bytes` (`Limits::settled_print_bytes`) before the settled
/// end, from the tail when it holds them, else read. `None` when the log shrank while it was read (the next read sees
/// the shrink anyway).
pub(super) fn settled_print(
    log: &dyn LogSource,
    scan: &Scan,
    settled_end: u64,
    print_bytes: u64,
    bytes_read: &mut u64,
) -> Option<BytePrint> {
    let view = &scan.view;
    if settled_end > view.origin + view.buf.len() as u64 {
        return None;
    }
    let from = settled_end.saturating_sub(print_bytes);
    print_of(log, scan, from, settled_end, bytes_read)
}

/// The extent of the partial line this read found at the log's end, shown or not: from its
/// own start (`settled_end`, read back when the view cut it) to the log's end. A view that
/// starts inside a progress line longer than it leaves the line out of the view, but the
/// caller's bookmark still stands on it, so a redraw of it is a change the next read sees.
/// `None` when the log ends with a complete line, or the job has finished.
pub(super) fn partial_extent(scan: &Scan, settled_end: u64, size: u64) -> Option<(u64, u64)> {
    (scan.still_writing && settled_end < size).then_some((settled_end, size))
}

/// The fingerprint of the end of the partial line this read found (`seen`, its extent): its
/// last `print_bytes` (`Limits::partial_print_bytes`), all of a short progress line, so that
/// the next read's check costs at most that many bytes however long the line grows. Shown
/// or not: a read that left it out (the budget crowded it out) read it all the same, and a
/// change to it is a change to the log the caller's bookmark stands on.
pub(super) fn partial_print(
    log: &dyn LogSource,
    scan: &Scan,
    seen: Option<(u64, u64)>,
    print_bytes: u64,
    bytes_read: &mut u64,
) -> Option<BytePrint> {
    let (start, end) = seen?;
    let from = end.saturating_sub(print_bytes).max(start);
    print_of(log, scan, from, end, bytes_read)
}

/// The fingerprint of the bytes `[from, to)`: from the view when it holds them, else read.
/// `None` when the log ends before `to` (it shrank while it was read: the next read sees it).
fn print_of(
    log: &dyn LogSource,
    scan: &Scan,
    from: u64,
    to: u64,
    bytes_read: &mut u64,
) -> Option<BytePrint> {
    let view = &scan.view;
    let held = from
        .checked_sub(view.origin)
        .and_then(|start| view.buf.get(start as usize..(to - view.origin) as usize));
    match held {
        Some(bytes) => Some(BytePrint::of(from, bytes)),
        None => {
            let bytes = read_span(log, from, to - from, bytes_read).ok()?;
            (bytes.len() as u64 == to - from).then(|| BytePrint::of(from, &bytes))
        }
    }
}

/// The index the next read starts from: what this read counted, plus marks in the tail at
/// every coverage boundary, at the settled end and about every `mark_spacing` bytes, less
/// the marks no view can need any more.
pub(super) fn next_index(
    limits: &Limits,
    scan: Scan,
    coverage: &Coverage,
    settled_end: u64,
) -> LineIndex {
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
    start: &Start,
    tail: u64,
    search_piece: u64,
    bytes_read: &mut u64,
) -> u64 {
    match (start.settled_before, start.size_before) {
        (Some(settled), Some(size)) if settled <= tail => {
            let searched_from = size.clamp(settled, tail);
            // A `\n` at `searched_from - 1` would lie in the segment that held none, unless
            // the segment is empty: so `searched_from` means "no `\n` found".
            match line_start_before(log, tail, searched_from, search_piece, bytes_read) {
                at if at == searched_from => settled,
                at => at,
            }
        }
        _ => line_start_before(log, tail, 0, search_piece, bytes_read),
    }
}

/// Where the line holding byte `start - 1` begins: `start` when the byte before it is a `\n`
/// (or `start` is 0); else one past the nearest `\n` before it, searched back in pieces of
/// `piece_len` bytes (`Limits::line_search_piece`) no further than `floor`. An unreadable
/// piece ends the search where it stands, so that a line that cannot be read back counts as
/// starting there.
fn line_start_before(
    log: &dyn LogSource,
    start: u64,
    floor: u64,
    piece_len: u64,
    bytes_read: &mut u64,
) -> u64 {
    let mut end = start;
    while end > floor {
        let from = end.saturating_sub(piece_len).max(floor);
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
