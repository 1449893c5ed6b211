//! Which lines a drain's reply carries: its text placed on the bytes the log gained since the
//! previous read, cut by cut.
//!
//! A drain (Codex's `write_stdin` poll) owes exactly the bytes written since its previous read
//! of the job, decoded as UTF-8 with invalid bytes replaced. Its reply may cut them twice: the
//! head-tail buffer drops a middle (`... K bytes omitted ...` on a line of its own) and the
//! token budget drops another (`…N tokens truncated…`, anywhere in a line, so that it may cut
//! into the first marker). Each piece of text between cuts is placed on those bytes — the first
//! at their start, the last at their end, one between two cuts at its first occurrence after
//! the piece before it (before the omission) or its last before the piece after it (after the
//! omission) — and a piece that is not there is a line the log does not hold.
//!
//! A line is delivered when all of its bytes were shown with no cut inside: in one reply, or
//! begun at the end of the previous reply (the line still being written then) and finished at
//! the start of this one. Text on both sides of an inline cut that belongs to two lines is shown
//! as one line that the log does not hold (`UntrueLine`).

use super::align::Aligned;
use super::truth::Truth;
use super::{Anomaly, AnomalyKind};
use crate::formats::codex_reply::{inline_cut, is_marker_prefix, is_marker_suffix, next_omission};
use crate::upstream::js::{truncate_utf16, utf16_len};

/// What a drain's reply carried.
pub(crate) struct Drained {
    pub aligned: Aligned,
    /// The start of the line still being written whose bytes so far were all shown, through
    /// the log's end: the next reply may finish it.
    pub open: Option<u64>,
    /// UTF-16 units of the log's text the reply showed (markers and warnings left out).
    pub units: usize,
}

/// A cut between two pieces of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    Inline,
    Omission,
}

/// A piece of the reply's text between cuts, and where it was placed.
#[derive(Debug)]
struct Piece<'a> {
    text: &'a str,
    /// The cut before it (none for the first).
    before: Option<Cut>,
    /// The log's text placed, as a range of the decoded new text; `None`: not the log's.
    placed: Option<(usize, usize)>,
    /// Whether a cut-off piece of the omission marker was left on its side of an inline cut.
    marker_before: bool,
    marker_after: bool,
}

/// The bytes a drain owes, decoded as Codex decodes them, with each decoded byte's offset in
/// the log.
struct Owed {
    text: String,
    /// `at[i]`: the log offset of decoded byte `i`; `at[text.len()]` the log's length.
    at: Vec<u64>,
}

impl Owed {
    fn of(log: &[u8], from: u64) -> Owed {
        let mut text = String::new();
        let mut at = Vec::new();
        let mut offset = from;
        for chunk in log[from as usize..].utf8_chunks() {
            text.push_str(chunk.valid());
            at.extend((0..chunk.valid().len() as u64).map(|i| offset + i));
            offset += chunk.valid().len() as u64;
            if !chunk.invalid().is_empty() {
                text.push(char::REPLACEMENT_CHARACTER);
                at.extend([offset; 3]);
                offset += chunk.invalid().len() as u64;
            }
        }
        at.push(offset);
        Owed { text, at }
    }
}

/// Judges the text a drain showed (`display`, after the envelope) against the bytes the log
/// gained since `from`; `open`: the line the previous reply left unfinished at its end.
pub(crate) fn read(
    truth: &Truth,
    log: &[u8],
    from: u64,
    open: Option<u64>,
    display: &str,
    anomalies: &mut Vec<Anomaly>,
) -> Drained {
    let owed = Owed::of(log, from.min(log.len() as u64));
    let mut pieces = pieces(display);
    place(&mut pieces, &owed.text);
    let mut ranges = Vec::new();
    for (k, p) in pieces.iter().enumerate() {
        match p.placed {
            Some((a, b)) => ranges.push((owed.at[a], owed.at[b])),
            None if !p.text.is_empty() => anomalies.push(Anomaly::new(
                AnomalyKind::UntrueLine,
                None,
                "text of the bytes the log gained since the last read, between cuts",
                format!(
                    "piece {} of the text: {:?}",
                    k + 1,
                    truncate_utf16(p.text, 80)
                ),
            )),
            None => {}
        }
    }
    joined_lines(&pieces, &owed, log, anomalies);
    let ranges: Vec<(u64, u64)> = ranges.into_iter().filter(|r| r.0 < r.1).collect();
    let complete = delivered(truth, from, open, &ranges);
    let open = still_open(truth, from, open, &ranges);
    Drained {
        aligned: Aligned {
            complete,
            partial: open.is_some() && truth.partial().is_some(),
            ..Aligned::default()
        },
        open,
        units: pieces
            .iter()
            .filter_map(|p| p.placed.map(|(a, b)| utf16_len(&owed.text[a..b])))
            .sum(),
    }
}

/// The text cut at the inline marker, then each side at the omission marker lines.
fn pieces(display: &str) -> Vec<Piece<'_>> {
    let (head, tail) = match inline_cut(display) {
        Some((a, b)) => (&display[..a], Some(&display[b..])),
        None => (display, None),
    };
    let mut pieces = Vec::new();
    split_omissions(head, None, &mut pieces);
    if let Some(tail) = tail {
        split_omissions(tail, Some(Cut::Inline), &mut pieces);
    }
    pieces
}

fn split_omissions<'a>(mut text: &'a str, mut before: Option<Cut>, out: &mut Vec<Piece<'a>>) {
    loop {
        let (end, next) = match next_omission(text) {
            Some((at, len)) => (at, Some(at + len)),
            None => (text.len(), None),
        };
        out.push(Piece {
            text: &text[..end],
            before,
            placed: None,
            marker_before: false,
            marker_after: false,
        });
        let Some(next) = next else { return };
        text = &text[next..];
        before = Some(Cut::Omission);
    }
}

