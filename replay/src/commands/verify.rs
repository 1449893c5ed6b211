//! `bgtail verify`: the model checks at the CI bounds, on every sequence of any length (by
//! reachability at 3 lines, by induction at 4), then the whole trace corpus, both engines.

use crate::checks::bound::{bound_name, Bound, Spec};
use crate::checks::print::{print_induction, print_summary};
use crate::checks::run::run_checks;
use crate::corpus::{
    load, parse_replay_engine, passes, replay_trace, table_header, table_row, timeout, trace_files,
    ReplayEngine, Require,
};
use crate::engine_arg::EngineArg;
use anyhow::{bail, Context as _};
use bgtail::replay::Tally;
use bgtail_model::checking;
use bgtail_model::TailModel;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The trace corpus.
    #[arg(long)]
    pub traces: Option<PathBuf>,
    /// Skip the model checks (replay only).
    #[arg(long)]
    pub skip_model: bool,
    /// Checker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// `cmd:COMMAND`: verify an engine in another process instead (docs/engine-protocol.md):
    /// the model at the #28 bounds, the budget's edge and a reduced CI bound (3 lines, 2
    /// reads), then every trace judged and compared with its recorded replies. Exit 0 only
    /// when it keeps the contract everywhere and reproduces every recording.
    #[arg(long, value_parser = parse_replay_engine)]
    pub engine: Option<ReplayEngine>,
    /// Seconds to await each reply of a `cmd:` engine.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// What a `cmd:` engine's replays must show (see `replay --require`; default: both).
    #[arg(long, value_enum)]
    pub require: Option<Require>,
}

