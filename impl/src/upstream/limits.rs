//! Every size limit of both engines, in one value.
//!
//! The defaults are upstream's numbers (docs/pi-bgrun-0.7.1.md §2.5). The model checker scales them down so
//! that a handful of short lines reaches the budget, the per-line cap and coverage overflow.

use serde::{Deserialize, Serialize};

/// Limits shared by both engines. Lengths of text are UTF-16 code units, as upstream counts.
///
/// Start from [`Limits::default`] (upstream's numbers) and change the fields you need; an
/// engine checks them with [`Limits::validate`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Limits {
    /// Condensed body budget (upstream `TOTAL_CAP`): Σ(emission length + 1) may not exceed it.
    pub text_budget: usize,
    /// Per-line cap after ANSI stripping (upstream `LINE_CAP`).
    pub line_cap: usize,
    /// Runs of at least this many equal lines fold into one emission.
    pub fold_threshold: usize,
    /// `lines` when the request gives none.
    pub default_lines: u64,
    /// The view (`bytes`) when the request gives none (upstream `LOG_READ_BYTES`).
    pub view_default: u64,
    /// The largest view a request may ask for (upstream `readWindowMax`: ceiling + 4,096).
    pub view_max: u64,
    /// How many lines of a view are scanned at most (upstream `LOG_SCAN_LINES_MAX`).
    pub scan_lines_max: usize,
    /// How many job ids keep a bookmark (upstream `TAIL_BOOKMARK_CAP`).
    pub bookmark_capacity: usize,
    /// How many disjoint ranges the exact engine's coverage keeps before forgetting the oldest.
    pub coverage_ranges_max: usize,
    /// UTF-16 units of the first content line kept as the shipped engine's fingerprint.
    pub first_line_units: usize,
    /// Bytes at the head of the log the exact engine compares to detect a rewrite.
    pub head_probe_bytes: u64,
    /// Bytes before where the last read's complete lines ended that the exact engine
    /// compares on the next read: a log cut and regrown past its old size behind an unchanged
    /// head, or its newest shown lines rewritten in place. Each read may read this many bytes
    /// more than what is new.
    #[serde(
        default = "u64_of::<PRINT_BYTES>",
        skip_serializing_if = "is::<PRINT_BYTES>"
    )]
    pub settled_print_bytes: u64,
    /// Bytes at the end of the partial line a reply showed that the exact engine compares on
    /// the next read (all of a shorter one): a progress line redrawn in place to the same
    /// length. Each read may read this many bytes more than what is new.
    #[serde(
        default = "u64_of::<PRINT_BYTES>",
        skip_serializing_if = "is::<PRINT_BYTES>"
    )]
    pub partial_print_bytes: u64,
    /// The exact engine reads the log's tail backwards in pieces of this many bytes at first,
    /// doubling each time. Tuning only: no reply text depends on it, only what a read costs.
    #[serde(
        default = "u64_of::<TAIL_CHUNK>",
        skip_serializing_if = "is::<TAIL_CHUNK>"
    )]
    pub tail_chunk: u64,
    /// The exact engine's line index keeps a line number about every this many bytes, so
    /// that counting up to any offset reads at most this much. Tuning only, like `tail_chunk`.
    #[serde(
        default = "u64_of::<MARK_SPACING>",
        skip_serializing_if = "is::<MARK_SPACING>"
    )]
    pub mark_spacing: u64,
    /// The largest piece the exact engine reads at once: the pieces of its tail, of its counts
    /// and of the rest of a line it numbers double up to this many bytes. Tuning only, like
    /// `tail_chunk`.
    #[serde(
        default = "u64_of::<PIECE_MAX>",
        skip_serializing_if = "is::<PIECE_MAX>"
    )]
    pub piece_max: u64,
    /// The exact engine searches back for the start of a partial line that the view or the
    /// last read's settled end cuts in pieces of this many bytes. Tuning only, like
    /// `tail_chunk`.
    #[serde(
        default = "u64_of::<LINE_SEARCH_PIECE>",
        skip_serializing_if = "is::<LINE_SEARCH_PIECE>"
    )]
    pub line_search_piece: u64,
    /// Whether the exact engine counts the whole view on every read. By default it counts
    /// the view above what it reads only when a reply prints the view's line count, so that a
    /// first read of a large log reads its tail, not its whole view.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub count_whole_view: bool,
    /// Views of at most this many bytes are counted whole on every read, so that a small
    /// log's reply says `log at N lines` as upstream's does: counting them costs less than
    /// starting the process (docs/bench.md). Larger views are counted lazily, as
    /// `count_whole_view` says. Tuning only for the guarantees; absent from a serialized
    /// value means 0, the lazy count everywhere (as traces written before it was added read).
    #[serde(default, skip_serializing_if = "is::<0>")]
    pub count_views_up_to: u64,
}

