//! The plain text format (`plain-1`): a reader of one's own, whose body lines are the log's
//! lines as the reader prints them, declared rather than assumed.
//!
//! A reader that is not shaped like pi-bgrun says in `init_ok` how it treats what the log
//! holds (`\r`, escape sequences, blank lines, long lines) and which of its reply's lines are
//! not lines of the log (a header, notes). [`PlainBody`] is that declaration as the protocol
//! carries it; [`Plain`] is the same with its patterns compiled, as the judge applies it. A
//! pattern's named group `total` is a count the reader states — the log's lines, every one
//! counted — and the judge holds it to the truth.

use crate::upstream::condense::{strip_ansi, AnsiFlavor};
use regex::Regex;
use serde::{Deserialize, Serialize};

/// How a reader treats one kind of byte or sequence in a line: prints it, or drops it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Treatment {
    /// Printed as the log holds it.
    #[default]
    Keep,
    /// Removed from the line before it is printed.
    Strip,
}

/// What a reader does with a blank line (one that holds only whitespace).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BlankLines {
    /// Printed: a blank body line stands for no line of the log (blank lines are no content
    /// lines under the contract).
    #[default]
    Keep,
    /// Never printed: a blank body line is an untrue line.
    Hide,
}

/// The lines that open every reply and are not lines of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Header {
    /// The first this many lines of every reply.
    Lines(usize),
    /// The first line, when it matches this pattern (Rust's `regex` syntax, matched against
    /// the whole line).
    Pattern(String),
}

/// How a reader cuts a long line: its first `at` characters (Unicode scalar values, Python's
/// `len`), then a marker that matches `marker`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Cut {
    /// How many characters of a longer line are kept.
    pub at: usize,
    /// What follows them, as a pattern matched against the whole rest of the body line.
    pub marker: String,
}

/// A plain reader's declaration, as `init_ok`'s `plain` object carries it. Every field may be
/// left out: the default is a reader that prints every line as it is, with no header.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PlainBody {
    /// The lines that open a reply and are not lines of the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<Header>,
    /// A pattern for the reader's own notes: any line of a reply that matches it whole is a
    /// note, not a line of the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// `\r` anywhere in a line (a `\r` before the newline always ends the line instead).
    #[serde(default)]
    pub cr: Treatment,
    /// Escape sequences (CSI, OSC and the few ESC sequences pi-bgrun strips).
    #[serde(default)]
    pub ansi: Treatment,
    /// Blank lines.
    #[serde(default)]
    pub blank: BlankLines,
    /// How long lines are cut; absent: printed whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_lines: Option<Cut>,
}

/// A [`PlainBody`] with its patterns compiled: what the judge applies.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Plain {
    /// The declaration this was compiled from.
    pub declared: PlainBody,
    header: Option<Regex>,
    notes: Option<Regex>,
    marker: Option<Regex>,
}

/// Compiles `pattern`, anchored to match a whole line; `field` names it in the error.
fn whole(field: &str, pattern: &str) -> Result<Regex, String> {
    Regex::new(&format!("^(?:{pattern})$")).map_err(|e| format!("{field}: {e}"))
}

impl Plain {
    /// Compiles `declared`. The error names the field whose pattern does not compile, or the
    /// cut that keeps nothing.
    pub fn new(declared: PlainBody) -> Result<Plain, String> {
        let header = match &declared.header {
            Some(Header::Pattern(p)) => Some(whole("plain.header.pattern", p)?),
            _ => None,
        };
        let notes = declared
            .notes
            .as_deref()
            .map(|p| whole("plain.notes", p))
            .transpose()?;
        let marker = match &declared.long_lines {
            Some(cut) if cut.at == 0 => {
                return Err("plain.long_lines.at: 0 keeps nothing of a line; at least 1".into())
            }
            Some(cut) => Some(whole("plain.long_lines.marker", &cut.marker)?),
            None => None,
        };
        Ok(Plain {
            declared,
            header,
            notes,
            marker,
        })
    }

    /// How many of `lines` (a reply's, first first) are its header.
    pub fn header_len(&self, lines: &[&str]) -> usize {
        match (&self.declared.header, &self.header, lines.first()) {
            (Some(Header::Lines(n)), _, _) => (*n).min(lines.len()),
            (_, Some(re), Some(first)) if re.is_match(first) => 1,
            _ => 0,
        }
    }

