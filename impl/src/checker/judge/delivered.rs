//! What the agent was delivered: the judge's whole state, the generation it is in, and how a
//! judged reply adds to it.

use super::align::Aligned;
use super::text::Claimed;
use super::truth::{fnv1a, settled_end, Truth};
use super::ReadInput;

/// What the last read saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct LastRead {
    pub(super) len: u64,
    /// FNV-1a of the log's bytes.
    pub(super) hash: u64,
    pub(super) file: u64,
    /// Where its complete lines ended: lines starting here or later are new.
    pub(super) settled: u64,
}

/// What a read finds of the judge's generation ([`Judge::opening`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Opening {
    /// No read before: the judge saw nothing.
    First,
    /// The log continues the bytes the last read saw.
    Continues,
    /// The log no longer continues them.
    NewGeneration {
        /// At the same file, whether the log is shorter than the last read saw; `None` for
        /// another file, where no shrink is owed.
        shrank: Option<bool>,
    },
}

/// What the agent was delivered: the judge's whole state, small enough for a model's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Judge {
    /// None before the first read that looked at the log.
    pub(super) last: Option<LastRead>,
    /// Complete lines `(offset, end)` delivered in the current generation, sorted.
    pub(super) delivered: Vec<(u64, u64)>,
    /// Start offsets of partial lines delivered in the current generation, sorted.
    pub(super) partial_delivered: Vec<u64>,
    /// Whether the engine said it forgot coverage in this generation (repeats allowed after).
    pub(super) forgot: bool,
    /// A drain's line still being written whose bytes so far the last read showed through the
    /// log's end, by its start: the next read may finish it (see `drain`).
    pub(super) open: Option<u64>,
}

/// `item` into the sorted `list`, once.
fn insert_sorted<T: Ord + Copy>(list: &mut Vec<T>, item: T) {
    if let Err(at) = list.binary_search(&item) {
        list.insert(at, item);
    }
}

impl Judge {
    /// The complete lines `(offset, end)` delivered in the current generation, sorted.
    pub fn delivered(&self) -> &[(u64, u64)] {
        &self.delivered
    }

    /// Whether `log` (with `file` at the path) continues the bytes the last read saw.
    pub fn continues(&self, log: &[u8], file: u64) -> bool {
        self.last.is_some() && !self.begins_generation(log, file)
    }

    /// A judge that last saw `log` (the file numbered `file`, its job running or not) and
    /// was delivered the complete lines `delivered` of this generation, having been told
    /// coverage was forgotten if `forgot`. Paths reach only some such judges; an inductive
    /// check starts from every one its invariant allows.
    pub fn after_read(
        log: &[u8],
        file: u64,
        running: bool,
        mut delivered: Vec<(u64, u64)>,
        forgot: bool,
    ) -> Judge {
        delivered.sort_unstable();
        delivered.dedup();
        Judge {
            last: Some(LastRead {
                len: log.len() as u64,
                hash: fnv1a(log),
                file,
                settled: settled_end(log, running),
            }),
            delivered,
            partial_delivered: Vec::new(),
            forgot,
            open: None,
        }
    }

    /// Whether the last read this judge saw was of `log`, at the file numbered `file`, with
    /// the job running or not (which decides where its complete lines ended); `None`: no read.
    pub fn last_saw(&self, log: &[u8], file: u64, running: bool) -> Option<bool> {
        self.last.map(|l| {
            l == LastRead {
                len: log.len() as u64,
                hash: fnv1a(log),
                file,
                settled: settled_end(log, running),
            }
        })
    }

    /// How long the log was at the last read this judge saw, and where its complete lines
    /// ended (lines starting there or later were new); `None`: no read.
    pub fn last_extent(&self) -> Option<(u64, u64)> {
        self.last.map(|l| (l.len, l.settled))
    }

    /// Whether the engine said, in this generation, that it forgot coverage (from then on
    /// lines may be delivered again).
    pub fn forgot(&self) -> bool {
        self.forgot
    }

    /// Whether line `span` was delivered in this generation before.
    pub(super) fn was_delivered(&self, span: (u64, u64)) -> bool {
        self.delivered.binary_search(&span).is_ok()
    }

    /// Whether the log no longer continues the bytes the last read saw.
    pub(super) fn begins_generation(&self, log: &[u8], file: u64) -> bool {
        self.last.is_some_and(|l| {
            l.file != file || (log.len() as u64) < l.len || fnv1a(&log[..l.len as usize]) != l.hash
        })
    }

    /// What a read of `log` (the file numbered `file`) finds of this judge's generation, before
    /// anything is judged. A new generation keeps only whether the log shrank: the judge then
    /// starts over from [`Judge::default`], so nothing else of what it held can reach the verdict.
    pub fn opening(&self, log: &[u8], file: u64) -> Opening {
        match self.last {
            None => Opening::First,
            Some(_) if !self.begins_generation(log, file) => Opening::Continues,
            Some(l) => Opening::NewGeneration {
                shrank: (l.file == file).then_some((log.len() as u64) < l.len),
            },
        }
    }

    /// Records what the reply delivered and what the log was.
    pub(super) fn record(
        &mut self,
        truth: &Truth,
        aligned: &Aligned,
        claimed: &Claimed,
        input: &ReadInput<'_>,
    ) {
        for &i in &aligned.complete {
            insert_sorted(&mut self.delivered, truth.spans[i]);
        }
        if let (true, Some(p)) = (aligned.partial, truth.partial()) {
            insert_sorted(&mut self.partial_delivered, truth.spans[p].0);
        }
        self.forgot |= claimed.forgot;
        self.last = Some(LastRead {
            len: truth.len,
            hash: fnv1a(input.log),
            file: input.file,
            settled: truth.settled,
        });
    }

    /// Whether the reply completed a line whose partial beginning was delivered before.
    pub(super) fn completes_partial(&self, delivered: &[(u64, u64)]) -> bool {
        delivered
            .iter()
            .any(|s| self.partial_delivered.binary_search(&s.0).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_judge_after_a_read_continues_only_a_log_that_extends_those_bytes() {
        let judge = Judge::after_read(b"a\nb\n", 1, true, vec![(2, 4), (0, 2), (2, 4)], false);
        assert_eq!(judge.delivered(), [(0, 2), (2, 4)]);
        assert!(judge.continues(b"a\nb\nc\n", 1));
        assert!(judge.continues(b"a\nb\n", 1));
        assert!(!judge.continues(b"a\n", 1), "a shrink");
        assert!(!judge.continues(b"x\nb\nc\n", 1), "a rewrite");
        assert!(!judge.continues(b"a\nb\nc\n", 2), "another file");
        assert!(!Judge::default().continues(b"a\n", 1), "no read yet");
    }

    #[test]
    fn what_the_last_read_saw_includes_whether_the_job_ran() {
        let judge = Judge::after_read(b"a\nb", 1, true, Vec::new(), false);
        assert_eq!(judge.last_saw(b"a\nb", 1, true), Some(true));
        // Finished, the unterminated `b` is a complete line: the read settled elsewhere.
        assert_eq!(judge.last_saw(b"a\nb", 1, false), Some(false));
        assert_eq!(Judge::default().last_saw(b"", 1, true), None);
    }

    #[test]
    fn a_completed_line_is_known_by_its_delivered_partial_start() {
        let judge = Judge {
            partial_delivered: vec![4],
            ..Judge::default()
        };
        assert!(judge.completes_partial(&[(4, 9)]));
        assert!(!judge.completes_partial(&[(0, 4)]));
    }
}
