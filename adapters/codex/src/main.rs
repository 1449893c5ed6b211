//! `bgtail-codex`: Codex CLI's background-job reader behind bgtail's engine-under-test
//! protocol (docs/engine-protocol.md), one JSON message per line on stdin and stdout.
//!
//! ```sh
//! bgtail check --engine "cmd:target/release/bgtail-codex --scaled"
//! bgtail replay --require contract --engine "cmd:target/release/bgtail-codex" traces/
//! bgtail check --engine "cmd:target/release/bgtail-codex --exact --scaled"
//! ```
//!
//! `--scaled` runs the reader at the model's sizes (a head-tail buffer of 10 bytes, a budget of
//! 2 tokens: see adapters/codex/README.md); without it, at Codex's own (1 MiB, 10,000 tokens).
//! `--exact` puts bgtail's exact engine in place of Codex's buffer-and-truncate.

use bgtail::protocol::{
    Capabilities, DeclaredLimits, EngineInfo, ErrorCode, FromEngine, ReadReply, ReadRequest,
    ShownRange, ToEngine, VERSION,
};
use bgtail::{ExactEngine, TextFormat};
use bgtail_codex::exact;
use bgtail_codex::poll::{poll, PollError, Scale, State, SCALED_CAP, SCALED_TOKENS, UPSTREAM_CAP};
use serde_json::Value;
use std::process::ExitCode;

/// The commit of Codex whose files the build compiles (docs/inputs.md), as the engine's version.
const CODEX_COMMIT: &str = "343074d4";

/// How the reader runs: Codex's own reading or the exact engine in its place, and at which
/// sizes.
#[derive(Clone, Copy)]
struct Mode {
    exact: bool,
    scaled: bool,
}

fn main() -> ExitCode {
    let mut mode = Mode {
        exact: false,
        scaled: false,
    };
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--scaled" => mode.scaled = true,
            "--exact" => mode.exact = true,
            _ => {
                eprintln!("bgtail-codex: unknown argument {arg:?}; usage: bgtail-codex [--exact] [--scaled]");
                return ExitCode::from(2);
            }
        }
    }
    match serve(mode) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bgtail-codex: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The reader's whole state: Codex's sessions, or the exact engine's bookmarks.
enum Reader {
    Codex(State),
    Exact(ExactEngine, exact::State),
}

impl Reader {
    fn new(mode: Mode) -> Reader {
        if mode.exact {
            Reader::Exact(
                ExactEngine::new(exact::limits(mode.scaled)),
                exact::State::default(),
            )
        } else {
            Reader::Codex(State::default())
        }
    }

    fn snapshot(&self) -> Value {
        match self {
            Reader::Codex(state) => serde_json::to_value(state).expect("the state serialises"),
            Reader::Exact(_, state) => state.snapshot(),
        }
    }

    fn restore(&mut self, value: Value) -> Result<(), serde_json::Error> {
        match self {
            Reader::Codex(state) => *state = serde_json::from_value(value)?,
            Reader::Exact(_, state) => *state = serde_json::from_value(value)?,
        }
        Ok(())
    }
}

/// Answers requests from stdin until it closes.
fn serve(mode: Mode) -> std::io::Result<()> {
    let mut reader = Reader::new(mode);
    let stdin = std::io::stdin().lock();
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    bgtail::answer::lines(stdin, out, |request| answer(mode, &mut reader, request))
}

fn answer(mode: Mode, reader: &mut Reader, request: ToEngine) -> FromEngine {
    match request {
        ToEngine::Init {
            msg_id, versions, ..
        } => bgtail::answer::refuse_versions(msg_id, &versions).unwrap_or_else(|| {
            if mode.exact {
                exact_init_ok(msg_id, mode.scaled)
            } else {
                init_ok(msg_id, mode.scaled)
            }
        }),
        ToEngine::Read(read) => match reader {
            Reader::Codex(state) => answer_read(mode.scaled, state, &read),
            Reader::Exact(engine, state) => answer_exact_read(engine, state, &read),
        },
        ToEngine::Reset { msg_id } => {
            *reader = Reader::new(mode);
            FromEngine::ResetOk {
                in_reply_to: msg_id,
            }
        }
        ToEngine::Snapshot { msg_id } => FromEngine::SnapshotOk {
            in_reply_to: msg_id,
            state: reader.snapshot(),
        },
        ToEngine::Restore { msg_id, state } => match reader.restore(state) {
            Ok(()) => FromEngine::RestoreOk {
                in_reply_to: msg_id,
            },
            Err(e) => FromEngine::Error {
                in_reply_to: msg_id,
                code: ErrorCode::Malformed,
                text: format!("not a state of this reader: {e}"),
            },
        },
        other => FromEngine::Error {
            in_reply_to: other.msg_id(),
            code: ErrorCode::NotSupported,
            text: "a request of a later protocol version".into(),
        },
    }
}

