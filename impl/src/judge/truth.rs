//! What the log held when a read was answered, as the contract defines it: the view, its
//! content lines, the window, and the partial line.

use crate::api::{clamp_window, Request};
use crate::exact::exact_lines;
use crate::limits::Limits;
use crate::view::View;

/// The log at one read.
///
/// Invariants: `window_start ≤ complete ≤ spans.len() ≤ complete + 1`; `texts` holds the text
/// of every line from `window_start` on, in order.
pub(crate) struct Truth {
    /// Every content line of the view as `(offset, end)`, oldest first: the complete ones, then
    /// the partial one while the job runs. A line cut by the view's start is not in the view.
    pub spans: Vec<(u64, u64)>,
    /// How many of `spans` are complete lines.
    pub complete: usize,
    /// The window: `spans[window_start..complete]`, the last `lines` complete content lines.
    pub window_start: usize,
    /// The text of each line from `window_start` on, as the engines decode it.
    pub texts: Vec<String>,
    /// The log's length.
    pub len: u64,
    /// Where the complete lines end: a line starting here or later at the next read is new then
    /// (a line completed since counts as new: it started after the last complete line).
    pub settled: u64,
}

impl Truth {
    /// The log `log` as a read with `request` sees it under `limits`.
    pub fn of(log: &[u8], request: &Request, limits: &Limits) -> Truth {
        let len = log.len() as u64;
        let origin = len - len.min(clamp_window(request.bytes, limits));
        let view = View::scan(origin, len, log[origin as usize..].to_vec(), usize::MAX);
        let cut_at_start = origin > 0 && log[origin as usize - 1] != b'\n';
        let lines: Vec<_> = view
            .lines
            .iter()
            .filter(|l| !(cut_at_start && l.start == 0))
            .collect();
        let partial = request.running && lines.last().is_some_and(|l| !l.terminated);
        let complete = lines.len() - usize::from(partial);
        let window_start = complete - complete.min(exact_lines(request.lines, limits));
        let spans = lines
            .iter()
            .map(|l| (view.offset(l), view.end_offset(l)))
            .collect();
        let texts = lines[window_start..]
            .iter()
            .map(|l| view.text(l).into_owned())
            .collect();
        let settled = settled_end(log, request.running);
        Truth {
            spans,
            complete,
            window_start,
            texts,
            len,
            settled,
        }
    }

    /// The text of line `i` (`i ≥ window_start`).
    pub fn text(&self, i: usize) -> &str {
        &self.texts[i - self.window_start]
    }

    /// Whether the view has a partial line.
    pub fn partial(&self) -> Option<usize> {
        (self.spans.len() > self.complete).then_some(self.complete)
    }

    /// The index of the line spanning exactly `offset..end`, among the window and partial.
    pub fn find(&self, offset: u64, end: u64) -> Option<usize> {
        let i = self.spans.binary_search_by_key(&offset, |s| s.0).ok()?;
        (i >= self.window_start && self.spans[i].1 == end).then_some(i)
    }
}

/// Where the complete lines of `log` end: a line starting here or later at the next read is
/// new then. The partial line's start, even when a view cuts it (once complete, it is new),
/// while the job runs; else the log's length.
pub fn settled_end(log: &[u8], running: bool) -> u64 {
    if running && !log.ends_with(b"\n") {
        log.iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i as u64 + 1)
    } else {
        log.len() as u64
    }
}
