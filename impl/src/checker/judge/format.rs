//! How the `bgtail-exact-1` text says what it says (docs/contract.md, "What the exact engine
//! says"): each count once, none of nothing. A reply whose every statement is true can still
//! spend the agent's context on words that say nothing (`0 earlier lines not shown before`),
//! read as if something were missing (`+3 of 3 new lines`), or leave the agent to count
//! (a first read's header that does not say how many lines it carries). Each is
//! [`AnomalyKind::OffFormat`].

use super::align::Aligned;
use super::literal::{contains, rsplit_once, split, split_once};
use super::text::{Claimed, Parsed};
use super::verdict::{Anomaly, AnomalyKind, Verdict};

/// The header's parts and the notes' parts, against the format's rules.
pub(super) fn check(
    parsed: &Parsed<'_>,
    claimed: &Claimed,
    aligned: &Aligned,
    raw: bool,
    v: &mut Verdict,
) {
    if let Some(header) = parsed.header.filter(|_| !raw) {
        check_header(header, claimed, aligned, v);
    }
    for note in &parsed.notes {
        for part in split(note, "; ") {
            if let Some(why) = empty_part(part) {
                off(v, why, note);
            }
        }
    }
    let counted = parsed
        .header
        .iter()
        .chain(&parsed.status)
        .chain(&parsed.notes);
    for part in counted.flat_map(|said| split(said, "; ")) {
        if let Some(why) = disagreement(part) {
            off(v, why, part);
        }
    }
    if let Some(part) = parsed
        .notes
        .iter()
        .flat_map(|note| split(note, "; "))
        .find(|part| !line_bound_grouped(part))
    {
        off(
            v,
            "the line bound as upstream prints it: en-US digit groups (`500,000`)",
            part,
        );
    }
    let beside_status = parsed.status.is_some() || raw;
    if let Some(note) = parsed
        .notes
        .iter()
        .find(|n| skipped_note(n))
        .filter(|_| beside_status)
    {
        off(
            v,
            "a skipped-lines note only beside a condensed body (a status counts the lines above itself)",
            note,
        );
    }
}

/// The header's parts (between its opening words and ` — `, joined by `, `): none empty or
/// of nothing; a first read or a reset that carries lines says how many.
fn check_header(header: &str, claimed: &Claimed, aligned: &Aligned, v: &mut Verdict) {
    let what =
        split_once(header, ", so the bookmark starts over: ").map_or(header, |(_, rest)| rest);
    let what = what.strip_prefix("first read: ").unwrap_or(what);
    let what = rsplit_once(what, " — ").map_or(what, |(what, _)| what);
    for part in split(what, ", ") {
        if let Some(why) = empty_part(part).or_else(|| all_of(part)) {
            off(v, why, header);
        }
    }
    let opening = claimed.stated.first_read || claimed.reset;
    if opening && !aligned.complete.is_empty() && claimed.shown.is_none() {
        off(
            v,
            "a first read's header says how many lines it carries",
            header,
        );
    }
}

/// Why `part` says nothing: it is empty, or it counts zero of something.
fn empty_part(part: &str) -> Option<&'static str> {
    if part.trim().is_empty() {
        return Some("no empty part");
    }
    let count = part.strip_prefix('+').unwrap_or(part);
    let zero = count.starts_with("0 ") || count == "0";
    zero.then_some("no count of zero")
}

/// Why `+K of N new lines` says less than it could: K is all N.
fn all_of(part: &str) -> Option<&'static str> {
    let rest = part.strip_prefix('+')?;
    let (shown, rest) = split_once(rest, " of ")?;
    let of = rest.split(' ').next()?;
    let (shown, of) = (shown.parse::<u64>().ok()?, of.parse::<u64>().ok()?);
    (shown >= of).then_some("`+N of M` only when fewer than M are shown")
}

