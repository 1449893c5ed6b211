//! `bgtail replay`: traces through the engines, audited from the replies' own text.

use crate::EngineArg;
use bgtail::replay::{replay, Replay, Tally};
use bgtail::trace::Trace;
use bgtail::{ExactEngine, ShippedEngine};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Trace files (`.jsonl`), or directories searched for them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "both")]
    pub engine: EngineArg,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the tables only, not every reply.
    #[arg(long)]
    pub quiet: bool,
}

/// Every `.jsonl` file named or below a named directory, sorted.
pub fn trace_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
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
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    out.sort();
    Ok(out)
}

pub fn load(path: &Path) -> Result<Trace, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 at byte {} (a trace is JSON Lines)",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Trace::parse(&path.display().to_string(), &text).map_err(|e| e.to_string())
}

/// Replays one trace through the chosen engines.
pub fn replay_trace(trace: &Trace, engine: EngineArg) -> Vec<Replay> {
    let limits = trace.limits();
    let mut out = Vec::new();
    if engine != EngineArg::Exact {
        out.push(replay(&ShippedEngine::new(limits.clone()), trace));
    }
    if engine != EngineArg::Shipped {
        out.push(replay(&ExactEngine::new(limits), trace));
    }
    out
}

/// Whether a replay passes: the exact engine keeps its contract, the shipped engine
/// reproduces every recorded reply.
pub fn passes(r: &Replay) -> bool {
    match r.engine {
        "exact" => r.tally.contract_held(),
        _ => r.tally.faithful(),
    }
}

pub fn table_header() -> String {
    format!(
        "{:<44} {:<8} {:>5} {:>8} {:>6} {:>8} {:>9} {:>5} {:>6} {:>9}",
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
    format!(
        "{:<44} {:<8} {:>5} {:>8} {:>6} {:>8} {:>9} {:>5} {:>6} {:>9}",
        truncate(name, 44),
        r.engine,
        t.reads,
        t.chars_delivered,
        t.lines_delivered,
        t.lines_repeated,
        t.chars_repeated,
        t.lines_lost,
        t.lines_never_shown,
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

pub fn run(args: Args) -> Result<ExitCode, String> {
    let files = trace_files(&args.paths)?;
    if files.is_empty() {
        return Err("no traces (.jsonl) found".into());
    }
    let mut ok = true;
    let mut json = Vec::new();
    let mut rows = Vec::new();
    for file in &files {
        let trace = load(file)?;
        for r in replay_trace(&trace, args.engine) {
            ok &= passes(&r);
            if args.json {
                json.push(serde_json::json!({
                    "trace": trace.header.name,
                    "file": file.display().to_string(),
                    "engine": r.engine,
                    "tally": r.tally,
                    "reads": r.reads,
                }));
            } else {
                if !args.quiet {
                    println!("═══ {} — {} engine ═══", trace.header.name, r.engine);
                    for read in &r.reads {
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
                    }
                }
                rows.push(table_row(&trace.header.name, &r));
            }
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?
        );
    } else {
        println!("{}", table_header());
        for row in rows {
            println!("{row}");
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
