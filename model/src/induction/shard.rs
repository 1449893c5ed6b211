//! The inductive check split across machines. It is a conjunction over independent items
//! (the logs a last read can have seen) and groups of reset states (see
//! [`factor`](super::factor)) with no visited set, so shard `i` of `n` checks the items and
//! the groups whose index [`Shard::deal`]s to `i`: the shards overlap nowhere and together
//! cover every item and every group. Each shard's report is plain data (`merge`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which share of the items a check takes.
///
/// Invariant: `index < count`, and `count ≥ 1` ([`Shard::new`] refuses anything else).
/// Written and read as its `I/N` text, in reports too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// The whole check: one shard of one.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` (from 0) of `count`; `None` unless `index < count`.
    pub fn new(index: usize, count: usize) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }

    /// Which shard, from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many shards the check is split into.
    pub fn count(self) -> usize {
        self.count
    }

    /// Whether item (or group) `item` of the enumeration is this shard's.
    pub fn takes(self, item: usize) -> bool {
        Shard::deal(item, self.count) == self.index
    }

    /// Which of `count` shards item `item` goes to (from 0). Items of one kind lie side by
    /// side in the enumeration (a running job's log, then the finished one's; short logs
    /// before long ones), so a plain `item mod count` would give one shard every finished job
    /// at an even count: a multiplicative hash of the index deals them evenly instead.
    pub fn deal(item: usize, count: usize) -> usize {
        let mixed = (item as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((mixed >> 32) % count as u64) as usize
    }
}

/// `I/N`, counting from 1 as a job matrix does: `1/4` is the first of four.
impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let wrong = || format!("{s:?}: expected I/N with 1 ≤ I ≤ N, as in 1/4");
        let (i, n) = s.split_once('/').ok_or_else(wrong)?;
        let (i, n): (usize, usize) = (
            i.parse().map_err(|_| wrong())?,
            n.parse().map_err(|_| wrong())?,
        );
        i.checked_sub(1)
            .and_then(|index| Shard::new(index, n))
            .ok_or_else(wrong)
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl TryFrom<String> for Shard {
    type Error = String;

    fn try_from(s: String) -> Result<Shard, String> {
        s.parse()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_written_from_1_and_kept_from_0() {
        let s: Shard = "2/4".parse().unwrap();
        assert_eq!((s.index(), s.count()), (1, 4));
        assert_eq!(s.to_string(), "2/4");
        for bad in ["0/4", "5/4", "1/0", "1", "a/b", "1/4/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shards_take_every_item_once() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard::new(i, 3).unwrap()).collect();
        for item in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.takes(item)).count(), 1, "{item}");
        }
        assert!((0..100).all(|i| Shard::WHOLE.takes(i)));
    }
}
