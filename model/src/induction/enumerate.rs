//! What the inductive check ranges over: the logs a read can have seen, their facts, and the
//! sets of lines a bookmark or a judge can hold.

use crate::{line_text, partial_text, LineKind, ModelConfig, TailState};
use bgtail::judge::settled_end;

/// A log as the model writes it, and whether its job was running when a read saw it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Written {
    pub lines: Vec<LineKind>,
    pub partial: bool,
    pub variant: bool,
    pub running: bool,
}

/// A log the check ranges over, with its bytes worked out once.
#[derive(Clone, Debug)]
pub struct Log {
    pub written: Written,
    pub bytes: Vec<u8>,
}

/// A state of the inductive check: a model state, and the log its last read saw.
#[derive(Clone, Debug)]
pub struct Candidate<S> {
    pub state: TailState<S>,
    /// `None` before any read.
    pub seen: Option<Written>,
}

/// What the invariant says about one written log, worked out once.
#[derive(Clone, Debug)]
pub struct Facts {
    pub bytes: Vec<u8>,
    /// Complete content lines `(offset, end)` (end past the `\n`), oldest first.
    pub complete: Vec<(u64, u64)>,
    /// The partial line's extent, while the job runs.
    pub partial: Option<(u64, u64)>,
    /// Every line start (complete lines, then the partial one), with whether it is content.
    pub starts: Vec<(u64, bool)>,
    pub settled: u64,
}

impl Facts {
    /// Whether `span` was a line of an earlier read that has grown since: it starts where a
    /// line of this log starts and ends before that line does. The judge keeps such spans
    /// among the lines delivered, and no line of the generation ever has their span again.
    pub fn grown_from(&self, span: (u64, u64)) -> bool {
        self.complete
            .iter()
            .chain(&self.partial)
            .any(|l| l.0 == span.0 && span.1 < l.1)
    }

    /// Those of `spans` that are complete content lines of this log.
    pub fn lines_of(&self, spans: &[(u64, u64)]) -> Vec<(u64, u64)> {
        spans
            .iter()
            .copied()
            .filter(|s| self.complete.binary_search(s).is_ok())
            .collect()
    }
}

impl Written {
    /// The log's lines, complete and partial.
    pub fn len(&self) -> usize {
        self.lines.len() + usize::from(self.partial)
    }

    /// Whether the log has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The log's bytes and the facts the invariant speaks of.
    pub fn facts(&self, config: &ModelConfig) -> Facts {
        let mut bytes = Vec::new();
        let mut complete = Vec::new();
        let mut starts = Vec::new();
        for (i, &kind) in self.lines.iter().enumerate() {
            let text = line_text(i, kind, self.variant, &config.limits);
            let start = bytes.len() as u64;
            let content = kind.is_content();
            starts.push((start, content));
            if content {
                complete.push((start, start + text.len() as u64 + 1));
            }
            bytes.extend_from_slice(text.as_bytes());
            bytes.push(b'\n');
        }
        let mut partial = None;
        if self.partial {
            let text = partial_text(self.lines.len(), self.variant);
            let start = bytes.len() as u64;
            let extent = (start, start + text.len() as u64);
            starts.push((start, true));
            if self.running {
                partial = Some(extent);
            } else {
                // A finished job's last line is an ordinary line.
                complete.push(extent);
            }
            bytes.extend_from_slice(text.as_bytes());
        }
        let settled = settled_end(&bytes, self.running);
        Facts {
            bytes,
            complete,
            partial,
            starts,
            settled,
        }
    }

    /// The log a model state holds now.
    pub fn of<S>(state: &TailState<S>) -> Written {
        Written {
            lines: state.lines.clone(),
            partial: state.partial,
            variant: state.variant,
            running: state.running,
        }
    }
}

/// Every log shape of up to `max_lines` lines of the model's kinds (a completed line among
/// them when the model writes partial lines), with or without a partial line, first variant.
pub fn log_shapes(config: &ModelConfig, max_lines: usize) -> Vec<(Vec<LineKind>, bool)> {
    let mut kinds = config.kinds.clone();
    if config.partial_lines {
        kinds.push(LineKind::Completed);
    }
    let mut out = vec![(Vec::new(), false)];
    let mut layer = vec![Vec::new()];
    for n in 0..=max_lines {
        if n > 0 {
            layer = layer
                .iter()
                .flat_map(|l: &Vec<LineKind>| {
                    kinds.iter().map(move |&k| {
                        let mut l = l.clone();
                        l.push(k);
                        l
                    })
                })
                .collect();
            out.extend(layer.iter().map(|l| (l.clone(), false)));
        }
        if config.partial_lines && n < max_lines {
            out.extend(layer.iter().map(|l| (l.clone(), true)));
        }
    }
    out
}

/// The views the model's agent may pass: the default, then each configured one.
pub(super) fn views(config: &ModelConfig) -> impl Iterator<Item = Option<u16>> + '_ {
    std::iter::once(None).chain(config.views.iter().map(|&v| Some(v)))
}

/// The covered lines of a bitmask over `facts.complete`, as maximal runs of byte ranges.
pub(super) fn ranges_of(mask: u64, facts: &Facts) -> Vec<(u64, u64)> {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    let mut open = false;
    for (i, &(start, end)) in facts.complete.iter().enumerate() {
        if mask >> i & 1 == 1 {
            match runs.last_mut() {
                Some(run) if open => run.1 = end,
                _ => runs.push((start, end)),
            }
            open = true;
        } else {
            open = false;
        }
    }
    runs
}

/// The lines `(offset, end)` of a bitmask over `facts.complete`.
pub(super) fn spans_of(mask: u64, facts: &Facts) -> Vec<(u64, u64)> {
    (0..facts.complete.len())
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| facts.complete[i])
        .collect()
}

/// The number of maximal runs of set bits among the low `k` bits.
pub(super) fn runs(mask: u64, k: usize) -> usize {
    (0..k)
        .filter(|&i| mask >> i & 1 == 1 && (i == 0 || mask >> (i - 1) & 1 == 0))
        .count()
}