/// The nouns the text counts, each as it says one and as it says more.
const NOUNS: [(&str, &str); 4] = [
    ("line", "lines"),
    ("range", "ranges"),
    ("run", "runs"),
    ("sequence", "sequences"),
];

/// Why `part` says a count in the wrong number: a count followed, within three words and
/// before another number, by a counted noun says it as one exactly when the count is 1
/// (`1 long line`, `3 new lines`, `2 oldest shown ranges`); the skipped-lines note's
/// `reaches it` or `reaches them` agrees with the count of skipped lines.
fn disagreement(part: &str) -> Option<&'static str> {
    // Both rules below start from a count, and a count has a digit: most parts (a header's
    // words, a note of no number) are passed over without being split into words.
    if !part.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    // The words after a count are looked at through a copy of the iterator: no list of
    // words is built for a part the judge reads once.
    let mut words = part.split_whitespace();
    while let Some(word) = words.next() {
        let Some(n) = count(word) else { continue };
        let noun = words
            .clone()
            .take(3)
            .take_while(|w| count(w).is_none())
            .find_map(|w| number_of(w.trim_end_matches([',', ';', ')'])));
        if noun.is_some_and(|one| one != (n == 1)) {
            return Some("a count says its noun as one exactly when it is 1");
        }
    }
    if skipped_note(part) {
        let skipped = part.split_whitespace().next().and_then(count)?;
        let object = if skipped == 1 {
            "reaches it"
        } else {
            "reaches them"
        };
        return (!part.ends_with(object))
            .then_some("the skipped lines are reached as `it` exactly when there is 1");
    }
    None
}

/// The count a word states (`12`, `+3`, `(1`, `500,000`), if it is one.
fn count(word: &str) -> Option<u64> {
    let digits = word.trim_start_matches(['(', '+']);
    let digits = digits.trim_end_matches([',', ';', ')']);
    // Digits with commas anywhere between them, at least one digit, within u64: read in
    // place, as the judge asks this of every word of every part of every reply.
    let well_formed = digits.bytes().all(|b| b.is_ascii_digit() || b == b',')
        && digits.bytes().any(|b| b.is_ascii_digit());
    if !well_formed {
        return None;
    }
    digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .try_fold(0u64, |n, b| {
            n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        })
}

/// Whether `word` is a counted noun said as one (`true`) or as more (`false`).
fn number_of(word: &str) -> Option<bool> {
    NOUNS.iter().find_map(|&(one, more)| {
        if word == one {
            Some(true)
        } else {
            (word == more).then_some(false)
        }
    })
}

/// Whether the line bound's note (`only the last 500,000 lines of the view were scanned`),
/// if `part` is one, writes the bound as upstream's `toLocaleString()` does: a comma between
/// every three digits from the right, and nowhere else. Any other part passes.
fn line_bound_grouped(part: &str) -> bool {
    let Some(rest) = part.strip_prefix("only the last ") else {
        return true;
    };
    let written = rest.split(' ').next().unwrap_or_default();
    let plain: String = written.chars().filter(|&c| c != ',').collect();
    match plain.parse::<u64>() {
        Ok(n) if plain.bytes().all(|b| b.is_ascii_digit()) => written == en_us(n),
        _ => false,
    }
}

/// `n` in en-US digit groups, built from the right a thousand at a time (the judge's own
/// printing, held equal to `upstream::js::group_thousands` by a proptest).
fn en_us(mut n: u64) -> String {
    let mut groups = Vec::new();
    while n >= 1000 {
        groups.push(format!("{:03}", n % 1000));
        n /= 1000;
    }
    groups.push(n.to_string());
    groups.reverse();
    groups.join(",")
}

fn skipped_note(note: &str) -> bool {
    contains(note, " above this window — lines: ")
}

fn off(v: &mut Verdict, rule: &str, said: &str) {
    v.push(Anomaly::new(AnomalyKind::OffFormat, None, rule, said));
}

#[cfg(test)]
mod tests {
    use super::{count, disagreement, en_us, line_bound_grouped};
    use crate::upstream::js::group_thousands;
    use proptest::prelude::*;

