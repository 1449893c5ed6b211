//! A plain reader's reply (`plain-1`), taken apart by what the reader declared: its header,
//! its notes, and the lines of the log between them. Only the counts its patterns name are
//! read (`total`: the log's lines, every one counted); the rest of a header or note is the
//! reader's own and stands for no line of the log.

use super::text::{Claimed, Parsed};
use crate::interface::plain::Plain;

/// Takes `text` apart: the declared header first, then every line that is a note, and the
/// body in order. One `\n` ending the text ends its last line; it opens no blank line.
pub(crate) fn parse<'a>(text: &'a str, plain: &Plain) -> (Parsed<'a>, Claimed) {
    let mut parsed = Parsed::default();
    let mut claimed = Claimed::default();
    let text = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return (parsed, claimed);
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let header = plain.header_len(&lines);
    let mut state = |line: &str, header: bool| {
        if claimed.every_line.is_none() {
            claimed.every_line = plain.stated_total(line, header).map(|n| (n, n));
        }
    };
    for &line in &lines[..header] {
        state(line, true);
    }
    parsed.header = lines[..header].first().copied();
    for &line in &lines[header..] {
        if plain.is_note(line) {
            state(line, false);
            parsed.notes.push(line);
        } else {
            parsed.body.push(line);
        }
    }
    (parsed, claimed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::plain::plain;

    #[test]
    fn the_header_and_notes_are_set_apart_and_their_total_read() {
        let p = plain(
            r#"{"header":{"pattern":"last \\d+ of (?P<total>\\d+) lines"},"notes":"\\[.*\\]"}"#,
        );
        let (parsed, claimed) = parse("last 2 of 9 lines\na\n[cut]\nb\n", &p);
        assert_eq!(parsed.header, Some("last 2 of 9 lines"));
        assert_eq!(parsed.body, ["a", "b"]);
        assert_eq!(parsed.notes, ["[cut]"]);
        assert_eq!(claimed.every_line, Some((9, 9)));
    }

    #[test]
    fn an_empty_reply_has_no_body() {
        let (parsed, claimed) = parse("", &plain("{}"));
        assert!(parsed.body.is_empty() && parsed.header.is_none());
        assert_eq!(claimed.every_line, None);
        assert_eq!(parse("a\n\nb", &plain("{}")).0.body, ["a", "", "b"]);
    }
}
