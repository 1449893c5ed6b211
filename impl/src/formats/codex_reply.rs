//! Codex's poll replies (`codex-343074d4`, and the rollouts of Codex 0.118 to 0.142): the
//! envelope, the warning and the markers around the text a poll drained.
//!
//! ```text
//! Chunk ID: 4f2a1c                            ignored (random upstream)
//! Wall time: 5.0021 seconds                   ignored (measured upstream)
//! Process running with session ID 1000        the job runs (or: Process exited with code N)
//! Original token count: 3                     ⌈bytes drained / 4⌉, checked
//! Output:
//! Warning: truncated output (original token count: 3)     when the text was cut
//! Total output lines: 3                       the lines drained, checked (when nothing dropped)
//! ... 9 bytes omitted ...                     when the head-tail buffer dropped its middle
//!
//! s0
//! s…1 tokens truncated…                       the inline cut, anywhere in a line
//! ```
//!
//! Codex 0.118 to 0.142 (`formatted_truncate_text` before the warning line was added) open a
//! cut text with `Total output lines: M` and a blank line alone; it is read as the warning's
//! line count when the text after it carries the inline cut, as every such text does.

use std::sync::OnceLock;

/// What a Codex reply states around the text it shows.
#[derive(Debug, Default)]
pub(crate) struct CodexReply<'a> {
    /// `Process running with session ID` (true) or `Process exited with code` (false).
    pub running: Option<bool>,
    /// The code of `Process exited with code N`.
    pub exit_code: Option<i64>,
    /// `Original token count: N`: the tokens of everything the poll drained.
    pub token_count: Option<u64>,
    /// `Total output lines: M`: the lines of the text before it was cut.
    pub total_lines: Option<u64>,
    /// The text after the envelope and the warning: the log's text, with its cuts.
    pub display: &'a str,
    /// Whether the reply says text was dropped: the warning, or either marker.
    pub says_cut: bool,
    /// Lines of the envelope that are not Codex's.
    pub foreign: Vec<&'a str>,
}

/// Takes a Codex reply apart.
pub(crate) fn parse(text: &str) -> CodexReply<'_> {
    let mut reply = CodexReply::default();
    let mut rest = text;
    loop {
        let (line, after) = match rest.split_once('\n') {
            Some((line, after)) => (line, after),
            None => (rest, ""),
        };
        if line == "Output:" {
            rest = after;
            break;
        }
        if !envelope_line(line, &mut reply) {
            reply.foreign.push(line);
        }
        if after.is_empty() && !rest.contains('\n') {
            reply.foreign.push("(no `Output:` line)");
            return reply;
        }
        rest = after;
    }
    reply.display = warning(rest, &mut reply.total_lines);
    reply.says_cut = reply.display.len() < rest.len()
        || inline_cut(reply.display).is_some()
        || next_omission(reply.display).is_some();
    reply
}

/// Reads one line of the envelope into `reply`; false when it is not one of Codex's.
fn envelope_line<'a>(line: &'a str, reply: &mut CodexReply<'a>) -> bool {
    if line.starts_with("Chunk ID: ") {
        return true;
    }
    if let Some(secs) = line
        .strip_prefix("Wall time: ")
        .and_then(|l| l.strip_suffix(" seconds"))
    {
        return secs.parse::<f64>().is_ok();
    }
    if let Some(code) = line.strip_prefix("Process exited with code ") {
        reply.running = Some(false);
        reply.exit_code = code.parse::<i64>().ok();
        return reply.exit_code.is_some();
    }
    if let Some(id) = line.strip_prefix("Process running with session ID ") {
        reply.running = Some(true);
        return id.parse::<i64>().is_ok();
    }
    if let Some(n) = line.strip_prefix("Original token count: ") {
        reply.token_count = n.parse().ok();
        return reply.token_count.is_some();
    }
    false
}

/// The text after the warning Codex puts first when it cut the output: the warning line, the
/// line count (when nothing was dropped), the omission notice (when the cut removed the
/// marker), and a blank line.
fn warning<'a>(output: &'a str, total_lines: &mut Option<u64>) -> &'a str {
    let Some(rest) = output.strip_prefix("Warning: truncated output (original token count: ")
    else {
        return line_count_alone(output, total_lines);
    };
    let Some((count, mut rest)) = rest.split_once(")\n") else {
        return output;
    };
    if count.parse::<u64>().is_err() {
        return output;
    }
    if let Some((n, after)) = rest
        .strip_prefix("Total output lines: ")
        .and_then(|r| r.split_once('\n'))
    {
        *total_lines = n.parse().ok();
        rest = after;
    }
    if let Some(len) = omission_at(&format!("\n{rest}")) {
        rest = &rest[len - 1..];
    }
    rest.strip_prefix('\n').unwrap_or(rest)
}

/// The text after Codex 0.118–0.142's `Total output lines: M` and blank line, which open a
/// cut text without the warning; `output` itself when it does not open so or carries no cut.
fn line_count_alone<'a>(output: &'a str, total_lines: &mut Option<u64>) -> &'a str {
    let Some((n, rest)) = output
        .strip_prefix("Total output lines: ")
        .and_then(|r| r.split_once("\n\n"))
    else {
        return output;
    };
    match n.parse::<u64>() {
        Ok(n) if inline_cut(rest).is_some() => {
            *total_lines = Some(n);
            rest
        }
        _ => output,
    }
}

