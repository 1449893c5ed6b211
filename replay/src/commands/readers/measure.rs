//! What `bgtail readers` measures of one reader: each bound's check (its broken properties,
//! shortest first), the witness paths replayed, and the corpus replayed with the contract
//! required.

use super::args::Args;
use super::table::{partial, properties, At, Engines, Reader, Witness, PARTIAL_LINES};
use crate::checks::bound::{bound_slug, configured, Bound, Spec};
use crate::checks::run::{export, outside_check, outside_model, write_counterexample};
use crate::corpus::{load, replay_trace, timeout, trace_files, ReplayEngine};
use crate::engine_arg::EngineArg;
use crate::replay_eut::Outside;
use anyhow::{bail, Context as _};
use bgtail::replay::Replay;
use bgtail::Engine;
use bgtail_model::checking::{self, Summary};
use bgtail_model::{shortest_discovery, Action, TailModel};
use stateright::Expectation;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A broken property's shortest counterexample: where, how long, which anomaly.
pub(super) struct Broken {
    /// The bound's name, and `path replayed` where the path is a witness's.
    pub bound: String,
    pub path: Vec<bgtail_model::Action>,
    pub anomaly: String,
}

/// What one reader came to.
#[derive(Default)]
pub(super) struct Measured {
    /// Per property, the shortest counterexample over the reader's bounds.
    pub broken: BTreeMap<&'static str, Broken>,
    /// Each bound's name and its unique states.
    pub checked: Vec<(String, usize)>,
    /// Each witness's bound and its length.
    pub replayed: Vec<(String, usize)>,
    /// Whether the reader is fed the job's output stream (`appends_only`): no bound cuts or
    /// rewrites its log, so whether it sees a reset is not checked.
    pub appends_only: bool,
    pub corpus: Corpus,
}

/// The corpus through one reader, summed over its traces.
#[derive(Default)]
pub(super) struct Corpus {
    pub reads: u64,
    pub not_replayed: u64,
    pub lines_delivered: u64,
    pub lines_repeated: u64,
    pub chars_repeated: u64,
    pub lines_lost: u64,
    pub anomalies: BTreeMap<String, u64>,
}

/// One reader: each bound checked, then the corpus.
pub(super) fn measure(reader: &Reader, engines: &Engines, args: &Args) -> anyhow::Result<Measured> {
    let engine = &engines.model;
    let mut measured = Measured::default();
    for spec in reader.bounds {
        let check_args = check_args(engine, spec, args);
        let label = label(spec);
        match engine {
            ReplayEngine::Builtin(_) => {
                let model = TailModel::exact(configured(&check_args));
                let (summary, model) = checking::check(model, 1, spec.bound.complete());
                record(&mut measured, &model, &summary, (spec.bound, &label), args)?;
            }
            ReplayEngine::Command(command) => {
                let (summary, model, _) = outside_check(&check_args, command)?;
                measured.appends_only |= model.engine.capabilities.appends_only;
                record(&mut measured, &model, &summary, (spec.bound, &label), args)?;
            }
        }
    }
    for witness in reader.witnesses {
        replay_witness(&mut measured, witness, engine, args)?;
    }
    measured.corpus = corpus(&engines.corpus, args)?;
    Ok(measured)
}

/// `check`'s arguments for one bound of a reader.
pub(super) fn check_args(engine: &ReplayEngine, spec: &At, args: &Args) -> Spec {
    Spec::bounded(
        engine.clone(),
        spec.bound,
        spec.max_lines,
        spec.max_reads,
        args.timeout,
    )
}

/// The bound as the table names it (`ci, 3 lines, 2 reads`).
pub(super) fn label(spec: &At) -> String {
    let mut label = bound_slug(spec.bound);
    match spec.max_lines {
        Some(1) => label.push_str(", 1 line"),
        Some(n) => label.push_str(&format!(", {n} lines")),
        None => {}
    }
    if let Some(n) = spec.max_reads {
        label.push_str(&format!(", {n} reads"));
    }
    label
}

/// Adds one check's outcome: its states, and each broken property's shortest counterexample
/// where it is shorter than the one already kept.
pub(super) fn record<E>(
    measured: &mut Measured,
    model: &TailModel<E>,
    summary: &Summary,
    (bound, label): (Bound, &str),
    args: &Args,
) -> anyhow::Result<()>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    measured.checked.push((label.to_owned(), summary.unique));
    for v in &summary.verdicts {
        if v.expectation == Expectation::Sometimes || v.discovery.is_none() {
            continue;
        }
        let path = shortest_discovery(model, v.name).or_else(|| v.discovery.clone());
        let Some(path) = path else { continue };
        let anomaly = model
            .explain(&path)
            .iter()
            .rev()
            .find_map(|step| step.anomalies.iter().find(|a| a.kind.property() == v.name))
            .map_or_else(|| "?".to_owned(), |a| format!("{:?}", a.kind));
        keep(measured, v.name, label, &anomaly, path);
    }
    if model.config.partial_lines {
        if let Some(path) = shortest_through_partial(model) {
            keep(
                measured,
                PARTIAL_LINES,
                label,
                &explain_last(model, &path),
                path,
            );
        }
    }
    if let Some(dir) = &args.export {
        export(model, summary, dir, &bound_slug(bound))?;
    }
    Ok(())
}