    /// Whether `line` is one of the reader's notes.
    pub fn is_note(&self, line: &str) -> bool {
        self.notes.as_ref().is_some_and(|re| re.is_match(line))
    }

    /// The log's line count a header or note states in its group `total`, if it has one.
    pub fn stated_total(&self, line: &str, header: bool) -> Option<u64> {
        let re = if header { &self.header } else { &self.notes };
        re.as_ref()?
            .captures(line)?
            .name("total")?
            .as_str()
            .parse()
            .ok()
    }

    /// What the reader prints for a line of the log whose text is `text`. A cut line ends in
    /// `\n`, which no printed line holds, so that only a body line carrying the marker
    /// (see [`Plain::body_line`]) stands for it.
    pub fn print(&self, text: &str) -> String {
        let mut out = self.treat(text);
        if let Some(cut) = &self.declared.long_lines {
            if let Some((at, _)) = out.char_indices().nth(cut.at) {
                out.truncate(at);
                out.push('\n');
            }
        }
        out
    }

    /// A body line as it is compared with [`Plain::print`]: a line that is `at` characters and
    /// a marker becomes those characters and `\n`.
    pub fn body_line(&self, line: &str) -> String {
        if let (Some(cut), Some(marker)) = (&self.declared.long_lines, &self.marker) {
            if let Some((at, _)) = line.char_indices().nth(cut.at) {
                if marker.is_match(&line[at..]) {
                    return format!("{}\n", &line[..at]);
                }
            }
        }
        line.to_owned()
    }

    /// `text` with the declared `\r` and escape-sequence treatment.
    fn treat(&self, text: &str) -> String {
        let mut out = match self.declared.ansi {
            Treatment::Strip => strip_ansi(text, AnsiFlavor::Complete).0,
            Treatment::Keep => text.to_owned(),
        };
        if self.declared.cr == Treatment::Strip {
            out.retain(|c| c != '\r');
        }
        out
    }
}

/// A declaration written as JSON, compiled: the tests' way to make one.
#[cfg(test)]
pub(crate) fn plain(json: &str) -> Plain {
    Plain::new(serde_json::from_str(json).expect("a declaration")).expect("compiles")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_pattern_states_the_total() {
        let p = plain(r#"{"header":{"pattern":"last (?P<total>\\d+) lines"}}"#);
        assert_eq!(p.header_len(&["last 12 lines", "a"]), 1);
        assert_eq!(p.header_len(&["a", "b"]), 0);
        assert_eq!(p.stated_total("last 12 lines", true), Some(12));
        assert_eq!(p.stated_total("last 12 lines", false), None);
    }

    #[test]
    fn a_header_of_lines_is_cut_to_the_reply() {
        let p = plain(r#"{"header":{"lines":2}}"#);
        assert_eq!(p.header_len(&["h1", "h2", "a"]), 2);
        assert_eq!(p.header_len(&["h1"]), 1);
    }

    #[test]
    fn a_cut_line_matches_only_with_its_marker() {
        let p = plain(r#"{"long_lines":{"at":3,"marker":" \\.\\.\\. \\d+ more"}}"#);
        assert_eq!(p.print("abcdef"), "abc\n");
        assert_eq!(p.body_line("abc ... 3 more"), "abc\n");
        assert_eq!(p.body_line("abc"), "abc");
        assert_eq!(p.print("abc"), "abc");
        assert_eq!(p.print("héllo"), "hél\n");
    }

    #[test]
    fn cr_and_escapes_are_dropped_only_when_declared() {
        let keep = plain("{}");
        assert_eq!(keep.print("a\r\u{1b}[1mb"), "a\r\u{1b}[1mb");
        let strip = plain(r#"{"cr":"strip","ansi":"strip"}"#);
        assert_eq!(strip.print("a\r\u{1b}[1mb"), "ab");
    }

    #[test]
    fn a_bad_declaration_names_its_field() {
        let bad = |json: &str| Plain::new(serde_json::from_str(json).unwrap()).unwrap_err();
        assert!(bad(r#"{"notes":"("}"#).starts_with("plain.notes: "));
        assert!(bad(r#"{"header":{"pattern":"[x"}}"#).starts_with("plain.header.pattern: "));
        assert!(bad(r#"{"long_lines":{"at":0,"marker":""}}"#).starts_with("plain.long_lines.at"));
        let unknown = serde_json::from_str::<PlainBody>(r#"{"blanks":"hide"}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown field `blanks`"),
            "{unknown}"
        );
    }
}
