//! `bgtail serve`: an in-crate engine behind the engine-under-test protocol (`bgtail-eut` v1,
//! `docs/engine-protocol.md`), so that the protocol's harness can be checked against the
//! engines it already knows, and so that a harness in another language can drive them.

use crate::engine_arg::ServedLimits;
use anyhow::{bail, Context as _};
use bgtail::protocol::{
    Capabilities, DeclaredLimits, EngineInfo, ErrorCode, FromEngine, ReadReply, ReadRequest,
    ShownRange, ToEngine, VERSION,
};
use bgtail::source::open_log;
use bgtail::{Engine, ExactEngine, Job, ShippedEngine};
use serde_json::Value;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Which engine answers.
    #[arg(long, value_enum)]
    pub engine: ServedEngine,
    /// Its limits: upstream's (`default`), or the model checker's tiny ones (`model`: a
    /// 40-unit budget, an 8-unit line cap), with which `bgtail check --engine "cmd:bgtail serve
    /// --limits model …"` checks the same model as the in-process check.
    #[arg(long, value_enum, default_value = "default")]
    pub limits: ServedLimits,
    /// Test equipment: serve the exact engine with this one thing broken, for the mutation
    /// check of the judge (see `replay/src/broken.rs`).
    #[arg(long = "break", value_enum, hide = true)]
    pub broken: Option<crate::broken::Break>,
}

/// The engines `serve` can put behind the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ServedEngine {
    Exact,
    Shipped,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits();
    if let Some(what) = args.broken {
        if args.engine != ServedEngine::Exact {
            bail!("--break breaks the exact engine: pass --engine exact");
        }
        return serve(
            crate::broken::Broken::new(limits, what),
            true,
            exact_snapshot,
        );
    }
    match args.engine {
        ServedEngine::Exact => serve(ExactEngine::new(limits), true, exact_snapshot),
        ServedEngine::Shipped => serve(ShippedEngine::new(limits), false, |s| {
            serde_json::to_value(s).expect("engine states serialise")
        }),
    }
}

/// The exact engine's state as a snapshot: without the line index, a cache that changes no
/// reply and takes no part in the state's equality, so that equal states give equal
/// snapshots (a model checker tells states apart by them); a restored engine rebuilds it.
fn exact_snapshot(state: &bgtail::ExactState) -> Value {
    let mut state = state.clone();
    for (_, bookmark) in &mut state.bookmarks {
        bookmark.index = bgtail::LineIndex::default();
    }
    serde_json::to_value(&state).expect("engine states serialise")
}

/// Answers requests from stdin until it closes. `gate`: the engine has 0.8.0's running gate;
/// `snapshot`: the engine's state as `snapshot_ok` hands it out.
fn serve<E: Engine>(
    engine: E,
    gate: bool,
    snapshot: fn(&E::State) -> Value,
) -> anyhow::Result<ExitCode> {
    let mut state = E::State::default();
    let stdin = std::io::stdin().lock();
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    bgtail::answer::lines(stdin, out, |request| {
        answer(&engine, gate, snapshot, &mut state, request)
    })
    .context("stdin and stdout")?;
    Ok(ExitCode::SUCCESS)
}

fn answer<E: Engine>(
    engine: &E,
    gate: bool,
    snapshot: fn(&E::State) -> Value,
    state: &mut E::State,
    request: ToEngine,
) -> FromEngine {
    match request {
        ToEngine::Init {
            msg_id, versions, ..
        } => bgtail::answer::refuse_versions(msg_id, &versions)
            .unwrap_or_else(|| init_ok(engine, gate, msg_id)),
        ToEngine::Read(read) => answer_read(engine, state, &read),
        ToEngine::Reset { msg_id } => {
            *state = E::State::default();
            FromEngine::ResetOk {
                in_reply_to: msg_id,
            }
        }
        ToEngine::Snapshot { msg_id } => FromEngine::SnapshotOk {
            in_reply_to: msg_id,
            state: snapshot(state),
        },
        ToEngine::Restore { msg_id, state: s } => match serde_json::from_value(s) {
            Ok(restored) => {
                *state = restored;
                FromEngine::RestoreOk {
                    in_reply_to: msg_id,
                }
            }
            Err(e) => FromEngine::Error {
                in_reply_to: msg_id,
                code: ErrorCode::Malformed,
                text: format!("not a state of this engine: {e}"),
            },
        },
        _ => FromEngine::Error {
            in_reply_to: request.msg_id(),
            code: ErrorCode::NotSupported,
            text: "a request of a later protocol version".into(),
        },
    }
}

/// What the engine is: its name, every capability (the running gate where it has one), its
/// limits and its text format.
fn init_ok<E: Engine>(engine: &E, gate: bool, msg_id: u64) -> FromEngine {
    FromEngine::InitOk {
        in_reply_to: msg_id,
        version: VERSION,
        engine: EngineInfo {
            name: format!("bgtail-{}", engine.name()),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        capabilities: {
            let mut c = Capabilities::all();
            c.peek = gate;
            c
        },
        limits: Some(DeclaredLimits::from(engine.limits())),
        text_format: Some(bgtail::replay::rules_of(engine).text_format.name().into()),
        plain: None,
    }
}

fn answer_read<E: Engine>(engine: &E, state: &mut E::State, read: &ReadRequest) -> FromEngine {
    let request = bgtail::Request {
        lines: read.lines.map(bgtail::trace::JsNumber::to_f64),
        raw: read.raw,
        bytes: read.bytes,
        peek: read.peek,
        running: read.running,
        elapsed_secs: read.now_ms.map(|ms| ms as f64 / 1000.0),
    };
    let log = open_log(read.log_path.as_ref());
    let job = Job {
        id: &read.job_id,
        path: &read.log_path,
    };
    match engine.read(state, job, log.as_ref(), &request) {
        Ok(reply) => FromEngine::ReadOk(ReadReply {
            in_reply_to: read.msg_id,
            shown: Some(
                reply
                    .shown
                    .iter()
                    .map(|s| ShownRange {
                        offset: s.offset,
                        end: s.end,
                    })
                    .collect(),
            ),
            text: reply.text,
            details: reply.details.into(),
            is_error: reply.is_error,
        }),
        Err(rejected) => FromEngine::Error {
            in_reply_to: read.msg_id,
            code: ErrorCode::Rejected,
            text: rejected.0,
        },
    }
}