    /// The count a word states, by its definition: its digits once commas are dropped, read
    /// as a u64 (what [`count`] reads in place).
    fn count_by_definition(word: &str) -> Option<u64> {
        let digits = word.trim_start_matches(['(', '+']);
        let digits = digits.trim_end_matches([',', ';', ')']);
        let plain: String = digits.chars().filter(|&c| c != ',').collect();
        let well_formed = !plain.is_empty() && plain.bytes().all(|b| b.is_ascii_digit());
        well_formed.then(|| plain.parse().ok()).flatten()
    }

    #[test]
    fn a_count_past_u64_or_of_commas_only_is_no_count() {
        assert_eq!(count("18446744073709551615"), Some(u64::MAX));
        assert_eq!(count("18,446,744,073,709,551,616"), None);
        assert_eq!(count("(,,)"), None);
        assert_eq!(count("+1,234;"), Some(1234));
        assert_eq!(count("1.5"), None);
    }

    proptest! {
        #[test]
        fn a_count_is_read_in_place_as_its_definition_reads_it(
            word in "[(+]{0,2}[0-9,]{0,24}[,;)]{0,2}|\\PC{0,12}"
        ) {
            prop_assert_eq!(count(&word), count_by_definition(&word));
        }
    }

    #[test]
    fn the_line_bound_is_grouped_by_thousands_from_the_right() {
        for grouped in [
            "only the last 1 line of the view were scanned",
            "only the last 999 lines of the view were scanned",
            "only the last 1,234 lines of the view were scanned",
            "only the last 500,000 lines of the view were scanned",
            "only the last 1,000,000 lines of the view were scanned",
            "1,2 skipped lines",
        ] {
            assert!(line_bound_grouped(grouped), "{grouped}");
        }
        for off in [
            "only the last 1234 lines of the view were scanned",
            "only the last 1,2,3,4 lines of the view were scanned",
            "only the last 12,34 lines of the view were scanned",
            "only the last ,500,000 lines of the view were scanned",
            "only the last 500000 lines of the view were scanned",
            "only the last 1,0 lines of the view were scanned",
            "only the last lines of the view were scanned",
        ] {
            assert!(!line_bound_grouped(off), "{off}");
        }
    }

    proptest! {
        /// The judge's grouping and upstream's `toLocaleString()` agree on every count.
        #[test]
        fn the_judge_groups_digits_as_upstream_does(n in prop_oneof![0u64..100_000, any::<u64>()]) {
            prop_assert_eq!(en_us(n), group_thousands(n));
        }
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        for agrees in [
            "first read: 1 line — log at 1 line",
            "+3 new lines, 1 earlier line not shown before — log at 12 lines",
            "+1 of 3 new lines — log at 500,000 lines",
            "1 long line truncated to 8 chars",
            "2 ANSI escape sequences stripped",
            "1 repeated-line run collapsed",
            "bookmark full: forgot the 2 oldest shown ranges — their lines may be shown again",
            "2 lines in the last 976.6 KiB (the view above is not counted yet)",
            "1 skipped line above this window — lines: 3 reaches it",
            "2 skipped lines above this window — lines: 3 reaches them",
            "1 older line left out by the 40-char budget — the next read with lines: 7 returns them",
            "only the last 1 line of the view were scanned",
        ] {
            assert_eq!(disagreement(agrees), None, "{agrees}");
        }
        for disagrees in [
            "first read: 2 line — log at 2 lines",
            "log at 1 lines",
            "1 ANSI escape sequences stripped",
            "bookmark full: forgot the 1 oldest shown ranges — their lines may be shown again",
            "only the last 500,000 line of the view were scanned",
            "1 skipped line above this window — lines: 3 reaches them",
            "2 skipped lines above this window — lines: 3 reaches it",
        ] {
            assert!(disagreement(disagrees).is_some(), "{disagrees}");
        }
    }
}
