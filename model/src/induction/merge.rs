//! The shards of an inductive check put together. Each shard's [`ShardReport`] is plain data
//! (JSON in the CLI); [`merge`] checks that the reports are the whole check, each shard once,
//! and gives the one verdict.

use super::options::Factoring;
use super::report::Report;
use super::shard::Shard;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format version of a [`ShardReport`]: raised when a field changes meaning or goes.
pub const SHARD_REPORT_VERSION: u32 = 3;

/// What one shard of an inductive check did, as data a merge can read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ShardReport {
    /// [`SHARD_REPORT_VERSION`].
    pub bgtail_induction_shard: u32,
    /// The engine checked.
    pub engine: String,
    /// The logs' bound, and the line kinds they are written in.
    pub max_lines: u8,
    pub kinds: Vec<String>,
    pub shard: Shard,
    /// Items this shard took (all checked unless `failure` stopped it), and the
    /// enumeration's items in all.
    pub items: u64,
    pub items_total: u64,
    /// Whether reset states were run by group (`factored`, `compared`) or each in full.
    pub factoring: String,
    /// Groups of reset states this shard ran, and the enumeration's groups in all.
    pub groups: u64,
    pub groups_total: u64,
    /// States of the invariant covered, by kind (as [`Report`]), steps and reads.
    pub fresh: u64,
    pub continuing: u64,
    pub reset: u64,
    pub disputed: u64,
    /// Of the continuing states, those checked as their mirror (as [`Report::mirrored`]).
    pub mirrored: u64,
    pub steps: u64,
    pub reads: u64,
    pub seconds: f64,
    /// The first failure, as the checker prints it (`None`: every step held).
    pub failure: Option<String>,
}

impl ShardReport {
    /// The report of `report`, a check of `engine`.
    pub fn of<S: fmt::Debug>(engine: &str, report: &Report<S>) -> ShardReport {
        ShardReport {
            bgtail_induction_shard: SHARD_REPORT_VERSION,
            engine: engine.to_owned(),
            max_lines: report.max_lines,
            kinds: report.kinds.iter().map(|k| format!("{k:?}")).collect(),
            shard: report.shard,
            items: report.items,
            items_total: report.items_total,
            factoring: factoring_name(report.factoring).to_owned(),
            groups: report.groups,
            groups_total: report.groups_total,
            fresh: report.fresh,
            continuing: report.continuing,
            reset: report.reset,
            disputed: report.disputed,
            mirrored: report.mirrored,
            steps: report.steps,
            reads: report.reads,
            seconds: report.seconds,
            failure: report.failures.first().map(|f| format!("{f:?}")),
        }
    }
}

/// How a report names its factoring.
fn factoring_name(factoring: Factoring) -> &'static str {
    match factoring {
        Factoring::Full => "full",
        Factoring::Factored => "factored",
        Factoring::Compared => "compared",
        Factoring::MirrorsCompared => "mirrors-compared",
    }
}

/// The shards' reports together: the whole check's counts and verdict.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Merged {
    pub engine: String,
    pub max_lines: u8,
    /// How many shards.
    pub shards: usize,
    pub items: u64,
    pub groups: u64,
    pub fresh: u64,
    pub continuing: u64,
    pub reset: u64,
    pub disputed: u64,
    pub mirrored: u64,
    pub steps: u64,
    pub reads: u64,
    /// The sum of the shards' times (their machine time, not the wall time of the whole).
    pub seconds: f64,
    /// Each failing shard and its first failure.
    pub failures: Vec<(Shard, String)>,
}

impl Merged {
    /// Every state of the invariant covered, over all shards.
    pub fn states(&self) -> u64 {
        self.fresh + self.continuing + self.reset + self.disputed
    }