/// Places each piece on the owed text: the first at its start, the last at its end, the ones
/// between in order. A piece beside an inline cut may keep a cut-off piece of the omission
/// marker on that side.
fn place(pieces: &mut [Piece<'_>], owed: &str) {
    let n = pieces.len();
    let after_inline = |k: usize, pieces: &[Piece<'_>]| {
        pieces
            .get(k + 1)
            .is_some_and(|p| p.before == Some(Cut::Inline))
    };
    let mut lo = 0;
    let mut hi = owed.len();
    if n > 0 {
        let inline_next = after_inline(0, pieces);
        place_first(&mut pieces[0], owed, inline_next, n == 1);
        lo = pieces[0].placed.map_or(0, |p| p.1);
    }
    if n > 1 {
        place_last(&mut pieces[n - 1], owed, lo);
        hi = pieces[n - 1].placed.map_or(hi, |p| p.0);
    }
    for p in pieces.iter_mut().take(n.saturating_sub(1)).skip(1) {
        let within = &owed[lo..hi];
        let at = if p.before == Some(Cut::Omission) {
            within.rfind(p.text)
        } else {
            within.find(p.text)
        };
        if let Some(at) = at {
            p.placed = Some((lo + at, lo + at + p.text.len()));
            lo += at + p.text.len();
        }
    }
}

/// The first piece, at the owed text's start (the whole of it when `only`): the longest part
/// of it that is the log's, with the rest a cut-off marker when an inline cut follows.
fn place_first(p: &mut Piece<'_>, owed: &str, inline_next: bool, only: bool) {
    let common = common_prefix(p.text, owed);
    let fits = |len: usize| {
        let rest = &p.text[len..];
        rest.is_empty() || (inline_next && is_marker_prefix(rest))
    };
    let Some(len) = (0..=common)
        .rev()
        .find(|&l| p.text.is_char_boundary(l) && fits(l))
    else {
        return;
    };
    if only && !inline_next && len != owed.len() {
        return;
    }
    p.marker_after = len < p.text.len();
    p.placed = Some((0, len));
}

/// The last piece, at the owed text's end and not before `lo`: the longest part of it that is
/// the log's, with the rest a cut-off marker when an inline cut precedes it.
fn place_last(p: &mut Piece<'_>, owed: &str, lo: usize) {
    let inline = p.before == Some(Cut::Inline);
    let common = common_suffix(p.text, &owed[lo..]);
    let fits = |len: usize| {
        let rest = &p.text[..p.text.len() - len];
        rest.is_empty() || (inline && is_marker_suffix(rest))
    };
    let Some(len) = (0..=common)
        .rev()
        .find(|&l| p.text.is_char_boundary(p.text.len() - l) && fits(l))
    else {
        return;
    };
    p.marker_before = len < p.text.len();
    p.placed = Some((owed.len() - len, owed.len()));
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &str, b: &str) -> usize {
    a.bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// An inline cut with the log's text on both sides of it on one line of the reply, that text
/// from two lines of the log: one line the log does not hold.
fn joined_lines(pieces: &[Piece<'_>], owed: &Owed, log: &[u8], anomalies: &mut Vec<Anomaly>) {
    for pair in pieces.windows(2) {
        let [left, right] = pair else { continue };
        if right.before != Some(Cut::Inline) || left.marker_after || right.marker_before {
            continue;
        }
        let (Some((_, b)), Some((c, _))) = (left.placed, right.placed) else {
            continue;
        };
        let left_part = left.text.rsplit('\n').next().unwrap_or("");
        let right_part = right.text.split('\n').next().unwrap_or("");
        let (b, c) = (owed.at[b] as usize, owed.at[c] as usize);
        if left_part.is_empty()
            || right_part.is_empty()
            || memchr::memchr(b'\n', &log[b..c]).is_none()
        {
            continue;
        }
        anomalies.push(Anomaly::new(
            AnomalyKind::UntrueLine,
            None,
            "a line of the log (the inline cut joins the start of one line to the end of another)",
            format!(
                "{:?}",
                truncate_utf16(&format!("{left_part}…{right_part}"), 80)
            ),
        ));
    }
}

/// The complete lines whose bytes a range holds whole, and the line `open` when this reply
/// finished it: its rest at the start of the first range, or nothing more (the job exited with
/// that line unfinished, all of it shown).
fn delivered(truth: &Truth, from: u64, open: Option<u64>, ranges: &[(u64, u64)]) -> Vec<usize> {
    let spans = &truth.spans[..truth.complete];
    let finished = |(s, e): (u64, u64)| {
        open == Some(s) && (e <= from || ranges.first().is_some_and(|r| r.0 == from && e <= r.1))
    };
    let first = spans.partition_point(|sp| sp.1 <= from);
    let earlier = first.checked_sub(1).filter(|&i| finished(spans[i]));
    let later = (first..truth.complete).filter(|&i| {
        let (s, e) = spans[i];
        let k = ranges.partition_point(|r| r.0 <= s);
        finished(spans[i]) || (k > 0 && ranges[k - 1].1 >= e)
    });
    earlier.into_iter().chain(later).collect()
}

/// The line still being written, when every byte of it so far was shown.
fn still_open(truth: &Truth, from: u64, open: Option<u64>, ranges: &[(u64, u64)]) -> Option<u64> {
    let p = truth.partial()?;
    let (s, e) = truth.spans[p];
    let Some(last) = ranges.last() else {
        return (open == Some(s) && e == from).then_some(s);
    };
    let continued = open == Some(s) && ranges.len() == 1 && last.0 == from;
    (last.1 == e && (last.0 <= s || continued)).then_some(s)
}
