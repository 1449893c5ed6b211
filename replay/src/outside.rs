//! An engine in another process behind the crate's [`Engine`] trait, so that the model checker
//! drives it exactly as it drives the in-crate engines and the one judge reads its replies.
//!
//! stateright clones states; an outside engine's bookmarks live in its own process. So a
//! state of this engine is what it takes to bring the process back to it:
//! - with `snapshot`/`restore`: the engine's own state blob (restored before each read,
//!   taken again after it);
//! - without: the reads since a fresh engine, replayed after a `reset` before each read (each
//!   with the log as it was then). Slower with depth, and the same verdicts.
//!
//! A harness error (a crash, a hang, a lie about the protocol) stops every later read: the
//! first one is kept and reported by the caller when the check ends.

use crate::eut::ProcessEngine;
use anyhow::{bail, Context as _};
use bgtail::api::{ReadKind, ShownLine};
use bgtail::protocol::{ErrorCode, FromEngine as Wire, ReadRequest, ToEngine as WireRequest};
use bgtail::source::LogSource;
use bgtail::{Engine, Job, Limits, Rejected, Reply, Request};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How the process is brought back to a model state before a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rebuild {
    /// The engine's own `snapshot`/`restore`.
    Snapshot,
    /// `reset`, then the reads since, replayed.
    Replay,
}

impl Rebuild {
    /// How a report names it.
    pub fn describe(self) -> &'static str {
        match self {
            Rebuild::Snapshot => "states rebuilt by snapshot/restore",
            Rebuild::Replay => "states rebuilt by replaying the path from a reset",
        }
    }
}

/// One read of the path so far: the log then, and the request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PastRead {
    log: Vec<u8>,
    /// The request as JSON (numbers as JavaScript writes them), so that the state hashes.
    request: String,
}

/// A model state of the outside engine.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OutsideState {
    /// The engine's state blob as JSON text (`Rebuild::Snapshot`); `None`: a fresh engine.
    snapshot: Option<String>,
    /// The reads since a fresh engine (`Rebuild::Replay`).
    history: Vec<PastRead>,
}

/// Writes the log's bytes to the file the engine reads (`None`: removes it).
type WriteLog<'a> = dyn Fn(Option<&[u8]>) -> anyhow::Result<()> + 'a;

/// The process and what the check needs of it.
struct Inner {
    engine: ProcessEngine,
    /// The first harness error; every read after it fails at once.
    failed: Option<String>,
    /// Requests sent, for the throughput figure.
    requests: u64,
    /// A fresh engine's state blob (`Rebuild::Snapshot`), taken once after the handshake: a
    /// state equal to it is kept as `None`, so that a read that leaves a fresh engine as it
    /// was (a refusal, a read the gate holds back) leads back to the state it started in, as
    /// it does in the checker's own engines.
    fresh: Option<String>,
}

/// An engine in another process, shared by the checker's clones of it.
#[derive(Clone)]
pub struct OutsideEngine {
    inner: Arc<Mutex<Inner>>,
    /// `<dir>/<job id>.log`, the file the harness writes before each read.
    log: PathBuf,
    _dir: Arc<tempfile::TempDir>,
    name: &'static str,
    limits: Limits,
    text_format: bgtail::condense::TextFormat,
    plain: Option<bgtail::plain::Plain>,
    pub rebuild: Rebuild,
    pub capabilities: bgtail::protocol::Capabilities,
}

impl OutsideEngine {
    /// Starts `command` and shakes hands. The engine's declared limits replace upstream's
    /// defaults; one without `snapshot` needs `reset`.
    pub fn start(command: &str, timeout: Duration, job_id: &str) -> anyhow::Result<Self> {
        let engine = ProcessEngine::spawn(command, timeout)?;
        crate::profile::announce(command, &engine);
        let caps = engine.capabilities;
        let rebuild = match (caps.snapshot, caps.reset) {
            (true, _) => Rebuild::Snapshot,
            (false, true) => Rebuild::Replay,
            (false, false) => {
                bail!(
                    "{}: a model check needs `snapshot` or `reset`, and the engine has neither",
                    engine.info.name
                )
            }
        };
        let mut limits = Limits::default();
        // The exact engine's own tuning says nothing of an outside engine: left at 0, it is
        // not written into the traces this engine's counterexamples become.
        limits.count_views_up_to = 0;
        if let Some(d) = engine.limits {
            d.apply_to(&mut limits);
        }
        let text_format = engine.text_format;
        let plain = engine.plain.clone();
        let name: &'static str = Box::leak(format!("cmd:{}", engine.info.name).into_boxed_str());
        let dir = tempfile::tempdir().context("a temporary folder")?;
        let log = crate::replay_eut::log_file(dir.path(), job_id);
        let mut inner = Inner {
            engine,
            failed: None,
            requests: 0,
            fresh: None,
        };
        if rebuild == Rebuild::Snapshot {
            inner.fresh = Some(inner.snapshot().context("a fresh engine's snapshot")?);
        }
        Ok(OutsideEngine {
            inner: Arc::new(Mutex::new(inner)),
            log,
            _dir: Arc::new(dir),
            name,
            limits,
            text_format,
            plain,
            rebuild,
            capabilities: caps,
        })
    }

