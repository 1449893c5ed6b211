//! Which lines of the log a reply's body carries: every body line matched **exactly** to a
//! line of the window (or the partial line), a fold to a run of equal lines, a marker to
//! nothing; anything else is a line the log does not hold.
//!
//! Lines come in log order, so the body is matched newest first, each line to the newest
//! window line below the last match that prints the same: one pass, with the window's lines
//! indexed by what they print. Lines that print the same carry the same text to the agent, so
//! which of them a body line stands for is chosen by the engine's own claim when it makes one
//! (checked against the text), else the newest.

use super::literal::rsplit_once;
use super::print::exact_line;
use super::text::{Condensing, Marker};
use super::truth::Truth;
use super::{Anomaly, AnomalyKind, LineRef, Rules};
use crate::interface::plain::{BlankLines, Plain};
use crate::upstream::condense::build_emissions;
use crate::upstream::condense::TextFormat;
use crate::upstream::js::{js_trim, truncate_utf16, utf16_len};
use crate::upstream::limits::Limits;
use std::borrow::Cow;

/// The lines a body carries.
#[derive(Debug, Default)]
pub(crate) struct Aligned {
    /// Complete lines, as indices into `Truth::spans`, ascending.
    pub complete: Vec<usize>,
    /// Whether the partial line was carried.
    pub partial: bool,
    /// Whether a body line was a fold of several lines.
    pub folded: bool,
    /// What condensing did to the body's lines (all 0 for a raw body).
    pub condensing: Condensing,
}

/// How each line of the window prints, indexed.
struct Printed<'a> {
    truth: &'a Truth,
    /// What line `window_start + k` prints in a body of this kind (raw text, or emission).
    printed: Vec<String>,
    /// Its text with escapes stripped (what a fold repeats).
    clean: Vec<String>,
    /// How many lines ending at `window_start + k` print the same clean text.
    run: Vec<usize>,
    /// Whether the per-line cap cuts line `window_start + k`, and the escape sequences its
    /// emission strips (false and 0 in a raw body).
    capped: Vec<bool>,
    escapes: Vec<u64>,
    /// The window's line indices ordered by (`printed`, index): the lines printing one text
    /// are one ascending slice, found by binary search (no key is copied or hashed).
    by_printed: Vec<usize>,
    /// The same, by `clean`.
    by_clean: Vec<usize>,
}

/// Which of a line's texts an index orders by.
#[derive(Clone, Copy)]
enum Key {
    Printed,
    Clean,
}

impl<'a> Printed<'a> {
    /// The lines below `cursor` that a body line stands for, newest first: one line that
    /// prints the same, else (condensed) a fold of a run, else (upstream's format) a fold the
    /// per-line cap cut. `None`: the window holds no such line.
    fn source_of(
        &self,
        line: &str,
        text_format: TextFormat,
        limits: &Limits,
        raw: bool,
        cursor: usize,
        claimed: &[bool],
    ) -> Option<(usize, usize)> {
        let same = self.printing(Key::Printed, line);
        if let Some(i) = self.newest_below(same, cursor, claimed, |_| true) {
            return Some((i, i));
        }
        if raw {
            return None;
        }
        self.fold(line, text_format, cursor, claimed)
            .or_else(|| match text_format {
                TextFormat::Upstream => self.capped_fold(line, limits, cursor),
                _ => None,
            })
    }

    fn new(
        truth: &'a Truth,
        text_format: TextFormat,
        plain: &Plain,
        limits: &Limits,
        raw: bool,
    ) -> Self {
        let (mut printed, mut clean, mut run) = (Vec::new(), Vec::new(), Vec::new());
        let (mut capped, mut escapes) = (Vec::new(), Vec::new());
        for (k, text) in truth.texts.iter().enumerate() {
            let i = truth.window_start + k;
            let (c, p) = if text_format == TextFormat::Exact {
                // The judge's own print of the contract's format (`print`), so that a fault
                // in the condenser's steps is a line the log does not hold.
                let line = exact_line(text, limits.line_cap);
                capped.push(!raw && line.capped);
                escapes.push(if raw { 0 } else { line.escapes as u64 });
                let p = if raw { text.clone() } else { line.printed };
                (line.clean, p)
            } else if raw {
                capped.push(false);
                escapes.push(0);
                let p = if text_format == TextFormat::Plain {
                    plain.print(text)
                } else {
                    text.clone()
                };
                (text_format.clean(text).0, p)
            } else {
                let e = build_emissions(&[text], limits, text_format).list.remove(0);
                capped.push(e.line_capped);
                escapes.push(e.ansi_sequences as u64);
                (text_format.clean(text).0, e.text)
            };
            let same = k > 0 && clean[k - 1] == c && Some(i) != truth.partial();
            run.push(if same { run[k - 1] + 1 } else { 1 });
            printed.push(p);
            clean.push(c);
        }
        let by_printed = sorted_by(&printed, truth.window_start);
        let by_clean = sorted_by(&clean, truth.window_start);
        Printed {
            truth,
            printed,
            clean,
            run,
            capped,
            escapes,
            by_printed,
            by_clean,
        }
    }

