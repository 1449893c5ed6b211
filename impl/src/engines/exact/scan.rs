//! How the exact engine reads a log: the tail it must see, and counts for the rest of the view.
//!
//! Positions, for a log of `size` bytes and a view of `window` bytes:
//!
//! ```text
//!  file: 0 .. read_from origin .. first ..... counted ...... tail ............... settled .. size
//!                |<- view ------------------------------------------------------------------->|
//!                                           |<- lines_above ->|<- the tail, read, scanned --->|
//! ```
//!
//! - `origin = size − window` (or 0); `read_from = origin − 1` (or 0): the byte before the
//!   view tells whether a line starts exactly at `origin`.
//! - `first` is the view's first line start: the first line start at or after `origin`, or,
//!   when upstream's line bound cuts the view, the start after the cut.
//! - `tail` is a line start, and the tail `[tail, size)` is the only part of the view whose
//!   bytes a read keeps. It holds the window, one more complete content line (the one above the
//!   window, where coverage joins), and everything after the bookmark's `settled_end`, so that
//!   every candidate, every shown line and every new line lies in it.
//! - `counted` is the lowest line start whose number is known, `first ≤ counted ≤ tail`. The
//!   view's lines in `[counted, tail)` are known only as numbers: `lines_above` of them, and the
//!   line numbers at coverage boundaries there, from the bookmark's [`LineIndex`]. Every
//!   coverage range in the view starts at or after `counted`. `counted == first` (the whole
//!   view counted) when asked, when the index already reaches before the view, or when
//!   counting down to the oldest coverage reached the view's start.
//! - When the tail reaches the view's start, the whole view is scanned as before and
//!   `lines_above` is 0.
//!
//! Reading the tail costs the window plus what was appended; counting `[first, tail)` costs a
//! read of at most `mark_spacing` bytes from the nearest mark before the view — or, when no
//! mark lies before it, one backward pass in pieces that keeps no line, and only as far as
//! needed. This module decides what to read and count; the counting itself is `count`'s.

use super::count::{Counter, Stop};
use super::coverage::Coverage;
use super::index::{count_lines, LineIndex, Mark};
use crate::source::{read_measured_span, LogSource, SourceError};
use crate::upstream::limits::Limits;
use crate::upstream::view::{cap_of, View};

/// What one read found in the log, before deciding what to show.
pub(crate) struct Scan {
    /// The tail (or the whole view), its content lines in file order.
    pub view: View,
    /// The view's first byte as a file offset (a line starting before it is not in the view).
    pub origin: u64,
    /// Whether upstream's line bound cut the view.
    pub line_bound_hit: bool,
    /// The tail's content lines that are complete (every one but a trailing partial line).
    pub complete: usize,
    /// Index in `view.lines` of the partial line, if the job may still be writing it.
    pub partial: Option<usize>,
    /// Index in `view.lines` of the window's first line.
    pub window_start: usize,
    /// Whether the job may still write to the log's last line.
    pub still_writing: bool,
    /// The cap the wrapper's exit marker recorded, if the log ends with one that does.
    pub truncated_at: Option<f64>,
    /// Line numbers for `[first, tail)`, when the tail does not reach the view's start.
    pub above: Option<Above>,
    /// The index after this read's counting, and the numbers at the tail's first line start
    /// (`None`: the tail has no line start to number, and the index starts over).
    pub index: LineIndex,
    pub tail_mark: Option<Mark>,
}

impl Scan {
    /// The counted content lines of the view before the tail's first listed line (all of the
    /// view's lines there when the whole view is counted).
    pub fn lines_above(&self) -> usize {
        self.above
            .as_ref()
            .map_or(0, |a| (a.tail.lines - a.counted.lines).max(0) as usize)
    }

    /// Whether the view is the whole log: it starts at the log's first byte and the line
    /// bound did not cut it.
    pub fn whole_log(&self) -> bool {
        self.origin == 0 && !self.line_bound_hit
    }
}

/// The view above the tail, as line numbers.
pub(crate) struct Above {
    /// The lowest line start counted: the view's first line when `complete`.
    pub counted: Mark,
    /// The tail's first byte (a line start).
    pub tail: Mark,
    /// Whether every line of the view above the tail is counted.
    pub complete: bool,
}