    /// Whether every shard's every step held: the whole induction step holds.
    pub fn proved(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Why reports do not make one whole check.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// No reports.
    Empty,
    /// A report of another format version.
    Version(u32),
    /// Reports of different checks: the field that differs, and the two values.
    Mismatch(&'static str, String, String),
    /// A shard given twice.
    Twice(Shard),
    /// Shards missing (by `I/N`).
    Missing(Vec<String>),
    /// The items the shards took do not add up to the enumeration's.
    Items { checked: u64, total: u64 },
    /// The groups the shards ran do not add up to the enumeration's.
    Groups { checked: u64, total: u64 },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => write!(f, "no shard reports"),
            MergeError::Version(v) => write!(
                f,
                "a shard report of version {v}; this build reads {SHARD_REPORT_VERSION}"
            ),
            MergeError::Mismatch(field, a, b) => {
                write!(
                    f,
                    "the reports are of different checks: {field} {a} and {b}"
                )
            }
            MergeError::Twice(s) => write!(f, "shard {s} given twice"),
            MergeError::Missing(m) => write!(f, "shards missing: {}", m.join(", ")),
            MergeError::Items { checked, total } => write!(
                f,
                "the shards took {checked} items of the enumeration's {total}"
            ),
            MergeError::Groups { checked, total } => write!(
                f,
                "the shards ran {checked} groups of the enumeration's {total}"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// The reports as one check, when they are exactly the shards of one: the same engine,
/// bound and shard count, each shard once, every item checked.
pub fn merge(reports: &[ShardReport]) -> Result<Merged, MergeError> {
    let first = reports.first().ok_or(MergeError::Empty)?;
    let count = first.shard.count();
    let mut seen = vec![false; count];
    for r in reports {
        if r.bgtail_induction_shard != SHARD_REPORT_VERSION {
            return Err(MergeError::Version(r.bgtail_induction_shard));
        }
        same("engine", &first.engine, &r.engine)?;
        same("max_lines", &first.max_lines, &r.max_lines)?;
        same("kinds", &first.kinds.join(","), &r.kinds.join(","))?;
        same("shard count", &count, &r.shard.count())?;
        same("items in all", &first.items_total, &r.items_total)?;
        same("groups in all", &first.groups_total, &r.groups_total)?;
        same("factoring", &first.factoring, &r.factoring)?;
        if std::mem::replace(&mut seen[r.shard.index()], true) {
            return Err(MergeError::Twice(r.shard));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|&i| !seen[i])
        .map(|i| {
            Shard::new(i, count)
                .expect("an index below the count")
                .to_string()
        })
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing(missing));
    }
    let sum = |f: fn(&ShardReport) -> u64| reports.iter().map(f).sum::<u64>();
    let checked = sum(|r| r.items);
    if checked != first.items_total {
        return Err(MergeError::Items {
            checked,
            total: first.items_total,
        });
    }
    let groups = sum(|r| r.groups);
    if groups != first.groups_total {
        return Err(MergeError::Groups {
            checked: groups,
            total: first.groups_total,
        });
    }
    Ok(Merged {
        engine: first.engine.clone(),
        max_lines: first.max_lines,
        shards: count,
        items: checked,
        groups,
        fresh: sum(|r| r.fresh),
        continuing: sum(|r| r.continuing),
        reset: sum(|r| r.reset),
        disputed: sum(|r| r.disputed),
        mirrored: sum(|r| r.mirrored),
        steps: sum(|r| r.steps),
        reads: sum(|r| r.reads),
        seconds: reports.iter().map(|r| r.seconds).sum(),
        failures: reports
            .iter()
            .filter_map(|r| r.failure.clone().map(|f| (r.shard, f)))
            .collect(),
    })
}

/// `Ok` when two reports agree on `field`.
fn same<T: PartialEq + fmt::Display>(field: &'static str, a: &T, b: &T) -> Result<(), MergeError> {
    if a == b {
        Ok(())
    } else {
        Err(MergeError::Mismatch(field, a.to_string(), b.to_string()))
    }
}
