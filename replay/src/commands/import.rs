//! `bgtail import-pi`: captured pi sessions to traces (`bgtail::pi_import`), read from and
//! written to files, with the import's report on stdout.

use anyhow::Context as _;
use bgtail::pi_import::{calls_of, import_job, jobs_of};
use bgtail::pi_session::PiSession;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// pi session files (JSON Lines).
    #[arg(required = true)]
    pub sessions: Vec<PathBuf>,
    /// Where to write the traces.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.out).with_context(|| args.out.display().to_string())?;
    let mut written = 0;
    for path in &args.sessions {
        let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
        let session = PiSession::parse(&path.display().to_string(), &text)?;
        let jobs = jobs_of(&session);
        if jobs.is_empty() {
            println!(
                "{}: no bgtail or bggrep calls; nothing to import",
                path.display()
            );
            continue;
        }
        let stem = path
            .file_stem()
            .map_or("session".into(), |s| s.to_string_lossy().into_owned());
        let cell = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| format!("{}-", s.to_string_lossy()))
            .unwrap_or_default();
        for (k, job) in jobs.iter().enumerate() {
            let calls = calls_of(&session, job);
            let name = if jobs.len() == 1 {
                format!("{cell}{stem}")
            } else {
                format!("{cell}{stem}-job{}", k + 1)
            };
            if !calls.iter().any(|c| c.name == "bgtail") {
                println!(
                    "{}: job {job}: only bggrep calls, nothing to replay; no trace written",
                    path.display()
                );
                continue;
            }
            let imported = import_job(&session, &name, job, &calls);
            let file = args.out.join(format!("{name}.jsonl"));
            std::fs::write(&file, imported.trace.to_jsonl())
                .with_context(|| file.display().to_string())?;
            written += 1;
            println!(
                "{}: job {job} → {} ({})",
                path.display(),
                file.display(),
                imported.trace.header.description
            );
            for line in imported.report {
                println!("  {line}");
            }
        }
    }
    println!("{written} traces written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
