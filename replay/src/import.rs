//! `bgtail import-pi`: captured pi sessions to traces.
//!
//! Each job's bgtail calls become reads carrying their recorded replies as expectations; the
//! log is rebuilt from what the replies showed. A chain of complete replies (a whole first
//! read, then deltas) rebuilds it exactly. A capped delta shows only its oldest lines: the rest
//! become placeholder lines, long enough that upstream's cap cuts before them, as it did. A
//! reply that changed its lines (ANSI stripped, folds, cut lines) cannot give the log back: the
//! import stops there, and the calls after it are kept as not replayed, with the reason.

use bgtail::pi_session::{recorded_read, PiSession, RecordedRead, ToolCall};
use bgtail::trace::{self, Event, Expected, Header, OtherTool, Source, Trace, Write};
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// pi session files (JSON Lines).
    #[arg(required = true)]
    pub sessions: Vec<PathBuf>,
    /// Where to write the traces.
    #[arg(long)]
    pub out: PathBuf,
}

/// The text of a line no reply ever showed.
fn placeholder(n: usize) -> String {
    format!("[bgtail import: line {n} was never shown to the agent; its text is unknown]")
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

struct JobImport {
    trace: Trace,
    report: Vec<String>,
}

fn import_job(session: &PiSession, name: &str, job: &str, calls: &[&ToolCall]) -> JobImport {
    let mut r = Rebuild {
        exact: true,
        ..Rebuild::default()
    };
    let mut report = Vec::new();
    let mut stopped: Option<String> = None;
    let mut log_path = format!("/jobs/{job}.log");
    let mut known_total = 0usize;
    for (n, call) in calls.iter().enumerate() {
        let Some(result) = &call.result else {
            report.push(format!(
                "call {} ({}): no recorded result; skipped",
                n + 1,
                call.name
            ));
            continue;
        };
        if call.name != "bgtail" || stopped.is_some() {
            let why = match (&stopped, call.name.as_str()) {
                (Some(why), _) => format!("not replayed: {why}"),
                (None, tool) => format!("not replayed: {tool} is not a bgtail read"),
            };
            report.push(format!(
                "call {} ({}) at session line {}: {why}",
                n + 1,
                call.name,
                call.line
            ));
            r.events.push(Event::OtherTool(OtherTool {
                t: None,
                name: call.name.clone(),
                arguments: call.arguments.clone(),
                result: Some(result.text.clone()),
            }));
            continue;
        }
        if let Some(p) = result.details.get("logPath").and_then(Value::as_str) {
            log_path = p.to_owned();
        }
        let total = match recorded_read(&result.text, &result.details) {
            Ok(RecordedRead::Window { lines, total }) => {
                // The window is the last lines of a log at least this long; when it was full,
                // lines above it may exist that no reply showed.
                let requested = call
                    .arguments
                    .get("lines")
                    .and_then(Value::as_f64)
                    .unwrap_or(40.0);
                if lines.len() as f64 >= requested.floor().max(1.0) {
                    r.exact = false;
                    report.push(format!(
                        "call {} at session line {}: a full window of {} lines; the trace holds only those (lines above it, if any, were never shown)",
                        n + 1,
                        call.line,
                        lines.len()
                    ));
                }
                let total = (total as usize).max(known_total);
                r.place(total - lines.len(), &lines);
                total
            }
            Ok(RecordedRead::Delta { lines, total }) => {
                let total = total as usize;
                r.place(total - lines.len(), &lines);
                total
            }
            Ok(RecordedRead::Nothing { total }) => total as usize,
            Err(why) => match capped_delta(&result.text, &result.details) {
                Some((shown, fresh, total)) => {
                    r.place(total - fresh, &shown);
                    report.push(format!(
                        "call {} at session line {}: capped delta; {} of its {fresh} new lines were never shown and stand as placeholders",
                        n + 1,
                        call.line,
                        fresh - shown.len()
                    ));
                    total
                }
                None => {
                    let reason = format!(
                        "the reply at session line {} does not give its lines back ({})",
                        call.line, why.0
                    );
                    report.push(format!(
                        "call {} (bgtail) at session line {}: not replayed: {}",
                        n + 1,
                        call.line,
                        why.0
                    ));
                    r.events.push(Event::OtherTool(OtherTool {
                        t: None,
                        name: call.name.clone(),
                        arguments: call.arguments.clone(),
                        result: Some(result.text.clone()),
                    }));
                    stopped = Some(reason);
                    continue;
                }
            },
        };
        known_total = total;
        r.grow_to(total);
        if !r.exited {
            if let Some(exit) = session.exit_before(job, result.line) {
                r.events.push(Event::Exit(trace::Exit {
                    t: None,
                    code: exit.exit_code.unwrap_or(0),
                    marker: true,
                }));
                r.exited = true;
            }
        }
        let details = result.details.as_object().cloned();
        r.events.push(Event::Read(trace::Read {
            t: None,
            // A `null` stays null: upstream reads it as 0, not as the default.
            lines: call.arguments.get("lines").and_then(|v| match v {
                Value::Null => Some(trace::JsNumber::Null),
                v => v.as_f64().map(trace::JsNumber::Value),
            }),
            raw: call
                .arguments
                .get("raw")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            bytes: call.arguments.get("bytes").and_then(Value::as_f64),
            peek: call
                .arguments
                .get("peek")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            expect: Some(Expected {
                text: result.text.clone(),
                details,
                is_error: result.is_error,
            }),
        }));
    }
    let how = if r.exact {
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
                log_path,
                limits: None,
                running_gate: false,
            },
            events: r.events,
        },
        report,
    }
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut written = 0;
    for path in &args.sessions {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let session =
            PiSession::parse(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
        let mut jobs: Vec<String> = Vec::new();
        for c in &session.calls {
            if let Some(id) = c.arguments.get("id").and_then(Value::as_str) {
                if (c.name == "bgtail" || c.name == "bggrep") && !jobs.iter().any(|j| j == id) {
                    jobs.push(id.to_owned());
                }
            }
        }
        if jobs.is_empty() {
            println!(
                "{}: no bgtail or bggrep calls; nothing to import",
                path.display()
            );
            continue;
        }
        let stem = path
            .file_stem()
            .map_or("session".into(), |s| s.to_string_lossy().into_owned());
        let cell = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| format!("{}-", s.to_string_lossy()))
            .unwrap_or_default();
        for (k, job) in jobs.iter().enumerate() {
            let calls: Vec<&ToolCall> = session
                .calls
                .iter()
                .filter(|c| {
                    (c.name == "bgtail" || c.name == "bggrep")
                        && c.arguments.get("id").and_then(Value::as_str) == Some(job)
                })
                .collect();
            let name = if jobs.len() == 1 {
                format!("{cell}{stem}")
            } else {
                format!("{cell}{stem}-job{}", k + 1)
            };
            if !calls.iter().any(|c| c.name == "bgtail") {
                println!(
                    "{}: job {job}: only bggrep calls, nothing to replay; no trace written",
                    path.display()
                );
                continue;
            }
            let imported = import_job(&session, &name, job, &calls);
            let file = args.out.join(format!("{name}.jsonl"));
            std::fs::write(&file, imported.trace.to_jsonl())
                .map_err(|e| format!("{}: {e}", file.display()))?;
            written += 1;
            println!(
                "{}: job {job} → {} ({})",
                path.display(),
                file.display(),
                imported.trace.header.description
            );
            for line in imported.report {
                println!("  {line}");
            }
        }
    }
    println!("{written} traces written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
