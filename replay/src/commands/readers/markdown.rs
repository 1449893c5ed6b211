//! The tables of `docs/readers.md` that `bgtail readers` writes: one row a reader, from what
//! was measured, and the page's generated part between its markers.

use super::measure::{Broken, Measured};
use super::table::{properties, Reader, PARTIAL_LINES};

pub(super) const BEGIN: &str = "<!-- bgtail readers: begin -->";
pub(super) const END: &str = "<!-- bgtail readers: end -->";

/// The model's property a reset's report is held to: not checked for a reader that is only
/// ever shown appends.
const RESETS_SEEN: &str = "resets seen";

pub(super) const WILD_BEGIN: &str = "<!-- bgtail readers: in the wild begin -->";
pub(super) const WILD_END: &str = "<!-- bgtail readers: in the wild end -->";

/// `page` with `table` between its markers.
pub(super) fn with_generated(page: &str, table: &str) -> Option<String> {
    between(page, BEGIN, END, table)
}

/// `page` with `text` between the markers `begin` and `end`.
pub(super) fn between(page: &str, begin: &str, end: &str, text: &str) -> Option<String> {
    let from = page.find(begin)? + begin.len();
    let to = from + page[from..].find(end)?;
    Some(format!("{}\n{text}{}", &page[..from], &page[to..]))
}

/// The witnesses' bounds in the order first met, each with its paths' lengths
/// (`cap: 1 path replayed (5 steps)`).
pub(super) fn replayed(witnesses: &[(String, usize)]) -> Vec<String> {
    let mut bounds: Vec<(&str, Vec<String>)> = Vec::new();
    for (bound, steps) in witnesses {
        match bounds.iter_mut().find(|(b, _)| b == bound) {
            Some((_, lengths)) => lengths.push(steps.to_string()),
            None => bounds.push((bound, vec![steps.to_string()])),
        }
    }
    bounds
        .into_iter()
        .map(|(bound, lengths)| {
            let paths = if lengths.len() == 1 { "path" } else { "paths" };
            let n = lengths.len();
            format!(
                "{bound}: {n} {paths} replayed ({} steps)",
                lengths.join(", ")
            )
        })
        .collect()
}

/// Whether a bound the reader is searched at writes partial lines: where none does, the
/// partial lines column says it is not checked rather than `holds`.
pub(super) fn writes_partial_lines(reader: &Reader) -> bool {
    reader.bounds.iter().any(|b| b.bound.config().partial_lines)
}

/// The tables, in Markdown.
pub(super) fn render(rows: &[(&Reader, Measured)]) -> String {
    let mut columns = properties();
    columns.push(PARTIAL_LINES);
    let mut out = String::new();
    out.push_str("| reader | ");
    out.push_str(&columns.join(" | "));
    out.push_str(" |\n|---|");
    out.push_str(&"---|".repeat(columns.len()));
    out.push('\n');
    for (reader, m) in rows {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| match m.broken.get(c) {
                Some(broken) => cell(broken),
                None if *c == PARTIAL_LINES && !writes_partial_lines(reader) => {
                    "not checked (no bound writes partial lines)".to_owned()
                }
                None if *c == RESETS_SEEN && m.appends_only => {
                    "not supported (fed the output stream: no cut or rewrite to see)".to_owned()
                }
                None => "holds".to_owned(),
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", reader.name, cells.join(" | ")));
    }
    out.push_str("\n| reader | bounds checked (unique states) |\n|---|---|\n");
    for (reader, m) in rows {
        let bounds: Vec<String> = m
            .checked
            .iter()
            .map(|(b, n)| format!("{b}: {}", thousands(*n as u64)))
            .chain(replayed(&m.replayed))
            .collect();
        out.push_str(&format!("| {} | {} |\n", reader.name, bounds.join("; ")));
    }
    out.push_str(
        "\n| reader | reads | not replayed | lines delivered | repeated | chars repeated | lost | anomalies |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (reader, m) in rows {
        let c = &m.corpus;
        let anomalies: Vec<String> = c
            .anomalies
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            reader.name,
            thousands(c.reads),
            thousands(c.not_replayed),
            thousands(c.lines_delivered),
            thousands(c.lines_repeated),
            thousands(c.chars_repeated),
            thousands(c.lines_lost),
            if anomalies.is_empty() {
                "none".to_owned()
            } else {
                anomalies.join(", ")
            }
        ));
    }
    out
}

/// A broken cell: the anomaly, the bound, and the shortest path, runs of one action folded.
pub(super) fn cell(b: &Broken) -> String {
    let mut steps: Vec<(String, usize)> = Vec::new();
    for action in &b.path {
        let name = format!("{action:?}");
        match steps.last_mut() {
            Some((last, n)) if *last == name => *n += 1,
            _ => steps.push((name, 1)),
        }
    }
    let path: Vec<String> = steps
        .into_iter()
        .map(|(a, n)| if n > 1 { format!("{a}×{n}") } else { a })
        .collect();
    format!(
        "**{}** ({}, {} steps: {})",
        b.anomaly,
        b.bound,
        b.path.len(),
        path.join(", ")
    )
}

/// `12345` as `12,345`.
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::measure::keep;
    use super::super::table::{at, At, Source, CI_SMALL};
    use super::*;
    use crate::checks::bound::Bound;
    use bgtail_model::Action;

    #[test]
    fn witnesses_are_grouped_by_bound_in_the_order_first_met() {
        let ci = "ci, 1 line, 2 reads".to_owned();
        let witnesses = [(ci.clone(), 4), ("cap".to_owned(), 5), (ci, 5)];
        assert_eq!(
            replayed(&witnesses),
            [
                "ci, 1 line, 2 reads: 2 paths replayed (4, 5 steps)",
                "cap: 1 path replayed (5 steps)",
            ]
        );
    }

    /// The partial lines cell of a reader measured as `measured`.
    fn partial_cell(bounds: &'static [At], measured: Measured) -> String {
        let reader = Reader {
            name: "r",
            source: Source::Exact,
            bounds,
            witnesses: &[],
        };
        let table = render(&[(&reader, measured)]);
        let row = table.lines().find(|l| l.starts_with("| r |")).unwrap();
        row.trim_end_matches(" |")
            .rsplit(" | ")
            .next()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn partial_lines_hold_only_where_a_bound_wrote_them() {
        const GAP: &[At] = &[at(Bound::Gap, None, None)];
        assert_eq!(
            partial_cell(GAP, Measured::default()),
            "not checked (no bound writes partial lines)"
        );
        assert_eq!(partial_cell(&[CI_SMALL], Measured::default()), "holds");
        let mut broken = Measured::default();
        let path = vec![Action::WritePartial, Action::Read(1)];
        assert!(keep(&mut broken, PARTIAL_LINES, "ci", "Lost", path.clone()));
        assert!(!keep(&mut broken, PARTIAL_LINES, "ci", "Stalled", path));
        assert_eq!(
            partial_cell(&[CI_SMALL], broken),
            "**Lost** (ci, 2 steps: WritePartial, Read(1))"
        );
    }
}
