//! `bgtail replay`: traces through the engines, every reply judged from its text.

use crate::corpus::{
    load, parse_replay_engine, passes, replay_trace, table_header, table_row, timeout, trace_files,
    ReplayEngine, Require,
};
use crate::replay_eut::{NoEngine, Outside};
use anyhow::{bail, Context as _};

use bgtail::replay::Replay;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Trace files (`.jsonl`), or directories searched for them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// `exact`, `shipped`, `both`, or `cmd:COMMAND` for an engine in another process speaking
    /// the engine-under-test protocol (docs/engine-protocol.md), run through the shell from
    /// the current directory.
    #[arg(long, default_value = "both", value_parser = parse_replay_engine)]
    pub engine: ReplayEngine,
    /// Seconds to await each reply of a `cmd:` engine.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the tables only, not every reply.
    #[arg(long)]
    pub quiet: bool,
    /// What a replay must show to pass (exit 0): the contract kept (the judge found nothing
    /// wrong in any reply), every recorded reply reproduced, or both. Default: the contract
    /// for the exact engine, the recordings for the shipped one, both for a `cmd:` engine.
    #[arg(long, value_enum)]
    pub require: Option<Require>,
}

/// The version of `replay --json`'s document (docs/json-output.md): raised when a key
/// changes meaning or goes away, not when one is added.
pub const REPLAY_JSON_VERSION: u32 = 1;

/// `replay --json`'s document, in its keys' order (docs/json-output.md).
#[derive(Serialize)]
struct ReplayJson<'a> {
    /// [`REPLAY_JSON_VERSION`].
    bgtail_replay: u32,
    replays: Vec<ReplayJsonEntry<'a>>,
    /// The traces an engine in another process could not get through.
    failures: &'a [Failed],
}

/// A trace an engine in another process could not get through: it crashed, hung or broke the
/// protocol. The engine is started again for the next trace.
#[derive(Serialize)]
struct Failed {
    trace: String,
    file: String,
    /// The harness error, with the event it happened at.
    error: String,
}

/// One trace through one engine.
#[derive(Serialize)]
struct ReplayJsonEntry<'a> {
    /// The trace's name, from its header.
    trace: &'a str,
    /// The trace file, as given or found.
    file: &'a str,
    /// The engine's name.
    engine: &'a str,
    tally: &'a bgtail::replay::Tally,
    reads: &'a [bgtail::replay::ReadRecord],
}

/// One trace through one engine, with where the trace came from.
struct Done {
    trace: String,
    file: String,
    replay: Replay,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let files = trace_files(&args.paths)?;
    if files.is_empty() {
        bail!("no traces (.jsonl) found");
    }
    if args.json {
        crate::progress::silence();
    }
    let (done, failed) = replay_files(&args, &files)?;
    if args.json {
        print_json(&done, &failed)?;
    } else {
        if !args.quiet {
            done.iter().for_each(print_reads);
        }
        println!("{}", table_header());
        for d in &done {
            println!("{}", table_row(&d.trace, &d.replay));
        }
        for f in &failed {
            println!("{:<44} ENGINE FAILED: {}", f.trace, f.error);
        }
    }
    let mut failing: Vec<&str> = done
        .iter()
        .filter(|d| !passes(&d.replay, args.require))
        .map(|d| d.trace.as_str())
        .chain(failed.iter().map(|f| f.trace.as_str()))
        .collect();
    // `--engine both` replays a trace twice, one after the other.
    failing.dedup();
    eprintln!(
        "bgtail replay: {} of {} traces passed{}",
        files.len() - failing.len().min(files.len()),
        files.len(),
        if failing.is_empty() {
            String::new()
        } else {
            format!("; failing: {}", failing.join(", "))
        }
    );
    Ok(if failing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Every trace through the engines `args` names: the in-crate ones, or one process speaking
/// the protocol for all the traces, each trace's files in a folder of its own. A trace the
/// process fails on (a crash, a hang, a broken reply) is a failure of its own; the process is
/// started again for the next.
fn replay_files(args: &Args, files: &[PathBuf]) -> anyhow::Result<(Vec<Done>, Vec<Failed>)> {
    let mut outside = match &args.engine {
        ReplayEngine::Command(c) => Some(Outside::new(c, timeout(args.timeout)?)),
        ReplayEngine::Builtin(_) => None,
    };
    let work = tempfile::tempdir().context("a temporary folder")?;
    let mut done = Vec::new();
    let mut failed = Vec::new();
    let bar = crate::progress::traces(files.len(), "replay");
    for (i, file) in files.iter().enumerate() {
        bar.set_position(i as u64);
        let trace = load(file)?;
        bar.set_message(trace.header.name.clone());
        let replays = match (&args.engine, outside.as_mut()) {
            (ReplayEngine::Builtin(engine), _) => replay_trace(&trace, *engine),
            (ReplayEngine::Command(_), Some(outside)) => {
                let dir = work.path().join(i.to_string());
                std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
                match outside.replay(&trace, &dir) {
                    Ok(replay) => vec![replay],
                    Err(e) if e.is::<NoEngine>() => return Err(e),
                    Err(e) => {
                        outside.discard();
                        failed.push(Failed {
                            trace: trace.header.name.clone(),
                            file: file.display().to_string(),
                            error: format!("{e:#}"),
                        });
                        continue;
                    }
                }
            }
            (ReplayEngine::Command(_), None) => unreachable!("made above"),
        };
        done.extend(replays.into_iter().map(|replay| Done {
            trace: trace.header.name.clone(),
            file: file.display().to_string(),
            replay,
        }));
    }
    bar.finish_and_clear();
    if let Some(outside) = outside {
        outside.finish()?;
    }
    Ok((done, failed))
}

/// Every read of one replay: its request, whether it reproduced the recording, its text, and
/// what was wrong with it.
fn print_reads(d: &Done) {
    println!("═══ {} — {} engine ═══", d.trace, d.replay.engine);
    for read in &d.replay.reads {
        let mark = match read.matches_recording {
            Some(true) => " (= recorded)",
            Some(false) => " (≠ RECORDED)",
            None => "",
        };
        println!(
            "── read at event {}: {}{mark}",
            read.event + 1,
            serde_json::to_string(&read.request).unwrap_or_default()
        );
        println!("{}", read.text);
        for p in &read.problems {
            println!("!! {p}");
        }
        for a in &read.anomalies {
            println!("!! {}: {a}", a.kind.property());
        }
    }
}

/// `--json`: one document of every replay and every trace the engine failed on.
fn print_json(done: &[Done], failed: &[Failed]) -> anyhow::Result<()> {
    let doc = ReplayJson {
        bgtail_replay: REPLAY_JSON_VERSION,
        replays: done
            .iter()
            .map(|d| ReplayJsonEntry {
                trace: &d.trace,
                file: &d.file,
                engine: &d.replay.engine,
                tally: &d.replay.tally,
                reads: &d.replay.reads,
            })
            .collect(),
        failures: failed,
    };
    println!("{}", serde_json::to_string_pretty(&doc)?);
    Ok(())
}
