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

fn skipped_note(note: &str) -> bool {
    contains(note, " above this window — lines: ")
}

fn off(v: &mut Verdict, rule: &str, said: &str) {
    v.push(Anomaly::new(AnomalyKind::OffFormat, None, rule, said));
}