/// The tuning fields' defaults, each written only where a value differs from it.
const TAIL_CHUNK: u64 = 16_384;
const MARK_SPACING: u64 = 16_384;
const PIECE_MAX: u64 = 1 << 20;
const LINE_SEARCH_PIECE: u64 = 64 << 10;
const PRINT_BYTES: u64 = 64;

/// `N`, as serde's `default` asks for a function.
fn u64_of<const N: u64>() -> u64 {
    N
}

/// Whether a field is `N`, as serde's `skip_serializing_if` asks for a function.
fn is<const N: u64>(n: &u64) -> bool {
    *n == N
}

/// [`Limits::count_views_up_to`]'s default: 128 KiB. Counting a whole view of this size
/// costs 0.89× the instructions of the process start (`bgtail --version`), 256 KiB 1.81×
/// (`scripts/bench-count-threshold.sh`, docs/bench.md).
pub const COUNT_VIEWS_UP_TO: u64 = 128 << 10;

/// Upstream's log ceiling (`DEFAULT_MAX_LOG_BYTES`).
pub const DEFAULT_MAX_LOG_BYTES: u64 = 67_108_864;
/// Added to the ceiling for the largest view (`WRAPPER_OVERHEAD_BYTES`).
pub const WRAPPER_OVERHEAD_BYTES: u64 = 4_096;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            text_budget: 8_000,
            line_cap: 2_000,
            fold_threshold: 3,
            default_lines: 40,
            view_default: 2_097_152,
            view_max: DEFAULT_MAX_LOG_BYTES + WRAPPER_OVERHEAD_BYTES,
            scan_lines_max: 500_000,
            bookmark_capacity: 1_000,
            coverage_ranges_max: 64,
            first_line_units: 200,
            head_probe_bytes: 4_096,
            settled_print_bytes: PRINT_BYTES,
            partial_print_bytes: PRINT_BYTES,
            tail_chunk: TAIL_CHUNK,
            mark_spacing: MARK_SPACING,
            piece_max: PIECE_MAX,
            line_search_piece: LINE_SEARCH_PIECE,
            count_whole_view: false,
            count_views_up_to: COUNT_VIEWS_UP_TO,
        }
    }
}

fn digits(n: u64) -> usize {
    n.to_string().len()
}

impl Limits {
    /// The view limit for a configured log ceiling, as upstream computes `readWindowMax`.
    pub fn with_log_ceiling(mut self, max_log_bytes: u64) -> Self {
        let ceiling = if max_log_bytes > 0 {
            max_log_bytes
        } else {
            DEFAULT_MAX_LOG_BYTES
        };
        self.view_max = ceiling.saturating_add(WRAPPER_OVERHEAD_BYTES);
        self
    }

    /// The longest emission the exact engine can print: a line cut at the cap with its
    /// ` …[+N chars]` (N < the largest view) and a fold marker `  [xK]` (K ≤ the lines scanned).
    pub fn longest_emission(&self) -> usize {
        let cap_suffix = " …[+".chars().count() + digits(self.view_max) + " chars]".len();
        let fold_suffix = "  [x".len() + digits(self.scan_lines_max as u64) + "]".len();
        self.line_cap + cap_suffix + fold_suffix
    }

