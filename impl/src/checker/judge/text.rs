//! A reply's text, taken apart: which line is the header, which lines are the body, which
//! paragraphs are notes, and the numbers the header and notes state.
//!
//! The judge knows five text formats ([`TextFormat`]); an engine says which one it writes. Only
//! the markers a format documents are recognised: anything else in the body must be a line of
//! the log, or the judge reports it. Two are bgtail's condensed texts (pi-bgrun's, the exact
//! engine's); two are other harnesses' readers, which print lines as they are; the fifth,
//! `plain-1`, is a reader of one's own, taken apart by what it declares (`super::plain`).

use super::literal::{contains, find, rfind, rsplit_once, split, split_once};
use crate::upstream::condense::TextFormat;

/// What the judge reads in each format: headers, statuses and markers.
impl TextFormat {
    fn is_header(self, line: &str) -> bool {
        match self {
            // Every condensed reply of the exact engine that carries lines opens with one.
            TextFormat::Exact => true,
            TextFormat::Upstream => {
                (line.starts_with('+') && contains(line, " since last read — log at "))
                    || line.starts_with("no new lines since last read — showing the ")
                    || line.ends_with(" — showing full tail")
            }
            TextFormat::GeminiCli => {
                line == GEMINI_FULL
                    || (line.starts_with(GEMINI_SHOWING) && line.ends_with(" lines:"))
            }
            _ => false,
        }
    }

    /// A reply that is one status line and no body ("nothing new", "empty log").
    fn is_status(self, main: &str) -> bool {
        !main.contains('\n')
            && match self {
                TextFormat::Exact => {
                    main.ends_with(')')
                        && ["(no new lines — ", "(empty log — ", "(nothing in view — "]
                            .iter()
                            .any(|words| contains(main, words))
                }
                TextFormat::Upstream => main.starts_with("(no new lines since last read — log at "),
                TextFormat::GeminiCli => main == GEMINI_EMPTY,
                _ => false,
            }
    }

    /// A body line that stands for no line of the log.
    pub(crate) fn marker(self, line: &str) -> Option<Marker> {
        if !self.condenses() {
            return None;
        }
        if line == "(empty log)" || (self == TextFormat::Exact && line == "(nothing in view)") {
            return Some(Marker::Empty);
        }
        match self {
            TextFormat::Exact => {
                let rest = line.strip_prefix("… ")?.strip_suffix(" already shown …")?;
                let n = rest
                    .strip_suffix(" lines")
                    .or_else(|| rest.strip_suffix(" line"))?;
                n.parse().ok().map(Marker::Gap)
            }
            _ => None,
        }
    }
}

/// Gemini CLI's header over a whole window, a window cut to `lines`, and its empty log.
const GEMINI_FULL: &str = "Full Log Output:";
const GEMINI_SHOWING: &str = "Showing last ";
const GEMINI_EMPTY: &str = "Log is empty.";

/// A body line that is not a line of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Marker {
    /// This many content lines, all shown before, lie between the lines around it.
    Gap(u64),
    /// The log has no content line.
    Empty,
}

/// A reply's text, taken apart.
#[derive(Debug, Default)]
pub(crate) struct Parsed<'a> {
    pub header: Option<&'a str>,
    /// The single status line of a reply without a body.
    pub status: Option<&'a str>,
    pub body: Vec<&'a str>,
    /// Each parenthesised paragraph after the body, without its parentheses.
    pub notes: Vec<&'a str>,
}

