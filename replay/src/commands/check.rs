//! `bgtail check`: the stateright model over the real engines, or the inductive check.

use crate::checks::bound::{bound_name, configured, Bound, Spec, OUTSIDE_SET};
use crate::checks::print::print_induction;
use crate::checks::run::run_checks;
use crate::corpus::{parse_replay_engine, ReplayEngine};
use crate::engine_arg::EngineArg;
use anyhow::{bail, Context as _};
use bgtail_model::{induction, ModelConfig, TailModel, Times};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// The bound and action families. Default: `ci`; for a `cmd:` engine with no
    /// --max-lines, --max-reads or --max-resets, the quick set an engine in another process
    /// can afford in seconds: `gap`, `cap`, `budget-edge`, and `ci` at 3 lines and 2 reads.
    #[arg(long, value_enum)]
    pub bound: Option<Bound>,
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
    /// ci-non-content, of short, blank, wrapper and repeated lines; with --bound job-end, of
    /// short and partial lines, each rewritten in place on its own, grown, and closed by the
    /// wrapper's exit marker.
    #[arg(long)]
    pub induction: bool,
    /// With --induction: run every reset state in full, as the states that continue a
    /// generation are, instead of one read per group of what such a read can see
    /// (model/src/induction/factor.rs).
    #[arg(long, requires = "induction", conflicts_with = "cross_check")]
    pub unfactored: bool,
    /// With --induction: the factored check, and every reset state also run: each read
    /// compared, reply and successor, with its group's, each other step checked as in full;
    /// and every mirrored state run and compared with its mirror (as --cross-check-mirrors).
    /// The check of the factoring itself.
    #[arg(long, requires = "induction")]
    pub cross_check: bool,
    /// With --induction: the factored check, and every continuing state with lines in the
    /// other text variant also run, each action compared with the same action from its
    /// mirror (those lines swapped back; model/src/induction/mirror.rs). The check of that
    /// symmetry alone: --cross-check does it too.
    #[arg(long, requires = "induction", conflicts_with_all = ["cross_check", "unfactored"])]
    pub cross_check_mirrors: bool,
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
    /// The bound asked for, `ci` when none is.
    pub fn bound(&self) -> Bound {
        self.bound.unwrap_or(Bound::Ci)
    }

    /// Whether the quick set runs instead of one bound: an engine in another process, and
    /// no bound or override asked for.
    fn quick_set(&self) -> Option<&str> {
        let ReplayEngine::Command(command) = &self.engine else {
            return None;
        };
        let asked = self.bound.is_some()
            || self.max_lines.is_some()
            || self.max_reads.is_some()
            || self.max_resets.is_some();
        (!asked).then_some(command.as_str())
    }

    /// The bounded check these arguments ask for.
    pub fn spec(&self) -> Spec {
        Spec {
            engine: self.engine.clone(),
            bound: self.bound(),
            max_lines: self.max_lines,
            max_reads: self.max_reads,
            max_resets: self.max_resets,
            threads: self.threads,
            timeout: self.timeout,
            export: self.export.clone(),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let exact_ok = if !args.merge.is_empty() {
        run_merge(&args.merge)?
    } else if args.induction {
        run_induction(&args)?
    } else if let Some(n) = args.split_first_lines {
        run_split(&args, n)?
    } else if let Some(command) = args.quick_set() {
        run_quick_set(&args, command)?
    } else {
        run_checks(&args.spec())?.0
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

/// `check --engine cmd:…` with no bound: each bound of [`OUTSIDE_SET`] in turn; true when
/// the engine kept every property at all of them.
fn run_quick_set(args: &Args, command: &str) -> anyhow::Result<bool> {
    println!(
        "no --bound: the quick set for an engine in another process (gap, cap, budget-edge, \
         ci at 3 lines and 2 reads); --bound ci checks CI's bound"
    );
    let mut ok = true;
    for (bound, reduced) in OUTSIDE_SET {
        let mut spec = Spec::bounded(
            ReplayEngine::Command(command.to_owned()),
            bound,
            reduced.map(|r| r.0),
            reduced.map(|r| r.1),
            args.timeout,
        );
        spec.export = args.export.clone();
        ok &= run_checks(&spec)?.0;
    }
    Ok(ok)
}

/// `check --split-first-lines N`: the exact engine's bounded check as N shards by first
/// line; true when the merged verdict is the check's (every `always` property holds, and on
/// a bound with every action family every `sometimes` is reached).
fn run_split(args: &Args, count: usize) -> anyhow::Result<bool> {
    if !matches!(args.engine, ReplayEngine::Builtin(EngineArg::Exact)) {
        bail!("--split-first-lines runs the exact engine in this process: add --engine exact");
    }
    let model = TailModel::exact(configured(&args.spec()));
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
    let bound = bound_name(args.bound(), &model.config);
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
    let unreached = if args.bound().complete() {
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
    let config = match args.bound() {
        Bound::Ci => ModelConfig::induction(max_lines),
        Bound::CiNonContent => ModelConfig::induction_non_content(max_lines),
        Bound::JobEnd => ModelConfig::induction_job_end(max_lines),
        Bound::StyledLines => ModelConfig::induction_styled(max_lines),
        other => bail!(
            "--induction --bound {}: the inductive check ranges over CI's line kinds (ci), \
             its second world's, with blank and wrapper lines (ci-non-content), the job's \
             end, with rewrites of one line (job-end), or short and styled lines \
             (styled-lines)",
            clap::ValueEnum::to_possible_value(&other)
                .map_or_else(String::new, |v| v.get_name().to_owned())
        ),
    };
    let factoring = match (args.unfactored, args.cross_check, args.cross_check_mirrors) {
        (true, _, _) => induction::Factoring::Full,
        (_, true, _) => induction::Factoring::Compared,
        (_, _, true) => induction::Factoring::MirrorsCompared,
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
    let bound = clap::ValueEnum::to_possible_value(&args.bound())
        .map_or_else(String::new, |v| v.get_name().to_owned());
    let name = format!(
        "{engine}-{bound}-{}-{}-of-{}.json",
        report.max_lines,
        s.index() + 1,
        s.count()
    );
    let file = dir.join(name);
    let json = serde_json::to_string_pretty(&induction::ShardReport::of(engine, report))?;
    std::fs::write(&file, json + "\n").with_context(|| file.display().to_string())?;
    println!("  wrote {}", file.display());
    Ok(())
}

/// `check --merge`: the shards' reports as one verdict; true when the whole step held.
fn run_merge(files: &[PathBuf]) -> anyhow::Result<bool> {
    let mut reports = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| file.display().to_string())?;
        let report: induction::ShardReport = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a shard report", file.display()))?;
        reports.push(report);
    }
    let m = induction::merge(&reports).context("the shard reports")?;
    println!(
        "{} engine, inductive check over logs of up to {} lines, {} shards merged: {} items and \
         {} groups of reset states, {} states of the invariant ({} before any read, {} \
         continuing, {} of them checked as their mirror, {} reset since, {} the engine \
         continues though the bytes do not), {} steps ({} reads), {:.1} s of checking",
        m.engine,
        m.max_lines,
        m.shards,
        m.items,
        m.groups,
        m.states(),
        m.fresh,
        m.continuing,
        m.mirrored,
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
