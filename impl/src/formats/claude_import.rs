//! Claude Code tasks to traces: the log rebuilt from what the reads show, every `TaskOutput`
//! kept as a read with the reply the agent saw, every read the agent made itself (a Bash
//! `tail` or `cat` of the output file, a `Read` of it) kept as the agent's own tool call.
//!
//! A `TaskOutput` that carries output carries all of it so far, so each extends the previous;
//! a `Monitor` event carries the lines written since the previous event, so each follows it;
//! a `tail -n N` shows the log's last lines, placed after the longest run of them the log
//! already ends with; a `Read` window places its numbered lines by their numbers. The output a
//! finished task's last `TaskOutput` carries is the job's whole output: the log is rebuilt from
//! it too, and the import says where the two disagree. Pure.

use crate::formats::claude_session::{
    numbered_lines, ClaudeRead, ClaudeSession, ClaudeTask, ReadKind,
};
use crate::formats::pi_import::JobImport;
use crate::formats::trace::{
    self, Event, Expected, Harness, Header, OtherTool, Source, Trace, Write,
};

#[derive(Default)]
struct Rebuild {
    text: String,
    events: Vec<Event>,
    report: Vec<String>,
    exited: bool,
}

/// Imports `task` of `session` (read from the file `file`) as the trace `name`.
pub fn import_task(
    session: &ClaudeSession,
    file: &str,
    name: &str,
    task: &ClaudeTask,
) -> JobImport {
    let mut r = Rebuild::default();
    for (n, read) in task.reads.iter().enumerate() {
        r.exit_before(task, read.t);
        let piece = r.placed(n + 1, read);
        if !piece.is_empty() {
            r.events
                .push(Event::Append(Write::new(Some(read.t), piece.as_bytes())));
            r.text.push_str(&piece);
        }
        r.events.extend(event_of(read));
    }
    r.exit_before(task, u64::MAX);
    r.compare_with_final(task);
    JobImport {
        trace: Trace {
            header: header(name, description(session, file, task), session, task),
            events: r.events,
        },
        report: r.report,
    }
}

impl Rebuild {
    /// The task's end, once a read comes at or after it.
    fn exit_before(&mut self, task: &ClaudeTask, t: u64) {
        match task.ended {
            Some((end, code)) if !self.exited && end <= t => {
                self.exited = true;
                // A stop kills the job: 143 is a shell's code for SIGTERM.
                let code = code.unwrap_or(143);
                self.events.push(Event::Exit(trace::Exit {
                    t: Some(end),
                    code,
                    marker: false,
                }));
            }
            _ => {}
        }
    }

    /// The text read `n` shows beyond what the log is known to hold.
    fn placed(&mut self, n: usize, read: &ClaudeRead) -> String {
        match &read.kind {
            ReadKind::TaskOutput {
                output: Some(output),
                ..
            } => self.extend(n, read.line, output),
            ReadKind::TaskOutput { output: None, .. } => String::new(),
            ReadKind::AgentBash { command } => match tail_count(command) {
                Some(_) => self.after_overlap(n, read.line, &read.text),
                None if is_cat(command) => self.extend(n, read.line, &with_newline(&read.text)),
                None => String::new(),
            },
            ReadKind::AgentRead { .. } => self.window(n, read.line, &read.text),
            ReadKind::MonitorEvent { event, delivered } => {
                if !delivered {
                    self.report.push(format!(
                        "event {n} at line {}: still queued when the transcript ends, never shown to the agent",
                        read.line
                    ));
                }
                with_newline(event)
            }
        }
    }

    /// A whole output so far: what it holds beyond the log, which it must start with.
    fn extend(&mut self, n: usize, line: usize, output: &str) -> String {
        if let Some(rest) = output.strip_prefix(self.text.as_str()) {
            return rest.to_owned();
        }
        let at = first_difference(&self.text, output);
        self.report.push(format!(
            "read {n} at line {line}: the output it carries differs from the log rebuilt so far at byte {at}; the rebuilt log is kept"
        ));
        String::new()
    }

    /// The last lines of the log: those past the longest run the log already ends with.
    fn after_overlap(&mut self, n: usize, line: usize, shown: &str) -> String {
        let known: Vec<&str> = self.text.lines().collect();
        let shown: Vec<&str> = shown.lines().collect();
        let overlap = (0..=shown.len().min(known.len()))
            .rev()
            .find(|&k| known[known.len() - k..] == shown[..k])
            .unwrap_or(0);
        if overlap == 0 && !known.is_empty() && !shown.is_empty() {
            self.report.push(format!(
                "read {n} at line {line}: its lines share none with the log's end; placed right after it (lines between, if any, are not in the trace)"
            ));
        }
        shown[overlap..].iter().map(|l| format!("{l}\n")).collect()
    }

