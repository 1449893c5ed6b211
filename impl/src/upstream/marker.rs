//! The wrapper's exit marker: the line pi-bgrun's wrapper appends when the job ends, and the
//! cap its ` truncated=` label records. A leaf, so that the view and the judge find the marker
//! by the same prefix, neither importing the other; the judge reads the cap with its own code
//! (`checker::judge::truth`), so that a fault in this reading shows in the replies it judges.

/// The exit marker the wrapper appends when the job ends.
pub const EXIT_MARKER: &str = "__BGRUN_EXIT__=";

/// The cap an exit marker line records: the first ` truncated=` followed by digits anywhere
/// in it (` truncated=x truncated=7` is 7), read as JavaScript's `parseInt` reads it: a
/// double, so past 2^53 it rounds, past 2^64 it does not saturate, and past ~1.8e308 it is
/// infinite.
pub fn cap_of(exit_line: &str) -> Option<f64> {
    const LABEL: &str = " truncated=";
    exit_line.match_indices(LABEL).find_map(|(at, _)| {
        let after = &exit_line[at + LABEL.len()..];
        let digits = &after[..after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len())];
        // Rust's parse rounds correctly to the nearest double and overflows to infinity, as
        // JavaScript's does.
        (!digits.is_empty()).then(|| digits.parse::<f64>().expect("ASCII digits parse"))
    })
}
