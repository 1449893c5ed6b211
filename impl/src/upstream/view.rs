//! The view: the last bytes of a log, cut into lines.
//!
//! Positions, and how they relate (the invariants every engine relies on):
//!
//! ```text
//!  file:  0 ............ origin ................................. origin+buf.len() (≤ size)
//!  buf:                  0 ..... line.start .. line.text_end [\r] \n line.end ... buf.len()
//! ```
//!
//! - `origin` is the file offset of `buf[0]`; a line's file offset is `origin + start`.
//! - `start ≤ text_end ≤ end ≤ buf.len()`. `text_end` excludes the `\n` and a `\r` right before
//!   it; a lone `\r` elsewhere stays in the text (upstream splits on `\r?\n`).
//! - `end` is one past the `\n` for a terminated line; for the last segment of the buffer, which
//!   has no `\n` (the partial line), `end == text_end == buf.len()` and `terminated` is false.
//! - Content lines are listed in file order; blank lines (JavaScript `trim()` empty) and wrapper
//!   lines (starting with `__BGRUN_`) are not content and are not listed, but they lie inside the
//!   byte gaps between listed lines.
//! - When the line bound cut the buffer, scanning starts after the cut (`scan_start`); nothing
//!   before it is listed.
//!
//! Only spans are kept: a line's text is decoded when an engine asks for it, so a read costs
//! one allocation per line it shows, not per line it scans.

use crate::upstream::js::{is_js_whitespace, js_trim};
use std::borrow::Cow;

/// Upstream's wrapper namespace: lines starting with it are never content.
pub const WRAPPER_PREFIX: &[u8] = b"__BGRUN_";
pub use crate::upstream::marker::{cap_of, EXIT_MARKER};

/// One content line's span in the view buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSpan {
    /// Offset in the buffer where the line starts.
    pub start: usize,
    /// Where its text ends: before the `
    /// ` (and a `\r` before it).
    pub text_end: usize,
    /// One past its last byte (past the `
    /// `, or the buffer's end for a partial line).
    pub end: usize,
    /// Whether it ends with `
    /// ` (a complete line).
    pub terminated: bool,
}

/// A view of a log and its content lines.
#[derive(Clone, Debug)]
pub struct View {
    /// File offset of `buf[0]`.
    pub origin: u64,
    /// The log's size when it was measured (the read may have come back shorter).
    pub size: u64,
    /// The view's bytes, from `origin`.
    pub buf: Vec<u8>,
    /// Content lines in file order.
    pub lines: Vec<LineSpan>,
    /// Where scanning started in `buf` (after the line bound's cut, else 0).
    pub scan_start: usize,
    /// Whether the line bound cut the buffer.
    pub line_bound_hit: bool,
}

impl View {
    /// Cuts `buf` (read at `origin` of a log of `size` bytes) into lines, scanning at most the
    /// last `scan_lines_max` lines (upstream's `boundScanLines`).
    pub fn scan(origin: u64, size: u64, buf: Vec<u8>, scan_lines_max: usize) -> View {
        View::scan_with_lead(origin, size, buf, 0, scan_lines_max)
    }

    /// [`View::scan`] of a `buf` whose first `lead` bytes lie before the view (the exact
    /// engine reads the byte before it, to tell whether a line starts where the view does).
    /// They are no content of the view: the line bound cuts only when some of the view lies
    /// before its `scan_lines_max`-th `\n`, as upstream's does on the view alone.
    pub fn scan_with_lead(
        origin: u64,
        size: u64,
        buf: Vec<u8>,
        lead: usize,
        scan_lines_max: usize,
    ) -> View {
        let (scan_start, line_bound_hit) = line_bound(&buf, lead, scan_lines_max);
        let mut lines = Vec::new();
        let mut pos = scan_start;
        for nl in memchr_iter(b'\n', &buf[scan_start..]).map(|i| i + scan_start) {
            let text_end = if nl > pos && buf[nl - 1] == b'\r' {
                nl - 1
            } else {
                nl
            };
            push_if_content(&buf, &mut lines, pos, text_end, nl + 1, true);
            pos = nl + 1;
        }
        if pos < buf.len() {
            push_if_content(&buf, &mut lines, pos, buf.len(), buf.len(), false);
        }
        View {
            origin,
            size,
            buf,
            lines,
            scan_start,
            line_bound_hit,
        }
    }

    /// Every content line's `(offset, end)` extent.
    pub fn extents(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.lines
            .iter()
            .map(|l| (self.offset(l), self.end_offset(l)))
    }

