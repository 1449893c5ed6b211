//! What the log held when a read was answered, as the contract defines it: the view, its
//! content lines, the window, and the partial line.

use crate::interface::api::Request;
use crate::upstream::js::js_trim;
use crate::upstream::limits::Limits;
use crate::upstream::marker::EXIT_MARKER;

/// How a read's `lines` asked for its window, as the contract reads the number a JSON request
/// (or a JavaScript caller) may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WindowAsked {
    /// A whole number of at least 1, or no `lines` at all (the default window).
    Plainly,
    /// NaN: the default window, as when no `lines` is given.
    Defaulted,
    /// A fraction above 1: floored.
    Floored,
    /// A number below 1 (0, below 0, a fraction, -∞): raised to 1 line.
    Raised,
    /// A number past any view's line count (+∞): every line of the view.
    Unbounded,
}

/// How many complete content lines the window of a read holds, and how `lines` asked for
/// them: upstream's reading — floored, at least 1 — except that NaN is the default, as an
/// absent `lines` is; a value past `usize::MAX` (∞) holds every line. The judge's own reading
/// of the contract's window, not the engines' (upstream's `normalize_lines`, held equal to it
/// but for NaN by a proptest below).
pub(crate) fn window_asked(lines: Option<f64>, limits: &Limits) -> (usize, WindowAsked) {
    let Some(n) = lines else {
        return (limits.default_lines as usize, WindowAsked::Plainly);
    };
    if n.is_nan() {
        return (limits.default_lines as usize, WindowAsked::Defaulted);
    }
    let floor = n.floor();
    if floor < 1.0 {
        (1, WindowAsked::Raised)
    } else if floor >= usize::MAX as f64 {
        // `as` saturates: a count this large holds every line of any view.
        (usize::MAX, WindowAsked::Unbounded)
    } else if floor != n {
        (floor as usize, WindowAsked::Floored)
    } else {
        (floor as usize, WindowAsked::Plainly)
    }
}

/// How a read's `bytes` asked for its view, as the contract reads the number a JSON request
/// (or a JavaScript caller) may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ViewAsked {
    /// A whole number of bytes from 1 to `view_max`, or no `bytes` at all (the default view).
    Plainly,
    /// A number that is not positive and finite (0, below 0, NaN, ±∞): the default view.
    Defaulted,
    /// A positive fraction below `view_max`: floored, so that one below 1 asks for no bytes.
    Floored,
    /// More than `view_max`: the largest view.
    Capped,
}

/// The view a request's `bytes` asks for, in bytes, and how: a positive finite number is
/// floored and held to at most `view_max`; anything else, absent included, is the default.
/// The judge's own reading of the contract's view, not the engines' (`upstream::tool`'s
/// clamp, held equal to it by a proptest below), so that a fault in the engines' clamp shows
/// as a view the judge does not expect.
pub(crate) fn view_asked(bytes: Option<f64>, limits: &Limits) -> (u64, ViewAsked) {
    let Some(b) = bytes else {
        return (limits.view_default, ViewAsked::Plainly);
    };
    if !(b.is_finite() && b > 0.0) {
        return (limits.view_default, ViewAsked::Defaulted);
    }
    // `as` saturates a float past `u64::MAX`; the comparison then caps it.
    let whole = b.floor() as u64;
    if whole > limits.view_max {
        (limits.view_max, ViewAsked::Capped)
    } else if b.fract() != 0.0 {
        (whole, ViewAsked::Floored)
    } else {
        (whole, ViewAsked::Plainly)
    }
}

/// FNV-1a, 64 bits: how the judge remembers the bytes of the log the last read saw, to tell
/// whether the log still continues them. The judge's own, not the engines' fingerprint.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

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
    /// Where the view starts (the log's length less the window), before the line bound.
    pub origin: u64,
    /// The view's size as the request asked for it ([`view_asked`]), and how it asked.
    pub view_bytes: u64,
    pub view_asked: ViewAsked,
    /// How the request's `lines` asked for the window ([`window_asked`]).
    pub window_asked: WindowAsked,
    /// Whether the line bound cut the view (the reference's `boundScanLines`).
    pub bound_hit: bool,
    /// The wrapper's exit marker, when it is the log's last non-blank line.
    pub exit: Option<ExitMarker>,
    /// Whether the view starts inside the partial line, past its first byte: the line is then
    /// not in the view, yet the complete lines still end where it starts.
    pub view_inside_partial: bool,
}

