//! The bounds a model check runs at, by the names the command line gives them, and one
//! bounded check's specification.

use crate::corpus::ReplayEngine;
use bgtail_model::{ModelConfig, Times};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Bound {
    /// CI's: content lines of three kinds, 4 lines, 1 reset, any number of reads, every
    /// action family.
    Ci,
    /// CI's second: blank and wrapper lines among content lines, 3 lines.
    CiNonContent,
    /// Upstream's line bound within reach: CI's second, with a bound of 2 `\n` bytes (a
    /// view keeps one complete line and maybe a partial one, so the budget and the fold are
    /// out of reach: no path is required).
    LineBoundCut,
    /// The job's end: the wrapper's exit marker (with a cap) while the caller says the job
    /// runs, and a view of one byte that starts inside the partial line, grown or not, 3 lines
    /// (the fold is out of reach: no path is required).
    JobEnd,
    /// CI's, with a fold threshold of 2: a fold beside the budget's or the coverage's
    /// overflow within 4 lines.
    FoldPairs,
    /// Lines skipped between covered runs of a view the line bound cuts: two coverage ranges,
    /// a line bound of 5, 6 short lines, appends and reads.
    SkippedInCutView,
    /// A view narrower than the log that the line bound cuts: a line bound of 4, 5 short and
    /// blank lines, views of 6 and 12 bytes, appends and reads.
    NarrowViewCut,
    /// Lines styled by escape sequences, with a NUL in them, printed exactly the per-line cap
    /// long, among short lines: 3 lines, appends, condensed and raw reads.
    StyledLines,
    /// A narrow view counted from a line index mark before it, where the line bound cuts by
    /// exactly the newlines the mark gives: a line bound of 5, 9 short lines, views of 11 and
    /// 14 bytes, appends and reads.
    LineBoundFromAMark,
    /// Requests that are not plain: views asked by numbers that are not a whole number of
    /// bytes within the largest view (0, -1, NaN, +Infinity, 1.5, 5000) beside a default view
    /// of 6 bytes, reads naming the job by each id upstream refuses and by the longest it
    /// reads, and reads the running-job gate holds back: 3 short lines, a partial one,
    /// condensed and raw reads.
    OddRequests,
    /// Reads during a cut, whose first look at the log's size is from before it: short and
    /// long lines and a partial one, 4 lines, one reset, condensed reads of 1 and 2.
    CutDuringRead,
    /// Deeper: CI's, with up to 5 lines (many minutes).
    Deep,
    /// Every sequence of any length: CI's families (but the rewrites of one line) and kinds
    /// over logs of up to 3 lines, any number of reads and resets.
    AnyLength,
    /// Issue #28's gap world: short lines, reads of 1 and 3.
    Gap,
    /// Issue #28's cap world: short and long lines, reads of 1 and 2.
    Cap,
    /// The budget's edge: bodies that fill the budget to the unit.
    BudgetEdge,
}

impl Bound {
    /// Whether the bound turns every action family on, so that every path must be reached.
    pub fn complete(self) -> bool {
        matches!(
            self,
            Bound::Ci | Bound::CiNonContent | Bound::FoldPairs | Bound::Deep | Bound::AnyLength
        )
    }

    pub fn config(self) -> ModelConfig {
        match self {
            Bound::Ci => ModelConfig::ci(),
            Bound::CiNonContent => ModelConfig::ci_non_content(),
            Bound::LineBoundCut => ModelConfig::line_bound(),
            Bound::JobEnd => ModelConfig::job_end(),
            Bound::FoldPairs => ModelConfig::fold_pairs(),
            Bound::SkippedInCutView => ModelConfig::skipped_in_cut_view(),
            Bound::NarrowViewCut => ModelConfig::narrow_view_cut(),
            Bound::StyledLines => ModelConfig::styled_lines(),
            Bound::LineBoundFromAMark => ModelConfig::line_bound_from_a_mark(),
            Bound::OddRequests => ModelConfig::odd_requests(),
            Bound::CutDuringRead => ModelConfig::cut_during_read(),
            Bound::Deep => ModelConfig::deep(),
            Bound::AnyLength => ModelConfig::any_length(),
            Bound::Gap => ModelConfig::issue_28_gap(),
            Bound::Cap => ModelConfig::issue_28_cap(),
            Bound::BudgetEdge => ModelConfig::budget_edge(),
        }
    }
}

/// The bounds an engine in another process is checked at when no bound is asked for (`check`)
/// and by `verify`: issue #28's two worlds, the budget's edge, and CI's bound cut to 3 lines
/// and 2 reads (lines, reads) — seconds where CI's whole bound takes minutes over a pipe.
pub const OUTSIDE_SET: [(Bound, Option<(u8, u8)>); 4] = [
    (Bound::Gap, None),
    (Bound::Cap, None),
    (Bound::BudgetEdge, None),
    (Bound::Ci, Some((3, 2))),
];

/// One bounded check, as `check`, `verify` and `readers` ask for it: the engine, the bound
/// and its overrides, the threads, and where counterexamples go.
#[derive(Clone, Debug)]
pub struct Spec {
    pub engine: ReplayEngine,
    pub bound: Bound,
    /// Overrides the bound's maximum number of log lines.
    pub max_lines: Option<u8>,
    /// Overrides the bound's reads.
    pub max_reads: Option<Times>,
    /// Overrides the bound's truncations and rewrites together.
    pub max_resets: Option<Times>,
    pub threads: usize,
    /// Seconds to await each reply of an engine in another process.
    pub timeout: f64,
    /// Where every counterexample is written as a replayable trace.
    pub export: Option<PathBuf>,
}

impl Spec {
    /// A bounded check of `engine` on one thread at `bound`, its lines and reads overridden
    /// where given: what `verify` and `readers` run for an engine in another process.
    pub fn bounded(
        engine: ReplayEngine,
        bound: Bound,
        max_lines: Option<u8>,
        max_reads: Option<u8>,
        timeout: f64,
    ) -> Spec {
        Spec {
            engine,
            bound,
            max_lines,
            max_reads: max_reads.map(Times::AtMost),
            max_resets: None,
            threads: 1,
            timeout,
            export: None,
        }
    }
}

/// The model's configuration for `spec`: its bound, overridden where it says.
pub fn configured(args: &Spec) -> ModelConfig {
    let mut config = args.bound.config();
    if let Some(n) = args.max_lines {
        config.max_lines = n;
    }
    if let Some(n) = args.max_reads {
        config.max_reads = n;
    }
    if let Some(n) = args.max_resets {
        config.max_resets = n;
    }
    config
}

/// The bound as it is spelled on the command line (`ci-non-content`).
pub fn bound_slug(bound: Bound) -> String {
    use clap::ValueEnum;
    bound.to_possible_value().map_or_else(
        || format!("{bound:?}").to_lowercase(),
        |v| v.get_name().to_owned(),
    )
}

/// The bound as a check prints it: its name and the counters that bound it.
pub fn bound_name(bound: Bound, c: &ModelConfig) -> String {
    format!(
        "{} ({} lines, {}, {})",
        bound_slug(bound),
        c.max_lines,
        times(c.max_reads, "read"),
        times(c.max_resets, "reset")
    )
}

/// `any reads`, `1 read`, `0 resets`: a counter as the bound's line says it.
fn times(t: Times, noun: &str) -> String {
    match t {
        Times::AtMost(1) => format!("1 {noun}"),
        t => format!("{t} {noun}s"),
    }
}