impl<'a> Parsed<'a> {
    /// Takes `text` apart. Notes are the one-line paragraphs wrapped in parentheses that end
    /// the text, each after a blank line; a body has no blank line of its own, except where a
    /// line of the log was made only of escape sequences, and such a line is never a note.
    pub fn of(text: &'a str, text_format: TextFormat, raw: bool) -> Parsed<'a> {
        let mut main_end = text.len();
        let mut notes = Vec::new();
        // Only bgtail's texts have notes: elsewhere a parenthesised line is a line of the log.
        while let Some(at) = rfind(&text[..main_end], "\n\n(").filter(|_| text_format.condenses()) {
            let para = &text[at + 2..main_end];
            match para.strip_prefix('(').and_then(|p| p.strip_suffix(')')) {
                Some(inner) if !para.contains('\n') => notes.push(inner),
                _ => break,
            }
            main_end = at;
        }
        notes.reverse();
        let main = &text[..main_end];
        let mut parsed = Parsed {
            notes,
            ..Parsed::default()
        };
        if !raw && text_format.is_status(main) {
            parsed.status = Some(main);
            return parsed;
        }
        let mut lines = main.split('\n');
        if !raw && !main.is_empty() {
            let first = lines.clone().next().unwrap_or_default();
            if text_format.is_header(first) {
                parsed.header = lines.next();
            }
        }
        if !main.is_empty() || parsed.header.is_some() {
            parsed.body = lines.collect();
        }
        parsed
    }
}

/// The numbers a reply states, each `None` when the text does not state it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Claimed {
    /// Content lines of the view ("log at T lines", "T lines in view").
    pub total: Option<u64>,
    /// Content lines appended since the last read.
    pub new_lines: Option<u64>,
    /// Of the lines shown, those appended since the last read.
    pub new_shown: Option<u64>,
    /// Of the lines shown, those already in the log at the last read.
    pub earlier_shown: Option<u64>,
    /// Complete lines shown.
    pub shown: Option<u64>,
    /// Window lines never shown that the budget left out.
    pub left_out: Option<u64>,
    /// Lines above the window never shown.
    pub unseen_above: Option<u64>,
    /// The reply says the bookmark started over.
    pub reset: bool,
    /// Whether the reason it gives is that the log shrank (`None`: no reason given, as in
    /// upstream's text).
    pub shrank: Option<bool>,
    /// Whether the reason it gives is another file at the path, or the id resolving to
    /// another path (`None`: no reason given).
    pub other_file: Option<bool>,
    /// The reply says the bookmark forgot shown lines (they may come again).
    pub forgot: bool,
    /// What condensing did to the lines shown, from the notes ("N ANSI escape sequences
    /// stripped", "N repeated-line runs collapsed", "N long lines truncated to C chars"):
    /// each 0 when a condensed reply of the exact engine leaves its note out.
    pub condensing: Option<Condensing>,
    /// What the exact engine's text says besides these numbers (default for upstream's).
    pub stated: Stated,
    /// Every line the whole log holds, blank ones and an unfinished last one too, as a range
    /// (Gemini CLI's `of M lines`, or the body's own count under `Full Log Output:`, where an
    /// empty body is 0 lines or one blank line).
    pub every_line: Option<(u64, u64)>,
    /// Whether the job runs, as the reply states it (mux's `status`).
    pub running: Option<bool>,
    /// The reply says text was dropped without counting lines (Codex's `... K bytes omitted
    /// ...` and `…N tokens truncated…`): the lines it did not carry were said to be left out.
    pub says_cut: bool,
}

/// What a `bgtail-exact-1` text says besides the counts of [`Claimed`]: where a read stands,
/// the partial line, the `lines` that reach lines not shown, and the notes about the view.
/// Each is `false` or `None` when the text does not say it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stated {
    /// The header or status opens with "first read: ".
    pub first_read: bool,
    /// Whether the header's or status's line count names the log ("log at T lines") or only
    /// the view ("T lines in view"); `None` when it counted only part of the view.
    pub names_log: Option<bool>,
    /// The header says the text carries "a partial line".
    pub partial_in_header: bool,
    /// A note says the last line, carried, is still being written ("… it is shown again once
    /// complete").
    pub partial_note: bool,
    /// A note says a partial last line did not fit the budget.
    pub partial_crowded_out: bool,
    /// The status says the last line is still being written.
    pub still_writing: bool,
    /// "N skipped lines above this window — lines: R reaches them": `(N, R)`.
    pub skipped: Option<(u64, Option<u64>)>,
    /// The status's "lines: R reaches the newest" (of the lines above never shown).
    pub unseen_reach: Option<u64>,
    /// The left-out note's budget ("by the B-char budget") and the read it says returns the
    /// lines ("lines: N", or "the same `lines`").
    pub left_out_by: Option<(Option<u64>, String)>,
    /// The view note's words for the window and the log's size.
    pub view: Option<ViewNote>,
    /// The line bound's note: "only the last N lines of the view were scanned".
    pub scanned: Option<u64>,
    /// The text calls the log empty ("(empty log — …)", or a raw read's "(empty log)").
    pub empty_log: bool,
    /// The cap the note on the wrapper's truncation names ("log truncated at C — …"), in its
    /// words.
    pub cap: Option<String>,
}

/// "view: the last W of S — …", in its words. (The largest view the note names too is the
/// engine's setting, which an engine in another process does not declare.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ViewNote {
    pub window: String,
    pub size: String,
}

/// What condensing did to a reply's lines: escape sequences stripped, runs folded, lines cut
/// by the per-line cap (and the cap it names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Condensing {
    pub escapes: u64,
    pub folds: u64,
    pub capped: u64,
    /// The cap a "truncated to C chars" note names.
    pub cap: Option<u64>,
}

