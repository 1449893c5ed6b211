//! `bgtail import`: captured agent sessions to traces (`crate::sessions`), pi's, Codex's and
//! Claude Code's. Every session is read and imported before any trace is written, so an import
//! writes all of its traces or none; the report goes to stdout, warnings to stderr.

use crate::sessions::{import_file, FormatArg, ImportedJob};
use anyhow::{bail, Context as _};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Session files (JSON Lines): pi sessions, Codex rollouts, Claude Code transcripts.
    #[arg(required = true)]
    pub sessions: Vec<PathBuf>,
    /// Where to write the traces.
    #[arg(long)]
    pub out: PathBuf,
    /// The sessions' format; told from each file when left out.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut all: Vec<ImportedJob> = Vec::new();
    for path in &args.sessions {
        all.extend(import_file(path, args.format.map(Into::into))?);
    }
    let mut names = std::collections::HashSet::new();
    for job in &all {
        if !names.insert(&job.name) {
            bail!(
                "{}: two jobs would be written to {}.jsonl; import the sessions apart",
                job.session,
                job.name
            );
        }
    }
    std::fs::create_dir_all(&args.out).with_context(|| args.out.display().to_string())?;
    for job in &all {
        let file = args.out.join(format!("{}.jsonl", job.name));
        std::fs::write(&file, job.import.trace.to_jsonl())
            .with_context(|| file.display().to_string())?;
        println!(
            "{} ({}): {} ({})",
            job.session,
            job.format.name(),
            file.display(),
            job.import.trace.header.description
        );
        for line in &job.import.report {
            println!("  {line}");
        }
    }
    println!("{} traces written to {}", all.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}