    /// Checks the relations the exact engine's guarantees rest on.
    ///
    /// The budget must hold the longest possible emission and its newline, or "progress" (the
    /// newest unseen line is always delivered) could not hold.
    pub fn validate(&self) -> Result<(), LimitsError> {
        let longest_emission = self.longest_emission();
        if self.text_budget < longest_emission + 1 {
            return Err(LimitsError::BudgetBelowOneLine {
                text_budget: self.text_budget,
                longest_emission,
            });
        }
        self.validate_shape()
    }

    /// The relations every reader's limits keep, whatever its guarantees: nothing counted or
    /// compared is 0, a fold is of two lines or more, the default view is not above the largest. A trace
    /// may hold another reader's limits (Codex's budget is smaller than one of its long
    /// lines); only the in-crate engines need [`Limits::validate`] too.
    pub fn validate_shape(&self) -> Result<(), LimitsError> {
        let zero = |name: &'static str, value: u64| (value == 0).then_some(name);
        let zeroes = [
            zero("default_lines", self.default_lines),
            zero("scan_lines_max", self.scan_lines_max as u64),
            zero("bookmark_capacity", self.bookmark_capacity as u64),
            zero("coverage_ranges_max", self.coverage_ranges_max as u64),
            zero("tail_chunk", self.tail_chunk),
            zero("mark_spacing", self.mark_spacing),
            zero("piece_max", self.piece_max),
            zero("line_search_piece", self.line_search_piece),
            zero("view_default", self.view_default),
            zero("head_probe_bytes", self.head_probe_bytes),
            zero("settled_print_bytes", self.settled_print_bytes),
            zero("partial_print_bytes", self.partial_print_bytes),
        ];
        if let Some(name) = zeroes.into_iter().flatten().next() {
            return Err(LimitsError::Zero(name));
        }
        if self.fold_threshold < 2 {
            return Err(LimitsError::FoldThresholdBelowTwo(self.fold_threshold));
        }
        if self.view_max < self.view_default {
            return Err(LimitsError::ViewDefaultAboveMax {
                view_default: self.view_default,
                view_max: self.view_max,
            });
        }
        Ok(())
    }
}

