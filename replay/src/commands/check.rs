//! `bgtail check`: the stateright model over the real engines, or the inductive check.

use crate::corpus::{parse_replay_engine, timeout, ReplayEngine};
use crate::outside::OutsideEngine;
use crate::EngineArg;
use anyhow::{bail, Context as _};
use bgtail::Engine;
use bgtail_model::checking::{self, Summary};
use bgtail_model::{induction, ModelConfig, TailModel, Times};
use stateright::Expectation;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// CI's, with a fold threshold of 2: a fold beside the budget's or the coverage's
    /// overflow within 4 lines.
    FoldPairs,
    /// Deeper: CI's, with up to 5 lines (many minutes).
    Deep,
    /// Every sequence of any length: CI's families and kinds over logs of up to 3 lines,
    /// any number of reads and resets.
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
            Bound::FoldPairs => ModelConfig::fold_pairs(),
            Bound::Deep => ModelConfig::deep(),
            Bound::AnyLength => ModelConfig::any_length(),
            Bound::Gap => ModelConfig::issue_28_gap(),
            Bound::Cap => ModelConfig::issue_28_cap(),
            Bound::BudgetEdge => ModelConfig::budget_edge(),
        }
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// `exact`, `shipped`, `both`, or `cmd:COMMAND` for an engine in another process speaking
    /// the engine-under-test protocol (docs/engine-protocol.md), run through the shell from
    /// the current directory. An outside engine is checked at its declared limits, on one
    /// thread, its states rebuilt by `snapshot`/`restore` or by replaying the path from a
    /// `reset`, with reads and resets counted (3 and 1 where the bound takes any number).
    #[arg(long, default_value = "both", value_parser = parse_replay_engine)]
    pub engine: ReplayEngine,
    /// Seconds to await each reply of a `cmd:` engine.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// The bound and action families.
    #[arg(long, value_enum, default_value = "ci")]
    pub bound: Bound,
    /// Override the bound's maximum number of log lines.
    #[arg(long)]
    pub max_lines: Option<u8>,
    /// Override the bound's reads: `any` (reads are not counted: every read sequence, of
    /// every length, over the bound's logs), or at most this many.
    #[arg(long, value_name = "N|any")]
    pub max_reads: Option<Times>,
    /// Override the bound's truncations and rewrites together: `any`, or at most this many.
    #[arg(long, value_name = "N|any")]
    pub max_resets: Option<Times>,
    /// Checker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Write every discovery as a replayable trace into this directory.
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Instead of the bounded check: the inductive one. Every state of the engine's stated
    /// invariant over logs of up to --max-lines lines (default 3), every action once from
    /// each; it proves the contract for sequences of any length over such logs
    /// (model/src/induction/ states the invariant and what the enumeration assumes). With
    /// --bound ci (the default) its logs are of CI's content kinds; with --bound
    /// ci-non-content, of short, blank, wrapper and repeated lines.
    #[arg(long)]
    pub induction: bool,
    /// With --induction: run every reset state in full, as the states that continue a
    /// generation are, instead of one read per group of what such a read can see
    /// (model/src/induction/factor.rs).
    #[arg(long, requires = "induction", conflicts_with = "cross_check")]
    pub unfactored: bool,
    /// With --induction: the factored check, and every reset state also run: each read
    /// compared, reply and successor, with its group's, each other step checked as in full.
    /// The check of the factoring itself.
    #[arg(long, requires = "induction")]
    pub cross_check: bool,
    /// With --induction: check only shard I of N (`1/4` is the first of four). Item k of the
    /// enumeration goes to one shard by a hash of k, so the shards overlap nowhere and cover it all;
    /// merge their --report files with --merge for the verdict.
    #[arg(long, value_name = "I/N", requires = "induction")]
    pub shard: Option<induction::shard::Shard>,
    /// With --induction: write each engine's report as JSON into this folder
    /// (`<engine>-<bound>-<max-lines>-<I>-of-<N>.json`), for --merge.
    #[arg(long, value_name = "DIR", requires = "induction")]
    pub report: Option<PathBuf>,
    /// Instead of one bounded check: the same bound split into N shards by the kind of the
    /// log's first line (model/src/reach.rs). Each shard explores, breadth first on a thread
    /// of its own, all that is reachable from the states before any line is written and from
    /// its own first lines; printed are each shard, the union of their states, the overlap,
    /// and the merged verdict.
    #[arg(long, value_name = "N", conflicts_with_all = ["induction", "export", "merge"])]
    pub split_first_lines: Option<usize>,
    /// Instead of a check: merge the --report files of every shard of one inductive check into
    /// its verdict. Fails unless the files are each shard exactly once of the same check.
    #[arg(long, value_name = "REPORT", num_args = 1.., conflicts_with_all = ["induction", "export"])]
    pub merge: Vec<PathBuf>,
}

