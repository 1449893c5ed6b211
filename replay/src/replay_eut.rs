//! Traces through an engine in another process (`--engine "cmd:…"`): each trace's log is
//! written to a real file, each read sent as a `read` request, each reply judged by the one
//! judge from its text (as the in-process engines' are) and compared with the trace's recorded
//! one (`expect`), as the shipped engine's replies are.

use crate::eut::{HarnessError, ProcessEngine};
use anyhow::Context as _;
use bgtail::protocol::{ErrorCode, FromEngine, ReadRequest, ToEngine};
use bgtail::replay::{Audit, Observed, ReadRecord, Replay};
use bgtail::trace::{Event, Read, Trace};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An outside engine, started once and reset between traces (or started again when it cannot
/// reset).
/// The engine could not be started or would not shake hands: no trace can be replayed, so a
/// run ends here rather than failing every trace alike.
#[derive(Debug)]
pub struct NoEngine(pub anyhow::Error);

impl std::fmt::Display for NoEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for NoEngine {}

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
                match e.request(ToEngine::Reset { msg_id })? {
                    FromEngine::ResetOk { .. } => self.engine = Some(e),
                    other => {
                        return Err(HarnessError::Handshake {
                            why: format!("reset answered with {other:?}"),
                        })
                    }
                }
            }
            Some(e) => {
                e.finish()?;
                self.engine = Some(self.spawn()?);
            }
            None => self.engine = Some(self.spawn()?),
        }
        Ok(self.engine.as_mut().expect("set above"))
    }

    /// A new engine process, its profile printed the first time.
    fn spawn(&self) -> Result<ProcessEngine, HarnessError> {
        let engine = ProcessEngine::spawn(&self.command, self.timeout)?;
        crate::profile::announce(&self.command, &engine);
        Ok(engine)
    }

    /// Forgets the engine after a harness error (it crashed, hung or lied): it is killed, and
    /// the next trace starts a new one.
    pub fn discard(&mut self) {
        self.engine = None;
    }

    /// Stops the engine, reporting a reply it wrote after its last one.
    pub fn finish(mut self) -> Result<(), HarnessError> {
        self.engine.take().map_or(Ok(()), ProcessEngine::finish)
    }

    /// Replays `trace` with its log in `work` (a folder of its own).
    pub fn replay(&mut self, trace: &Trace, work: &Path) -> anyhow::Result<Replay> {
        let at = |index: usize, e: HarnessError| {
            anyhow::Error::new(e).context(format!("{}: event {}", trace.header.name, index + 1))
        };
        let engine = self.fresh().map_err(|e| NoEngine(at(0, e)))?;
        let limits_differ = trace
            .header
            .limits
            .as_ref()
            .is_some_and(|l| !declares(engine.limits, l));
        let log = log_file(work, &trace.header.job_id);
        std::fs::write(&log, b"").with_context(|| log.display().to_string())?;
        // The same bytes as the file, for the judge.
        let mut bytes = bgtail::source::MemoryLog::new();
        let mut audit = Audit::new(rules(engine, trace));
        let mut running = true;
        let mut reads = Vec::new();
        // A reader fed the job's output stream cannot be shown a log changed other than by an
        // append: from the first such change on, its reads are not replayed.
        let mut unseeable: Option<&'static str> = None;
        for (index, event) in trace.events.iter().enumerate() {
            if engine.capabilities.appends_only && unseeable.is_none() {
                unseeable = change_not_an_append(event);
            }
            let event = &as_written(event, engine.capabilities.exit_by_running);
            event
                .apply_to_file(&log)
                .with_context(|| log.display().to_string())?;
            event.apply_to(&mut bytes);
            audit.event(event);
            match event {
                Event::Exit(_) => running = false,
                Event::Read(read) if limits_differ => reads.push(ReadRecord::not_replayed(
                    index,
                    read.request(running, trace.header.running_gate),
                    "the trace's limits are its own, not the engine's",
                )),
                Event::Read(read) if unseeable.is_some() => reads.push(ReadRecord::not_replayed(
                    index,
                    read.request(running, trace.header.running_gate),
                    unseeable.unwrap_or_default(),
                )),
                Event::Read(read) => {
                    let step = Step {
                        trace,
                        log: &log,
                        bytes: bytes.bytes(),
                        index,
                        read,
                        running,
                    };
                    let record = read_once(engine, &mut audit, step).map_err(|e| at(index, e))?;
                    reads.push(record);
                }
                _ => {}
            }
        }
        let audited = !limits_differ;
        Ok(Replay {
            engine: format!("cmd:{}", engine.info.name),
            reads,
            tally: audit.finish(bytes.bytes()),
            audited,
        })
    }
}