    /// A line's text, decoded as UTF-8 with invalid sequences replaced by U+FFFD.
    pub fn text(&self, line: &LineSpan) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.buf[line.start..line.text_end])
    }

    /// A line's file offset.
    pub fn offset(&self, line: &LineSpan) -> u64 {
        self.origin + line.start as u64
    }

    /// One past a line's last byte, as a file offset.
    pub fn end_offset(&self, line: &LineSpan) -> u64 {
        self.origin + line.end as u64
    }

    /// The last segment of the whole buffer (split on `\n`) whose trim is not empty.
    pub fn last_nonblank_segment(&self) -> Option<Cow<'_, str>> {
        let mut end = self.buf.len();
        loop {
            let start = memrchr(b'\n', &self.buf[..end]).map_or(0, |i| i + 1);
            let seg = String::from_utf8_lossy(&self.buf[start..end]);
            if !js_trim(&seg).is_empty() {
                return Some(seg);
            }
            if start == 0 {
                return None;
            }
            end = start - 1;
        }
    }

    /// The wrapper's exit marker, when it is the log's last non-blank line: the job has
    /// finished.
    pub fn exit_line(&self) -> Option<Cow<'_, str>> {
        self.last_nonblank_segment()
            .filter(|s| s.starts_with(EXIT_MARKER))
    }

    /// The cap upstream's wrapper recorded in the final exit marker, if any: see [`cap_of`].
    pub fn truncated_at(&self) -> Option<f64> {
        cap_of(&self.exit_line()?)
    }

    /// Whether the log ends with the wrapper's exit marker: the job has finished.
    pub fn exited(&self) -> bool {
        self.exit_line().is_some()
    }
}

fn push_if_content(
    buf: &[u8],
    lines: &mut Vec<LineSpan>,
    start: usize,
    text_end: usize,
    end: usize,
    terminated: bool,
) {
    if !is_content(&buf[start..text_end]) {
        return;
    }
    lines.push(LineSpan {
        start,
        text_end,
        end,
        terminated,
    });
}

/// Whether a line's text (without its `\n`, and without a `\r` right before it) is a content
/// line: neither blank nor in the wrapper's namespace.
pub fn is_content(text: &[u8]) -> bool {
    !text.starts_with(WRAPPER_PREFIX) && !is_blank(text)
}

/// The text of a line that ends with the `\n` at `buf[nl]` and starts at `buf[start]`.
pub fn line_text(buf: &[u8], start: usize, nl: usize) -> &[u8] {
    if nl > start && buf[nl - 1] == b'\r' {
        &buf[start..nl - 1]
    } else {
        &buf[start..nl]
    }
}

/// Whether a line is empty after JavaScript's `trim()`.
fn is_blank(text: &[u8]) -> bool {
    if text
        .iter()
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
    {
        return true;
    }
    if text.is_ascii() {
        return false;
    }
    String::from_utf8_lossy(text).chars().all(is_js_whitespace)
}

/// Where upstream's line bound starts scanning: after the `max`-th newline from the end, when
/// there is still content of the view before it (past the `lead` bytes before the view).
fn line_bound(buf: &[u8], lead: usize, max: usize) -> (usize, bool) {
    let mut seen = 0;
    for i in memrchr_iter(b'\n', buf) {
        seen += 1;
        if seen == max {
            return if i > lead { (i + 1, true) } else { (0, false) };
        }
    }
    (0, false)
}

fn memchr_iter(needle: u8, hay: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(needle, hay)
}

fn memrchr_iter(needle: u8, hay: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memrchr_iter(needle, hay)
}