    /// The window lines whose `key` text is `text`, ascending.
    fn printing(&self, key: Key, text: &str) -> &[usize] {
        let (index, texts) = match key {
            Key::Printed => (&self.by_printed, &self.printed),
            Key::Clean => (&self.by_clean, &self.clean),
        };
        let at = |i: usize| texts[i - self.truth.window_start].as_str();
        let from = index.partition_point(|&i| at(i) < text);
        let to = from + index[from..].partition_point(|&i| at(i) == text);
        &index[from..to]
    }

    fn run_at(&self, i: usize) -> usize {
        self.run[i - self.truth.window_start]
    }

    /// Counts what condensing did to a body line standing for lines `first..=last`: a fold
    /// when it stands for more than one, the cap when it cuts their text, and the escape
    /// sequences of every line it stands for.
    fn count_condensing(&self, out: &mut Condensing, first: usize, last: usize) {
        let base = self.truth.window_start;
        out.folds += u64::from(first != last);
        out.capped += u64::from(self.capped[last - base]);
        out.escapes += self.escapes[first - base..=last - base].iter().sum::<u64>();
    }

    /// The newest of `candidates` below `cursor` (a complete line) that `fits`, preferring
    /// one the engine claims.
    fn newest_below(
        &self,
        list: &[usize],
        cursor: usize,
        claimed: &[bool],
        fits: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let below = &list[..list.partition_point(|&i| i < cursor.min(self.truth.complete))];
        let mut fitting = below.iter().rev().copied().filter(|&i| fits(i));
        let first = fitting.next()?;
        if claimed.is_empty() || claimed[first] {
            return Some(first);
        }
        Some(fitting.find(|&i| claimed[i]).unwrap_or(first))
    }

    /// A fold `X  [xN]`: the newest run of `N` equal lines below `cursor` printing `X`.
    fn fold(
        &self,
        line: &str,
        text_format: TextFormat,
        cursor: usize,
        claimed: &[bool],
    ) -> Option<(usize, usize)> {
        let (head, count) = rsplit_once(line.strip_suffix(']')?, "  [x")?;
        let n: usize = count.parse().ok().filter(|&n| n >= 2)?;
        let key = match text_format {
            TextFormat::Upstream => Key::Clean,
            _ => Key::Printed,
        };
        let candidates = self.printing(key, head);
        let end = self.newest_below(candidates, cursor, claimed, |i| self.run_at(i) >= n)?;
        Some((end + 1 - n, end))
    }

    /// Upstream caps a fold after adding its count, so a long folded line prints as
    /// `cut(X  [xN]) …[+M chars]`: the newest run below `cursor` that prints exactly that.
    fn capped_fold(&self, line: &str, limits: &Limits, cursor: usize) -> Option<(usize, usize)> {
        let (prefix, rest) = rsplit_once(line, " …[+")?;
        let more: usize = rest.strip_suffix(" chars]")?.parse().ok()?;
        let base = self.truth.window_start;
        (base..cursor.min(self.truth.complete))
            .rev()
            .find_map(|end| {
                let c = &self.clean[end - base];
                (3..=self.run_at(end)).rev().find_map(|n| {
                    let full = format!("{c}  [x{n}]");
                    let units = utf16_len(&full);
                    (units > limits.line_cap
                        && units - limits.line_cap == more
                        && truncate_utf16(&full, limits.line_cap) == prefix)
                        .then_some((end + 1 - n, end))
                })
            })
    }
}

/// The absolute indices `base + k` of `texts`, ordered by (`texts[k]`, index).
fn sorted_by(texts: &[String], base: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    // Stable: equal texts keep ascending indices.
    order.sort_by(|&a, &b| texts[a].cmp(&texts[b]));
    order.into_iter().map(|k| base + k).collect()
}

