//! Traces through an engine in another process (`--engine "cmd:…"`): each trace's log is
//! written to a real file, each read sent as a `read` request, and each reply compared with the
//! trace's recorded one (`expect`), as the shipped engine's replies are.

use crate::eut::{HarnessError, ProcessEngine};
use bgtail::protocol::{ErrorCode, ReadRequest, Reply, Request};
use bgtail::replay::{matches_expected, ReadRecord, Replay, Tally};
use bgtail::trace::{Event, Read, Trace};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An outside engine, started once and reset between traces (or started again when it cannot
/// reset).
pub struct Outside {
    command: String,
    timeout: Duration,
    engine: Option<ProcessEngine>,
}

impl Outside {
    pub fn new(command: &str, timeout: Duration) -> Self {
        Outside {
            command: command.to_owned(),
            timeout,
            engine: None,
        }
    }

    /// A fresh engine: the running one after a `reset`, or a new process.
    fn fresh(&mut self) -> Result<&mut ProcessEngine, HarnessError> {
        match self.engine.take() {
            Some(mut e) if e.capabilities.reset => {
                let msg_id = e.fresh_id();
                match e.request(Request::Reset { msg_id })? {
                    Reply::ResetOk { .. } => self.engine = Some(e),
                    other => {
                        return Err(HarnessError::Handshake {
                            why: format!("reset answered with {other:?}"),
                        })
                    }
                }
            }
            Some(e) => {
                e.finish()?;
                self.engine = Some(ProcessEngine::spawn(&self.command, self.timeout)?);
            }
            None => self.engine = Some(ProcessEngine::spawn(&self.command, self.timeout)?),
        }
        Ok(self.engine.as_mut().expect("set above"))
    }

    /// Stops the engine, reporting a reply it wrote after its last one.
    pub fn finish(mut self) -> Result<(), HarnessError> {
        self.engine.take().map_or(Ok(()), ProcessEngine::finish)
    }

    /// Replays `trace` with its log in `work` (a folder of its own).
    pub fn replay(&mut self, trace: &Trace, work: &Path) -> Result<Replay, String> {
        let at = |index: usize, e: HarnessError| {
            format!("{}: event {}: {e}", trace.header.name, index + 1)
        };
        let engine = self.fresh().map_err(|e| at(0, e))?;
        let limits_differ = trace
            .header
            .limits
            .as_ref()
            .is_some_and(|l| engine.limits != Some(bgtail::protocol::DeclaredLimits::from(l)));
        let log = log_file(work, &trace.header.job_id);
        std::fs::write(&log, b"").map_err(|e| format!("{}: {e}", log.display()))?;
        let mut running = true;
        let mut tally = Tally::default();
        let mut reads = Vec::new();
        for (index, event) in trace.events.iter().enumerate() {
            bgtail::source::file::apply_event(event, &log)
                .map_err(|e| format!("{}: {e}", log.display()))?;
            match event {
                Event::Exit(_) => running = false,
                Event::OtherTool(_) => tally.not_replayed += 1,
                Event::Read(read) if limits_differ => {
                    tally.reads += 1;
                    reads.push(not_replayed(
                        index,
                        read.request(running, trace.header.running_gate),
                        "the trace's limits are its own, not the engine's",
                    ));
                }
                Event::Read(read) => {
                    let record = read_once(engine, trace, &log, index, read, running)
                        .map_err(|e| at(index, e))?;
                    tally.reads += 1;
                    tally.chars_delivered += bgtail::js::utf16_len(&record.text) as u64;
                    if let Some(same) = record.matches_recording {
                        tally.recorded += 1;
                        tally.reproduced += u64::from(same);
                    }
                    tally.claim_errors += u64::from(!record.problems.is_empty());
                    reads.push(record);
                }
                _ => {}
            }
        }
        Ok(Replay {
            engine: format!("cmd:{}", engine.info.name),
            reads,
            tally,
            audited: false,
        })
    }
}

/// Where the job's log lives: `<work>/<id>.log`, which is where pi-bgrun looks for it, when
/// the id can name a file there; an id that cannot is one a bgtail refuses before it looks.
pub fn log_file(work: &Path, id: &str) -> PathBuf {
    let name = format!("{id}.log");
    let plain =
        !id.is_empty() && !id.contains(['/', '\0']) && !id.contains("..") && name.len() <= 255;
    work.join(if plain {
        name.as_str()
    } else {
        "refused-id.log"
    })
}

/// One read: the request, the reply with the real log path written as the trace's, and its
/// comparison with the recorded reply.
fn read_once(
    engine: &mut ProcessEngine,
    trace: &Trace,
    log: &Path,
    index: usize,
    read: &Read,
    running: bool,
) -> Result<ReadRecord, HarnessError> {
    let request = read.request(running, trace.header.running_gate);
    if let Some(missing) = unsupported(engine, read, &request) {
        return Ok(not_replayed(
            index,
            request,
            &format!("the engine has no {missing}"),
        ));
    }
    let mut record = not_replayed(index, request.clone(), "");
    let real = log.display().to_string();
    let msg_id = engine.fresh_id();
    let reply = engine.request(Request::Read(ReadRequest {
        msg_id,
        job_id: trace.header.job_id.clone(),
        log_path: real.clone(),
        lines: read.lines,
        raw: read.raw,
        bytes: read.bytes,
        peek: request.peek,
        running,
        now_ms: read.t,
    }))?;
    let (text, details, is_error) = match reply {
        Reply::ReadOk(r) => (r.text, Some(r.details), r.is_error),
        Reply::Error {
            code: ErrorCode::Rejected,
            text,
            ..
        } => (text, None, true),
        Reply::Error { code, text, .. } => {
            record.text = format!("(the engine failed: {code:?}: {text})");
            record.problems.push(record.text.clone());
            return Ok(record);
        }
        other => {
            return Err(HarnessError::Malformed {
                request: format!("read (msg {msg_id})"),
                line: format!("{other:?}"),
                why: "not a reply to a read".into(),
            })
        }
    };
    let text = text.replace(&real, &trace.header.log_path);
    let details = details.map(|d| as_traced(d, &real, &trace.header.log_path));
    record.matches_recording = read
        .expect
        .as_ref()
        .map(|e| matches_expected(e, &text, details.as_ref(), is_error));
    record.text = text;
    Ok(record)
}

/// A read the engine was not asked, and why.
fn not_replayed(index: usize, request: bgtail::Request, why: &str) -> ReadRecord {
    ReadRecord {
        event: index,
        request,
        text: format!("(not replayed: {why})"),
        reply: None,
        matches_recording: None,
        repeated: 0,
        problems: Vec::new(),
    }
}

/// `details` with the real log path written as the trace's.
fn as_traced(mut details: Map<String, Value>, real: &str, traced: &str) -> Map<String, Value> {
    if let Some(path) = details.get_mut("logPath") {
        if path.as_str() == Some(real) {
            *path = traced.into();
        }
    }
    details
}

/// The capability a read needs and the engine lacks, if any.
fn unsupported(
    engine: &ProcessEngine,
    read: &Read,
    request: &bgtail::Request,
) -> Option<&'static str> {
    let caps = engine.capabilities;
    if read.raw && !caps.raw {
        Some("raw reads")
    } else if read.bytes.is_some() && !caps.bytes {
        Some("`bytes` views")
    } else if request.running && !request.peek && !caps.peek {
        Some("running-job gate")
    } else {
        None
    }
}
