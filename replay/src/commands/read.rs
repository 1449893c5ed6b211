//! `bgtail read`: one read of a real log, with the bookmark kept in a state file
//! ([`bgtail::state_file`]: one caller at a time, replaced whole, a file it cannot use read as
//! a fresh bookmark with a warning). No fsync: the two it would take cost about 0.55 ms on
//! this machine's ext4 disk, more than a first read's own work (0.03 ms in process), and a
//! state lost to a power cut can only send lines again.

use crate::engine_arg::EngineArg;
use anyhow::{bail, Context as _};
use bgtail::source::open_log;
use bgtail::state_file::StateFile;
use bgtail::{Engine, ExactEngine, Job, Limits, Reply, Request, ShippedEngine};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The log to read.
    pub log: PathBuf,
    /// The file that keeps the bookmark between calls.
    #[arg(long)]
    pub state: PathBuf,
    /// The job id (default: the log's file name without its extension).
    #[arg(long)]
    pub id: Option<String>,
    /// How many lines to show (default 40); floored, at least 1.
    #[arg(long)]
    pub lines: Option<f64>,
    /// The verbatim window: no ANSI stripping, folding or caps.
    #[arg(long)]
    pub raw: bool,
    /// The view: how many bytes at the end of the log are searched (default 2 MiB, at most
    /// 64 MiB + 4 KiB).
    #[arg(long)]
    pub bytes: Option<f64>,
    /// The job is still running: its last line may be partial.
    #[arg(long)]
    pub running: bool,
    /// Which engine reads: exact, or shipped (pi-bgrun 0.7.1's behaviour).
    #[arg(long, value_enum, default_value = "exact")]
    pub engine: EngineArg,
    /// Print the reply and its facts as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.engine {
        EngineArg::Shipped => read_with(ShippedEngine::new(Limits::default()), &args),
        EngineArg::Exact => read_with(ExactEngine::new(Limits::default()), &args),
        EngineArg::Both => bail!("read takes one engine: exact or shipped"),
    }
}

fn read_with<E: Engine>(engine: E, args: &Args) -> anyhow::Result<ExitCode> {
    let id = match &args.id {
        Some(id) => id.clone(),
        None => args
            .log
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .with_context(|| format!("{}: give --id", args.log.display()))?,
    };
    let path = std::path::absolute(&args.log).unwrap_or_else(|_| args.log.clone());
    let path_text = path.to_string_lossy().into_owned();
    let request = Request {
        lines: args.lines,
        raw: args.raw,
        bytes: args.bytes,
        peek: true,
        running: args.running,
        elapsed_secs: None,
    };
    let file = StateFile::lock(&args.state)?;
    let (mut state, warning) = file.load(&engine);
    if let Some(w) = warning {
        eprintln!("bgtail: warning: {w}");
    }
    let source = open_log(&path);
    let reply = engine.read(
        &mut state,
        Job {
            id: &id,
            path: &path_text,
        },
        source.as_ref(),
        &request,
    )?;
    // The reply goes out before the bookmark is stored: a reader killed or cut off (a closed
    // pipe) in between sends these lines again next time instead of never sending them.
    print_reply(&reply, args.json).context("cannot write the reply, bookmark left as it was")?;
    if !reply.is_error {
        file.store(&engine, &state)?;
    }
    Ok(if reply.is_error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The version of `read --json`'s document (docs/json-output.md): raised when a key changes
/// meaning or goes away, not when one is added.
pub const READ_JSON_VERSION: u32 = 1;

fn print_reply(reply: &Reply, json: bool) -> std::io::Result<()> {
    let text = if json {
        // Keys are snake_case, as everywhere in bgtail's output; `details` is upstream's
        // object as pi would show it, its keys upstream's.
        let doc = serde_json::json!({
            "bgtail_read": READ_JSON_VERSION,
            "text": reply.text,
            "is_error": reply.is_error,
            "kind": reply.kind,
            "reset": reply.reset,
            "counts": reply.counts,
            "shown": reply.shown,
            "notes": reply.notes,
            "details": reply.details,
            "bytes_read": reply.bytes_read,
        });
        doc.to_string()
    } else {
        reply.text.clone()
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}
