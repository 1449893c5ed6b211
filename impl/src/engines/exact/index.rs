//! The line index: line numbers at known offsets of one log generation.
//!
//! A read reports counts over the whole view — its line count, the lines above the window
//! never shown, the `lines` value that reaches them — yet should read only the log's tail.
//! The index makes that possible: at some line starts it records how many content lines and
//! how many `\n` bytes lie before them, so that the count of any stretch of the log is a
//! difference of two marks plus, at most, a short read from the nearest mark.
//!
//! Invariants (kept by every method and by the engine that inserts marks):
//! - marks are sorted by offset, strictly increasing, and each lies at a line start (offset
//!   0, or one past a `\n`) of the bookmark's generation, at or before its `settled_end`: the
//!   bytes before a mark do not change while the generation lasts (the log only grows; any
//!   other change starts a new generation, which starts an empty index);
//! - for marks `a` before `b`, `b.lines − a.lines` is the number of content lines that start
//!   in `[a.offset, b.offset)` and `b.newlines − a.newlines` the number of `\n` bytes there.
//!   The numbers count from an arbitrary anchor, so only their differences mean anything;
//! - no gap between marks is wider than `mark_spacing` where a line start could close it (so
//!   wider only inside a longer line), and every boundary of the bookmark's coverage that is a
//!   line start is marked, so counting up to a boundary reads nothing. (A coverage range can end
//!   inside a line: a finished job's unterminated last line that grew later. Such an end is
//!   numbered by the last line start before it, counted again by each read that needs it.)
//!
//! The index is a cache. A bookmark without it (a new generation, an old state file) answers
//! every read exactly alike, only by reading more of the log. Equality and hashing therefore
//! ignore it: the model checker counts two bookmarks that differ only in their index as one
//! state, and `tests/exact_index.rs` checks that a read with the index equals one without.

use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// Line numbers at one line start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Where a content line starts in the log.
    pub offset: u64,
    /// Content lines starting before `offset`, from the index's anchor.
    pub lines: i64,
    /// `\n` bytes before `offset`, from the index's anchor.
    pub newlines: i64,
}

/// Marks of one generation; see the module's invariants.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LineIndex {
    marks: Vec<Mark>,
    /// Set when a mark contradicts its neighbours (the log changed under the index); the read
    /// then counts afresh. Never saved.
    #[serde(skip)]
    poisoned: bool,
}

impl PartialEq for LineIndex {
    /// Always equal: the index is a cache that changes no reply (see the module).
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for LineIndex {}

impl Hash for LineIndex {
    /// Hashes nothing, to agree with `eq`.
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

impl LineIndex {
    /// The marks, in increasing offset.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Whether the index holds no mark.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// The last mark at or before `offset`.
    pub fn floor(&self, offset: u64) -> Option<Mark> {
        let i = self.marks.partition_point(|m| m.offset <= offset);
        i.checked_sub(1).map(|i| self.marks[i])
    }

    /// The first mark at or after `offset`.
    pub fn ceil(&self, offset: u64) -> Option<Mark> {
        let i = self.marks.partition_point(|m| m.offset < offset);
        self.marks.get(i).copied()
    }

    /// The mark at exactly `offset`.
    pub fn get(&self, offset: u64) -> Option<Mark> {
        self.floor(offset).filter(|m| m.offset == offset)
    }

    /// Adds a mark (numbered from the same anchor as the others). A mark that contradicts
    /// the index poisons it: see [`LineIndex::is_poisoned`].
    pub fn insert(&mut self, mark: Mark) {
        match self.marks.binary_search_by_key(&mark.offset, |m| m.offset) {
            Ok(i) => self.poisoned |= self.marks[i] != mark,
            Err(i) => {
                self.poisoned |= !self.consistent_with_neighbours(i, mark);
                self.marks.insert(i, mark);
            }
        }
    }

    /// Whether a mark contradicted the others: the log's bytes before the settled end changed
    /// without a new generation, and nothing counted from this index can be trusted.
    pub fn is_poisoned(&self) -> bool {
        self.poisoned
    }

    fn consistent_with_neighbours(&self, i: usize, mark: Mark) -> bool {
        let before = i.checked_sub(1).map(|j| self.marks[j]);
        let after = self.marks.get(i);
        before.is_none_or(|b| b.lines <= mark.lines && b.newlines < mark.newlines)
            && after.is_none_or(|a| mark.lines <= a.lines && mark.newlines < a.newlines)
    }