/// How the `bgtail-exact-1` text says a reset's reason is that the log shrank.
const SHRANK: &str = "the log shrank";
/// How it says that what sits at the path is not the file the last read saw.
const OTHER_FILE: [&str; 2] = [
    "another file now sits at the log path",
    "the id now resolves to another log path",
];

/// The first unsigned number at the start of `s`, and what follows it.
fn leading_number(s: &str) -> Option<(u64, &str)> {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = s[..digits].parse().ok()?;
    Some((n, &s[digits..]))
}

/// How the status says a partial line is there and unchanged since a reply carried it.
const STILL_WRITING: &str = "the last line is still being written";

/// The first number after `word` in `s` (`"— lines: 9 reaches them"`, `"lines: "` → 9).
fn number_after(s: &str, word: &str) -> Option<u64> {
    split_once(s, word).and_then(|(_, rest)| leading_number(rest).map(|(n, _)| n))
}

/// The number just before `word` in `s` (`"log at 13 lines"`, `"13 lines"` → 13).
fn number_before(s: &str, word: &str) -> Option<u64> {
    let at = find(s, word)?;
    let head = s[..at].trim_end();
    let start = head
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    head[start..].parse().ok()
}

impl Claimed {
    /// What `parsed` states, read by `text_format`'s rules.
    pub fn of(parsed: &Parsed<'_>, text_format: TextFormat) -> Claimed {
        let mut c = Claimed::default();
        match text_format {
            TextFormat::Exact => c.read_exact(parsed),
            TextFormat::Upstream => c.read_upstream(parsed),
            TextFormat::GeminiCli => c.read_gemini(parsed),
            _ => {}
        }
        c
    }

    /// Gemini CLI's header and status: each a count of every line of the log.
    fn read_gemini(&mut self, parsed: &Parsed<'_>) {
        if parsed.status.is_some() {
            self.every_line = Some((0, 0));
        } else if parsed.header == Some(GEMINI_FULL) {
            let n = parsed.body.len() as u64;
            let empty = parsed.body == [""];
            self.every_line = Some(if empty { (0, 1) } else { (n, n) });
        } else if let Some(header) = parsed.header {
            self.every_line = number_before(header, " lines:").map(|m| (m, m));
        }
    }

    fn read_exact(&mut self, parsed: &Parsed<'_>) {
        for note in &parsed.notes {
            for part in split(note, "; ") {
                self.read_exact_note(part);
            }
        }
        self.stated.empty_log = parsed.body == ["(empty log)"];
        if let Some(status) = parsed.status {
            let status = self.strip_exact_prefix(status);
            self.stated.empty_log = status.starts_with("(empty log — ");
            let inner = status.trim_start_matches('(').trim_end_matches(')');
            let mut parts = split(inner, "; ");
            let log_words = parts.next().unwrap_or_default();
            self.read_log_words(split(log_words, " — ").nth(1).unwrap_or_default());
            self.unseen_above = Some(0);
            for part in parts {
                if let Some(u) = number_before(part, " earlier line") {
                    self.unseen_above = Some(u);
                    self.stated.unseen_reach = number_after(part, "lines: ");
                } else if part == STILL_WRITING {
                    self.stated.still_writing = true;
                }
            }
            self.shown = Some(0);
            return;
        }
        let Some(header) = parsed.header else {
            return;
        };
        // A header means a body: its condensing notes, stated or not, are claims.
        self.condensing_mut();
        let first = header.starts_with("first read: ");
        let header = self.strip_exact_prefix(header);
        let continuing = !first && !self.reset;
        let (what, log_words) = rsplit_once(header, " — ").unwrap_or((header, ""));
        self.read_log_words(log_words);
        self.left_out.get_or_insert(0);
        if continuing {
            self.new_shown = Some(0);
            self.earlier_shown = Some(0);
        }
        for part in split(what, ", ") {
            if let Some(rest) = part.strip_prefix('+') {
                let (k, rest) = leading_number(rest).unwrap_or((0, rest));
                self.new_shown = Some(k);
                self.new_lines = match rest.strip_prefix(" of ") {
                    Some(of) => leading_number(of).map(|(n, _)| n),
                    None => Some(k),
                };
            } else if contains(part, " earlier line") {
                self.earlier_shown = number_before(part, " earlier line");
            } else if part == "a partial line" {
                self.stated.partial_in_header = true;
            } else if !continuing {
                if let Some((n, _)) = leading_number(part) {
                    self.shown = Some(n);
                }
            }
        }
    }

    /// The log's size in words: its line count, and whether they name the log or the view.
    fn read_log_words(&mut self, log_words: &str) {
        self.total = exact_total(log_words);
        // A count that stopped at the tail names neither ("… in the last 16 KiB …").
        self.stated.names_log = self.total.map(|_| log_words.starts_with("log at "));
    }

