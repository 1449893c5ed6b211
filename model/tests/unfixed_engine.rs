//! The model finds the partial-line rewrite on the exact engine without its partial line's
//! fingerprint: a progress line redrawn in place to the same length, behind an unchanged head
//! and settled end, is a change no reply said. So it does when the engine fingerprints the
//! partial line only where its view holds it: a read whose view starts inside a progress line
//! longer than it leaves the redraw unsaid. Each shortest counterexample is committed beside
//! the others, and replays as a trace.

use bgtail::source::LogSource;
use bgtail::{Engine, ExactEngine, ExactState, Job, Limits, Rejected, Reply, Request};
use bgtail_model::{
    checking, shortest_discovery, Action::*, Bytes, LineKind::*, ModelConfig, TailModel,
};

/// The exact engine with a partial-line fingerprint taken away after each read: `drops` says,
/// from a bookmark's settled end and where the read's view started, whether its fingerprint
/// goes.
struct Weakened {
    engine: ExactEngine,
    name: &'static str,
    drops: fn(settled_end: u64, view_origin: u64) -> bool,
}

impl Weakened {
    /// Every bookmark's partial-line fingerprint dropped: what the engine checks of a new
    /// generation is then the head and the bytes before the settled end.
    fn without_partial_print(limits: Limits) -> Self {
        Weakened {
            engine: ExactEngine::new(limits),
            name: "exact-without-partial-print",
            drops: |_, _| true,
        }
    }

    /// The partial line fingerprinted only where the view holds its first byte: a bookmark
    /// whose partial line starts before the view drops the fingerprint.
    fn partial_print_in_view_only(limits: Limits) -> Self {
        Weakened {
            engine: ExactEngine::new(limits),
            name: "exact-partial-print-in-view-only",
            drops: |settled_end, view_origin| settled_end < view_origin,
        }
    }
}

impl Engine for Weakened {
    type State = ExactState;

    fn name(&self) -> &'static str {
        self.name
    }

    fn limits(&self) -> &Limits {
        self.engine.limits()
    }

    fn text_format(&self) -> bgtail::TextFormat {
        self.engine.text_format()
    }

    fn read(
        &self,
        state: &mut ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        let reply = self.engine.read(state, job, log, request);
        let size = log.stat().map_or(0, |s| s.size);
        let view = request
            .bytes
            .map_or(self.limits().view_default, |b| b as u64);
        let origin = size.saturating_sub(view);
        for (_, bookmark) in &mut state.bookmarks {
            if (self.drops)(bookmark.settled_end, origin) {
                bookmark.partial_print = None;
            }
        }
        reply
    }
}

fn model() -> TailModel<Weakened> {
    let config = ModelConfig {
        max_lines: 3,
        ..ModelConfig::ci()
    };
    let engine = Weakened::without_partial_print(config.limits.clone());
    TailModel::new(engine, config)
}

#[test]
fn without_the_partial_print_a_redrawn_progress_line_goes_unsaid_in_five_steps() {
    let path = committed(&model(), "ci", "resets seen");
    assert_eq!(
        path,
        [
            Append(Short),
            WritePartial,
            Read(1),
            RewritePartial,
            Read(1)
        ]
    );
}

#[test]
fn with_the_partial_print_the_same_path_says_the_reset() {
    let config = ModelConfig {
        max_lines: 3,
        ..ModelConfig::ci()
    };
    says_the_partial_line_changed(
        config,
        &[
            Append(Short),
            WritePartial,
            Read(1),
            RewritePartial,
            Read(1),
        ],
    );
}

/// The exact engine at `config`, along `path`: its last read keeps the contract and says the
/// partial line the last read saw changed.
fn says_the_partial_line_changed(config: ModelConfig, path: &[bgtail_model::Action]) {
    let explained = TailModel::exact(config).explain(path);
    let last = explained.last().unwrap();
    assert!(last.anomalies.is_empty(), "{:?}", last.anomalies);
    let text = last.text.as_deref().unwrap();
    assert!(
        text.starts_with("the unfinished last line the last read saw changed"),
        "{text}"
    );
}

/// The shortest counterexample of `property` on `model`, at the bound named `bound`, once
/// it is found equal to its committed trace.
fn committed<E>(
    model: &TailModel<E>,
    bound: &str,
    property: &'static str,
) -> Vec<bgtail_model::Action>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    let path = shortest_discovery(model, property).expect("a counterexample");
    let found = checking::counterexample(model, bound, property, &path);
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces/counterexamples")
        .join(format!("{}.jsonl", found.name));
    let text = found.trace.to_jsonl();
    assert_eq!(
        std::fs::read_to_string(&committed).ok().as_deref(),
        Some(text.as_str()),
        "{} differs from the counterexample found:\n{text}",
        committed.display()
    );
    path
}

#[test]
fn fingerprinting_only_a_partial_line_in_view_leaves_its_redraw_unsaid_in_six_steps() {
    let config = ModelConfig::job_end();
    let engine = Weakened::partial_print_in_view_only(config.limits.clone());
    let model = TailModel::new(engine, config);
    let path = committed(&model, "job-end", "resets seen");
    assert_eq!(
        path,
        [
            Append(Short),
            WritePartial,
            SetView(Some(Bytes::Whole(1))),
            Read(1),
            RewritePartial,
            Read(1)
        ]
    );
}

#[test]
fn a_progress_line_wider_than_the_view_redrawn_is_a_reset_said() {
    says_the_partial_line_changed(
        ModelConfig::job_end(),
        &[
            Append(Short),
            WritePartial,
            SetView(Some(Bytes::Whole(1))),
            Read(1),
            RewritePartial,
            Read(1),
        ],
    );
}
