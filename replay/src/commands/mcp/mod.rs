//! `bgtail mcp`: a Model Context Protocol server on stdio (the official Rust SDK, `rmcp`) that
//! starts background jobs and reads their logs through the exact engine, for any agent that
//! loads MCP tools (docs/mcp.md).

mod args;
mod describe;
mod server;

use anyhow::Context as _;
use rmcp::ServiceExt as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The folder of jobs: their logs, records and bookmarks. Default: the platform's folder
    /// for per-user state (`$XDG_STATE_HOME/bgtail/jobs`, else `~/.local/state/bgtail/jobs`
    /// on Linux; `~/Library/Application Support/bgtail/jobs` on macOS).
    #[arg(long, env = "BGTAIL_JOBS_DIR")]
    pub jobs_dir: Option<PathBuf>,
}

/// The default jobs folder.
fn default_jobs_dir() -> anyhow::Result<PathBuf> {
    let base = dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .context("no per-user state folder on this platform: give --jobs-dir")?;
    Ok(base.join("bgtail").join("jobs"))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = match args.jobs_dir {
        Some(d) => d,
        None => default_jobs_dir()?,
    };
    let jobs = crate::jobs::Jobs::open(&dir)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("the async runtime")?;
    runtime.block_on(async {
        let service = server::Server::new(jobs)
            .serve(rmcp::transport::stdio())
            .await
            .context("the MCP handshake on stdio")?;
        service.waiting().await.context("the MCP server")?;
        Ok(ExitCode::SUCCESS)
    })
}