/// The wrapper's exit line (`__BGRUN_EXIT__=<code>`, a ` truncated=<N>` label when the wrapper
/// capped the log), as the log's last non-blank line: the job has exited, and a cap it
/// records is what a note on the log's truncation must name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ExitMarker {
    /// Where the line starts.
    pub start: u64,
    /// The cap its label records, read as upstream reads it.
    pub cap: Option<f64>,
}

impl Truth {
    /// The log `log` as a read with `request` sees it under `limits`.
    pub fn of(log: &[u8], request: &Request, limits: &Limits) -> Truth {
        let len = log.len() as u64;
        let (view_bytes, view_asked) = view_asked(request.bytes, limits);
        let window_asked = window_asked(request.lines, limits);
        let view_origin = len - len.min(view_bytes);
        let origin = line_bound_start(log, view_origin as usize, limits.scan_lines_max) as u64;
        let cut_at_start = origin > 0 && log[origin as usize - 1] != b'\n';
        let lines: Vec<Line> = content_lines(log, origin as usize)
            .filter(|l| !(cut_at_start && l.start == origin as usize))
            .collect();
        let partial = request.running && lines.last().is_some_and(|l| !l.terminated);
        let complete = lines.len() - usize::from(partial);
        let window_start = complete - complete.min(window_asked.0);
        let spans = lines
            .iter()
            .map(|l| (l.start as u64, l.end as u64))
            .collect();
        let texts = lines[window_start..]
            .iter()
            .map(|l| String::from_utf8_lossy(&log[l.start..l.text_end]).into_owned())
            .collect();
        let settled = settled_end(log, request.running);
        let unterminated = !log.is_empty() && !log.ends_with(b"\n");
        Truth {
            exit: exit_marker(log),
            view_inside_partial: request.running && unterminated && settled < view_origin,
            spans,
            complete,
            window_start,
            texts,
            len,
            settled,
            origin: view_origin,
            view_bytes,
            view_asked,
            window_asked: window_asked.1,
            bound_hit: origin != view_origin,
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

/// The log's last non-blank line (split on `\n`, trimmed as JavaScript trims), when it starts
/// with the wrapper's exit marker.
fn exit_marker(log: &[u8]) -> Option<ExitMarker> {
    let mut end = log.len();
    loop {
        let start = log[..end]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = String::from_utf8_lossy(&log[start..end]);
        if !js_trim(&line).is_empty() {
            return line.starts_with(EXIT_MARKER).then(|| ExitMarker {
                start: start as u64,
                cap: recorded_cap(&line),
            });
        }
        end = start.checked_sub(1)?;
    }
}

/// The cap an exit marker line records, as the wrapper writes it: the digits after the first
/// ` truncated=` that digits follow, read as a double (JavaScript's `parseInt`, which rounds
/// past 2^53 and is infinite past ~1.8e308). The judge's own reading, not the view's
/// (`upstream::marker::cap_of`), so that a fault in the engines' reading shows as a note the
/// judge refuses.
fn recorded_cap(exit_line: &str) -> Option<f64> {
    exit_line.split(" truncated=").skip(1).find_map(|after| {
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        // No digits is no number: `"".parse()` fails.
        digits.parse::<f64>().ok()
    })
}

/// Where the view starts once the line bound has cut it (the reference's `boundScanLines`,
/// which both engines keep: "only the last N lines of the view were scanned"): just after the
/// `max`-th `\n` counted back from the log's end, when anything of the view lies before that
/// `\n`; else at `origin`. The cut falls after a `\n`, so it cuts no line.
pub fn line_bound_start(log: &[u8], origin: usize, max: usize) -> usize {
    let newlines = log[origin..]
        .iter()
        .enumerate()
        .rev()
        .filter(|&(_, &b)| b == b'\n');
    match newlines.map(|(i, _)| i).nth(max.saturating_sub(1)) {
        Some(i) if i > 0 && max > 0 => origin + i + 1,
        _ => origin,
    }
}

/// Every content line of `log` as `(offset, end)`, oldest first, by the contract's definition
/// (the unterminated last segment too, when it is one: whether it is partial depends on the
/// job). What a harness checks delivery against, written apart from the engines' line
/// splitter.
pub fn content_lines_of(log: &[u8]) -> Vec<(u64, u64)> {
    content_lines(log, 0)
        .map(|l| (l.start as u64, l.end as u64))
        .collect()
}

/// A content line of the log, by byte offsets: `start..text_end` its text, `end` one past its
/// `\n` (or the log's end, for the unterminated last segment).
struct Line {
    start: usize,
    text_end: usize,
    end: usize,
    terminated: bool,
}

/// The content lines of `log` from `from` on, written here from the contract's definition
/// ("a line ended by `\n` (a `\r` right before it is dropped) that is not blank after trimming
/// and does not start with the wrapper prefix `__BGRUN_`") rather than taken from the engines'
/// `View::scan`: a judge that split lines with the code it judges could not see that code go
/// wrong (a change to `View::scan`'s `\r` handling would change the truth with it and pass
/// every check). The segment after the last `\n` is a
/// line too; whether it is partial is the caller's to say.
fn content_lines(log: &[u8], from: usize) -> impl Iterator<Item = Line> + '_ {
    let mut start = from;
    std::iter::from_fn(move || {
        while start < log.len() {
            let (end, terminated) = match memchr::memchr(b'\n', &log[start..]) {
                Some(i) => (start + i + 1, true),
                None => (log.len(), false),
            };
            let text = if terminated {
                let text = &log[start..end - 1];
                text.strip_suffix(b"\r").unwrap_or(text)
            } else {
                &log[start..end]
            };
            let line = Line {
                start,
                text_end: start + text.len(),
                end,
                terminated,
            };
            start = end;
            let blank = js_trim(&String::from_utf8_lossy(text)).is_empty();
            if !blank && !text.starts_with(b"__BGRUN_") {
                return Some(line);
            }
        }
        None
    })
}

#[cfg(test)]
mod cap_tests {
    use super::recorded_cap;
    use crate::upstream::marker::cap_of;
    use proptest::prelude::*;

    #[test]
    fn the_cap_is_the_first_label_with_digits() {
        assert_eq!(recorded_cap("__BGRUN_EXIT__=0 truncated=40"), Some(40.0));
        assert_eq!(
            recorded_cap("__BGRUN_EXIT__=0 truncated=x truncated=7"),
            Some(7.0)
        );
        assert_eq!(recorded_cap("__BGRUN_EXIT__=0 truncated="), None);
        assert_eq!(recorded_cap("__BGRUN_EXIT__=0"), None);
        assert_eq!(
            recorded_cap(&format!(" truncated={}", "9".repeat(400))),
            Some(f64::INFINITY)
        );
    }

    proptest! {
        /// The judge's reading and the view's agree on every line made of the label, digits
        /// and other characters: two readings of one format, written apart.
        #[test]
        fn the_judge_reads_the_cap_as_the_view_does(
            parts in proptest::collection::vec(
                prop_oneof![Just(" truncated=".to_owned()), "[0-9]{1,25}", "[ x=_]{1,3}"],
                0..8,
            )
        ) {
            let line = format!("__BGRUN_EXIT__=0{}", parts.concat());
            prop_assert_eq!(recorded_cap(&line), cap_of(&line));
        }
    }
}

#[cfg(test)]
mod view_tests {
    use super::{view_asked, ViewAsked};
    use crate::upstream::limits::Limits;
    use crate::upstream::tool::clamp_window;
    use proptest::prelude::*;

    #[test]
    fn a_view_is_asked_plainly_floored_capped_or_by_default() {
        let limits = Limits::default();
        let (default, max) = (limits.view_default, limits.view_max);
        let asked = |b| view_asked(b, &limits);
        assert_eq!(asked(None), (default, ViewAsked::Plainly));
        assert_eq!(asked(Some(12.0)), (12, ViewAsked::Plainly));
        assert_eq!(asked(Some(12.5)), (12, ViewAsked::Floored));
        assert_eq!(asked(Some(0.5)), (0, ViewAsked::Floored));
        assert_eq!(asked(Some(max as f64)), (max, ViewAsked::Plainly));
        assert_eq!(asked(Some(max as f64 + 1.0)), (max, ViewAsked::Capped));
        assert_eq!(asked(Some(1e300)), (max, ViewAsked::Capped));
        for odd in [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(asked(Some(odd)), (default, ViewAsked::Defaulted), "{odd}");
        }
    }

    fn any_bytes() -> impl Strategy<Value = Option<f64>> {
        prop_oneof![
            Just(None),
            any::<f64>().prop_map(Some),
            (0u64..5_000_000).prop_map(|n| Some(n as f64)),
            (-2.0f64..5_000_000.0).prop_map(Some),
            prop::sample::select(vec![0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY])
                .prop_map(Some),
        ]
    }

    proptest! {
        /// The judge's reading of `bytes` and upstream's clamp agree on every number: two
        /// readings of one rule, written apart.
        #[test]
        fn the_judge_reads_the_view_as_upstreams_clamp_does(bytes in any_bytes(), small in any::<bool>()) {
            let mut limits = Limits::default();
            if small {
                limits.view_default = 6;
                limits.view_max = 4096;
            }
            prop_assert_eq!(view_asked(bytes, &limits).0, clamp_window(bytes, &limits));
        }
    }
}

#[cfg(test)]
mod window_tests {
    use super::{window_asked, WindowAsked};
    use crate::upstream::limits::Limits;
    use crate::upstream::tool::normalize_lines;
    use proptest::prelude::*;

    #[test]
    fn a_window_is_asked_plainly_floored_raised_unbounded_or_by_default() {
        let limits = Limits::default();
        let default = limits.default_lines as usize;
        let asked = |n| window_asked(n, &limits);
        assert_eq!(asked(None), (default, WindowAsked::Plainly));
        assert_eq!(asked(Some(1.0)), (1, WindowAsked::Plainly));
        assert_eq!(asked(Some(7.0)), (7, WindowAsked::Plainly));
        assert_eq!(asked(Some(7.5)), (7, WindowAsked::Floored));
        assert_eq!(asked(Some(1.5)), (1, WindowAsked::Floored));
        assert_eq!(asked(Some(f64::NAN)), (default, WindowAsked::Defaulted));
        for below in [0.0, -0.0, 0.5, -1.0, -1e300, f64::NEG_INFINITY] {
            assert_eq!(asked(Some(below)), (1, WindowAsked::Raised), "{below}");
        }
        for past in [f64::INFINITY, 1e300, usize::MAX as f64] {
            assert_eq!(
                asked(Some(past)),
                (usize::MAX, WindowAsked::Unbounded),
                "{past}"
            );
        }
    }

    fn any_lines() -> impl Strategy<Value = Option<f64>> {
        prop_oneof![
            Just(None),
            any::<f64>().prop_map(Some),
            (0u32..1_000).prop_map(|n| Some(f64::from(n))),
            (-2.0f64..1_000.0).prop_map(Some),
            prop::sample::select(vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY]).prop_map(Some),
        ]
    }

    proptest! {
        /// The judge's reading of `lines` and upstream's agree on every number but NaN, which
        /// upstream turns into a window of no lines and the contract reads as absent: two
        /// readings of one rule, written apart.
        #[test]
        fn the_judge_reads_the_window_as_upstream_does_but_for_nan(lines in any_lines()) {
            let limits = Limits::default();
            let upstream = normalize_lines(lines, &limits);
            prop_assume!(!upstream.is_nan());
            // `as` saturates +∞ and anything past `usize::MAX`, as the judge's count does.
            prop_assert_eq!(window_asked(lines, &limits).0, upstream as usize);
        }
    }
}
