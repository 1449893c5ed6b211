//! Captured pi sessions to traces: each job's bgtail calls become reads carrying their
//! recorded replies as expectations, and the log is rebuilt from what the replies showed.
//!
//! A chain of complete replies (a whole first read, then deltas) rebuilds it exactly. A capped
//! delta shows only its oldest lines: the rest become placeholder lines, long enough that
//! upstream's cap cuts before them, as it did. A reply that changed its lines (ANSI stripped,
//! folds, cut lines) cannot give the log back: the import stops there, and the calls after it
//! are kept as not replayed, with the reason. Pure: the CLI reads and writes the files.

use crate::formats::pi_session::{recorded_read, PiSession, RecordedRead, ToolCall, ToolResult};
use crate::formats::trace::{self, Event, Expected, Header, OtherTool, Source, Trace, Write};
use crate::formats::unknown::placeholder;
use serde_json::Value;

/// The jobs a session's bgtail and bggrep calls name, in the order they first appear.
pub fn jobs_of(session: &PiSession) -> Vec<String> {
    let mut jobs: Vec<String> = Vec::new();
    for c in &session.calls {
        if let Some(id) = c.arguments.get("id").and_then(Value::as_str) {
            if (c.name == "bgtail" || c.name == "bggrep") && !jobs.iter().any(|j| j == id) {
                jobs.push(id.to_owned());
            }
        }
    }
    jobs
}

/// The bgtail and bggrep calls for `job`, in order.
pub fn calls_of<'a>(session: &'a PiSession, job: &str) -> Vec<&'a ToolCall> {
    session
        .calls
        .iter()
        .filter(|c| {
            (c.name == "bgtail" || c.name == "bggrep")
                && c.arguments.get("id").and_then(Value::as_str) == Some(job)
        })
        .collect()
}

#[derive(Default)]
struct Rebuild {
    /// The log's content lines as far as known (`None`: never shown).
    lines: Vec<Option<String>>,
    written: usize,
    events: Vec<Event>,
    exited: bool,
    exact: bool,
}

impl Rebuild {
    fn place(&mut self, at: usize, shown: &[String]) {
        if self.lines.len() < at + shown.len() {
            self.lines.resize(at + shown.len(), None);
        }
        for (i, l) in shown.iter().enumerate() {
            self.lines[at + i] = Some(l.clone());
        }
    }

    fn grow_to(&mut self, total: usize) {
        if total <= self.written {
            return;
        }
        if self.lines.len() < total {
            self.lines.resize(total, None);
        }
        let mut text = String::new();
        for i in self.written..total {
            match &self.lines[i] {
                Some(l) => text.push_str(l),
                None => {
                    self.exact = false;
                    text.push_str(&placeholder(i + 1));
                }
            }
            text.push('\n');
        }
        self.events
            .push(Event::Append(Write::new(None, text.as_bytes())));
        self.written = total;
    }
}

/// The lines of a capped delta: the text between the header and the cap note.
fn capped_delta(text: &str, details: &Value) -> Option<(Vec<String>, usize, usize)> {
    let notes = details.get("condenserNotes")?.as_array()?;
    if notes.len() != 1 || !notes[0].as_str()?.starts_with("output capped at ") {
        return None;
    }
    let fresh = details.get("newLines")?.as_u64()? as usize;
    let total = details.get("totalLines")?.as_u64()? as usize;
    let (header, rest) = text.split_once('\n')?;
    if !header.starts_with('+') || header.contains("(showing last") {
        return None;
    }
    let body = rest.split("\n\n(output capped at ").next()?;
    Some((body.split('\n').map(str::to_owned).collect(), fresh, total))
}

/// One job of a session, as a trace, and what the import could not do.
#[derive(Clone, Debug)]
pub struct JobImport {
    /// The job's log and reads, rebuilt from the session.
    pub trace: Trace,
    /// A line per call the trace does not replay exactly, and why.
    pub report: Vec<String>,
}

/// The import of one job in progress.
struct Importer {
    r: Rebuild,
    report: Vec<String>,
    /// Why the import stopped replaying, once a reply could not give its lines back.
    stopped: Option<String>,
    log_path: String,
    /// The log's line count as the last read reported it.
    known_total: usize,
}

/// Imports `job`'s `calls` (from [`calls_of`]) of `session` as the trace `name`.
pub fn import_job(session: &PiSession, name: &str, job: &str, calls: &[&ToolCall]) -> JobImport {
    let mut im = Importer {
        r: Rebuild {
            exact: true,
            ..Rebuild::default()
        },
        report: Vec::new(),
        stopped: None,
        log_path: format!("/jobs/{job}.log"),
        known_total: 0,
    };
    for (n, call) in calls.iter().enumerate() {
        im.call(session, job, n + 1, call);
    }
    im.finish(session, name, job)
}