/// The shortest path that writes or completes a partial line and reaches a state where an
/// `always` property fails.
pub(super) fn shortest_through_partial<E>(model: &TailModel<E>) -> Option<Vec<Action>>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    use stateright::Model as _;
    let always: Vec<_> = model
        .properties()
        .into_iter()
        .filter(|p| p.expectation == Expectation::Always)
        .collect();
    let bad = |s: &_| always.iter().any(|p| !(p.condition)(model, s));
    bgtail_model::shortest_through(model, partial, bad)
}

/// The first anomaly of an `always` property the judge names at the path's last step.
pub(super) fn explain_last<E: Engine>(model: &TailModel<E>, path: &[Action]) -> String {
    let properties = properties();
    model
        .explain(path)
        .last()
        .and_then(|step| {
            step.anomalies
                .iter()
                .find(|a| properties.contains(&a.kind.property()))
        })
        .map_or_else(|| "?".to_owned(), |a| format!("{:?}", a.kind))
}

/// Keeps `path` as `column`'s counterexample where it is shorter than the one kept, and says
/// whether it did.
pub(super) fn keep(
    measured: &mut Measured,
    column: &'static str,
    bound: &str,
    anomaly: &str,
    path: Vec<Action>,
) -> bool {
    let shorter = measured
        .broken
        .get(column)
        .is_none_or(|b| path.len() < b.path.len());
    if shorter {
        let broken = Broken {
            bound: bound.to_owned(),
            path,
            anomaly: anomaly.to_owned(),
        };
        measured.broken.insert(column, broken);
    }
    shorter
}

/// Runs the reader along a witness's path and keeps, per property, the path up to the step
/// where the judge first names an anomaly of it, where that is shorter than the one kept (and,
/// with `--export`, writes it as the trace a full check would write).
pub(super) fn replay_witness(
    measured: &mut Measured,
    witness: &Witness,
    engine: &ReplayEngine,
    args: &Args,
) -> anyhow::Result<()> {
    let ReplayEngine::Command(command) = engine else {
        bail!("a witness is replayed through an engine in another process");
    };
    let label = label(&witness.at);
    let (model, _, _) = outside_model(&check_args(engine, &witness.at, args), command)?;
    let explained = model.explain(witness.path);
    if let Some(failure) = model.engine.failure() {
        bail!("{}: {failure}", model.engine.name());
    }
    let properties = properties();
    let bound = format!("{label}, path replayed");
    for (step, e) in explained.iter().enumerate() {
        let path = &witness.path[..=step];
        for a in &e.anomalies {
            let Some(&name) = properties.iter().find(|p| **p == a.kind.property()) else {
                continue;
            };
            let anomaly = format!("{:?}", a.kind);
            if path.iter().any(partial) {
                keep(measured, PARTIAL_LINES, &bound, &anomaly, path.to_vec());
            }
            if keep(measured, name, &bound, &anomaly, path.to_vec()) {
                if let Some(dir) = &args.export {
                    let slug = bound_slug(witness.at.bound);
                    let found = checking::counterexample(&model, &slug, name, path);
                    write_counterexample(&found, dir)?;
                }
            }
        }
    }
    measured.replayed.push((label, witness.path.len()));
    Ok(())
}

/// Every trace under `traces/` through the reader, the contract required.
pub(super) fn corpus(engine: &ReplayEngine, args: &Args) -> anyhow::Result<Corpus> {
    let files = trace_files(&[PathBuf::from("traces")])?;
    let work = tempfile::tempdir().context("a temporary folder")?;
    let mut outside = match engine {
        ReplayEngine::Command(c) => Some(Outside::new(c, timeout(args.timeout)?)),
        ReplayEngine::Builtin(_) => None,
    };
    let mut sum = Corpus::default();
    let bar = crate::progress::traces(files.len(), "corpus");
    for (i, file) in files.iter().enumerate() {
        bar.set_position(i as u64);
        let trace = load(file)?;
        let replays = match outside.as_mut() {
            None => replay_trace(&trace, EngineArg::Exact),
            Some(o) => {
                let dir = work.path().join(i.to_string());
                std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
                vec![o.replay(&trace, &dir)?]
            }
        };
        replays.iter().for_each(|r| add(&mut sum, r));
    }
    bar.finish_and_clear();
    if let Some(o) = outside {
        o.finish()?;
    }
    Ok(sum)
}

/// Adds one replay to the sum.
pub(super) fn add(sum: &mut Corpus, r: &Replay) {
    let t = &r.tally;
    sum.reads += t.reads;
    sum.lines_delivered += t.lines_delivered;
    sum.lines_repeated += t.lines_repeated;
    sum.chars_repeated += t.chars_repeated;
    sum.lines_lost += t.lines_lost;
    for read in &r.reads {
        sum.not_replayed += u64::from(read.text.starts_with("(not replayed"));
        for a in &read.anomalies {
            *sum.anomalies.entry(format!("{:?}", a.kind)).or_default() += 1;
        }
    }
}