fn memrchr(needle: u8, hay: &[u8]) -> Option<usize> {
    memchr::memrchr(needle, hay)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(s: &str) -> View {
        View::scan(0, s.len() as u64, s.as_bytes().to_vec(), 500_000)
    }

    fn texts(v: &View) -> Vec<String> {
        v.lines.iter().map(|l| v.text(l).into_owned()).collect()
    }

    /// `line_text` is public: the `\r` it strips is part of what it returns, though no reply
    /// shows it (a trailing `\r` is whitespace to `trim()`), so only this test holds it.
    #[test]
    fn line_text_strips_one_carriage_return_before_the_newline() {
        assert_eq!(line_text(b"a\r\n", 0, 2), b"a");
        assert_eq!(line_text(b"x\na\r\r\n", 2, 5), b"a\r");
        assert_eq!(line_text(b"a\n", 0, 1), b"a");
        assert_eq!(
            line_text(b"\n", 0, 0),
            b"",
            "an empty line has no byte before its \\n"
        );
    }

    /// The scan starts after the bound's `\n`, not on it: starting on it scans an empty
    /// segment first, which is no content, so no reply tells and only `scan_start` does.
    #[test]
    fn the_line_bound_starts_the_scan_after_its_newline() {
        let v = View::scan(0, 6, b"a\nb\nc\n".to_vec(), 2);
        assert!(v.line_bound_hit);
        assert_eq!(v.scan_start, 4);
        assert_eq!(texts(&v), ["c"]);
    }

    #[test]
    fn content_lines_skip_blank_and_wrapper_lines_and_crlf() {
        let v = view("a\r\n\n  \n__BGRUN_EXIT__=0\nb\rc\nd");
        assert_eq!(texts(&v), vec!["a", "b\rc", "d"]);
        assert_eq!(
            v.extents().collect::<Vec<_>>(),
            [(0, 3), (24, 28), (28, 29)]
        );
        assert!(v.lines[1].terminated && !v.lines[2].terminated);
        assert_eq!(v.lines[0].end, 3);
        assert!(!v.exited());
    }

    #[test]
    fn exit_marker_and_truncation() {
        let v = view("x\n__BGRUN_TRUNC__ output truncated\n\n__BGRUN_EXIT__=1 truncated=1000\n");
        assert_eq!(v.truncated_at(), Some(1000.0));
        assert!(v.exited());
        assert_eq!(view("x\n__BGRUN_EXIT__=0\n").truncated_at(), None);
        // The first label followed by digits, anywhere in the line.
        let v = view("x\n__BGRUN_EXIT__=0 truncated=x truncated=7 truncated=9\n");
        assert_eq!(v.truncated_at(), Some(7.0));
        assert_eq!(view("__BGRUN_EXIT__=0 truncated=\n").truncated_at(), None);
        // A double, as parseInt gives it: rounded past 2^53, not saturated past 2^64.
        let v = view("__BGRUN_EXIT__=0 truncated=9007199254740993\n");
        assert_eq!(v.truncated_at(), Some(9_007_199_254_740_992.0));
        let v = view("__BGRUN_EXIT__=0 truncated=99999999999999999999\n");
        assert_eq!(v.truncated_at(), Some(1e20));
        let v = view(&format!("__BGRUN_EXIT__=0 truncated={}\n", "9".repeat(400)));
        assert_eq!(v.truncated_at(), Some(f64::INFINITY));
    }

    #[test]
    fn the_line_bound_keeps_the_last_lines() {
        let v = View::scan(0, 8, b"1\n2\n3\n4\n".to_vec(), 3);
        assert!(v.line_bound_hit);
        assert_eq!(texts(&v), vec!["3", "4"]);
        // The trailing empty segment counts as one of the scanned lines, as upstream's does.
        let v = View::scan(0, 6, b"1\n2\n3\n".to_vec(), 3);
        assert!(v.line_bound_hit);
        assert_eq!(texts(&v), vec!["2", "3"]);
        let v = View::scan(0, 5, b"1\n2\n3".to_vec(), 3);
        assert!(!v.line_bound_hit);
        assert_eq!(texts(&v), vec!["1", "2", "3"]);
    }

    #[test]
    fn bytes_before_the_view_are_no_content_for_the_line_bound() {
        // The view is "\n2\n3\n" after one byte before it: its 3rd `\n` from the end is its
        // first byte, with nothing of the view before it, so the bound cuts nothing.
        let v = View::scan_with_lead(0, 6, b"1\n2\n3\n".to_vec(), 1, 3);
        assert!(!v.line_bound_hit);
        // Without a lead the same bytes are all view, and the `1` before that `\n` is content.
        assert!(View::scan(0, 6, b"1\n2\n3\n".to_vec(), 3).line_bound_hit);
        let v = View::scan_with_lead(0, 8, b"1\nx\n2\n3\n".to_vec(), 1, 3);
        assert!(v.line_bound_hit);
        assert_eq!(texts(&v), vec!["2", "3"]);
    }

    #[test]
    fn invalid_utf8_decodes_lossily() {
        let v = View::scan(0, 4, b"a\xffb\n".to_vec(), 10);
        assert_eq!(texts(&v), vec!["a\u{FFFD}b"]);
    }
}
