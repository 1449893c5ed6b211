//! The race property bites: the exact engine whose every look at the log's size gives the
//! first one's cannot read again what shrank under it, and the model at `cut-during-read`
//! finds it in two steps, where the exact engine keeps every property on the same bound
//! (`exact_engine::exact_answers_a_read_during_a_cut_as_a_read_after_it`).

use bgtail::source::{LogSource, LogStat, SourceError};
use bgtail::{Engine, ExactEngine, ExactState, Job, Limits, Rejected, Reply, Request};
use bgtail_model::{shortest_discovery, Action::*, LineKind::*, ModelConfig, TailModel};
use std::cell::Cell;

/// The exact engine reading through [`MeasuredOnce`].
struct LooksOnce(ExactEngine);

/// A log whose size is measured once: every later look gives the first look's size.
struct MeasuredOnce<'a> {
    log: &'a dyn LogSource,
    first: Cell<Option<LogStat>>,
}

impl LogSource for MeasuredOnce<'_> {
    fn stat(&self) -> Result<LogStat, SourceError> {
        if let Some(stat) = self.first.get() {
            return Ok(stat);
        }
        let stat = self.log.stat()?;
        self.first.set(Some(stat));
        Ok(stat)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError> {
        self.log.read_at(offset, buf)
    }
}

impl Engine for LooksOnce {
    type State = ExactState;

    fn name(&self) -> &'static str {
        "exact-measuring-once"
    }

    fn limits(&self) -> &Limits {
        self.0.limits()
    }

    fn text_format(&self) -> bgtail::TextFormat {
        self.0.text_format()
    }

    fn read(
        &self,
        state: &mut ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        let once = MeasuredOnce {
            log,
            first: Cell::new(None),
        };
        self.0.read(state, job, &once, request)
    }
}

#[test]
fn an_engine_that_cannot_look_again_breaks_the_race_property_in_two_steps() {
    let config = ModelConfig::cut_during_read();
    let engine = LooksOnce(ExactEngine::new(config.limits.clone()));
    let model = TailModel::new(engine, config);
    let path = shortest_discovery(&model, "a read during a cut answers as a read after it");
    assert_eq!(path.unwrap(), [Append(Short), ReadDuringCut(1)]);
    // Its reply is upstream's error where the read after the cut shows the line.
    let explained = model.explain(&[Append(Short), ReadDuringCut(1)]);
    let text = explained[1].text.as_deref().unwrap();
    assert!(
        text.ends_with("exists but could not be read (file may be too large or unreadable)"),
        "{text}"
    );
}
