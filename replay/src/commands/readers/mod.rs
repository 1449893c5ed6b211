//! `bgtail readers`: every reader the project measures — the exact engine, pi-bgrun's, Gemini
//! CLI's and mux's own code through their adapters, Codex's compiled from its own files, and
//! Codex's driver with the exact engine in its place — model-checked at CI-sized bounds
//! and replayed over the corpus with the contract required, as the tables of
//! `docs/readers.md`. The command writes the page's generated part (between its markers), or
//! with `--check` fails when the page differs from what the checks give.

mod args;
mod markdown;
mod measure;
mod table;

use crate::corpus::ReplayEngine;
use crate::engine_arg::EngineArg;
use anyhow::{bail, Context as _};
pub use args::Args;
use markdown::{between, render, with_generated, BEGIN, END, WILD_BEGIN, WILD_END};
use measure::measure;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use table::{Engines, Reader, Source, READERS};

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shared = shared_dir(args.shared.as_deref());
    // Every checkout is found before any check runs, so that a missing one fails at once.
    let engines = READERS
        .iter()
        .map(|r| engines_of(r, &shared))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let rows = measure_all(&engines, &args)?;
    let table = render(&rows);
    crate::progress::note("bgtail readers: the captured sessions, audited");
    let wild = crate::wild::markdown(&crate::wild::audit_sessions(&captured(&shared)?, None)?);
    let page = std::fs::read_to_string(&args.page)
        .with_context(|| format!("{}: the page to write the tables into", args.page.display()))?;
    let updated = with_generated(&page, &table)
        .with_context(|| format!("{}: no `{BEGIN}` … `{END}` markers", args.page.display()))?;
    let updated = between(&updated, WILD_BEGIN, WILD_END, &wild).with_context(|| {
        format!(
            "{}: no `{WILD_BEGIN}` … `{WILD_END}` markers",
            args.page.display()
        )
    })?;
    let table = format!("{table}\n{wild}");
    if args.check {
        if updated == page {
            println!("{}: up to date", args.page.display());
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "{}: the tables differ from what the checks give; run `bgtail readers` to write them. They give:\n{table}",
            args.page.display()
        );
        return Ok(ExitCode::FAILURE);
    }
    std::fs::write(&args.page, updated).with_context(|| args.page.display().to_string())?;
    println!("{}: written", args.page.display());
    Ok(ExitCode::SUCCESS)
}

/// Every reader measured, each on a thread of its own, in [`READERS`]' order. A reader behind
/// a process spends most of its time awaiting replies (mux's adapter runs a real process
/// manager at tens of reads per second), so side by side the readers take about as long as the
/// slowest of them, not their sum.
fn measure_all(
    engines: &[Engines],
    args: &Args,
) -> anyhow::Result<Vec<(&'static Reader, measure::Measured)>> {
    let results: Vec<anyhow::Result<measure::Measured>> = std::thread::scope(|scope| {
        let running: Vec<_> = READERS
            .iter()
            .zip(engines)
            .map(|(reader, engine)| {
                scope.spawn(move || {
                    crate::progress::note(&format!("bgtail readers: {}", reader.name));
                    measure(reader, engine, args)
                        .with_context(|| format!("measuring {}", reader.name))
                })
            })
            .collect();
        running
            .into_iter()
            .map(|r| {
                r.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    READERS
        .iter()
        .zip(results)
        .map(|(r, m)| Ok((r, m?)))
        .collect()
}

/// The captured sessions the page's table of readers in the wild audits: every Codex rollout
/// and Claude Code transcript of `upstream-sessions/`, then this project's pi sessions.
fn captured(shared: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let sessions = shared.join("upstream-sessions");
    let mut files = Vec::new();
    for folder in ["codex", "claude-code"] {
        files.extend(jsonl_in(&sessions.join(folder))?);
    }
    let mut cells: Vec<PathBuf> = std::fs::read_dir(&sessions)
        .with_context(|| sessions.display().to_string())?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    cells.sort();
    for cell in cells.iter().filter(|c| c.join("CELL.md").exists()) {
        files.extend(jsonl_in(cell)?);
    }
    Ok(files)
}

/// The `.jsonl` files of `dir`, sorted.
fn jsonl_in(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| dir.display().to_string())?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    Ok(files)
}

/// The shared folder: the flag's, `$BGTAIL_SHARED`'s, or `../shared`.
fn shared_dir(flag: Option<&Path>) -> PathBuf {
    match (flag, std::env::var_os("BGTAIL_SHARED")) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Some(env)) if !env.is_empty() => PathBuf::from(env),
        _ => PathBuf::from("../shared"),
    }
}

fn engines_of(reader: &Reader, shared: &Path) -> anyhow::Result<Engines> {
    let same = |engine: ReplayEngine| Engines {
        model: engine.clone(),
        corpus: engine,
    };
    Ok(match reader.source {
        Source::Exact => same(ReplayEngine::Builtin(EngineArg::Exact)),
        Source::Adapter { folder, checkout } => {
            let path = shared.join(checkout);
            if !path.exists() {
                bail!(
                    "{}: {}'s checkout is missing (docs/inputs.md says where it comes from)",
                    path.display(),
                    reader.name
                );
            }
            same(ReplayEngine::Command(format!(
                "node adapters/{folder}/main.mjs {}",
                path.display()
            )))
        }
        Source::Binary {
            name,
            model_args,
            corpus_args,
        } => {
            let binary = sibling_binary(name)?.display().to_string();
            let command = |args: &str| format!("{binary} {args}").trim_end().to_string();
            Engines {
                model: ReplayEngine::Command(command(model_args)),
                corpus: ReplayEngine::Command(command(corpus_args)),
            }
        }
    })
}

/// `name` in the folder of the running `bgtail` (cargo builds a workspace's binaries there).
fn sibling_binary(name: &str) -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("the running bgtail's path")?;
    let path = exe.with_file_name(name);
    if !path.is_file() {
        bail!(
            "{}: missing; build it with `cargo build --release -p {name}` (or without --release \
             for a debug bgtail): it compiles its upstream code from the shared folder",
            path.display()
        );
    }
    Ok(path)
}
