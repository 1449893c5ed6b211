//! What `replay`, `verify` and `check` share: the engine argument, the traces found under a
//! path, one trace through the in-crate engines, what a replay must show to pass, and the
//! table its results print as.

use crate::engine_arg::EngineArg;
use anyhow::{bail, Context as _};
use bgtail::replay::{replay, Replay, Tally};
use bgtail::trace::Trace;
use bgtail::{ExactEngine, ShippedEngine};
use std::path::{Path, PathBuf};

/// What a replay is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Require {
    /// The judge found nothing wrong with any reply.
    Contract,
    /// Every recorded reply was reproduced.
    Recordings,
    /// Both.
    Both,
}

/// The engines `replay` can drive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayEngine {
    /// One or both in-crate engines.
    Builtin(EngineArg),
    /// A command that speaks the engine-under-test protocol.
    Command(String),
}

/// `exact`, `shipped`, `both`, or `cmd:COMMAND`.
pub fn parse_replay_engine(s: &str) -> Result<ReplayEngine, String> {
    if let Some(command) = s.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err("`cmd:` needs a command".into());
        }
        return Ok(ReplayEngine::Command(command.to_owned()));
    }
    <EngineArg as clap::ValueEnum>::from_str(s, true)
        .map(ReplayEngine::Builtin)
        .map_err(|_| format!("{s:?}: expected exact, shipped, both or cmd:COMMAND"))
}

/// Every `.jsonl` file named or below a named directory, sorted.
pub fn trace_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
        let entries = std::fs::read_dir(dir).with_context(|| dir.display().to_string())?;
        for entry in entries {
            let path = entry.with_context(|| dir.display().to_string())?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            bail!("{}: no such file or directory", p.display());
        }
    }
    out.sort();
    Ok(out)
}

pub fn load(path: &Path) -> anyhow::Result<Trace> {
    let bytes = std::fs::read(path).with_context(|| path.display().to_string())?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 at byte {} (a trace is JSON Lines)",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(Trace::parse(&path.display().to_string(), &text)?)
}

/// Replays one trace through the chosen engines.
/// A trace whose limits are another reader's that the in-crate engines cannot keep (a budget
/// below one capped line: Codex's, scaled for the model) is reported read by read as not
/// replayed, with the relation they break.
pub fn replay_trace(trace: &Trace, engine: EngineArg) -> Vec<Replay> {
    let limits = trace.limits();
    let names = [(EngineArg::Shipped, "shipped"), (EngineArg::Exact, "exact")];
    let chosen = names
        .into_iter()
        .filter(|(e, _)| engine == EngineArg::Both || engine == *e);
    if let Err(why) = limits.validate() {
        let why = format!("the trace's limits are another reader's: {why}");
        return chosen
            .map(|(_, name)| bgtail::replay::not_replayed(name, trace, &why))
            .collect();
    }
    let mut out = Vec::new();
    if engine != EngineArg::Exact {
        out.push(replay(&ShippedEngine::new(limits.clone()), trace));
    }
    if engine != EngineArg::Shipped {
        out.push(replay(&ExactEngine::new(limits), trace));
    }
    out
}

/// Whether a replay passes what it is held to (by default: the exact engine its contract,
/// the shipped engine the recordings, an engine in another process both), with no read the
/// harness could not carry out.
pub fn passes(r: &Replay, require: Option<Require>) -> bool {
    let require = require.unwrap_or(match r.engine.as_str() {
        "exact" => Require::Contract,
        "shipped" => Require::Recordings,
        _ => Require::Both,
    });
    let contract = !r.audited || r.tally.contract_held();
    let harness = r.reads.iter().all(|read| read.problems.is_empty());
    harness
        && match require {
            Require::Contract => contract,
            Require::Recordings => r.tally.faithful(),
            Require::Both => contract && r.tally.faithful(),
        }
}

/// `--timeout` as a duration: a positive number of seconds.
pub fn timeout(secs: f64) -> anyhow::Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("--timeout {secs}: give a positive number of seconds"))
}

pub fn table_header() -> String {
    format!(
        "{:<44} {:<14} {:>5} {:>8} {:>6} {:>8} {:>9} {:>5} {:>6} {:>9}",
        "trace",
        "engine",
        "reads",
        "chars",
        "lines",
        "repeated",
        "rep.chars",
        "lost",
        "unseen",
        "fidelity"
    )
}

pub fn table_row(name: &str, r: &Replay) -> String {
    let t: &Tally = &r.tally;
    let fidelity = if t.recorded == 0 {
        "-".to_owned()
    } else {
        format!("{}/{}", t.reproduced, t.recorded)
    };
    // A trace whose limits are not the outside engine's is not replayed, so not judged.
    let audit = |n: u64| {
        if r.audited {
            n.to_string()
        } else {
            "-".to_owned()
        }
    };
    format!(
        "{:<44} {:<14} {:>5} {:>8} {:>6} {:>8} {:>9} {:>5} {:>6} {:>9}",
        truncate(name, 44),
        truncate(&r.engine, 14),
        t.reads,
        t.chars_delivered,
        audit(t.lines_delivered),
        audit(t.lines_repeated),
        audit(t.chars_repeated),
        audit(t.lines_lost),
        audit(t.lines_never_shown),
        fidelity
    )
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}