impl Above {
    /// How many counted lines above the tail end at or before `offset`, a coverage boundary:
    /// from the index, which marks, for every boundary in `[counted, tail]`, the last line
    /// start at or before it (the boundary itself, unless a finished line it ended has grown
    /// since). Every coverage boundary in the view lies at or after `counted`.
    pub fn lines_before(&self, offset: u64, index: &LineIndex) -> u64 {
        let lines = if offset <= self.counted.offset {
            self.counted.lines
        } else if offset >= self.tail.offset {
            self.tail.lines
        } else {
            index
                .floor(offset)
                .expect("the lowest counted line is marked")
                .lines
        };
        // Clamped, so that an index the log changed under cannot make numbers run backwards.
        let above = (self.tail.lines - self.counted.lines).max(0);
        (lines - self.counted.lines).min(above).max(0) as u64
    }
}

/// The lowest start of a coverage range that reaches into the view (past `origin`).
fn lowest_coverage_in_view(prior: Option<&Prior<'_>>, origin: u64) -> Option<u64> {
    prior?
        .coverage
        .ranges()
        .iter()
        .find(|&&(_, e)| e > origin)
        .map(|&(s, _)| s)
}

/// A tail that does not reach the view's start, and what counting above it needs.
#[derive(Clone, Copy)]
struct Part {
    origin: u64,
    read_from: u64,
    /// The tail's first line start, numbered.
    tail: Mark,
    /// `\n` bytes in the tail.
    tail_newlines: i64,
    /// Whether the whole view must be counted.
    whole: bool,
}

/// What a scan is asked for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Want {
    /// The log's size when the read measured it.
    pub size: u64,
    /// The view, in bytes.
    pub window: u64,
    /// The window, in content lines.
    pub lines: usize,
    /// Whether the job may still be writing.
    pub running: bool,
    /// Whether to count the whole view above the tail.
    pub whole: bool,
}

/// The bookmark's knowledge a read starts from, when it continues a generation.
pub(crate) struct Prior<'a> {
    pub settled_end: u64,
    pub coverage: &'a Coverage,
}

pub(crate) struct Scanner<'a> {
    pub log: &'a dyn LogSource,
    pub limits: &'a Limits,
    pub bytes_read: &'a mut u64,
}

/// The tail as first read: the whole view, or a part starting at a line start.
enum Tail {
    Whole(Vec<u8>),
    /// `newlines`: the `\n` bytes in `buf`, counted while reading it.
    Part {
        start: u64,
        buf: Vec<u8>,
        newlines: i64,
    },
}