    /// A header or status without its "first read: " or reset prefix (noting the reset).
    fn strip_exact_prefix<'a>(&mut self, line: &'a str) -> &'a str {
        if let Some(rest) = line.strip_prefix("first read: ") {
            self.stated.first_read = true;
            return rest;
        }
        match split_once(line, ", so the bookmark starts over: ") {
            Some((reason, rest)) => {
                self.reset_because(reason);
                rest
            }
            None => line,
        }
    }

    fn read_exact_note(&mut self, part: &str) {
        if let Some(n) = number_before(part, " ANSI escape sequence") {
            self.condensing_mut().escapes = n;
        } else if let Some(n) = number_before(part, " repeated-line run") {
            self.condensing_mut().folds = n;
        } else if let Some((lines, cap)) = split_once(part, " truncated to ") {
            let c = self.condensing_mut();
            c.capped = number_before(lines, " long line").unwrap_or(0);
            c.cap = number_before(cap, " chars");
        } else if contains(part, " left out by the ") {
            self.left_out = number_before(part, " older line");
            let again = split_once(part, " — the next read with ")
                .map_or("", |(_, rest)| rest.trim_end_matches(" returns them"));
            self.stated.left_out_by = Some((number_before(part, "-char budget"), again.into()));
        } else if part.starts_with("bookmark full: forgot the ") {
            self.forgot = true;
        } else if let Some(reason) = part.strip_suffix(", so the bookmark started over") {
            self.reset_because(reason);
        } else {
            self.read_exact_statement(part);
        }
    }

    /// The notes that state no count of [`Claimed`]'s: lines skipped above the window, the
    /// partial line, the view and the line bound.
    fn read_exact_statement(&mut self, part: &str) {
        let stated = &mut self.stated;
        if contains(part, " above this window — lines: ") {
            let count = leading_number(part).map_or(0, |(n, _)| n);
            stated.skipped = Some((count, number_after(part, "lines: ")));
        } else if part == "it is shown again once complete" {
            stated.partial_note = true;
        } else if part.starts_with("a partial last line is being written") {
            stated.partial_crowded_out = true;
        } else if let Some(rest) = part.strip_prefix("view: the last ") {
            let (window, rest) = split_once(rest, " of ").unwrap_or((rest, ""));
            let size = split_once(rest, " — ").map_or(rest, |(size, _)| size);
            stated.view = Some(ViewNote {
                window: window.into(),
                size: size.into(),
            });
        } else if let Some(rest) = part.strip_prefix("log truncated at ") {
            let cap = split_once(rest, " — ").map_or(rest, |(cap, _)| cap);
            stated.cap = Some(cap.into());
        } else if let Some(rest) = part.strip_prefix("only the last ") {
            let digits: String = rest
                .chars()
                .take_while(|&c| c.is_ascii_digit() || c == ',')
                .collect();
            stated.scanned = digits.replace(',', "").parse().ok();
        }
    }

    fn condensing_mut(&mut self) -> &mut Condensing {
        self.condensing.get_or_insert_with(Condensing::default)
    }

    /// A reset, for `reason` (the format's words for a shrink are [`SHRANK`]).
    fn reset_because(&mut self, reason: &str) {
        self.reset = true;
        self.shrank = Some(contains(reason, SHRANK));
        self.other_file = Some(OTHER_FILE.iter().any(|words| contains(reason, words)));
    }

    fn read_upstream(&mut self, parsed: &Parsed<'_>) {
        if let Some(status) = parsed.status {
            self.new_lines = Some(0);
            self.shown = Some(0);
            self.total = split_once(status, " — log at ")
                .and_then(|(_, t)| leading_number(t).map(|(n, _)| n));
            return;
        }
        let Some(header) = parsed.header else {
            return;
        };
        if let Some(rest) = header.strip_prefix('+') {
            self.new_lines = leading_number(rest).map(|(n, _)| n);
            self.total = split_once(header, " — log at ")
                .and_then(|(_, t)| leading_number(t).map(|(n, _)| n));
        } else if let Some(rest) =
            header.strip_prefix("no new lines since last read — showing the ")
        {
            self.new_lines = Some(0);
            self.shown = leading_number(rest).map(|(n, _)| n);
            self.total =
                rsplit_once(rest, " of ").and_then(|(_, t)| leading_number(t).map(|(n, _)| n));
        } else if header.ends_with(" — showing full tail") {
            self.reset = true;
        }
    }
}