/// Whether an engine that declares `declared` reads with `limits` (a trace's): the limits the
/// protocol lets it declare, each upstream's where it declares none, and upstream's line bound,
/// which no outside reader declares (a trace that lowers it holds only the in-crate engines).
fn declares(declared: Option<bgtail::protocol::DeclaredLimits>, limits: &bgtail::Limits) -> bool {
    let mut its = bgtail::Limits::default();
    if let Some(d) = declared {
        d.apply_to(&mut its);
    }
    its.text_budget == limits.text_budget
        && its.line_cap == limits.line_cap
        && its.view_default == limits.view_default
        && its.default_lines == limits.default_lines
        && its.scan_lines_max == limits.scan_lines_max
}

/// Why a reader with `appends_only` cannot be shown `event`, when it is a change of the log
/// other than an append.
fn change_not_an_append(event: &Event) -> Option<&'static str> {
    match event {
        Event::Truncate(_) => Some("not supported: the log is cut, and the reader is fed the job's output stream (appends_only)"),
        Event::Rewrite(_) => Some("not supported: the log is rewritten in place, and the reader is fed the job's output stream (appends_only)"),
        Event::Replace(_) => Some("not supported: another file replaces the log, and the reader is fed the job's output stream (appends_only)"),
        Event::Remove(_) => Some("not supported: the log is removed, and the reader is fed the job's output stream (appends_only)"),
        _ => None,
    }
}

/// What the judge holds an outside engine to: the format it names, the limits it declares
/// (the trace's, or upstream's, where it declares none), its line window, whether it drains,
/// and its largest view.
fn rules(engine: &ProcessEngine, trace: &Trace) -> bgtail::judge::Rules {
    let mut limits = trace.limits();
    if let Some(d) = engine.limits {
        d.apply_to(&mut limits);
    }
    let mut rules = bgtail::judge::Rules::new(engine.text_format, limits);
    rules.line_window = !engine.capabilities.no_window;
    rules.drain = engine.capabilities.drain;
    rules.largest_view = engine.capabilities.largest_view(&rules.limits);
    if let Some(plain) = &engine.plain {
        rules.plain = plain.clone();
    }
    rules
}

/// One read of a trace, and where its log is.
struct Step<'a> {
    trace: &'a Trace,
    /// The real file the engine reads.
    log: &'a Path,
    /// Its bytes.
    bytes: &'a [u8],
    index: usize,
    read: &'a Read,
    running: bool,
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

/// One read: the request, the reply with the real log path written as the trace's, its
/// comparison with the recorded reply, and the judge's verdict.
fn read_once(
    engine: &mut ProcessEngine,
    audit: &mut Audit,
    step: Step<'_>,
) -> Result<ReadRecord, HarnessError> {
    let Step {
        trace,
        log,
        bytes,
        index,
        read,
        running,
    } = step;
    let request = read.request(running, trace.header.running_gate);
    if let Some(missing) = unsupported(engine, read, &request) {
        return Ok(ReadRecord::not_replayed(
            index,
            request,
            &format!("the engine has no {missing}"),
        ));
    }
    let mut record = ReadRecord::new(index, request.clone());
    let real = log.display().to_string();
    let msg_id = engine.fresh_id();
    let reply = engine.request(ToEngine::Read(ReadRequest {
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
    let (text, details, is_error, shown) = match reply {
        FromEngine::ReadOk(r) => (r.text, Some(r.details), r.is_error, r.shown),
        FromEngine::Error {
            code: ErrorCode::Rejected,
            text,
            ..
        } => (text, None, true, None),
        FromEngine::Error {
            code: ErrorCode::NotSupported,
            text,
            ..
        } => {
            return Ok(ReadRecord::not_replayed(
                index,
                request,
                &format!("not supported: {text}"),
            ))
        }
        FromEngine::Error { code, text, .. } => {
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
    let details =
        details.map(|d| bgtail::Details::from(as_traced(d, &real, &trace.header.log_path)));
    // A trace imported from another harness records that harness's replies, not this engine's.
    if let Some(expect) = read
        .expect
        .as_ref()
        .filter(|_| trace.header.harness.is_none())
    {
        audit.compare(expect, (&text, details.as_ref(), is_error), &mut record);
    }
    let shown: Option<Vec<(u64, u64)>> =
        shown.map(|s| s.iter().map(|r| (r.offset, r.end)).collect());
    let observed = Observed {
        text: &text,
        is_error,
        shown: shown.as_deref(),
        fields: Some(bgtail::judge::Fields::of_details(details.as_ref())),
    };
    audit.reply(bytes, &request, observed, &mut record);
    record.text = text;
    Ok(record)
}

/// `event` as the harness writes it for this engine: a reader that learns of the exit its own
/// way (`exit_by_running`) gets no exit marker in its log, only `running: false`.
fn as_written(event: &Event, exit_by_running: bool) -> Event {
    match event {
        Event::Exit(exit) if exit_by_running && exit.marker => {
            let mut exit = exit.clone();
            exit.marker = false;
            Event::Exit(exit)
        }
        other => other.clone(),
    }
}

/// A read the engine was not asked, and why.
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