impl Importer {
    /// One call: a read rebuilt and replayed, or kept as not replayed with the reason.
    fn call(&mut self, session: &PiSession, job: &str, n: usize, call: &ToolCall) {
        let Some(result) = &call.result else {
            self.report.push(format!(
                "call {n} ({}): no recorded result; skipped",
                call.name
            ));
            return;
        };
        if call.name != "bgtail" || self.stopped.is_some() {
            let why = match (&self.stopped, call.name.as_str()) {
                (Some(why), _) => format!("not replayed: {why}"),
                (None, tool) => format!("not replayed: {tool} is not a bgtail read"),
            };
            self.report.push(format!(
                "call {n} ({}) at session line {}: {why}",
                call.name, call.line
            ));
            self.keep(call, result);
            return;
        }
        if let Some(p) = result.details.get("logPath").and_then(Value::as_str) {
            self.log_path = p.to_owned();
        }
        let Some(total) = self.rebuild(n, call, result) else {
            return;
        };
        self.known_total = total;
        self.r.grow_to(total);
        if !self.r.exited {
            if let Some(exit) = session.exit_before(job, result.line) {
                self.r.events.push(Event::Exit(trace::Exit {
                    t: None,
                    code: exit.exit_code.unwrap_or(0),
                    marker: true,
                }));
                self.r.exited = true;
            }
        }
        self.r.events.push(Event::Read(read_of(call, result)));
    }

    /// A call kept in the trace but not replayed.
    fn keep(&mut self, call: &ToolCall, result: &ToolResult) {
        self.r.events.push(Event::OtherTool(OtherTool {
            t: None,
            name: call.name.clone(),
            arguments: call.arguments.clone(),
            result: Some(result.text.clone()),
        }));
    }

    /// Places the lines a reply showed; the log's line count it reported, or `None` when the
    /// reply does not give its lines back (the import stops replaying there).
    fn rebuild(&mut self, n: usize, call: &ToolCall, result: &ToolResult) -> Option<usize> {
        match recorded_read(&result.text, &result.details) {
            Ok(RecordedRead::Window { lines, total }) => {
                // The window is the last lines of a log at least this long; when it was full,
                // lines above it may exist that no reply showed.
                let requested = call
                    .arguments
                    .get("lines")
                    .and_then(Value::as_f64)
                    .unwrap_or(40.0);
                if lines.len() as f64 >= requested.floor().max(1.0) {
                    self.r.exact = false;
                    self.report.push(format!(
                        "call {n} at session line {}: a full window of {} lines; the trace holds only those (lines above it, if any, were never shown)",
                        call.line,
                        lines.len()
                    ));
                }
                let total = (total as usize).max(self.known_total);
                self.r.place(total - lines.len(), &lines);
                Some(total)
            }
            Ok(RecordedRead::Delta { lines, total }) => {
                let total = total as usize;
                self.r.place(total - lines.len(), &lines);
                Some(total)
            }
            Ok(RecordedRead::Nothing { total }) => Some(total as usize),
            Err(why) => match capped_delta(&result.text, &result.details) {
                Some((shown, fresh, total)) => {
                    self.r.place(total - fresh, &shown);
                    self.report.push(format!(
                        "call {n} at session line {}: capped delta; {} of its {fresh} new lines were never shown and stand as placeholders",
                        call.line,
                        fresh - shown.len()
                    ));
                    Some(total)
                }
                None => {
                    self.report.push(format!(
                        "call {n} (bgtail) at session line {}: not replayed: {}",
                        call.line, why.0
                    ));
                    self.keep(call, result);
                    self.stopped = Some(format!(
                        "the reply at session line {} does not give its lines back ({})",
                        call.line, why.0
                    ));
                    None
                }
            },
        }
    }

    /// The trace, with a header saying how exactly the log was rebuilt.
    fn finish(self, session: &PiSession, name: &str, job: &str) -> JobImport {
        let how = if self.r.exact {
            "the log rebuilt exactly from the replies (a complete chain)"
        } else {
            "the log rebuilt as far as the replies show it (see the import report)"
        };
        let command = session
            .jobs
            .iter()
            .find(|j| j.id == job)
            .and_then(|j| j.command.clone());
        JobImport {
            trace: Trace {
                header: Header {
                    bgtail_trace: trace::VERSION,
                    name: name.to_owned(),
                    source: Source::Imported,
                    description: format!("pi session, job {job}: {how}"),
                    command,
                    machine: None,
                    job_id: job.to_owned(),
                    log_path: self.log_path,
                    limits: None,
                    running_gate: false,
                    harness: None,
                },
                events: self.r.events,
            },
            report: self.report,
        }
    }
}

/// A bgtail call as a read of the trace, with its recorded reply as the expectation.
fn read_of(call: &ToolCall, result: &ToolResult) -> trace::Read {
    let arg = |key: &str| call.arguments.get(key);
    trace::Read {
        t: None,
        // A `null` stays null: upstream reads it as 0, not as the default.
        lines: arg("lines").and_then(|v| match v {
            Value::Null => Some(trace::JsNumber::Null),
            v => v.as_f64().map(trace::JsNumber::Value),
        }),
        raw: arg("raw").and_then(Value::as_bool).unwrap_or(false),
        bytes: arg("bytes").and_then(Value::as_f64),
        peek: arg("peek").and_then(Value::as_bool).unwrap_or(false),
        expect: Some(Expected {
            text: result.text.clone(),
            details: result.details.as_object().cloned(),
            is_error: result.is_error,
        }),
    }
}