/// The view's line count in the exact engine's log words; `None` when it says it did not count
/// them all ("in the last 16 KiB (the view above is not counted yet)").
fn exact_total(log_words: &str) -> Option<u64> {
    if contains(log_words, "not counted") {
        return None;
    }
    if let Some(rest) = log_words.strip_prefix("log at ") {
        return leading_number(rest).map(|(n, _)| n);
    }
    if contains(log_words, " in view") {
        return leading_number(log_words).map(|(n, _)| n);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_delta_is_taken_apart() {
        let text = "+2 of 3 new lines — log at 13 lines\nline-12\nline-13\n\n(1 skipped line above this window — lines: 3 reaches it)";
        let p = Parsed::of(text, TextFormat::Exact, false);
        assert_eq!(p.header, Some("+2 of 3 new lines — log at 13 lines"));
        assert_eq!(p.body, ["line-12", "line-13"]);
        assert_eq!(p.notes.len(), 1);
        let c = Claimed::of(&p, TextFormat::Exact);
        assert_eq!(
            (
                c.new_shown,
                c.new_lines,
                c.total,
                c.earlier_shown,
                c.left_out
            ),
            (Some(2), Some(3), Some(13), Some(0), Some(0))
        );
    }

    #[test]
    fn an_exact_status_states_the_count_and_the_unseen_lines() {
        let text = "(no new lines — log at 13 lines; 5 earlier lines never shown — lines: 9 reaches the newest)";
        let p = Parsed::of(text, TextFormat::Exact, false);
        assert!(p.body.is_empty() && p.header.is_none());
        let c = Claimed::of(&p, TextFormat::Exact);
        assert_eq!((c.total, c.unseen_above), (Some(13), Some(5)));
    }

    #[test]
    fn upstream_headers_are_told_from_lines() {
        let p = Parsed::of("line-6\nline-7", TextFormat::Upstream, false);
        assert_eq!((p.header, p.body.len()), (None, 2));
        let p = Parsed::of(
            "no new lines since last read — showing the 2 earlier lines of the widened window (now the last 4 of 13)\nline-10\nline-11",
            TextFormat::Upstream,
            false,
        );
        let c = Claimed::of(&p, TextFormat::Upstream);
        assert_eq!(
            (c.shown, c.total, c.new_lines),
            (Some(2), Some(13), Some(0))
        );
        let p = Parsed::of(
            "(no new lines since last read — log at 13 lines)",
            TextFormat::Upstream,
            false,
        );
        assert_eq!(Claimed::of(&p, TextFormat::Upstream).total, Some(13));
    }

    #[test]
    fn gap_markers_are_read() {
        assert_eq!(
            TextFormat::Exact.marker("… 3 lines already shown …"),
            Some(Marker::Gap(3))
        );
        assert_eq!(
            TextFormat::Exact.marker("… 1 line already shown …"),
            Some(Marker::Gap(1))
        );
        assert_eq!(
            TextFormat::Upstream.marker("… 1 line already shown …"),
            None
        );
    }

    #[test]
    fn the_condensing_notes_are_read_and_a_body_without_them_says_zero() {
        let text = "2 lines — log at 2 lines\nred\nlong-xx …[+4 chars]\n\n(2 ANSI escape sequences stripped; 1 repeated-line run collapsed; 1 long line truncated to 8 chars)";
        let c = Claimed::of(
            &Parsed::of(text, TextFormat::Exact, false),
            TextFormat::Exact,
        );
        let said = Condensing {
            escapes: 2,
            folds: 1,
            capped: 1,
            cap: Some(8),
        };
        assert_eq!(c.condensing, Some(said));
        let plain = Parsed::of("1 line — log at 1 line\na", TextFormat::Exact, false);
        let c = Claimed::of(&plain, TextFormat::Exact);
        assert_eq!(c.condensing, Some(Condensing::default()));
        // A status carries no body, so no condensing; upstream's notes are not read.
        let status = Parsed::of("(no new lines — log at 1 line)", TextFormat::Exact, false);
        assert_eq!(Claimed::of(&status, TextFormat::Exact).condensing, None);
        let upstream = Parsed::of(
            "a\n\n(1 repeated-line run collapsed)",
            TextFormat::Upstream,
            false,
        );
        assert_eq!(
            Claimed::of(&upstream, TextFormat::Upstream).condensing,
            None
        );
    }

    #[test]
    fn a_blank_emission_stays_in_the_body() {
        let p = Parsed::of(
            "3 lines — log at 3 lines\na\n\nb\n\n(note)",
            TextFormat::Exact,
            false,
        );
        assert_eq!(p.body, ["a", "", "b"]);
        assert_eq!(p.notes, ["note"]);
    }
}
