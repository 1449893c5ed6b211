//! `bgtail audit`: captured agent sessions imported in memory (`crate::sessions`), every job's
//! recorded reads judged in its harness's dialect and replayed through the exact engine
//! (`bgtail::harness_audit`), printed as one table row per job and a total per harness.

use crate::sessions::FormatArg;
use crate::wild::{audit_sessions, markdown};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Session files (JSON Lines): pi sessions, Codex rollouts, Claude Code transcripts.
    #[arg(required = true)]
    pub sessions: Vec<PathBuf>,
    /// The sessions' format; told from each file when left out.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// One JSON object per job instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rows = audit_sessions(&args.sessions, args.format.map(Into::into))?;
    if rows.is_empty() {
        println!("no background job read by the agent in these sessions");
        return Ok(ExitCode::SUCCESS);
    }
    if args.json {
        for r in &rows {
            let line = serde_json::json!({
                "session": r.session, "harness": r.harness, "job": r.job, "audit": r.audit,
            });
            println!("{line}");
        }
    } else {
        print!("{}", markdown(&rows));
    }
    Ok(ExitCode::SUCCESS)
}