    /// `Read`'s numbered lines: those numbered past the log's end, placed by their numbers.
    fn window(&mut self, n: usize, line: usize, shown: &str) -> String {
        let have = self.text.lines().count();
        let past: Vec<(usize, &str)> = numbered_lines(shown)
            .into_iter()
            .filter(|&(k, _)| k > have)
            .collect();
        if let Some(&(first, _)) = past.first().filter(|&&(k, _)| k > have + 1) {
            self.report.push(format!(
                "read {n} at line {line}: a window from line {first} of a log known to line {have}; placed right after it"
            ));
        }
        past.iter().map(|(_, l)| format!("{l}\n")).collect()
    }

    /// Says whether the log rebuilt from the reads is the output the last `TaskOutput` of the
    /// finished task carries.
    fn compare_with_final(&mut self, task: &ClaudeTask) {
        let last = task.reads.iter().rev().find_map(|r| match &r.kind {
            ReadKind::TaskOutput {
                output: Some(o),
                status,
                ..
            } if status != "running" => Some(o),
            _ => None,
        });
        let Some(output) = last else {
            return;
        };
        self.report.push(if *output == self.text {
            "the log rebuilt from the reads equals the finished task's output, byte for byte".into()
        } else {
            format!(
                "the log rebuilt from the reads and the finished task's output first differ at byte {}",
                first_difference(&self.text, output)
            )
        });
    }
}

/// What the trace says of the task's reads and how it went to the background.
fn description(session: &ClaudeSession, file: &str, task: &ClaudeTask) -> String {
    let count = |f: fn(&ReadKind) -> bool| task.reads.iter().filter(|r| f(&r.kind)).count();
    let (version, id) = (&session.version, &task.id);
    if task.monitor {
        // A Monitor is read only by its events: those not delivered are still queued.
        let delivered = count(|k| {
            matches!(
                k,
                ReadKind::MonitorEvent {
                    delivered: true,
                    ..
                }
            )
        });
        let queued = task.reads.len() - delivered;
        return format!(
            "Claude Code {version} Monitor task {id} in {file}: {delivered} event(s) delivered to the agent, {queued} still queued when the transcript ends"
        );
    }
    let harness_reads = count(|k| matches!(k, ReadKind::TaskOutput { .. }));
    format!(
        "Claude Code {version} task {id} in {file}: {harness_reads} TaskOutput read(s), {} read(s) of the output file by the agent; {}",
        task.reads.len() - harness_reads,
        if task.asked { "started with run_in_background" } else { "moved to the background by the harness" }
    )
}

/// A read as a trace event: the harness's read (a `TaskOutput`, a delivered `Monitor` event),
/// or the agent's own tool call; an event never delivered is no read.
fn event_of(read: &ClaudeRead) -> Option<Event> {
    Some(match &read.kind {
        ReadKind::MonitorEvent {
            delivered: false, ..
        } => return None,
        ReadKind::TaskOutput { .. } | ReadKind::MonitorEvent { .. } => Event::Read(trace::Read {
            t: Some(read.t),
            expect: Some(Expected {
                text: read.text.clone(),
                details: None,
                is_error: false,
            }),
            ..trace::Read::default()
        }),
        ReadKind::AgentBash { command } => {
            agent("Bash", serde_json::json!({ "command": command }), read)
        }
        ReadKind::AgentRead { offset } => {
            agent("Read", serde_json::json!({ "offset": offset }), read)
        }
    })
}

fn agent(name: &str, arguments: serde_json::Value, read: &ClaudeRead) -> Event {
    Event::OtherTool(OtherTool {
        t: Some(read.t),
        name: name.to_owned(),
        arguments,
        result: Some(read.text.clone()),
    })
}

/// `N` of a `tail -N`, `tail -n N` or `tail -nN` of the file in `command` (`sleep 5 && tail
/// -20 …`); `None` for a tail of another command's output (`grep … | tail -1`).
pub fn tail_count(command: &str) -> Option<usize> {
    let step = command
        .split("&&")
        .flat_map(|s| s.split(';'))
        .find(|s| s.contains(".output"))?;
    if step.contains('|') {
        return None;
    }
    let words: Vec<&str> = step.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "tail")?;
    let arg = words.get(at + 1)?;
    let n = match *arg {
        "-n" => words.get(at + 2)?,
        a => a
            .strip_prefix("-n")
            .or_else(|| a.strip_prefix('-'))
            .unwrap_or(a),
    };
    n.parse().ok()
}

fn is_cat(command: &str) -> bool {
    command.split_whitespace().any(|w| w == "cat") && !command.contains('|')
}

fn with_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

fn first_difference(a: &str, b: &str) -> usize {
    a.bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

fn header(name: &str, description: String, session: &ClaudeSession, task: &ClaudeTask) -> Header {
    Header {
        bgtail_trace: trace::VERSION,
        name: name.to_owned(),
        source: Source::Imported,
        description,
        command: Some(task.command.clone()),
        machine: None,
        job_id: task.id.clone(),
        log_path: format!("/claude-code/{}/tasks/{}.output", session.id, task.id),
        limits: None,
        running_gate: false,
        harness: Some(Harness::ClaudeCode),
    }
}

#[cfg(test)]
#[path = "claude_import_tests.rs"]
mod tests;