    /// The first harness error of the check, if any.
    pub fn failure(&self) -> Option<String> {
        self.lock().failed.clone()
    }

    /// Requests sent so far.
    pub fn requests(&self) -> u64 {
        self.lock().requests
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes `bytes` as the log (in place: the same file), or removes it when missing.
    fn write_log(&self, bytes: Option<&[u8]>) -> anyhow::Result<()> {
        let result = match bytes {
            Some(b) => std::fs::write(&self.log, b),
            None => match std::fs::remove_file(&self.log) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                other => other,
            },
        };
        result.with_context(|| self.log.display().to_string())
    }
}

/// The whole log a source holds (`None`: no file).
fn log_bytes(log: &dyn LogSource) -> Option<Vec<u8>> {
    let size = log.stat().ok()?.size;
    let mut read = 0;
    bgtail::source::read_span(log, 0, size, &mut read).ok()
}

impl Inner {
    fn send(&mut self, request: WireRequest) -> anyhow::Result<Wire> {
        self.requests += 1;
        Ok(self.engine.request(request)?)
    }

    /// Brings the process to `state` (`rebuild` says how), writing past logs through `write`.
    fn bring_to(
        &mut self,
        state: &OutsideState,
        rebuild: Rebuild,
        write: &WriteLog<'_>,
    ) -> anyhow::Result<()> {
        let id = self.engine.fresh_id();
        let blob = match rebuild {
            Rebuild::Snapshot => state.snapshot.as_ref().or(self.fresh.as_ref()),
            Rebuild::Replay => None,
        };
        let reply = match blob {
            Some(blob) => self.send(WireRequest::Restore {
                msg_id: id,
                state: serde_json::from_str(blob)?,
            })?,
            None => self.send(WireRequest::Reset { msg_id: id })?,
        };
        if !matches!(reply, Wire::RestoreOk { .. } | Wire::ResetOk { .. }) {
            bail!("restoring a state was answered with {reply:?}");
        }
        if rebuild == Rebuild::Replay {
            for past in &state.history {
                write(Some(&past.log))?;
                let mut read: ReadRequest = serde_json::from_str(&past.request)?;
                read.msg_id = self.engine.fresh_id();
                self.send(WireRequest::Read(read))?;
            }
        }
        Ok(())
    }

    /// Takes the process's state after a read into `state`.
    fn take_state(
        &mut self,
        state: &mut OutsideState,
        rebuild: Rebuild,
        past: PastRead,
    ) -> anyhow::Result<()> {
        match rebuild {
            Rebuild::Replay => state.history.push(past),
            Rebuild::Snapshot => {
                let blob = self.snapshot()?;
                state.snapshot = (Some(&blob) != self.fresh.as_ref()).then_some(blob);
            }
        }
        Ok(())
    }

    /// The process's state blob, as JSON text.
    fn snapshot(&mut self) -> anyhow::Result<String> {
        let id = self.engine.fresh_id();
        match self.send(WireRequest::Snapshot { msg_id: id })? {
            Wire::SnapshotOk { state: blob, .. } => Ok(blob.to_string()),
            other => bail!("snapshot was answered with {other:?}"),
        }
    }
}

/// The protocol's clock for a read that says how long the job has run: milliseconds since the
/// job started (`docs/engine-protocol.md`), which a served engine turns back into seconds. An
/// elapsed time the clock cannot carry (below 0, not finite) is sent as no clock at all, which
/// the running-job state line reads alike (0.0 s).
fn now_ms(elapsed_secs: Option<f64>) -> Option<u64> {
    elapsed_secs
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| (s * 1000.0).round() as u64)
}

