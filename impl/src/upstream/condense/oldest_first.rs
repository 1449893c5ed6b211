//! Upstream's selection (`condenseLogLines`, docs/pi-bgrun-0.7.1.md §5): the **oldest** emissions that fit
//! the budget, stopping at the first that does not.

use super::{build_emissions, common_notes, TextFormat};
use crate::upstream::limits::Limits;

/// Upstream's condenser output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OldestFirst {
    /// The condensed body text.
    pub body: String,
    /// Notes in upstream's order, without the surrounding parentheses.
    pub notes: Vec<String>,
    /// How many input lines the kept emissions stand for: always a prefix of the input.
    pub lines_rendered: usize,
    /// How many emissions were kept.
    pub emissions_kept: usize,
    /// Whether the budget stopped the walk.
    pub budget_hit: bool,
}

/// Upstream's `condenseLogLines` (docs/pi-bgrun-0.7.1.md §5): keeps the **oldest** emissions that fit.
pub(crate) fn condense_oldest_first<S: AsRef<str>>(lines: &[S], limits: &Limits) -> OldestFirst {
    let emissions = build_emissions(lines, limits, TextFormat::Upstream);
    let mut total = 0usize;
    let mut kept: Vec<&str> = Vec::new();
    let mut lines_rendered = 0;
    let mut line_capped = 0usize;
    let mut budget_hit = false;
    for e in &emissions.list {
        // Upstream counts a capped line before it checks the budget, so the emission that
        // stops the walk is counted too.
        if e.line_capped {
            line_capped += 1;
        }
        total += e.cost();
        if total > limits.text_budget {
            budget_hit = true;
            break;
        }
        kept.push(&e.text);
        lines_rendered += e.count;
    }
    let mut notes = Vec::new();
    if budget_hit {
        notes.push(format!(
            "output capped at {} chars — {} raw lines total; raise `lines`, use `raw: true`, or read the log path directly for whole-log analysis",
            limits.text_budget,
            lines.len()
        ));
    }
    notes.extend(common_notes(
        emissions.lines_with_ansi,
        emissions.folded_runs,
        line_capped,
        limits,
    ));
    OldestFirst {
        body: kept.join("\n"),
        notes,
        lines_rendered,
        emissions_kept: kept.len(),
        budget_hit,
    }
}