impl Scanner<'_> {
    /// The counter that reads for this scanner, its reads counted into the same total.
    fn counter(&mut self) -> Counter<'_> {
        Counter {
            log: self.log,
            limits: self.limits,
            bytes_read: &mut *self.bytes_read,
        }
    }

    /// Reads what a read needs and counts the rest of the view: all of it when `want.whole`,
    /// else as far as the bookmark's coverage reaches (a reply that prints the view's line
    /// count asks again with `whole`).
    pub fn scan(
        &mut self,
        want: Want,
        prior: Option<&Prior<'_>>,
        mut index: LineIndex,
    ) -> Result<Scan, SourceError> {
        if prior.is_none() {
            index = LineIndex::default();
        }
        let scan = self.scan_with(want, prior, index)?;
        if scan.index.is_poisoned() {
            return self.scan_with(want, prior, LineIndex::default());
        }
        Ok(scan)
    }

    fn scan_with(
        &mut self,
        want: Want,
        prior: Option<&Prior<'_>>,
        mut index: LineIndex,
    ) -> Result<Scan, SourceError> {
        let Want {
            size,
            window,
            lines,
            running,
            whole,
        } = want;
        let origin = size - size.min(window);
        let read_from = origin.saturating_sub(1);
        let settled = prior.as_ref().map(|p| p.settled_end);
        // A log that grew past the view since the last read: every line of the view is new,
        // and the header counts them, so all of it is counted — backwards from the tail, which
        // reads no more than was appended. The old marks all lie before the view: numbering
        // the tail from them would read everything appended, and the view again.
        let grew_past_view = settled.is_some_and(|s| s < origin);
        let whole = whole || grew_past_view;
        if grew_past_view {
            index = LineIndex::default();
        }
        let tail = self.read_tail(size, read_from, origin, lines.saturating_add(1), settled)?;
        let (view, above, tail_mark, line_bound_hit) = match tail {
            Tail::Whole(buf) => {
                let (view, tail_mark) = self.scan_whole(buf, read_from, size, origin, &mut index);
                let hit = view.line_bound_hit;
                (view, None, tail_mark, hit)
            }
            Tail::Part {
                start,
                buf,
                newlines,
            } => {
                let view = View::scan(start, size, buf, usize::MAX);
                let tail = self.number_tail(&view, start, &mut index)?;
                let part = Part {
                    origin,
                    read_from,
                    tail,
                    tail_newlines: newlines,
                    whole,
                };
                let (counted, hit, complete) = self.count_above(&part, prior, &mut index)?;
                index.insert(counted);
                self.mark_coverage(prior, counted, tail.offset, &mut index)?;
                let above = Above {
                    counted,
                    tail,
                    complete,
                };
                (view, Some(above), Some(tail), hit)
            }
        };
        // A line still being written is partial only while the job may write: the exit
        // marker, or the caller's word, says it has finished. The tail holds the log's last
        // non-blank line, which is where the marker would be; it is looked for once a read.
        let (exited, truncated_at) = match view.exit_line() {
            Some(line) => (true, cap_of(&line)),
            None => (false, None),
        };
        let still_writing = running && !exited;
        let partial = match view.lines.last() {
            Some(l) if !l.terminated && still_writing => Some(view.lines.len() - 1),
            _ => None,
        };
        let complete = view.lines.len() - usize::from(partial.is_some());
        let window_start = complete - complete.min(lines);
        Ok(Scan {
            view,
            origin,
            line_bound_hit,
            complete,
            partial,
            window_start,
            still_writing,
            truncated_at,
            above,
            index,
            tail_mark,
        })
    }

    /// The whole view was read: scan it (a line cut by the view's start is out) and number
    /// its first line start from the index, or start the index over there.
    fn scan_whole(
        &self,
        buf: Vec<u8>,
        read_from: u64,
        size: u64,
        origin: u64,
        index: &mut LineIndex,
    ) -> (View, Option<Mark>) {
        let lead = (origin - read_from) as usize;
        let mut view = View::scan_with_lead(read_from, size, buf, lead, self.limits.scan_lines_max);
        if origin > 0 && view.lines.first().is_some_and(|l| l.start == 0) {
            view.lines.remove(0);
        }
        let tail_mark = match first_line_start(&view, origin) {
            Some(at) if !view.line_bound_hit => {
                Some(number_from_inside(&view, at, index).unwrap_or_else(|| {
                    *index = LineIndex::default();
                    Mark {
                        offset: at,
                        lines: 0,
                        newlines: 0,
                    }
                }))
            }
            _ => None,
        };
        (view, tail_mark)
    }

    /// The mark of the tail's first line start (`start`): from a mark inside the tail, else
    /// counted forward from the nearest mark before it, else the index starts over there.
    fn number_tail(
        &mut self,
        view: &View,
        start: u64,
        index: &mut LineIndex,
    ) -> Result<Mark, SourceError> {
        let tail = match number_from_inside(view, start, index) {
            Some(m) => m,
            None => match index.floor(start) {
                Some(m) => self.counter().count_forward(m, start)?,
                None => {
                    *index = LineIndex::default();
                    Mark {
                        offset: start,
                        lines: 0,
                        newlines: 0,
                    }
                }
            },
        };
        index.insert(tail);
        Ok(tail)
    }

    /// How far the view above the tail is counted: the mark where counting stopped, whether
    /// upstream's line bound cut there, and whether the whole view was counted.
    fn count_above(
        &mut self,
        part: &Part,
        prior: Option<&Prior<'_>>,
        index: &mut LineIndex,
    ) -> Result<(Mark, bool, bool), SourceError> {
        let Part {
            origin,
            read_from,
            tail,
            tail_newlines,
            whole,
        } = *part;
        let newlines_after = |m: Mark| tail.newlines + tail_newlines - m.newlines;
        let floor = if origin == 0 {
            index.get(0)
        } else {
            index.floor(read_from)
        };
        let forward = match floor {
            Some(m) => Some(self.counter().first_line_forward(m, origin)?),
            None => None,
        };
        let max = self.limits.scan_lines_max as i64;
        // How far down the view must be counted: all of it when asked, else down to the oldest
        // coverage in the view, so that every covered line has a number.
        let needed = if whole {
            None
        } else {
            lowest_coverage_in_view(prior, origin)
                .map_or(Some(tail.offset), |s| (s > origin).then_some(s))
        };
        // A mark before the view: the whole view is counted from it, cheaply.
        if let Some(first) = forward {
            if newlines_after(first) + i64::from(origin > 0) < max {
                return Ok((first, false, true));
            }
        }
        // Counting backwards finds upstream's line bound exactly where it cuts. It starts from
        // the lowest mark inside the view that the bound has not cut off yet (the tail's own
        // mark at worst: the tail is shorter than the bound), or from the lowest mark at all
        // when only part of the view is to be counted.
        let from = index
            .marks()
            .iter()
            .copied()
            .find(|&m| m.offset >= origin && newlines_after(m) < max)
            .unwrap_or(tail);
        if needed.is_some_and(|down_to| from.offset <= down_to) {
            return Ok((from, false, false));
        }
        let (first, stop, marks) = self.counter().count_back(
            from,
            read_from,
            origin,
            newlines_after(from),
            needed.unwrap_or(0),
        )?;
        for m in marks {
            index.insert(m);
        }
        Ok(match stop {
            Stop::ViewStart => (first, false, true),
            Stop::LineBound => (first, true, true),
            Stop::Enough => (first, false, false),
        })
    }

    /// Marks every coverage boundary between the first counted line and the tail, so that the
    /// next read finds each covered line's number without counting.
    fn mark_coverage(
        &mut self,
        prior: Option<&Prior<'_>>,
        first: Mark,
        tail_start: u64,
        index: &mut LineIndex,
    ) -> Result<(), SourceError> {
        let Some(p) = prior else { return Ok(()) };
        for &(s, e) in p.coverage.ranges() {
            for x in [s, e] {
                if x > first.offset && x < tail_start && index.get(x).is_none() {
                    let floor = index.floor(x).expect("the first line is marked");
                    let m = self.counter().count_forward(floor, x)?;
                    index.insert(m);
                }
            }
        }
        Ok(())
    }

    /// Reads the log backwards from its end, in pieces that double from `tail_chunk`, until
    /// the part read holds `need` complete content lines after its first line start and reaches
    /// back to `settled` (when that is in the view) — or until it is the whole view.
    fn read_tail(
        &mut self,
        size: u64,
        read_from: u64,
        origin: u64,
        need: usize,
        settled: Option<u64>,
    ) -> Result<Tail, SourceError> {
        let mut lo = size;
        let mut buf: Vec<u8> = Vec::new();
        // The first piece reaches back past the settled end at once: what was appended must
        // be read anyway, and doubling up to it could read up to twice as much.
        let mut chunk = match settled {
            Some(s) if s >= origin => (size - s).saturating_add(self.limits.tail_chunk),
            _ => self.limits.tail_chunk,
        };
        // Lines are counted once each: `counted` is the first line start counted so far, and
        // `content`/`newlines` the complete lines and `\n` bytes from there to the end.
        let mut counted: Option<u64> = None;
        let (mut content, mut newlines) = (0i64, 0i64);
        loop {
            let new_lo = lo.saturating_sub(chunk).max(read_from);
            let mut piece = read_measured_span(self.log, new_lo, lo - new_lo, self.bytes_read)?;
            piece.extend_from_slice(&buf);
            buf = piece;
            lo = new_lo;
            if lo == read_from {
                return Ok(Tail::Whole(buf));
            }
            chunk = chunk.saturating_mul(2).min(self.limits.piece_max);
            let Some(first_nl) = memchr::memchr(b'\n', &buf) else {
                continue;
            };
            let start = lo + first_nl as u64 + 1;
            let counted_to = counted.unwrap_or(size);
            let (c, n) = count_lines(&buf[first_nl + 1..(counted_to - lo) as usize]);
            content += c;
            newlines += n;
            counted = Some(start);
            let reaches_settled = settled.is_none_or(|s| s < origin || start <= s);
            if content as usize >= need
                && reaches_settled
                && (newlines as usize) < self.limits.scan_lines_max
            {
                buf.drain(..=first_nl);
                return Ok(Tail::Part {
                    start,
                    buf,
                    newlines,
                });
            }
        }
    }
}

/// The first line start in a whole-view buffer (at `origin`, or after the first `\n` at or
/// after `origin − 1`).
fn first_line_start(view: &View, origin: u64) -> Option<u64> {
    if origin == 0 {
        return Some(0);
    }
    memchr::memchr(b'\n', &view.buf).map(|i| view.origin + i as u64 + 1)
}

/// Numbers the line start `at` inside the scanned buffer from the first index mark at or after
/// it that the buffer reaches (the buffer holds every byte between them); `None` when there
/// is no such mark.
fn number_from_inside(view: &View, at: u64, index: &LineIndex) -> Option<Mark> {
    let end = view.origin + view.buf.len() as u64;
    let m = index.ceil(at).filter(|m| m.offset <= end)?;
    let between = &view.buf[(at - view.origin) as usize..(m.offset - view.origin) as usize];
    let (lines, newlines) = count_lines(between);
    Some(Mark {
        offset: at,
        lines: m.lines - lines,
        newlines: m.newlines - newlines,
    })
}