impl Args {
    /// A bounded check of `engine` on one thread at `bound`, its lines and reads overridden
    /// where given: what `verify` and `readers` run for an engine in another process.
    pub fn bounded(
        engine: ReplayEngine,
        bound: Bound,
        max_lines: Option<u8>,
        max_reads: Option<u8>,
        timeout: f64,
    ) -> Args {
        Args {
            engine,
            timeout,
            bound,
            max_lines,
            max_reads: max_reads.map(Times::AtMost),
            max_resets: None,
            threads: 1,
            export: None,
            induction: false,
            unfactored: false,
            cross_check: false,
            split_first_lines: None,
            shard: None,
            report: None,
            merge: Vec::new(),
        }
    }
}

/// Prints what one check came to: its counts and rate, then each property's verdict.
pub fn print_summary(summary: &Summary, bound: &str) {
    let rate = summary.states as f64 / summary.seconds.max(1e-9);
    println!(
        "{} engine, bound {bound}: {} states generated, {} unique, depth {}, {:.1} s, {:.0} states/s ({:.0} unique/s)",
        summary.engine,
        summary.states,
        summary.unique,
        summary.depth,
        summary.seconds,
        rate,
        summary.unique as f64 / summary.seconds.max(1e-9)
    );
    for v in &summary.verdicts {
        let (kind, verdict) = match (&v.expectation, &v.discovery) {
            (Expectation::Sometimes, Some(p)) => {
                ("sometimes", format!("reached in {} steps", p.len()))
            }
            (Expectation::Sometimes, None) if summary.require_examples => {
                ("sometimes", "NEVER REACHED".to_owned())
            }
            (Expectation::Sometimes, None) => {
                ("sometimes", "not reached (off in this bound)".to_owned())
            }
            (_, None) => ("always", "holds".to_owned()),
            (_, Some(p)) => ("always", format!("BROKEN in {} steps: {p:?}", p.len())),
        };
        println!("  {kind:<9} {:<36} {verdict}", v.name);
        if let Some(why) = &v.why {
            println!("            {why}");
        }
    }
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

pub fn configured(args: &Args) -> ModelConfig {
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

/// Runs the checks; true when the exact engine (or the outside engine) kept every property.
pub fn run_checks(args: &Args) -> anyhow::Result<(bool, Vec<Summary>)> {
    let builtin = match &args.engine {
        ReplayEngine::Builtin(e) => *e,
        ReplayEngine::Command(command) => return check_outside(args, command),
    };
    let bound = bound_name(args.bound, &configured(args));
    let slug = bound_slug(args.bound);
    let mut exact_ok = true;
    let mut summaries = Vec::new();
    if builtin != EngineArg::Shipped {
        let (summary, model) = checking::check(
            TailModel::exact(configured(args)),
            args.threads,
            args.bound.complete(),
        );
        print_summary(&summary, &bound);
        exact_ok = summary.failures().is_empty();
        if let Some(dir) = &args.export {
            export(&model, &summary, dir, &slug)?;
        }
        summaries.push(summary);
    }
    if builtin != EngineArg::Exact {
        let (summary, model) =
            checking::check(TailModel::shipped(configured(args)), args.threads, false);
        print_summary(&summary, &bound);
        if let Some(dir) = &args.export {
            export(&model, &summary, dir, &slug)?;
        }
        summaries.push(summary);
    }
    Ok((exact_ok, summaries))
}

/// Reads and resets a bound takes any number of are counted for an engine in another
/// process, up to these: its state is a snapshot the model cannot take up to what no reply
/// tells apart, or the path of reads that rebuilds it, which grows with every read.
const OUTSIDE_READS: u8 = 3;
const OUTSIDE_RESETS: u8 = 1;

/// The bound for an engine in another process: its counters, where the bound has none.
fn outside_config(args: &Args) -> anyhow::Result<ModelConfig> {
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
fn check_outside(args: &Args, command: &str) -> anyhow::Result<(bool, Vec<Summary>)> {
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
    args: &Args,
    command: &str,
) -> anyhow::Result<(Summary, TailModel<OutsideEngine>, String)> {
    let (model, complete, bound) = outside_model(args, command)?;
    let engine = model.engine.clone();
    let (summary, model) = checking::check(model, 1, complete);
    if let Some(failure) = engine.failure() {
        bail!("{}: {failure}", engine.name());
    }
    Ok((summary, model, bound))
}

/// The model of an engine in another process at `args`' bound, its actions cut to what the
/// engine declares it can do; whether every path is required of it; and the bound's name.
pub fn outside_model(
    args: &Args,
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
    let complete = args.bound.complete() && caps.raw && caps.bytes && same_limits;
    let bound = bound_name(args.bound, &config);
    Ok((TailModel::new(engine, config), complete, bound))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let exact_ok = if !args.merge.is_empty() {
        run_merge(&args.merge)?
    } else if args.induction {
        run_induction(&args)?
    } else if let Some(n) = args.split_first_lines {
        run_split(&args, n)?
    } else {
        run_checks(&args)?.0
    };
    if exact_ok {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "bgtail check: the checked engine broke a property or never reached a path (above)"
        );
        Ok(ExitCode::FAILURE)
    }
}

/// `check --split-first-lines N`: the exact engine's bounded check as N shards by first
/// line; true when the merged verdict is the check's (every `always` property holds, and on
/// a bound with every action family every `sometimes` is reached).
fn run_split(args: &Args, count: usize) -> anyhow::Result<bool> {
    if !matches!(args.engine, ReplayEngine::Builtin(EngineArg::Exact)) {
        bail!("--split-first-lines runs the exact engine in this process: add --engine exact");
    }
    let model = TailModel::exact(configured(args));
    let kinds = bgtail_model::reach::first_lines(&model);
    if count == 0 || count > kinds.len() {
        bail!(
            "--split-first-lines {count}: the bound's first lines are {kinds:?}, so 1 to {} shards",
            kinds.len()
        );
    }
    let runs: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count)
            .map(|i| {
                let model = &model;
                let shard = induction::shard::Shard::new(i, count).expect("i < count");
                scope.spawn(move || bgtail_model::reach::explore(model, shard))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let bound = bound_name(args.bound, &model.config);
    println!("exact engine, {bound}, split into {count} shards by the log's first line:");
    for (i, r) in runs.iter().enumerate() {
        println!(
            "  shard {}/{count} (first lines {:?}): {} states from {} before any line and {} \
             starting states, {:.1} s",
            i + 1,
            r.first_lines,
            r.visited.len(),
            r.prefix,
            r.starts,
            r.seconds
        );
    }
    let sometimes = bgtail_model::reach::sometimes(&model);
    let m = bgtail_model::reach::merge(&runs, &sometimes);
    println!(
        "  merged: {} states (the union), {} visits by more than one shard",
        m.unique, m.overlap
    );
    let unreached = if args.bound.complete() {
        m.unreached.clone()
    } else {
        Vec::new()
    };
    match (m.broken.as_slice(), unreached.as_slice()) {
        ([], []) => {
            println!("  every always property holds in every shard, every path reached in one")
        }
        (broken, unreached) => {
            for name in broken {
                println!("  BROKEN in some shard: {name}");
            }
            for name in unreached {
                println!("  NOT REACHED in any shard: {name}");
            }
        }
    }
    Ok(m.broken.is_empty() && unreached.is_empty())
}

/// `check --induction`: the inductive check of each built-in engine chosen; true when the
/// exact engine's step held (the shipped engine is expected to fail it).
fn run_induction(args: &Args) -> anyhow::Result<bool> {
    let ReplayEngine::Builtin(builtin) = &args.engine else {
        bail!(
            "--induction needs an engine in this process (exact, shipped or both): \
                    it builds bookmarks, which the protocol does not carry"
        );
    };
    let max_lines = args.max_lines.unwrap_or(3);
    if max_lines > 6 {
        bail!(
            "--max-lines {max_lines}: the inductive check enumerates every pair of logs; past 6 lines that is beyond any machine"
        );
    }
    let config = match args.bound {
        Bound::Ci => ModelConfig::induction(max_lines),
        Bound::CiNonContent => ModelConfig::induction_non_content(max_lines),
        other => bail!(
            "--induction --bound {}: the inductive check ranges over CI's line kinds (ci) or \
             its second world's, with blank and wrapper lines (ci-non-content)",
            clap::ValueEnum::to_possible_value(&other)
                .map_or_else(String::new, |v| v.get_name().to_owned())
        ),
    };
    let factoring = match (args.unfactored, args.cross_check) {
        (true, _) => induction::Factoring::Full,
        (_, true) => induction::Factoring::Compared,
        _ => induction::Factoring::Factored,
    };
    let options = induction::Options::new(args.threads)
        .shard(args.shard.unwrap_or(induction::shard::Shard::WHOLE))
        .factoring(factoring);
    let mut exact_ok = true;
    if *builtin != EngineArg::Shipped {
        let model = TailModel::exact(config.clone());
        let report = induction::check(&model, &options);
        print_induction("exact", &report);
        write_report(args, "exact", &report)?;
        exact_ok = report.proved();
    }
    if *builtin != EngineArg::Exact {
        let model = TailModel::shipped(config);
        let report = induction::check(&model, &options);
        print_induction("shipped", &report);
        write_report(args, "shipped", &report)?;
    }
    Ok(exact_ok)
}

/// `--report DIR`: the shard's report as JSON, named for the engine, bound and shard.
fn write_report<S: std::fmt::Debug>(
    args: &Args,
    engine: &str,
    report: &induction::Report<S>,
) -> anyhow::Result<()> {
    let Some(dir) = &args.report else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    let s = report.shard;
    let bound = clap::ValueEnum::to_possible_value(&args.bound)
        .map_or_else(String::new, |v| v.get_name().to_owned());
    let name = format!(
        "{engine}-{bound}-{}-{}-of-{}.json",
        report.max_lines,
        s.index() + 1,
        s.count()
    );
    let file = dir.join(name);
    let json = serde_json::to_string_pretty(&induction::shard::ShardReport::of(engine, report))?;
    std::fs::write(&file, json + "\n").with_context(|| file.display().to_string())?;
    println!("  wrote {}", file.display());
    Ok(())
}

/// `check --merge`: the shards' reports as one verdict; true when the whole step held.
fn run_merge(files: &[PathBuf]) -> anyhow::Result<bool> {
    let mut reports = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| file.display().to_string())?;
        let report: induction::shard::ShardReport = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a shard report", file.display()))?;
        reports.push(report);
    }
    let m = induction::shard::merge(&reports).context("the shard reports")?;
    println!(
        "{} engine, inductive check over logs of up to {} lines, {} shards merged: {} items and \
         {} groups of reset states, {} states of the invariant ({} before any read, {} \
         continuing, {} reset since, {} the engine continues though the bytes do not), {} steps \
         ({} reads), {:.1} s of checking",
        m.engine,
        m.max_lines,
        m.shards,
        m.items,
        m.groups,
        m.states(),
        m.fresh,
        m.continuing,
        m.reset,
        m.disputed,
        m.steps,
        m.reads,
        m.seconds
    );
    if m.proved() {
        println!(
            "  PROVED: every shard's every step held, and the shards are the whole enumeration: \
             every sequence of any length over logs of up to {} lines keeps the contract",
            m.max_lines
        );
    }
    for (shard, failure) in &m.failures {
        println!("  FAILS in shard {shard}: {failure}");
    }
    Ok(m.proved())
}

/// Prints what an inductive check did, and its failure if any.
pub fn print_induction<S: std::fmt::Debug>(engine: &str, r: &induction::Report<S>) {
    let disputed = match r.disputed {
        0 => String::new(),
        n => format!(", {n} the engine continues though the bytes do not (run in full)"),
    };
    let factored = match r.factoring {
        induction::Factoring::Full => "every state run in full".to_owned(),
        _ => format!(
            "the reset ones as {} groups of what a read from them can see, one representative \
             each (listed in {:.1} s){}",
            r.groups,
            r.group_seconds,
            match r.compared {
                0 => String::new(),
                n => format!(", and {n} members run, every read compared with their group's"),
            }
        ),
    };
    println!(
        "{engine} engine, inductive check over logs of up to {} lines: {} states of the invariant \
         ({} before any read, {} continuing the bookmark's generation, {} reset since{disputed}); \
         {factored}; {} steps ({} reads), {:.1} s",
        r.max_lines,
        r.states(),
        r.fresh,
        r.continuing,
        r.reset,
        r.steps,
        r.reads,
        r.seconds,
    );
    match r.failures.first() {
        None if r.shard != induction::shard::Shard::WHOLE => println!(
            "  HOLDS for shard {} ({} of the enumeration's {} items, {} of its {} groups): merge \
             every shard's report (--report, then --merge) for the proof",
            r.shard, r.items, r.items_total, r.groups, r.groups_total
        ),
        None => println!(
            "  PROVED: the initial state satisfies the invariant, and from every state of it every \
             action keeps nothing lost, progress, repeats bounded, honest counts, resets seen, \
             bounded output and the invariant: so does every sequence of any length over logs of up to {} lines",
            r.max_lines
        ),
        Some(f) => print_induction_failure(f),
    }
}

/// The first state the step fails from, and what the step broke there.
fn print_induction_failure<S: std::fmt::Debug>(f: &induction::Failure<S>) {
    let s = &f.candidate.state;
    println!(
        "  FAILS: from the log {:?}{} (variant {}, running {}, view {:?}), last read saw {:?}",
        s.lines,
        if s.partial { " + partial" } else { "" },
        s.variant,
        s.running,
        s.view,
        f.candidate.seen
    );
    println!("    bookmark: {:?}", s.engine);
    println!("    judge: {:?}", s.judge);
    match (&f.action, &f.broke) {
        (_, induction::Broke::Start(c)) => println!("    the state itself breaks \"{}\"", c.name()),
        (Some(a), induction::Broke::Invariant(c)) => {
            println!("    {a:?} leads to a state that breaks \"{}\"", c.name())
        }
        (
            Some(a),
            induction::Broke::Property {
                name,
                text,
                anomalies,
            },
        ) => {
            println!("    {a:?} breaks \"{name}\"");
            for anomaly in anomalies {
                println!("      {anomaly}");
            }
            for line in text.lines().take(6) {
                println!("      | {line}");
            }
        }
        (_, other) => println!("    {other:?}"),
    }
}