/// A reply as the crate's type: the text, `details` and claimed ranges; the rest unknown.
fn as_reply(
    text: String,
    details: serde_json::Map<String, serde_json::Value>,
    is_error: bool,
    shown: &[(u64, u64)],
) -> Reply {
    let kind = if is_error {
        ReadKind::Error
    } else {
        ReadKind::Delta
    };
    let mut reply = Reply::new(text, kind);
    reply.details = details.into();
    reply.shown = shown
        .iter()
        .map(|&(offset, end)| ShownLine {
            generation: 0,
            offset,
            end,
            view_line: None,
            partial: false,
        })
        .collect();
    reply
}

impl OutsideEngine {
    /// One read on the process brought to `state`; the state after it, and the reply.
    fn read_through(
        &self,
        inner: &mut Inner,
        state: &mut OutsideState,
        job: Job<'_>,
        bytes: Option<Vec<u8>>,
        request: &Request,
    ) -> anyhow::Result<Result<Reply, Rejected>> {
        inner.bring_to(state, self.rebuild, &|b| self.write_log(b))?;
        self.write_log(bytes.as_deref())?;
        let read = ReadRequest {
            msg_id: inner.engine.fresh_id(),
            job_id: job.id.to_owned(),
            log_path: self.log.display().to_string(),
            lines: request.lines.map(Into::into),
            raw: request.raw,
            bytes: request.bytes,
            peek: request.peek,
            running: request.running,
            now_ms: now_ms(request.elapsed_secs),
        };
        let past = PastRead {
            log: bytes.unwrap_or_default(),
            request: serde_json::to_string(&read)?,
        };
        let outcome = match inner.send(WireRequest::Read(read))? {
            Wire::ReadOk(r) => {
                let shown: Vec<(u64, u64)> = r
                    .shown
                    .unwrap_or_default()
                    .iter()
                    .map(|s| (s.offset, s.end))
                    .collect();
                Ok(as_reply(r.text, r.details, r.is_error, &shown))
            }
            Wire::Error {
                code: ErrorCode::Rejected,
                text,
                ..
            } => Err(Rejected(text)),
            other => bail!("a read was answered with {other:?}"),
        };
        inner.take_state(state, self.rebuild, past)?;
        Ok(outcome)
    }
}

impl Engine for OutsideEngine {
    type State = OutsideState;

    fn name(&self) -> &'static str {
        self.name
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn text_format(&self) -> bgtail::condense::TextFormat {
        self.text_format
    }

    fn plain(&self) -> Option<&bgtail::plain::Plain> {
        self.plain.as_ref()
    }

    fn reports_shown(&self) -> bool {
        self.capabilities.shown
    }

    fn reports_fields(&self) -> bool {
        false
    }

    fn line_window(&self) -> bool {
        !self.capabilities.no_window
    }

    fn drains(&self) -> bool {
        self.capabilities.drain
    }

    fn largest_view(&self) -> u64 {
        self.capabilities.largest_view(&self.limits)
    }

    fn read(
        &self,
        state: &mut OutsideState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        let mut inner = self.lock();
        if let Some(failed) = &inner.failed {
            return Err(Rejected(format!("(the engine failed earlier: {failed})")));
        }
        let bytes = log_bytes(log);
        match self.read_through(&mut inner, state, job, bytes, request) {
            Ok(outcome) => outcome,
            Err(why) => {
                inner.failed = Some(format!("{why:#}"));
                Err(Rejected(format!("(the engine failed: {why:#})")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::outside::now_ms;

    #[test]
    fn an_elapsed_time_is_sent_as_the_clock_in_whole_milliseconds() {
        assert_eq!(now_ms(Some(12.04)), Some(12_040));
        assert_eq!(now_ms(Some(0.0)), Some(0));
        assert_eq!(now_ms(Some(1.0005)), Some(1_001));
        assert_eq!(now_ms(None), None);
    }

    #[test]
    fn an_elapsed_time_the_clock_cannot_carry_is_sent_as_no_clock() {
        for secs in [-3.0, -0.001, f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            assert_eq!(now_ms(Some(secs)), None, "{secs}");
        }
    }
}
