//! How the exact format prints one line of the log, in the judge's own code (the contract's
//! read rule, step 4): its escape sequences stripped, a NUL shown as `␀`, and the text cut at
//! the per-line cap with ` …[+N chars]`, N the UTF-16 units cut off.
//!
//! The engines print with the condenser (`upstream::condense`). Were the judge to read the log
//! with it too, a fault in the condenser's steps — an escape left in, a NUL printed as is, a
//! line of exactly the cap cut — would change the truth and the reply alike and never show.
//! Only the escape pattern is shared: it is data, the contract's list of what an escape is.
//! A proptest below holds the two equal on every line.

use crate::upstream::condense::{ansi_regex, AnsiFlavor};

/// One line as the exact format prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct LinePrint {
    /// The text with escapes stripped and NUL shown, uncut: what a run of equal lines repeats.
    pub clean: String,
    /// `clean`, cut at the per-line cap where it is longer.
    pub printed: String,
    /// Whether the cap cut it.
    pub capped: bool,
    /// The escape sequences stripped.
    pub escapes: usize,
}

/// `text` as the exact format prints it under a per-line cap of `line_cap` UTF-16 units.
pub(super) fn exact_line(text: &str, line_cap: usize) -> LinePrint {
    let (stripped, escapes) = strip_escapes(text);
    // NUL after stripping: an OSC sequence runs to its terminator, NUL bytes included.
    let clean = stripped.replace('\0', "\u{2400}");
    let (printed, capped) = match cut_at(&clean, line_cap) {
        Some(cut) => (cut, true),
        None => (clean.clone(), false),
    };
    LinePrint {
        clean,
        printed,
        capped,
        escapes,
    }
}

/// `text` without the escape sequences the exact format strips (CSI and OSC), and how many.
fn strip_escapes(text: &str) -> (String, usize) {
    // Every escape the pattern matches opens with ESC or CSI: most lines hold neither.
    if !text.contains(['\u{1b}', '\u{9b}']) {
        return (text.to_owned(), 0);
    }
    let mut out = String::with_capacity(text.len());
    let mut escapes = 0;
    let mut kept_from = 0;
    for found in ansi_regex(AnsiFlavor::Complete).find_iter(text) {
        out.push_str(&text[kept_from..found.start()]);
        kept_from = found.end();
        escapes += 1;
    }
    out.push_str(&text[kept_from..]);
    (out, escapes)
}

/// `clean` cut to its first `line_cap` UTF-16 units with the count of those cut off, or
/// `None` when it fits. A cut inside a surrogate pair leaves its high half, which UTF-8
/// cannot hold: it prints as U+FFFD, as Node writes it.
fn cut_at(clean: &str, line_cap: usize) -> Option<String> {
    let over = clean
        .encode_utf16()
        .count()
        .checked_sub(line_cap)
        .filter(|&n| n > 0)?;
    let units: Vec<u16> = clean.encode_utf16().take(line_cap).collect();
    let kept = String::from_utf16_lossy(&units);
    Some(format!("{kept} …[+{over} chars]"))
}

#[cfg(test)]
mod tests {
    use super::exact_line;
    use crate::upstream::condense::{build_emissions, TextFormat};
    use crate::upstream::limits::Limits;
    use proptest::prelude::*;

    #[test]
    fn escapes_go_nul_shows_and_the_cap_cuts_past_its_length() {
        let line = exact_line("\u{1b}[1ms3\0\u{1b}]0;title\u{7}", 3);
        assert_eq!(line.clean, "s3\u{2400}");
        assert_eq!((line.printed.as_str(), line.capped), ("s3\u{2400}", false));
        assert_eq!(line.escapes, 2);
        let cut = exact_line("s3\0y", 3);
        assert_eq!(
            (cut.printed.as_str(), cut.capped),
            ("s3\u{2400} …[+1 chars]", true)
        );
        let pair = exact_line("a😀", 2);
        assert_eq!(pair.printed, "a\u{FFFD} …[+1 chars]");
    }

    /// Characters that make and break escape sequences, NUL, and text of 1 and 2 UTF-16 units.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "\u{1b}", "\u{9b}", "[", "]", "(", ";", "?", "0", "1", "42", "m", "K", "\u{7}", "\\",
            "\0", "a", " ", "😀", "\u{2400}",
        ])
    }

    proptest! {
        #[test]
        fn the_judge_prints_a_line_as_the_condenser_does(
            pieces in prop::collection::vec(piece(), 0..16),
            line_cap in 0usize..12,
        ) {
            let text = pieces.concat();
            let limits = Limits { line_cap, ..Limits::default() };
            let e = build_emissions(&[&text], &limits, TextFormat::Exact).list.remove(0);
            let line = exact_line(&text, line_cap);
            prop_assert_eq!(&line.clean, &TextFormat::Exact.clean(&text).0);
            prop_assert_eq!(&line.printed, &e.text);
            prop_assert_eq!(line.capped, e.line_capped);
            prop_assert_eq!(line.escapes, e.ansi_sequences);
        }
    }
}
