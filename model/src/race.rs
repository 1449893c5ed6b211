//! A read during which the log is cut ([`Action::ReadDuringCut`]): the engine measures the log
//! before the cut and reads its bytes after it, so that a piece it asks for comes back short.
//!
//! The contract (docs/contract.md, "A log that shrinks during a read") answers such a read as
//! a read made after the cut. The model holds it to exactly that: beside the read during the
//! cut it makes the same read after the cut on a copy of the state, and the reply and the
//! successor state (the engine's bookmarks, what the judge knows was delivered) must be the
//! same. The judge holds the reply to the cut log as any read's. So a read during a cut is a
//! cut and then a read, which every bound that truncates and reads covers, and the inductive
//! check too.

use crate::config::{ModelConfig, Times};
use crate::model::TailModel;
use crate::state::{Action, LineKind, Race, TailState};
use bgtail::source::{LogSource, LogStat, SourceError};
use bgtail::Engine;
use stateright::Property;
use std::cell::Cell;

/// The cut log as a read during the cut finds it: the first look at its size is from before
/// the cut (`measured`); every later look, and every byte, is the cut log's.
struct CutDuringRead<'a> {
    cut: &'a dyn LogSource,
    measured: u64,
    /// Whether the size was looked at: only the first look comes before the cut.
    looked: Cell<bool>,
    /// Whether a read asked for bytes past the cut log's end.
    came_short: Cell<bool>,
}

impl LogSource for CutDuringRead<'_> {
    fn stat(&self) -> Result<LogStat, SourceError> {
        let stat = self.cut.stat()?;
        if self.looked.replace(true) {
            return Ok(stat);
        }
        Ok(LogStat {
            size: self.measured,
            ..stat
        })
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError> {
        let n = self.cut.read_at(offset, buf)?;
        if n < buf.len() {
            self.came_short.set(true);
        }
        Ok(n)
    }
}

impl<E: Engine> TailModel<E> {
    /// A condensed read of `lines` during a cut of the log to its first half: the cut made,
    /// the read made with the log measured before it, and the same read made after the cut on
    /// a copy, which the reply and the successor are held to. The reply's text and the
    /// verdict, as [`TailModel::read`]'s.
    pub(crate) fn read_during_cut(
        &self,
        s: &mut TailState<E::State>,
        lines: u8,
    ) -> Option<(String, bgtail::judge::Verdict)> {
        let measured = s.render(&self.config.limits).bytes.len() as u64;
        s.apply_to_log(&Action::ReadDuringCut(lines));
        let bytes = s.render(&self.config.limits).bytes;
        let cut = Self::log_of(&bytes);
        let mut after = s.clone();
        let plain = self.read_from(&mut after, &bytes, &cut, f64::from(lines), false);
        let source = CutDuringRead {
            cut: &cut,
            measured,
            looked: Cell::new(false),
            came_short: Cell::new(false),
        };
        let raced = self.read_from(s, &bytes, &source, f64::from(lines), false);
        let same_text = raced.as_ref().map(|r| &r.0) == plain.as_ref().map(|r| &r.0);
        let apart = !same_text || *s != after;
        s.race = Some(Race {
            came_short: source.came_short.get(),
            apart,
        });
        raced
    }
}

impl<E> TailModel<E>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    /// The race's properties, where the bound makes reads during a cut.
    pub(crate) fn race_properties(&self) -> Vec<Property<Self>> {
        if self.config.cut_during_read.is_empty() {
            return Vec::new();
        }
        vec![
            Property::always(
                "a read during a cut answers as a read after it",
                |_, s: &TailState<E::State>| !s.race.is_some_and(|r| r.apart),
            ),
            Property::sometimes(
                "a read during a cut asked for bytes past the cut",
                |_, s: &TailState<E::State>| s.race.is_some_and(|r| r.came_short),
            ),
        ]
    }
}

impl ModelConfig {
    /// Reads during a cut: CI's limits (pieces of 4 bytes, places compared of a few), short
    /// and long lines and a partial one, up to 4 lines, one reset — a cut, or a read during
    /// one — condensed reads of 1 and 2, any number of reads, and reads of 1 and 2 during a
    /// cut, whose first look at the size is from before it. The cut falls past every piece
    /// of the tail, inside one, past the head or the bytes before the settled end the
    /// generation check reads, or nowhere the read looks.
    pub fn cut_during_read() -> Self {
        ModelConfig {
            max_lines: 4,
            max_reads: Times::Any,
            max_resets: Times::AtMost(1),
            read_lines: vec![1, 2],
            cut_during_read: vec![1, 2],
            kinds: vec![LineKind::Short, LineKind::Long],
            partial_lines: true,
            finish: true,
            ..Self::issue_28_gap()
        }
    }
}