fn corpus(arg: Option<PathBuf>) -> PathBuf {
    arg.unwrap_or_else(|| {
        let here = PathBuf::from("traces");
        if here.is_dir() {
            here
        } else {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../traces")
        }
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match &args.engine {
        Some(ReplayEngine::Command(command)) => return verify_outside(&args, command),
        Some(ReplayEngine::Builtin(_)) => {
            bail!("verify checks both in-crate engines; --engine takes cmd:COMMAND")
        }
        None => {}
    }
    let mut ok = args.skip_model || model_checks(args.threads);
    let dir = corpus(args.traces);
    let (kept, totals) = replay_corpus(&dir)?;
    ok &= kept;
    print_comparison(&totals);
    if ok {
        println!("verify: OK — the exact engine kept its contract; the shipped engine reproduced every recorded reply");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("verify: FAILED (see above)");
        Ok(ExitCode::FAILURE)
    }
}

/// The exact engine at a bound where some paths are out of reach: true when every guarantee
/// holds and each path of `required` was reached (one that was not is named: the bound has
/// lost its reach).
fn check_reaching(bound: Bound, required: &[&str], threads: usize) -> bool {
    let (summary, _) = checking::check(TailModel::exact(bound.config()), threads, false);
    print_summary(&summary, &bound_name(bound, &bound.config()));
    let mut ok = summary.failures().is_empty();
    for &path in required {
        let reached = summary
            .verdicts
            .iter()
            .any(|v| v.name == path && v.discovery.is_some());
        if !reached {
            println!("!! never reached: {path} — the bound is out of the model's reach");
        }
        ok &= reached;
    }
    ok
}

/// The model's part: the exact engine at both CI bounds, where upstream's line bound cuts
/// (also a view with lines skipped between covered runs, a view narrower than the log, and
/// one counted from an index mark two lines or more before it), with requests that are not
/// plain (views and windows asked by numbers read otherwise than plainly, ids upstream
/// refuses, reads its running-job gate holds back), with reads during a cut of the log, over
/// lines styled by escape sequences, at the job's end, and on every sequence of any length (over logs of up to 3 lines by reachability, of up to 4 by
/// induction, and of up to 3 over the job's end with rewrites of one line by induction); the
/// shipped engine at #28's bounds. True when each did what it must.
fn model_checks(threads: usize) -> bool {
    println!("## Model checks");
    let mut ok = true;
    for bound in [Bound::Ci, Bound::CiNonContent, Bound::AnyLength] {
        let (summary, _) = checking::check(TailModel::exact(bound.config()), threads, true);
        print_summary(&summary, &bound_name(bound, &bound.config()));
        ok &= summary.failures().is_empty();
    }
    // Upstream's line bound within reach, and the job's end: every guarantee, and the paths
    // each bound is for (the budget and the fold are out of reach there, so no other path is
    // asked for).
    ok &= check_reaching(
        Bound::LineBoundCut,
        &["upstream's line bound cut the view"],
        threads,
    );
    ok &= check_reaching(
        Bound::SkippedInCutView,
        &["a view the line bound cut held lines skipped above the window"],
        threads,
    );
    ok &= check_reaching(
        Bound::NarrowViewCut,
        &["upstream's line bound cut the view"],
        threads,
    );
    ok &= check_reaching(
        Bound::LineBoundFromAMark,
        &["upstream's line bound cut the view"],
        threads,
    );
    ok &= check_reaching(
        Bound::OddRequests,
        &[
            "a read asked for a view by a number not positive and finite",
            "a read asked for a view by a fraction",
            "a read asked for a view past the largest",
            "a read asked for a window by NaN",
            "a read asked for a window by a fraction",
            "a read asked for a window below 1 line",
            "a read asked for a window past every line",
            "a read named the job by an id upstream refuses",
            "the running-job gate held a read back",
        ],
        threads,
    );
    ok &= check_reaching(
        Bound::CutDuringRead,
        &["a read during a cut asked for bytes past the cut"],
        threads,
    );
    ok &= check_reaching(
        Bound::StyledLines,
        &["a condensed read stripped a line's escape sequences"],
        threads,
    );
    ok &= check_reaching(
        Bound::JobEnd,
        &[
            "a read found the exit marker while the caller said the job runs",
            "the exit marker's newline completed a shown partial line",
            "a read's view started inside its partial line",
            "a read's view started inside a partial line that grew",
        ],
        threads,
    );
    // The shipped engine must still show both symptoms of #28: if it stops failing, the
    // model has lost its teeth.
    for (bound, symptom) in [
        (Bound::Gap, "repeats bounded"),
        (Bound::Cap, "nothing lost"),
    ] {
        let (summary, _) = checking::check(TailModel::shipped(bound.config()), threads, false);
        print_summary(&summary, &bound_name(bound, &bound.config()));
        let found = summary
            .verdicts
            .iter()
            .any(|v| v.name == symptom && v.discovery.is_some());
        if !found {
            println!("!! the shipped engine no longer breaks \"{symptom}\": the model missed #28");
        }
        ok &= found;
    }
    // The contract for sequences of any length over logs of up to 4 lines (the factored
    // induction: seconds), and over the job's end, with rewrites of one line, up to 4 (its
    // continuing states mirrored: half a minute).
    let options = bgtail_model::induction::Options::new(threads);
    for config in [
        bgtail_model::ModelConfig::induction(4),
        bgtail_model::ModelConfig::induction_job_end(4),
    ] {
        let report = bgtail_model::induction::check(&TailModel::exact(config), &options);
        print_induction("exact", &report);
        ok &= report.proved();
    }
    println!();
    ok
}

/// Every trace of `dir` through both engines, a row each; whether every one passed, and the
/// totals of each engine (shipped first).
fn replay_corpus(dir: &Path) -> anyhow::Result<(bool, [Tally; 2])> {
    let files = trace_files(std::slice::from_ref(&dir.to_path_buf()))?;
    if files.is_empty() {
        bail!("{}: no traces found", dir.display());
    }
    println!("## Replay of {} traces in {}", files.len(), dir.display());
    println!("{}", table_header());
    let mut ok = true;
    let mut totals = [Tally::default(), Tally::default()];
    let bar = crate::progress::traces(files.len(), "replay");
    for file in &files {
        let trace = load(file)?;
        for r in replay_trace(&trace, EngineArg::Both) {
            let passed = passes(&r, None);
            ok &= passed;
            bar.suspend(|| {
                println!(
                    "{}{}",
                    table_row(&trace.header.name, &r),
                    if passed { "" } else { "  ← FAILS" }
                )
            });
            add(&mut totals[usize::from(r.engine == "exact")], &r.tally);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!();
    Ok((ok, totals))
}

/// The two engines' totals over the corpus, side by side.
fn print_comparison([s, e]: &[Tally; 2]) {
    println!("## Shipped vs exact over the corpus");
    println!("{:<20} {:>12} {:>12}", "", "shipped", "exact");
    for (label, a, b) in [
        ("reads", s.reads, e.reads),
        ("chars delivered", s.chars_delivered, e.chars_delivered),
        ("lines delivered", s.lines_delivered, e.lines_delivered),
        ("lines repeated", s.lines_repeated, e.lines_repeated),
        ("chars repeated", s.chars_repeated, e.chars_repeated),
        ("lines lost", s.lines_lost, e.lines_lost),
        (
            "lines never shown",
            s.lines_never_shown,
            e.lines_never_shown,
        ),
    ] {
        println!("{label:<20} {a:>12} {b:>12}");
    }
    println!(
        "{:<20} {:>12} {:>12}",
        "fidelity",
        format!("{}/{}", s.reproduced, s.recorded),
        "-"
    );
    println!();
}

fn add(total: &mut Tally, t: &Tally) {
    total.reads += t.reads;
    total.chars_delivered += t.chars_delivered;
    total.lines_delivered += t.lines_delivered;
    total.lines_repeated += t.lines_repeated;
    total.chars_repeated += t.chars_repeated;
    total.lines_lost += t.lines_lost;
    total.lines_never_shown += t.lines_never_shown;
    total.recorded += t.recorded;
    total.reproduced += t.reproduced;
    total.dishonest_replies += t.dishonest_replies;
    total.stalled_reads += t.stalled_reads;
    total.over_budget_reads += t.over_budget_reads;
    total.not_replayed += t.not_replayed;
}

/// `verify --engine cmd:…`: the model over the outside engine at bounds a process can afford,
/// then the corpus through it, judged and compared with the recordings.
fn verify_outside(args: &Args, command: &str) -> anyhow::Result<ExitCode> {
    let mut ok = true;
    if !args.skip_model {
        println!("## Model checks");
        for (bound, reduced) in crate::checks::bound::OUTSIDE_SET {
            let check = Spec::bounded(
                ReplayEngine::Command(command.to_owned()),
                bound,
                reduced.map(|r| r.0),
                reduced.map(|r| r.1),
                args.timeout,
            );
            let (kept, _) = run_checks(&check)?;
            ok &= kept;
        }
        println!();
    }
    let dir = corpus(args.traces.clone());
    let files = trace_files(std::slice::from_ref(&dir))?;
    println!("## Replay of {} traces in {}", files.len(), dir.display());
    println!("{}", table_header());
    let timeout = timeout(args.timeout)?;
    let mut outside = crate::replay_eut::Outside::new(command, timeout);
    let work = tempfile::tempdir().context("a temporary folder")?;
    let mut total = Tally::default();
    let bar = crate::progress::traces(files.len(), "replay");
    for (i, file) in files.iter().enumerate() {
        let trace = load(file)?;
        let dir = work.path().join(i.to_string());
        std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
        let r = outside.replay(&trace, &dir)?;
        let passed = passes(&r, args.require);
        ok &= passed;
        let mark = if passed { "" } else { "  ← FAILS" };
        bar.suspend(|| println!("{}{mark}", table_row(&trace.header.name, &r)));
        add(&mut total, &r.tally);
        bar.inc(1);
    }
    bar.finish_and_clear();
    outside.finish()?;
    println!();
    println!(
        "lines repeated {}, lines lost {}, dishonest replies {}, stalled reads {}, over budget {}, fidelity {}/{}",
        total.lines_repeated,
        total.lines_lost,
        total.dishonest_replies,
        total.stalled_reads,
        total.over_budget_reads,
        total.reproduced,
        total.recorded
    );
    if ok {
        println!("verify: OK — the engine kept its contract and reproduced every recorded reply");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("verify: FAILED (see above)");
        Ok(ExitCode::FAILURE)
    }
}
