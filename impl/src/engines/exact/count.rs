//! Counting lines the exact engine does not keep: forward from a mark to an offset, forward to
//! the view's first line, and backwards from a line start to the view's start or upstream's
//! line bound, reading in pieces and keeping at most the line being classified.

use super::index::{count_lines, Mark};
use crate::source::{read_measured_span, read_span, LogSource, SourceError};
use crate::upstream::limits::Limits;
use crate::upstream::view::{is_content, line_text};

/// Why counting backwards stopped.
pub(super) enum Stop {
    /// At the view's first line.
    ViewStart,
    /// Where upstream's line bound cuts the view.
    LineBound,
    /// At or below the offset it was asked to reach.
    Enough,
}

/// What counting reads from: the log, the limits, and the count of bytes read.
pub(super) struct Counter<'a> {
    pub log: &'a dyn LogSource,
    pub limits: &'a Limits,
    pub bytes_read: &'a mut u64,
}

impl Counter<'_> {
    /// Numbers the last line start at or before `to` by reading forward from the mark `from`
    /// before it, in pieces, keeping only the line that straddles two pieces.
    pub fn count_forward(&mut self, from: Mark, to: u64) -> Result<Mark, SourceError> {
        let mut mark = from;
        let mut pending: Vec<u8> = Vec::new();
        let mut pos = from.offset;
        let mut chunk = self.limits.tail_chunk;
        while pos < to {
            let len = chunk.min(to - pos);
            let piece = read_measured_span(self.log, pos, len, self.bytes_read)?;
            pos += len;
            pending.extend_from_slice(&piece);
            if let Some(last_nl) = memchr::memrchr(b'\n', &pending) {
                mark = self.advance(mark, &pending[..=last_nl]);
                pending.drain(..=last_nl);
            }
            chunk = chunk.saturating_mul(2).min(self.limits.piece_max);
        }
        Ok(mark)
    }

    /// Numbers the view's first line start (the first line start at or after `origin`) by
    /// reading forward from the mark `from` at or before the byte in front of the view.
    pub fn first_line_forward(&mut self, from: Mark, origin: u64) -> Result<Mark, SourceError> {
        if origin == from.offset {
            return Ok(from);
        }
        let mut buf =
            read_measured_span(self.log, from.offset, origin - from.offset, self.bytes_read)?;
        // The line that straddles the view's start ends at the first `\n` at or after
        // `origin − 1`; the view's first line starts after it.
        let mut search_from = buf.len() - 1;
        let mut step = 256.min(self.limits.piece_max);
        loop {
            if let Some(i) = memchr::memchr(b'\n', &buf[search_from..]) {
                let end = search_from + i + 1;
                return Ok(self.advance(from, &buf[..end]));
            }
            search_from = buf.len();
            // The rest of one line: start small, as most lines are.
            let more = read_span(
                self.log,
                from.offset + buf.len() as u64,
                step,
                self.bytes_read,
            )?;
            step = step.saturating_mul(2).min(self.limits.piece_max);
            // The view holds a line start after `origin` (the tail's), so a `\n` ends this
            // line before the log's end, unless the log shrank.
            if more.is_empty() {
                return Err(SourceError::Shrank);
            }
            buf.extend_from_slice(&more);
        }
    }

    /// The mark `lines` later than `from`: `lines` holds whole lines, each ending in `\n`.
    fn advance(&self, from: Mark, lines: &[u8]) -> Mark {
        let (content, newlines) = count_lines(lines);
        Mark {
            offset: from.offset + lines.len() as u64,
            lines: from.lines + content,
            newlines: from.newlines + newlines,
        }
    }

    /// Counts backwards from the line start `from` to the view's first line, keeping only the
    /// line being classified in memory, and marking a line start every `mark_spacing` bytes.
    /// `newlines_after` is the number of `\n` bytes in `[from, size)`; when the view holds
    /// upstream's `scan_lines_max` of them, the view starts after the last one counted, as
    /// upstream's line bound cuts it. Returns the first line, whether the bound cut, the marks.
    pub fn count_back(
        &mut self,
        from: Mark,
        read_from: u64,
        origin: u64,
        newlines_after: i64,
        down_to: u64,
    ) -> Result<(Mark, Stop, Vec<Mark>), SourceError> {
        let max = self.limits.scan_lines_max as i64;
        let spacing = self.limits.mark_spacing;
        let mut cur = from;
        let mut seen = newlines_after;
        let mut marks = Vec::new();
        let mut last_marked = from.offset;
        // `buf` holds the bytes `[lo, cur.offset)`.
        let mut lo = cur.offset;
        let mut buf: Vec<u8> = Vec::new();
        let mut chunk = self.limits.tail_chunk;
        loop {
            if cur.offset == 0 || (origin > 0 && cur.offset == origin) {
                return Ok((cur, Stop::ViewStart, marks));
            }
            if cur.offset <= down_to {
                return Ok((cur, Stop::Enough, marks));
            }
            // The `\n` ending the previous line, at `cur.offset − 1`, lies in the view (the
            // line at `origin` returned above). Upstream's bound cuts there when some of its
            // view — which starts at `origin`, not at the byte before it that this engine
            // reads — lies before that `\n`.
            seen += 1;
            if seen >= max && cur.offset - 1 > origin {
                return Ok((cur, Stop::LineBound, marks));
            }
            // Search `[lo, search_end)` for the `\n` before it, reading further back as needed.
            let nl_at = cur.offset - 1;
            let mut search_end = nl_at;
            let prev_nl = loop {
                if search_end > lo {
                    let hay = &buf[..(search_end - lo) as usize];
                    if let Some(i) = memchr::memrchr(b'\n', hay) {
                        break Some(lo + i as u64);
                    }
                    search_end = lo;
                }
                if lo == read_from {
                    break None;
                }
                let new_lo = lo.saturating_sub(chunk).max(read_from);
                let mut piece = read_measured_span(self.log, new_lo, lo - new_lo, self.bytes_read)?;
                piece.extend_from_slice(&buf);
                buf = piece;
                lo = new_lo;
                chunk = chunk.saturating_mul(2).min(self.limits.piece_max);
            };
            let start = match prev_nl {
                Some(nl) if nl >= read_from => nl + 1,
                // The line starts before the view (or the view starts at 0 and so does it).
                _ if origin > 0 => return Ok((cur, Stop::ViewStart, marks)),
                _ => 0,
            };
            let text = line_text(&buf, (start - lo) as usize, (nl_at - lo) as usize);
            cur = Mark {
                offset: start,
                lines: cur.lines - i64::from(is_content(text)),
                newlines: cur.newlines - 1,
            };
            if last_marked - start >= spacing {
                marks.push(cur);
                last_marked = start;
            }
            buf.truncate((start - lo) as usize);
        }
    }
}