/// A relation between [`Limits`] that the exact engine's guarantees rest on, broken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitsError {
    /// The budget cannot hold the longest emission and its newline, so "progress" (the newest
    /// unseen line is always delivered) could not hold.
    #[error("text_budget {text_budget} cannot hold one capped line ({longest_emission} units + newline); raise it or lower line_cap")]
    BudgetBelowOneLine {
        /// The budget given.
        text_budget: usize,
        /// The cost of the longest line the condenser can emit.
        longest_emission: usize,
    },
    /// A count that must be positive is zero (the field's name).
    #[error("{0} must be positive")]
    Zero(&'static str),
    /// A fold of fewer than two lines is no fold.
    #[error("fold_threshold must be at least 2 (it is {0})")]
    FoldThresholdBelowTwo(usize),
    /// The default view is larger than the largest.
    #[error("view_default {view_default} must be at most view_max {view_max}")]
    ViewDefaultAboveMax {
        /// The default view in bytes.
        view_default: u64,
        /// The largest view in bytes.
        view_max: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A serialized value without `count_views_up_to` reads as 0 (the lazy count everywhere, as
    /// traces written before the field read), while `Default` is 128 KiB, which serializes it.
    #[test]
    fn count_views_up_to_absent_reads_as_zero_and_the_default_is_written_out() {
        let mut without = serde_json::to_value(Limits::default()).unwrap();
        without.as_object_mut().unwrap().remove("count_views_up_to");
        let read: Limits = serde_json::from_value(without).unwrap();
        assert_eq!(read.count_views_up_to, 0);
        assert_eq!(Limits::default().count_views_up_to, COUNT_VIEWS_UP_TO);
        let written = serde_json::to_value(Limits::default()).unwrap();
        assert_eq!(written["count_views_up_to"], COUNT_VIEWS_UP_TO);
        let back: Limits = serde_json::from_value(written).unwrap();
        assert_eq!(back, Limits::default());
    }

    /// The tuning fields are written only where they are not the defaults, so that a trace
    /// at upstream's limits reads the same with or without them.
    #[test]
    fn the_pieces_are_written_only_off_their_defaults() {
        let written = serde_json::to_value(Limits::default()).unwrap();
        assert!(written.get("piece_max").is_none());
        assert!(written.get("line_search_piece").is_none());
        let back: Limits = serde_json::from_value(written).unwrap();
        assert_eq!(
            (back.piece_max, back.line_search_piece),
            (1 << 20, 64 << 10)
        );
        let small = Limits {
            piece_max: 8,
            line_search_piece: 2,
            ..Limits::default()
        };
        let written = serde_json::to_value(&small).unwrap();
        assert_eq!(
            (&written["piece_max"], &written["line_search_piece"]),
            (&8.into(), &2.into())
        );
        assert_eq!(serde_json::from_value::<Limits>(written).unwrap(), small);
    }

    #[test]
    fn defaults_are_upstreams_and_valid() {
        let l = Limits::default();
        assert_eq!(l.view_max, 67_112_960);
        l.validate().unwrap();
        assert_eq!(
            Limits::default().with_log_ceiling(1024).view_max,
            1024 + 4096
        );
        assert_eq!(Limits::default().with_log_ceiling(0).view_max, 67_112_960);
    }

    #[test]
    fn a_budget_smaller_than_one_capped_line_is_refused() {
        let l = Limits {
            text_budget: 100,
            line_cap: 90,
            ..Limits::default()
        };
        assert_eq!(
            l.validate(),
            Err(LimitsError::BudgetBelowOneLine {
                text_budget: 100,
                longest_emission: l.longest_emission(),
            })
        );
    }

    /// The longest emission, counted by hand at upstream's limits: a 2,000-unit line cut at the
    /// cap with ` …[+N chars]` (N of up to 8 digits, below the 67,112,960-byte view) and a fold
    /// marker `  [xK]` (K of up to 6 digits, at most the 500,000 lines scanned). A budget holds
    /// it exactly when it holds it and its newline.
    #[test]
    fn the_longest_emission_is_a_capped_folded_line_and_a_budget_must_hold_it_and_its_newline() {
        let l = Limits::default();
        assert_eq!(l.longest_emission(), 2_000 + 4 + 8 + 7 + 4 + 6 + 1);
        let tiny = Limits {
            line_cap: 8,
            view_default: 4_096,
            view_max: 4_096,
            scan_lines_max: 64,
            ..Limits::default()
        };
        assert_eq!(tiny.longest_emission(), 8 + 4 + 4 + 7 + 4 + 2 + 1);
        let budget = |text_budget| Limits {
            text_budget,
            ..tiny.clone()
        };
        assert_eq!(
            budget(tiny.longest_emission()).validate(),
            Err(LimitsError::BudgetBelowOneLine {
                text_budget: 30,
                longest_emission: 30,
            })
        );
        budget(tiny.longest_emission() + 1).validate().unwrap();
    }

    #[test]
    fn a_fold_of_two_lines_is_the_smallest_accepted() {
        let fold = |fold_threshold| Limits {
            fold_threshold,
            ..Limits::default()
        };
        fold(2).validate().unwrap();
        assert_eq!(
            fold(1).validate(),
            Err(LimitsError::FoldThresholdBelowTwo(1))
        );
    }

    #[test]
    fn each_broken_relation_is_named() {
        let with = |change: fn(&mut Limits)| {
            let mut l = Limits::default();
            change(&mut l);
            l.validate().unwrap_err().to_string()
        };
        assert_eq!(
            with(|l| l.mark_spacing = 0),
            "mark_spacing must be positive"
        );
        assert_eq!(
            with(|l| l.line_search_piece = 0),
            "line_search_piece must be positive"
        );
        assert_eq!(
            with(|l| l.default_lines = 0),
            "default_lines must be positive"
        );
        assert_eq!(
            with(|l| l.fold_threshold = 1),
            "fold_threshold must be at least 2 (it is 1)"
        );
        assert_eq!(
            with(|l| l.view_default = l.view_max + 1),
            "view_default 67112961 must be at most view_max 67112960"
        );
    }
}
