//! Running a bounded check: of the engines in this process, or of an engine in another
//! process at its declared limits; and writing its counterexamples as traces.

use super::bound::{bound_name, bound_slug, configured, Spec};
use super::print::print_summary;
use crate::corpus::{timeout, ReplayEngine};
use crate::engine_arg::EngineArg;
use crate::outside::OutsideEngine;
use anyhow::{bail, Context as _};
use bgtail::{Engine, Limits};
use bgtail_model::checking::{self, Summary};
use bgtail_model::{ModelConfig, TailModel, Times};
use std::path::Path;

/// Runs the checks; true when the exact engine (or the outside engine) kept every property.
pub fn run_checks(args: &Spec) -> anyhow::Result<(bool, Vec<Summary>)> {
    let builtin = match &args.engine {
        ReplayEngine::Builtin(e) => *e,
        ReplayEngine::Command(command) => return check_outside(args, command),
    };
    let bound = bound_name(args.bound, &configured(args));
    let slug = bound_slug(args.bound);
    let mut exact_ok = true;
    let mut summaries = Vec::new();
    if builtin != EngineArg::Shipped {
        let (summary, model) = watched(
            TailModel::exact(configured(args)),
            args.threads,
            args.bound.complete(),
            &format!("exact, {slug}"),
        );
        print_summary(&summary, &bound);
        exact_ok = summary.failures().is_empty();
        if let Some(dir) = &args.export {
            export(&model, &summary, dir, &slug)?;
        }
        summaries.push(summary);
    }
    if builtin != EngineArg::Exact {
        let (summary, model) = watched(
            TailModel::shipped(configured(args)),
            args.threads,
            false,
            &format!("shipped, {slug}"),
        );
        print_summary(&summary, &bound);
        if let Some(dir) = &args.export {
            export(&model, &summary, dir, &slug)?;
        }
        summaries.push(summary);
    }
    Ok((exact_ok, summaries))
}

/// [`checking::check`], its states shown as it goes ([`crate::progress`]).
fn watched<E>(
    model: TailModel<E>,
    threads: usize,
    require_examples: bool,
    what: &str,
) -> (Summary, TailModel<E>)
where
    E: Engine + Send + Sync + Clone + 'static,
    E::State: Send + Sync,
{
    let bar = crate::progress::states(what);
    let mut show = |p| crate::progress::show_states(&bar, p);
    let done = checking::check_watched(model, threads, require_examples, Some(&mut show));
    bar.finish_and_clear();
    done
}

/// Reads and resets a bound takes any number of are counted for an engine in another
/// process, up to these: its state is a snapshot the model cannot take up to what no reply
/// tells apart, or the path of reads that rebuilds it, which grows with every read.
const OUTSIDE_READS: u8 = 3;
const OUTSIDE_RESETS: u8 = 1;

/// The bound for an engine in another process: its counters, where the bound has none.
fn outside_config(args: &Spec) -> anyhow::Result<ModelConfig> {
    for (flag, times) in [
        ("--max-reads", args.max_reads),
        ("--max-resets", args.max_resets),
    ] {
        if times == Some(Times::Any) {
            bail!(
                "{flag} any needs an engine in this process: an engine in another process is \
                 checked with reads and resets counted (its state may grow with every read)"
            );
        }
    }
    let mut config = configured(args);
    if !config.cut_during_read.is_empty() {
        // Over the protocol the harness hands the engine the log after the cut: the race
        // would be the harness's reads, not the engine's.
        bail!(
            "--bound {} cuts the log during an engine's own reads, which only an engine in \
             this process makes: an engine in another process reads the log the harness writes",
            bound_slug(args.bound)
        );
    }
    if config.max_reads == Times::Any {
        config.max_reads = Times::AtMost(OUTSIDE_READS);
    }
    if config.max_resets == Times::Any {
        config.max_resets = Times::AtMost(OUTSIDE_RESETS);
    }
    Ok(config)
}

/// Checks an engine in another process at the bound scaled to its declared limits, on one
/// thread (one process answers one read at a time). A harness error ends the check as an
/// error, not as a verdict.
fn check_outside(args: &Spec, command: &str) -> anyhow::Result<(bool, Vec<Summary>)> {
    let (summary, model, bound) = outside_check(args, command)?;
    let engine = &model.engine;
    print_summary(&summary, &bound);
    println!(
        "  ({}; {} requests, {:.0} requests/s)",
        engine.rebuild.describe(),
        engine.requests(),
        engine.requests() as f64 / summary.seconds.max(1e-9)
    );
    if let Some(dir) = &args.export {
        export(&model, &summary, dir, &bound_slug(args.bound))?;
    }
    let ok = summary.failures().is_empty();
    Ok((ok, vec![summary]))
}