/// Where the inline cut `…N tokens truncated…` (or `…N chars truncated…`) sits in `text`.
pub(crate) fn inline_cut(text: &str) -> Option<(usize, usize)> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new("…[0-9]+ (?:tokens|chars) truncated…").expect("the pattern compiles")
    });
    re.find(text).map(|m| (m.start(), m.end()))
}

/// The length of the omission marker line `\n... K bytes omitted ...\n` at the start of
/// `text`, newlines included.
pub(crate) fn omission_at(text: &str) -> Option<usize> {
    let rest = text.strip_prefix("\n... ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let tail = " bytes omitted ...\n";
    (digits > 0 && rest[digits..].starts_with(tail)).then_some(5 + digits + tail.len())
}

/// Where the next omission marker line starts in `text`, and its length.
pub(crate) fn next_omission(text: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(at) = text[from..].find("\n... ") {
        let at = from + at;
        if let Some(len) = omission_at(&text[at..]) {
            return Some((at, len));
        }
        from = at + 1;
    }
    None
}

/// The omission marker line, `#` standing for one or more digits.
const MARKER: &[u8] = b"\n... # bytes omitted ...\n";

/// Whether `s`, not empty, is how a marker line begins (the inline cut took the rest).
pub(crate) fn is_marker_prefix(s: &str) -> bool {
    !s.is_empty() && follows(s.bytes(), MARKER.iter().copied())
}

/// Whether `s`, not empty, is how a marker line ends (the inline cut took the start).
pub(crate) fn is_marker_suffix(s: &str) -> bool {
    !s.is_empty() && follows(s.bytes().rev(), MARKER.iter().rev().copied())
}

/// Whether `s` runs along `template` until `s` ends, `#` matching a run of digits.
fn follows(s: impl Iterator<Item = u8>, template: impl Iterator<Item = u8>) -> bool {
    let mut s = s.peekable();
    for t in template {
        if s.peek().is_none() {
            return true;
        }
        if t == b'#' {
            if s.next_if(u8::is_ascii_digit).is_none() {
                return false;
            }
            while s.next_if(u8::is_ascii_digit).is_some() {}
        } else if s.next() != Some(t) {
            return false;
        }
    }
    s.peek().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_says_whether_the_job_runs_and_what_was_drained() {
        let r = parse(
            "Chunk ID: 1a\nWall time: 5.0000 seconds\nProcess running with session ID 7\n\
             Original token count: 2\nOutput:\ns0\ns1\n",
        );
        assert_eq!(
            (r.running, r.token_count, r.display),
            (Some(true), Some(2), "s0\ns1\n")
        );
        assert!(r.foreign.is_empty());
        let exited = parse("Wall time: 0.1000 seconds\nProcess exited with code 3\nOutput:\n");
        assert_eq!((exited.running, exited.display), (Some(false), ""));
    }

    #[test]
    fn the_warning_and_its_line_count_are_not_the_logs() {
        let r = parse(
            "Output:\nWarning: truncated output (original token count: 3)\n\
             Total output lines: 3\n\ns0\ns…1 tokens truncated…\ns2\n",
        );
        assert_eq!(r.total_lines, Some(3));
        assert_eq!(r.display, "s0\ns…1 tokens truncated…\ns2\n");
        let dropped = parse(
            "Output:\nWarning: truncated output (original token count: 4)\n\
             ... 7 bytes omitted ...\n\ns0…8 tokens truncated…4\n",
        );
        assert_eq!(dropped.display, "s0…8 tokens truncated…4\n");
    }

    #[test]
    fn the_line_count_alone_opens_a_cut_text_of_codex_0_142() {
        let r = parse("Output:\nTotal output lines: 3\n\ns0\ns…1 tokens truncated…\ns2\n");
        assert_eq!((r.total_lines, r.says_cut), (Some(3), true));
        assert_eq!(r.display, "s0\ns…1 tokens truncated…\ns2\n");
        // Without a cut after it, the line is the log's own.
        let own = parse("Output:\nTotal output lines: 3\n\ns0\n");
        assert_eq!(
            (own.total_lines, own.display),
            (None, "Total output lines: 3\n\ns0\n")
        );
    }

    #[test]
    fn lines_that_are_not_codexs_are_named() {
        let r = parse("Hello\nOutput:\n");
        assert_eq!(r.foreign, ["Hello"]);
        assert_eq!(parse("s0\ns1").foreign, ["s0", "s1", "(no `Output:` line)"]);
    }

    #[test]
    fn a_marker_cut_by_the_inline_cut_is_still_a_marker() {
        assert!(is_marker_prefix("\n... 4 by"));
        assert!(is_marker_prefix("\n"));
        assert!(is_marker_prefix("\n... 12"));
        assert!(!is_marker_prefix("\nx"));
        assert!(is_marker_suffix("tes omitted ...\n"));
        assert!(is_marker_suffix("4 bytes omitted ...\n"));
        assert!(!is_marker_suffix("s omitted ..\n"));
        assert_eq!(
            next_omission("s0\ns\n... 4 bytes omitted ...\n\ns3\n"),
            Some((4, 25))
        );
    }
}
