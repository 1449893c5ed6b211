//! `bgtail read`: one read of a real log, with the bookmark kept in a state file.
//!
//! The state file is only ever replaced whole: written to a temporary file beside it and
//! renamed over it, under an exclusive lock on `<state>.lock`, so that concurrent callers take
//! turns (no two deliver the same line) and a killed reader leaves the old or the new bookmark,
//! never a torn one. Nothing is synced (see `store_state`): a power cut can lose the newest
//! bookmark, which repeats lines and hides none. A state file that cannot be understood gives a
//! warning and a fresh bookmark: lines may be shown again, none are hidden.

use crate::EngineArg;
use bgtail::source::open_log;
use bgtail::{Engine, ExactEngine, Job, Limits, Reply, Request, ShippedEngine};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The state file's format version.
const STATE_VERSION: u32 = 1;

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

#[derive(Serialize, Deserialize)]
struct StateFile<S> {
    bgtail_state: u32,
    engine: String,
    state: S,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    match args.engine {
        EngineArg::Shipped => read_with(ShippedEngine::new(Limits::default()), &args),
        EngineArg::Exact => read_with(ExactEngine::new(Limits::default()), &args),
        EngineArg::Both => Err("read takes one engine: exact or shipped".into()),
    }
}

fn lock(state: &Path) -> Result<File, String> {
    let mut name = state.as_os_str().to_owned();
    name.push(".lock");
    let path = PathBuf::from(name);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.lock()
        .map_err(|e| format!("{}: cannot lock: {e}", path.display()))?;
    Ok(file)
}

/// Loads the engine's state; anything unusable is a warning and a fresh state.
fn load_state<S: DeserializeOwned + Default>(path: &Path, engine: &str) -> S {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return S::default(),
        Err(e) => {
            eprintln!(
                "bgtail: warning: {}: {e}; starting a fresh bookmark",
                path.display()
            );
            return S::default();
        }
    };
    let value: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            eprintln!(
                "bgtail: warning: {}: not a state file ({e}); starting a fresh bookmark (lines may be shown again)",
                path.display()
            );
            return S::default();
        }
    };
    let version = value
        .get("bgtail_state")
        .and_then(serde_json::Value::as_u64);
    if version != Some(u64::from(STATE_VERSION)) {
        eprintln!(
            "bgtail: warning: {}: state format {} is not {STATE_VERSION}; starting a fresh bookmark",
            path.display(),
            version.map_or("unknown".into(), |v| v.to_string())
        );
        return S::default();
    }
    match serde_json::from_value::<StateFile<S>>(value) {
        Ok(f) if f.engine == engine => f.state,
        Ok(f) => {
            eprintln!(
                "bgtail: warning: {}: written by the {} engine, not {engine}; starting a fresh bookmark",
                path.display(),
                f.engine
            );
            S::default()
        }
        Err(e) => {
            eprintln!(
                "bgtail: warning: {}: {e}; starting a fresh bookmark",
                path.display()
            );
            S::default()
        }
    }
}

/// Replaces the state file atomically: a temporary file renamed over it, so that a reader
/// never sees half a state. No fsync: a state lost or damaged by a power cut is read back as a
/// fresh bookmark (see `load_state`), which can only repeat lines, and the two fsyncs cost about
/// 0.55 ms on this machine's ext4 disk: more than a first read's own work (0.03 ms in process).
fn store_state<S: Serialize>(path: &Path, engine: &str, state: &S) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp.{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let body = serde_json::to_vec(&StateFile {
        bgtail_state: STATE_VERSION,
        engine: engine.to_owned(),
        state,
    })
    .map_err(|e| e.to_string())?;
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&body)?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot write the state: {e}", path.display())
    })
}

fn read_with<E: Engine>(engine: E, args: &Args) -> Result<ExitCode, String> {
    let id = match &args.id {
        Some(id) => id.clone(),
        None => args
            .log
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .ok_or_else(|| format!("{}: give --id", args.log.display()))?,
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
    let _guard = lock(&args.state)?;
    let mut state: E::State = load_state(&args.state, engine.name());
    let source = open_log(&path);
    let reply = engine
        .read(
            &mut state,
            Job {
                id: &id,
                path: &path_text,
            },
            source.as_ref(),
            &request,
        )
        .map_err(|e| e.0)?;
    // The reply goes out before the bookmark is stored: a reader killed or cut off (a closed
    // pipe) in between sends these lines again next time instead of never sending them.
    print_reply(&reply, args.json)
        .map_err(|e| format!("cannot write the reply, bookmark left as it was: {e}"))?;
    if !reply.is_error {
        store_state(&args.state, engine.name(), &state)?;
    }
    Ok(if reply.is_error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print_reply(reply: &Reply, json: bool) -> std::io::Result<()> {
    let text = if json {
        let doc = serde_json::json!({
            "text": reply.text,
            "isError": reply.is_error,
            "kind": reply.kind,
            "reset": reply.reset,
            "counts": reply.counts,
            "shown": reply.shown,
            "details": reply.details,
            "bytesRead": reply.bytes_read,
        });
        doc.to_string()
    } else {
        reply.text.clone()
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}