/// The marker check between a matched line (`last`, printed as `line`) and the newer line
/// matched before it (at `cursor`): a gap marker's count is the number of lines between them;
/// and where a marker is owed (the exact format, a newer line matched) lines between them
/// need one.
fn check_gap(
    truth: &Truth,
    line: &str,
    last: usize,
    cursor: usize,
    gap: Option<(u64, usize)>,
    marker_owed: bool,
) -> Option<Anomaly> {
    if let Some((n, newer)) = gap {
        let between = (newer - last - 1) as u64;
        return (between != n).then(|| {
            Anomaly::new(
                AnomalyKind::DishonestCount,
                Some(LineRef::of(truth, last)),
                format!("{between} lines between the runs around the marker"),
                format!("{line:?} after a marker of {n}"),
            )
        });
    }
    (marker_owed && cursor > last + 1).then(|| {
        Anomaly::new(
            AnomalyKind::DishonestCount,
            Some(LineRef::of(truth, last)),
            format!(
                "a marker for the {} lines between the runs",
                cursor - last - 1
            ),
            format!("{line:?} with no marker after it"),
        )
    })
}

/// The body lines that stand for content lines, as the window's lines print them. A reader
/// that does not condense prints every line of its log as it is: a blank or wrapper line,
/// which is no content line, stands for none, and the `\r` a line ends with is the contract's
/// line end, not its text. A plain reader's declaration says the rest: a blank line from a
/// reader that hides them is untrue, and a cut line is compared as [`Plain::body_line`] gives it.
fn content_body<'b>(
    body: &[&'b str],
    text_format: TextFormat,
    plain: &Plain,
    anomalies: &mut Vec<Anomaly>,
) -> Vec<Cow<'b, str>> {
    if text_format.condenses() {
        return body.iter().map(|&line| Cow::Borrowed(line)).collect();
    }
    let is_plain = text_format == TextFormat::Plain;
    let mut out = Vec::with_capacity(body.len());
    for &line in body {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if js_trim(line).is_empty() {
            if is_plain && plain.declared.blank == BlankLines::Hide {
                anomalies.push(Anomaly::new(
                    AnomalyKind::UntrueLine,
                    None,
                    "no blank line (the reader declares that it hides them)",
                    format!("{line:?}"),
                ));
            }
            continue;
        }
        if line.starts_with("__BGRUN_") {
            continue;
        }
        out.push(if is_plain {
            Cow::Owned(plain.body_line(line))
        } else {
            Cow::Borrowed(line)
        });
    }
    out
}

/// Matches `body` (newest last) to the window of `truth`. `claimed[i]` says whether the
/// engine claims line `i` (empty: it makes no claims). Lines the log does not hold become
/// anomalies; so does a gap marker whose count is not the number of lines it stands for.
pub(crate) fn align(
    truth: &Truth,
    body: &[&str],
    rules: &Rules,
    raw: bool,
    claimed: &[bool],
    anomalies: &mut Vec<Anomaly>,
) -> Aligned {
    let (text_format, plain, limits) = (rules.text_format, &rules.plain, &rules.limits);
    let owned = content_body(body, text_format, plain, anomalies);
    let body: Vec<&str> = owned.iter().map(|line| line.as_ref()).collect();
    let body = &body[..];
    // A reader that does not condense prints its lines as a raw read does.
    let raw = raw || !text_format.condenses();
    let printed = Printed::new(truth, text_format, plain, limits, raw);
    let mut out = Aligned::default();
    let mut lines = body;
    if let (Some(p), Some((last, rest))) = (truth.partial(), body.split_last()) {
        // The partial line comes last; a complete line printing the same is the engine's
        // choice when it claims, else the partial line.
        let chosen = claimed.is_empty() || claimed[p];
        if chosen && printed.printed[p - truth.window_start] == *last {
            out.partial = true;
            printed.count_condensing(&mut out.condensing, p, p);
            lines = rest;
        }
    }
    let mut cursor = truth.complete;
    // A gap marker waiting for the older line below it: its count, and the newer line's index.
    let mut gap: Option<(u64, usize)> = None;
    // Whether a line newer than the next one was matched: the lines between two that the body
    // carries are then all shown before, and the exact format puts a marker there.
    let mut newer_matched = out.partial;
    for &line in lines.iter().rev() {
        if let Some(marker) = text_format.marker(line) {
            if let Marker::Gap(n) = marker {
                gap = Some((n, cursor));
            }
            continue;
        }
        let found = printed.source_of(line, text_format, limits, raw, cursor, claimed);
        let Some((first, last)) = found else {
            anomalies.push(Anomaly::new(
                AnomalyKind::UntrueLine,
                None,
                "every line of the body a line of the window, or a marker",
                format!("{line:?}"),
            ));
            continue;
        };
        out.folded |= first != last;
        printed.count_condensing(&mut out.condensing, first, last);
        let marker_owed = newer_matched && text_format == TextFormat::Exact && !raw;
        anomalies.extend(check_gap(
            truth,
            line,
            last,
            cursor,
            gap.take(),
            marker_owed,
        ));
        newer_matched = true;
        out.complete.extend((first..=last).rev());
        cursor = first;
    }
    out.complete.reverse();
    out
}