    /// Drops the marks no later read needs: those before the lowest line any view can reach
    /// (keeping the last one before it, from which that line is counted), and, between marks
    /// that are `pinned` (coverage boundaries and the settled end), all but enough to leave no
    /// gap wider than `spacing` that a dropped mark would have closed. Counting from the
    /// nearest mark then reads at most `spacing` bytes, or one line when a line is longer.
    pub fn thin(&mut self, lowest_view_start: u64, spacing: u64, pinned: &[u64]) {
        let first_needed = self
            .marks
            .partition_point(|m| m.offset <= lowest_view_start)
            .saturating_sub(1);
        let mut kept: Vec<Mark> = Vec::with_capacity(self.marks.len() - first_needed);
        // The last mark kept, and the last one seen since: kept only when the next one would
        // open a gap wider than `spacing`.
        let mut pending: Option<Mark> = None;
        for &m in &self.marks[first_needed..] {
            let Some(last) = kept.last().map(|k| k.offset) else {
                kept.push(m);
                continue;
            };
            if m.offset - last > spacing {
                kept.extend(pending.take());
            }
            let last = kept.last().map_or(0, |k| k.offset);
            if pinned.binary_search(&m.offset).is_ok() || m.offset - last > spacing {
                kept.push(m);
                pending = None;
            } else {
                pending = Some(m);
            }
        }
        // The highest mark stays: it is the floor of every later read's first line.
        kept.extend(pending);
        self.marks = kept;
    }
}

/// Content lines and `\n` bytes in `buf`, which starts at a line start and is cut into lines
/// at every `\n`; bytes after the last `\n` are not a line yet and are not counted.
pub(crate) fn count_lines(buf: &[u8]) -> (i64, i64) {
    let mut content = 0;
    let mut newlines = 0;
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', buf) {
        newlines += 1;
        content += i64::from(crate::upstream::view::is_content(
            crate::upstream::view::line_text(buf, start, nl),
        ));
        start = nl + 1;
    }
    (content, newlines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(offset: u64, lines: i64, newlines: i64) -> Mark {
        Mark {
            offset,
            lines,
            newlines,
        }
    }

    #[test]
    fn counting_skips_blank_wrapper_and_unfinished_lines() {
        assert_eq!(count_lines(b"a\n\n  \r\n__BGRUN_X\nb\r\nrest"), (2, 5));
        assert_eq!(count_lines(b""), (0, 0));
    }

    #[test]
    fn floor_ceil_and_get() {
        let mut ix = LineIndex::default();
        assert!(ix.is_empty());
        ix.insert(mark(10, 1, 1));
        assert!(!ix.is_empty());
        ix.insert(mark(0, 0, 0));
        ix.insert(mark(30, 4, 6));
        assert_eq!(ix.floor(9).unwrap().offset, 0);
        assert_eq!(ix.floor(10).unwrap().offset, 10);
        assert_eq!(ix.ceil(11).unwrap().offset, 30);
        assert!(ix.ceil(31).is_none() && ix.get(11).is_none());
        // At a mark's own offset, each finds that mark.
        assert_eq!(ix.ceil(10).unwrap().offset, 10);
        assert_eq!(ix.get(10), Some(mark(10, 1, 1)));
    }

    #[test]
    fn a_mark_that_contradicts_the_others_poisons_the_index() {
        let mut ix = LineIndex::default();
        ix.insert(mark(0, 0, 0));
        ix.insert(mark(30, 4, 6));
        // Between its neighbours, in order; and the same mark again.
        ix.insert(mark(10, 1, 1));
        ix.insert(mark(10, 1, 1));
        assert!(!ix.is_poisoned());
        let poisoned_by = |m: Mark| {
            let mut ix = ix.clone();
            ix.insert(m);
            ix.is_poisoned()
        };
        // Another count at a known offset.
        assert!(poisoned_by(mark(10, 2, 2)));
        // No newline since the mark before (lines may stay: blank lines are not content).
        assert!(poisoned_by(mark(20, 1, 1)));
        assert!(!poisoned_by(mark(20, 1, 2)));
        assert!(poisoned_by(mark(20, 0, 2)));
        // More lines than the mark after, or as many newlines.
        assert!(poisoned_by(mark(20, 5, 5)));
        assert!(poisoned_by(mark(20, 2, 6)));
        assert!(!poisoned_by(mark(20, 4, 5)));
    }

    #[test]
    fn thinning_keeps_the_floor_of_the_view_pinned_marks_and_no_gap_wider_than_spacing() {
        let mut ix = LineIndex::default();
        for (k, off) in [0u64, 5, 10, 12, 18, 20, 21, 29, 33, 40, 55, 58]
            .into_iter()
            .enumerate()
        {
            ix.insert(mark(off, k as i64, k as i64 + 1));
        }
        ix.thin(11, 10, &[21]);
        let offsets: Vec<u64> = ix.marks().iter().map(|m| m.offset).collect();
        // 10 is the floor of the lowest view; 21 is pinned; 20 closes the gap 10 → 21 (> 10);
        // 29, 33 and 40 keep the steps to 55 at most 10 apart where marks allow (40 → 55 has
        // none between); 58 is the highest.
        assert_eq!(offsets, vec![10, 20, 21, 29, 33, 40, 55, 58]);
        let gaps_ok = offsets.windows(2).all(|w| w[1] - w[0] <= 15);
        assert!(gaps_ok);
    }

    #[test]
    fn the_index_never_makes_bookmarks_differ() {
        let mut a = LineIndex::default();
        a.insert(mark(0, 0, 0));
        assert_eq!(a, LineIndex::default());
    }
}
