//! Coverage: the byte ranges of a log generation whose content lines the caller was shown.

use serde::{Deserialize, Serialize};

/// Sorted, disjoint, non-touching half-open byte ranges `[start, end)`.
///
/// Invariants (kept by every method):
/// - `ranges[i].0 < ranges[i].1` and `ranges[i].1 < ranges[i + 1].0`;
/// - a line `[offset, end)` counts as covered only when one range contains all of it, so a
///   line that grew after it was shown (a completed partial line) is not covered;
/// - a range only ever holds lines that a reply really carried: ranges are built from shown
///   lines and the lines between them that were covered already, never widened on a guess.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Coverage {
    ranges: Vec<(u64, u64)>,
}

impl Coverage {
    /// The covered byte ranges `[start, end)`, sorted and disjoint.
    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }

    /// Whether nothing is covered.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether `[start, end)` lies inside one range.
    pub fn covers(&self, start: u64, end: u64) -> bool {
        let i = self.ranges.partition_point(|&(s, _)| s <= start);
        i > 0 && end <= self.ranges[i - 1].1
    }

    /// Replaces everything from `from` on with `runs` (sorted, disjoint, all at or after
    /// `from`), keeping what lies before `from` cut at `from`. A range cut at `from` and a run
    /// starting at `from` join, because the line at `from` was covered before and still is.
    pub fn rebuild_from(&mut self, from: u64, runs: &[(u64, u64)]) {
        let keep = self.ranges.partition_point(|&(s, _)| s < from);
        self.ranges.truncate(keep);
        if let Some(last) = self.ranges.last_mut() {
            last.1 = last.1.min(from);
        }
        for &(s, e) in runs {
            debug_assert!(s >= from && s < e);
            match self.ranges.last_mut() {
                Some(last) if last.1 >= s => last.1 = last.1.max(e),
                _ => self.ranges.push((s, e)),
            }
        }
    }

    /// Forgets the oldest (lowest) ranges until at most `max` remain; returns how many went.
    /// Forgetting can only make lines be sent again, never hide them.
    pub fn forget_oldest(&mut self, max: usize) -> usize {
        let excess = self.ranges.len().saturating_sub(max);
        self.ranges.drain(..excess);
        excess
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_needs_the_whole_line() {
        let mut c = Coverage::default();
        c.rebuild_from(0, &[(0, 10), (20, 30)]);
        assert!(c.covers(0, 10) && c.covers(22, 30));
        assert!(!c.covers(5, 11) && !c.covers(10, 20) && !c.covers(29, 31));
    }

    #[test]
    fn rebuilding_keeps_the_part_before_and_joins_at_the_seam() {
        let mut c = Coverage::default();
        c.rebuild_from(0, &[(0, 10), (15, 40)]);
        c.rebuild_from(20, &[(20, 30), (35, 50)]);
        assert_eq!(c.ranges(), &[(0, 10), (15, 30), (35, 50)]);
        c.rebuild_from(5, &[]);
        assert_eq!(c.ranges(), &[(0, 5)]);
    }

    /// A range that starts where the rebuild starts is replaced, not cut to nothing: an empty
    /// range would count against the bound and push a real one out. (cargo-mutants found this
    /// and `is_empty` unpinned.)
    #[test]
    fn a_range_starting_at_the_rebuild_is_replaced_whole() {
        let mut c = Coverage::default();
        assert!(c.is_empty());
        c.rebuild_from(0, &[(0, 10), (20, 30)]);
        assert!(!c.is_empty());
        c.rebuild_from(20, &[(25, 30)]);
        assert_eq!(c.ranges(), &[(0, 10), (25, 30)]);
    }

    #[test]
    fn overflow_forgets_the_lowest_ranges() {
        let mut c = Coverage::default();
        c.rebuild_from(0, &[(0, 1), (2, 3), (4, 5)]);
        assert_eq!(c.forget_oldest(2), 1);
        assert_eq!(c.ranges(), &[(2, 3), (4, 5)]);
        assert_eq!(c.forget_oldest(2), 0);
    }
}
