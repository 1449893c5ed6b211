//! What the inductive check ranges over: the logs a read can have seen, their facts, and the
//! sets of lines a bookmark or a judge can hold.

use crate::{Bytes, LineKind, ModelConfig, TailState};
use bgtail::judge::settled_end;

/// A log as the model writes it, and whether its job was running when a read saw it: the
/// log's part of a [`TailState`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Written {
    pub lines: Vec<LineKind>,
    pub partial: bool,
    pub variant: bool,
    /// Lines rewritten in place on their own, one bit per index ([`TailState::edited`]).
    pub edited: u64,
    /// Partial lines that grew, one bit per index ([`TailState::grown`]).
    pub grown: u64,
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

    /// The log's bytes and the facts the invariant speaks of, rendered as the model renders
    /// its state's log.
    pub fn facts(&self, config: &ModelConfig) -> Facts {
        let rendered = self.state().render(&config.limits);
        let (bytes, at) = (rendered.bytes, rendered.starts);
        let end_of = |i: usize| at.get(i + 1).copied().unwrap_or(bytes.len() as u64);
        let mut complete = Vec::new();
        let mut starts = Vec::with_capacity(at.len());
        for (i, &kind) in self.lines.iter().enumerate() {
            starts.push((at[i], kind.is_content()));
            if kind.is_content() {
                complete.push((at[i], end_of(i)));
            }
        }
        let mut partial = None;
        if self.partial {
            let extent = (at[self.lines.len()], bytes.len() as u64);
            starts.push((extent.0, true));
            if self.running {
                partial = Some(extent);
            } else {
                // A finished job's last line is an ordinary line.
                complete.push(extent);
            }
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

    /// The model state of this log, read by nobody.
    fn state(&self) -> TailState<()> {
        TailState {
            lines: self.lines.clone(),
            partial: self.partial,
            variant: self.variant,
            edited: self.edited,
            grown: self.grown,
            running: self.running,
            ..TailState::empty(())
        }
    }

    /// The log a model state holds now.
    pub fn of<S>(state: &TailState<S>) -> Written {
        Written {
            lines: state.lines.clone(),
            partial: state.partial,
            variant: state.variant,
            edited: state.edited,
            grown: state.grown,
            running: state.running,
        }
    }
}

/// Every log of up to `max_lines` lines the model writes, in the first text variant and of
/// a running job: its kinds in any order (a completed line among them when the model writes
/// partial lines), with or without a partial line; with the job's end, also closed by the
/// wrapper's exit marker, and the log a truncation leaves of a log of the newline and the
/// marker alone, which starts with that newline's line; each line rewritten on its own or
/// not, and each partial part grown or not, where the model's actions do either.
pub fn log_shapes(config: &ModelConfig, max_lines: usize) -> Vec<Written> {
    let mut kinds = config.kinds.clone();
    if config.partial_lines {
        kinds.push(LineKind::Completed);
    }
    let mut out = Vec::new();
    for (lines, partial) in kind_sequences(config, &kinds, max_lines) {
        let written = Written {
            lines,
            partial,
            variant: false,
            edited: 0,
            grown: 0,
            running: true,
        };
        let edits = editable(config, &written);
        let grows = growable(config, &written);
        for edited in submasks(edits) {
            for grown in submasks(grows) {
                out.push(Written {
                    edited,
                    grown,
                    ..written.clone()
                });
            }
        }
    }
    out
}

/// The lines of every log [`log_shapes`] ranges over, with whether a partial line ends it.
fn kind_sequences(
    config: &ModelConfig,
    kinds: &[LineKind],
    max_lines: usize,
) -> Vec<(Vec<LineKind>, bool)> {
    // Where the job's end is written, a truncation of `[newline's line, marker]` keeps the
    // first: the job may write after it.
    let firsts: &[&[LineKind]] = if config.exit_marker {
        &[&[], &[LineKind::Ended], &[LineKind::Empty]]
    } else {
        &[&[]]
    };
    let mut out = Vec::new();
    for first in firsts.iter().filter(|f| f.len() <= max_lines) {
        for (middle, partial) in middles(config, kinds, max_lines - first.len()) {
            let lines = [*first, &middle[..]].concat();
            let used = lines.len() + usize::from(partial);
            out.push((lines.clone(), partial));
            // The marker ends the partial line as it stands, or adds an empty line.
            if config.exit_marker && used + 1 + usize::from(!partial) <= max_lines {
                let newline = if partial {
                    LineKind::Ended
                } else {
                    LineKind::Empty
                };
                let closed = [&lines[..], &[newline, LineKind::ExitMarker]].concat();
                out.push((closed, false));
            }
        }
    }
    out
}

/// Every sequence of up to `max_lines` lines of `kinds`, with or without a partial line
/// after it (which counts as a line).
fn middles(
    config: &ModelConfig,
    kinds: &[LineKind],
    max_lines: usize,
) -> Vec<(Vec<LineKind>, bool)> {
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

/// The lines of `log` a rewrite of one line can give the other text variant, as a mask. Blank
/// and empty lines read the same in both variants (a bit set on one changes no byte, now or
/// after any action: the enumeration keeps the bit clear), and the marker is written after the
/// job's last rewrite.
fn editable(config: &ModelConfig, log: &Written) -> u64 {
    if !config.rewrite_in_place {
        return 0;
    }
    let changes =
        |k: &LineKind| !matches!(k, LineKind::Blank | LineKind::Empty | LineKind::ExitMarker);
    let mut mask = bits(log.lines.iter().map(changes));
    if log.partial {
        mask |= 1 << log.lines.len();
    }
    mask
}

/// The lines of `log` whose partial part may have grown, as a mask: the partial line, and the
/// lines that a partial line became.
fn growable(config: &ModelConfig, log: &Written) -> u64 {
    if !config.grow_partial {
        return 0;
    }
    let was_partial = |k: &LineKind| matches!(k, LineKind::Completed | LineKind::Ended);
    let mut mask = bits(log.lines.iter().map(was_partial));
    if log.partial {
        mask |= 1 << log.lines.len();
    }
    mask
}

/// The mask of the indices where `flags` is true.
fn bits(flags: impl Iterator<Item = bool>) -> u64 {
    flags
        .enumerate()
        .filter(|(_, f)| *f)
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// Every submask of `mask`, `0` first.
fn submasks(mask: u64) -> impl Iterator<Item = u64> {
    // Counts up through the submasks: `(sub - mask) & mask` is the next one after `sub`.
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let sub = next?;
        let following = sub.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(sub)
    })
}

/// The views the model's agent may pass: the default, then each configured one.
pub(super) fn views(config: &ModelConfig) -> impl Iterator<Item = Option<Bytes>> + '_ {
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