/// The exact engine in Codex: a window of `lines` (the engine's own parameter) over its
/// default view, the log read by position (so a cut or a rewrite is seen and said), the exit
/// learnt from the process, the byte ranges each reply shows.
fn exact_init_ok(msg_id: u64, scaled: bool) -> FromEngine {
    let mut capabilities = Capabilities::default();
    capabilities.reset = true;
    capabilities.snapshot = true;
    capabilities.shown = true;
    capabilities.exit_by_running = true;
    let limits = exact::limits(scaled);
    FromEngine::InitOk {
        in_reply_to: msg_id,
        version: VERSION,
        engine: EngineInfo {
            name: "codex-exact".into(),
            version: format!(
                "{CODEX_COMMIT} with bgtail {}{}",
                env!("CARGO_PKG_VERSION"),
                if scaled {
                    ", scaled: the model's limits"
                } else {
                    ""
                }
            ),
        },
        capabilities,
        limits: Some(DeclaredLimits::from(&limits)),
        text_format: Some(TextFormat::CodexExact.name().into()),
        plain: None,
    }
}

fn answer_exact_read(
    engine: &ExactEngine,
    state: &mut exact::State,
    read: &ReadRequest,
) -> FromEngine {
    let lines = read.lines.map(bgtail::trace::JsNumber::to_f64);
    let job = (read.job_id.as_str(), read.log_path.as_str());
    match exact::poll(engine, state, job, lines, read.running) {
        Ok((text, shown)) => FromEngine::ReadOk(ReadReply {
            in_reply_to: read.msg_id,
            text,
            details: serde_json::Map::new(),
            is_error: false,
            shown: Some(
                shown
                    .into_iter()
                    .map(|(offset, end)| ShownRange { offset, end })
                    .collect(),
            ),
        }),
        Err(text) => FromEngine::Error {
            in_reply_to: read.msg_id,
            code: ErrorCode::Rejected,
            text,
        },
    }
}

/// What the reader is: no window (a poll returns everything new), no view (it reads the whole
/// stream), the exit learnt from the process, a drain fed by the output stream; its budget in
/// bytes of text (4 a token), and no per-line cap.
fn init_ok(msg_id: u64, scaled: bool) -> FromEngine {
    let mut capabilities = Capabilities::default();
    capabilities.reset = true;
    capabilities.snapshot = true;
    capabilities.no_window = true;
    capabilities.exit_by_running = true;
    capabilities.drain = true;
    capabilities.appends_only = true;
    let mut limits = DeclaredLimits::default();
    limits.text_budget = Some(4 * scale(scaled).tokens as u64);
    FromEngine::InitOk {
        in_reply_to: msg_id,
        version: VERSION,
        engine: EngineInfo {
            name: "codex".into(),
            version: if scaled {
                format!("{CODEX_COMMIT}, scaled: a {SCALED_CAP}-byte head-tail buffer, {SCALED_TOKENS} tokens")
            } else {
                CODEX_COMMIT.into()
            },
        },
        capabilities,
        limits: Some(limits),
        text_format: Some(TextFormat::Codex.name().into()),
        plain: None,
    }
}

fn scale(scaled: bool) -> Scale {
    if scaled {
        Scale::scaled()
    } else {
        Scale::upstream()
    }
}

/// One poll of the job: its log read whole, the new bytes drained.
fn answer_read(scaled: bool, state: &mut State, read: &ReadRequest) -> FromEngine {
    let error = |code, text: String| FromEngine::Error {
        in_reply_to: read.msg_id,
        code,
        text,
    };
    let log = match std::fs::read(&read.log_path) {
        Ok(log) => log,
        Err(e) => {
            return error(
                ErrorCode::Internal,
                format!("the job's output at {} cannot be read: {e}", read.log_path),
            )
        }
    };
    let s = scale(scaled);
    let result = if scaled {
        poll::<SCALED_CAP>(state, s, &read.job_id, &log, read.running)
    } else {
        poll::<UPSTREAM_CAP>(state, s, &read.job_id, &log, read.running)
    };
    match result {
        Ok(text) => FromEngine::ReadOk(ReadReply {
            in_reply_to: read.msg_id,
            text,
            details: serde_json::Map::new(),
            is_error: false,
            shown: None,
        }),
        Err(PollError::UnknownSession(text)) => error(ErrorCode::Rejected, text),
        Err(PollError::Shrank { drained, len }) => error(
            ErrorCode::NotSupported,
            format!(
                "{}: {len} bytes, fewer than the {drained} the process already wrote: Codex reads \
                 the process's output stream, which cannot be cut or replaced",
                read.log_path
            ),
        ),
    }
}