/// The check of an engine in another process: its summary, its model (for the shortest
/// counterexamples) and the bound's name. A harness error ends it as an error.
pub fn outside_check(
    args: &Spec,
    command: &str,
) -> anyhow::Result<(Summary, TailModel<OutsideEngine>, String)> {
    let (model, complete, bound) = outside_model(args, command)?;
    let engine = model.engine.clone();
    let what = format!("{}, {}", engine.name(), bound_slug(args.bound));
    let (summary, model) = watched(model, 1, complete, &what);
    if let Some(failure) = engine.failure() {
        bail!("{}: {failure}", engine.name());
    }
    Ok((summary, model, bound))
}

/// The model of an engine in another process at `args`' bound, its actions cut to what the
/// engine declares it can do; whether every path is required of it; and the bound's name.
pub fn outside_model(
    args: &Spec,
    command: &str,
) -> anyhow::Result<(TailModel<OutsideEngine>, bool, String)> {
    let bounded = outside_config(args)?;
    let timeout = timeout(args.timeout)?;
    let engine = OutsideEngine::start(command, timeout, bgtail_model::JOB_ID)?;
    let bound_limits = bounded.limits.clone();
    let mut config = bounded.for_limits(engine.limits().clone());
    let caps = engine.capabilities;
    // Every path is required only where the bound is the one it was made for: at another
    // engine's limits (64 coverage ranges, a budget four long lines wide) some are out of reach.
    let same_limits = bgtail::protocol::DeclaredLimits::from(&bound_limits)
        == bgtail::protocol::DeclaredLimits::from(engine.limits());
    if !caps.raw {
        config.raw_lines.clear();
    }
    if !caps.bytes {
        config.views.clear();
    }
    // The protocol carries the agent's JSON, which has no NaN or ±Infinity: a `lines` only a
    // JavaScript caller passes is asked of the in-crate engines alone (a `bytes` of either is
    // the default view, which JSON's `null` asks for too).
    config.odd_lines.retain(|l| l.value().is_finite());
    // A reader fed the job's output stream cannot be shown a log cut or rewritten in place:
    // those actions are left out, and the bound's name says so.
    // The rewrites of one line ask what the whole-log rewrite already asks of a reader that
    // compares no places of its own (a change to bytes it showed is a reset owed); they are
    // the model's way into the places an engine declares, and are left out where it declares
    // none (the in-crate engines' own checks take them at the model's limits).
    if !declares_places(engine.limits()) {
        config.rewrite_in_place = false;
    }
    let mut unsupported = Vec::new();
    if caps.appends_only {
        let families = [
            (&mut config.truncate, "Truncate"),
            (&mut config.rewrite, "Rewrite"),
            (&mut config.rewrite_in_place, "RewriteLast, RewritePartial"),
        ];
        for (on, names) in families {
            if std::mem::take(on) {
                unsupported.push(names);
            }
        }
    }
    let complete = args.bound.complete() && caps.raw && caps.bytes && same_limits;
    let mut bound = bound_name(args.bound, &config);
    if !unsupported.is_empty() {
        let names = unsupported.join(", ");
        bound.push_str(&format!(" [{names}: not supported (appends_only)]"));
    }
    Ok((TailModel::new(engine, config), complete, bound))
}

/// Whether `limits` hold compared places other than the exact engine's defaults: what an
/// engine in another process declares (`DeclaredLimits::head_probe_bytes` and the others).
fn declares_places(limits: &Limits) -> bool {
    let d = Limits::default();
    (
        limits.head_probe_bytes,
        limits.settled_print_bytes,
        limits.partial_print_bytes,
    ) != (
        d.head_probe_bytes,
        d.settled_print_bytes,
        d.partial_print_bytes,
    )
}

/// Writes each counterexample of `summary` as a trace in `dir`.
pub fn export<E>(
    model: &TailModel<E>,
    summary: &Summary,
    dir: &Path,
    bound: &str,
) -> anyhow::Result<()>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    for found in checking::counterexamples(model, summary, bound) {
        write_counterexample(&found, dir)?;
    }
    Ok(())
}

/// Writes `found` into `dir` (made if missing) as `<name>.jsonl`.
pub fn write_counterexample(found: &checking::Counterexample, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    let file = dir.join(format!("{}.jsonl", found.name));
    std::fs::write(&file, found.trace.to_jsonl()).with_context(|| file.display().to_string())?;
    println!("  wrote {}", file.display());
    Ok(())
}
