//! `bgtail readers`: every reader the project measures — the exact engine, and pi-bgrun's,
//! Gemini CLI's and mux's own code through their adapters — model-checked at CI-sized bounds
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
use markdown::{render, with_generated, BEGIN, END};
use measure::measure;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use table::{Reader, Source, READERS};

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shared = shared_dir(args.shared.as_deref());
    // Every checkout is found before any check runs, so that a missing one fails at once.
    let engines = READERS
        .iter()
        .map(|r| engine_of(r, &shared))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut rows = Vec::new();
    for (reader, engine) in READERS.iter().zip(&engines) {
        eprintln!("bgtail readers: {}", reader.name);
        rows.push((reader, measure(reader, engine, &args)?));
    }
    let table = render(&rows);
    let page = std::fs::read_to_string(&args.page)
        .with_context(|| format!("{}: the page to write the tables into", args.page.display()))?;
    let updated = with_generated(&page, &table)
        .with_context(|| format!("{}: no `{BEGIN}` … `{END}` markers", args.page.display()))?;
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

/// The shared folder: the flag's, `$BGTAIL_SHARED`'s, or `../shared`.
fn shared_dir(flag: Option<&Path>) -> PathBuf {
    match (flag, std::env::var_os("BGTAIL_SHARED")) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Some(env)) if !env.is_empty() => PathBuf::from(env),
        _ => PathBuf::from("../shared"),
    }
}

/// The reader's engine, as `check` and `replay` name it.
fn engine_of(reader: &Reader, shared: &Path) -> anyhow::Result<ReplayEngine> {
    Ok(match reader.source {
        Source::Exact => ReplayEngine::Builtin(EngineArg::Exact),
        Source::Adapter { folder, checkout } => {
            let path = shared.join(checkout);
            if !path.exists() {
                bail!(
                    "{}: {}'s checkout is missing (docs/inputs.md says where it comes from)",
                    path.display(),
                    reader.name
                );
            }
            ReplayEngine::Command(format!(
                "node adapters/{folder}/main.mjs {}",
                path.display()
            ))
        }
    })
}
