//! Captured Claude Code transcripts (`~/.claude/projects/<slug>/<session>.jsonl`): the
//! background Bash tasks an agent started and every read of them.
//!
//! A task is background when a Bash result says `Command running in background with ID: X`
//! (the agent asked for `run_in_background`, or the harness moved a command that hit its
//! timeout). The harness reads it with `TaskOutput`, whose result carries the task's whole
//! output so far (or its status alone); the agent reads it itself with `Read` of the task's
//! output file or a Bash command that names that file (`tail -n 20 …/tasks/X.output`).
//! `TaskStop` and `<task-notification>` say when it ended.
//!
//! A `Monitor` task (`Monitor started (task X, …)`) delivers its command's output lines as
//! they come, each batch an `<event>` inside a `<task-notification>`: the harness enqueues it
//! (`queue-operation`) and delivers it to the model with the next turn (an `attachment`, or a
//! user message). Each event is a read of what the command wrote since the previous one; an
//! event still queued when the transcript ends was never seen. Pure: the caller reads the file.

use crate::formats::codex_session::Warning;
use crate::formats::session_lines::{each_object, SessionError};
use crate::formats::timestamp::millis;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Who made a read, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadKind {
    /// The harness's `TaskOutput`: the task's whole output so far (`output`, as
    /// `toolUseResult.task.output` records it before the reply trims it), or its status alone.
    TaskOutput {
        /// The output so far, when the reply carries it.
        output: Option<String>,
        /// The task's status as the reply states it (`running`, `completed`, …).
        status: String,
        /// The exit code, once stated.
        exit_code: Option<i64>,
    },
    /// The agent's own Bash command naming the output file (`tail`, `cat`, `grep`, `wc`).
    AgentBash {
        /// The command.
        command: String,
    },
    /// The agent's `Read` of the output file: numbered lines from `offset` (1-based).
    AgentRead {
        /// The first line asked for.
        offset: usize,
    },
    /// A `Monitor` event: the lines its command wrote since the previous event.
    MonitorEvent {
        /// The lines, as the `<event>` body holds them (without a last newline).
        event: String,
        /// Whether the event reached the model; `false`: still queued when the transcript ends.
        delivered: bool,
    },
}

/// One read of a task.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaudeRead {
    /// 1-based line of the result in the transcript.
    pub line: usize,
    /// When the result was recorded, in milliseconds since the transcript's first timestamp.
    pub t: u64,
    /// The reply's text, as the agent saw it.
    pub text: String,
    /// Who read, and how.
    pub kind: ReadKind,
}

/// A background task and every read of it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaudeTask {
    /// The task's id.
    pub id: String,
    /// The command, as the agent gave it.
    pub command: String,
    /// When the task went to the background, in milliseconds since the first timestamp.
    pub started: u64,
    /// Whether the agent asked for the background (false: the harness moved it there).
    pub asked: bool,
    /// Whether the task is a `Monitor`, read only by its events.
    pub monitor: bool,
    /// Every read, in order.
    pub reads: Vec<ClaudeRead>,
    /// When and how it ended, when the transcript says: `(t, exit code)`, `None` for a stop.
    pub ended: Option<(u64, Option<i64>)>,
}

/// What a transcript holds of its background tasks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClaudeSession {
    /// The session's id (`sessionId`).
    pub id: String,
    /// The Claude Code version of its first line that states one.
    pub version: String,
    /// Every background task, in the order they started.
    pub tasks: Vec<ClaudeTask>,
    /// Lines read though unexpected.
    pub warnings: Vec<Warning>,
}

/// A tool call waiting for its result.
struct Use {
    name: String,
    input: Value,
}

#[derive(Default)]
struct Parser {
    session: ClaudeSession,
    epoch: Option<u64>,
    uses: HashMap<String, Use>,
    by_id: HashMap<String, usize>,
}

/// The line types of a transcript; another is warned of and left out.
const KNOWN_TYPES: [&str; 12] = [
    "user",
    "assistant",
    "system",
    "summary",
    "file-history-snapshot",
    "queue-operation",
    "attachment",
    "progress",
    "custom-title",
    "last-prompt",
    "mode",
    "pr-link",
];

impl ClaudeSession {
    /// Parses a transcript's text. `source` names it in errors and warnings.
    pub fn parse(source: &str, text: &str) -> Result<ClaudeSession, SessionError> {
        let mut parser = Parser::default();
        each_object(source, text, "a transcript line", |obj, line| {
            parser.entry(obj, line)
        })?;
        Ok(parser.session)
    }
}

impl Parser {
    fn entry(&mut self, obj: &Map<String, Value>, line: usize) -> Result<(), String> {
        let t = self.time_of(obj)?;
        self.identify(obj)?;
        let kind = obj.get("type").and_then(Value::as_str).unwrap_or_default();
        if !KNOWN_TYPES.contains(&kind) {
            self.warn(line, format!("unknown line type `{kind}`: left out"));
            return Ok(());
        }
        if kind == "queue-operation" {
            let content = obj.get("content").and_then(Value::as_str).unwrap_or("");
            if obj.get("operation").and_then(Value::as_str) == Some("enqueue") {
                self.event(content, line, t, false);
            }
            self.notification(content, t);
            return Ok(());
        }
        if kind == "attachment" {
            let attachment = obj.get("attachment");
            let prompt = attachment
                .and_then(|a| a.get("prompt"))
                .and_then(Value::as_str);
            if let Some(prompt) = prompt {
                self.event(prompt, line, t, true);
            }
            return Ok(());
        }
        let Some(content) = obj.get("message").and_then(|m| m.get("content")) else {
            return Ok(());
        };
        match content {
            Value::String(s) => {
                self.event(s, line, t, true);
                self.notification(s, t)
            }
            Value::Array(blocks) => {
                for block in blocks {
                    self.block(block, obj.get("toolUseResult"), line, t);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Keeps the session's id and version; a second id is a second session.
    fn identify(&mut self, obj: &Map<String, Value>) -> Result<(), String> {
        if let Some(id) = obj.get("sessionId").and_then(Value::as_str) {
            if self.session.id.is_empty() {
                self.session.id = id.to_owned();
            } else if id != self.session.id {
                return Err(format!(
                    "a second session (`{id}`) in a transcript of session `{}`: split the file, one session each",
                    self.session.id
                ));
            }
        }
        if self.session.version.is_empty() {
            if let Some(v) = obj.get("version").and_then(Value::as_str) {
                self.session.version = v.to_owned();
            }
        }
        Ok(())
    }

    fn time_of(&mut self, obj: &Map<String, Value>) -> Result<u64, String> {
        let Some(stamp) = obj.get("timestamp").and_then(Value::as_str) else {
            return Ok(0);
        };
        let ms = millis(stamp).ok_or_else(|| format!("`timestamp` {stamp:?} is not RFC 3339"))?;
        let epoch = *self.epoch.get_or_insert(ms);
        Ok(ms.saturating_sub(epoch))
    }

    /// One content block: a tool call, or a tool's result.
    fn block(&mut self, block: &Value, result: Option<&Value>, line: usize, t: u64) {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let id = block.get("id").and_then(Value::as_str).unwrap_or_default();
                let name = block
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let input = block.get("input").cloned().unwrap_or(Value::Null);
                self.uses.insert(
                    id.to_owned(),
                    Use {
                        name: name.to_owned(),
                        input,
                    },
                );
            }
            Some("tool_result") => {
                let id = block
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if let Some(call) = self.uses.remove(id) {
                    let text = text_of(block.get("content"));
                    self.result(call, text, result, line, t);
                }
            }
            _ => {}
        }
    }

    /// A tool's result: a task started, read or stopped.
    fn result(&mut self, call: Use, text: String, result: Option<&Value>, line: usize, t: u64) {
        let str_in = |k: &str| {
            call.input
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        match call.name.as_str() {
            "Bash" => {
                if let Some(id) = started_id(&text) {
                    let asked = call.input.get("run_in_background").and_then(Value::as_bool);
                    self.start(id, str_in("command"), asked == Some(true), false, t);
                    return;
                }
                let command = str_in("command");
                if let Some(task) = self.task_named_in(&command) {
                    let kind = ReadKind::AgentBash { command };
                    self.session.tasks[task].reads.push(ClaudeRead {
                        line,
                        t,
                        text,
                        kind,
                    });
                }
            }
            "Read" => {
                if let Some(task) = self.task_named_in(&str_in("file_path")) {
                    let offset = call
                        .input
                        .get("offset")
                        .and_then(Value::as_u64)
                        .unwrap_or(1);
                    let kind = ReadKind::AgentRead {
                        offset: offset.max(1) as usize,
                    };
                    self.session.tasks[task].reads.push(ClaudeRead {
                        line,
                        t,
                        text,
                        kind,
                    });
                }
            }
            "Monitor" => {
                if let Some(id) = monitor_id(&text) {
                    self.start(id, str_in("command"), true, true, t);
                }
            }
            "TaskOutput" | "BashOutput" => {
                self.task_output(&str_in("task_id"), text, result, line, t)
            }
            "TaskStop" | "KillShell" => {
                if let Some(&task) = self.by_id.get(&str_in("task_id")) {
                    self.session.tasks[task].ended.get_or_insert((t, None));
                }
            }
            _ => {}
        }
    }

    fn start(&mut self, id: String, command: String, asked: bool, monitor: bool, t: u64) {
        self.by_id.insert(id.clone(), self.session.tasks.len());
        self.session.tasks.push(ClaudeTask {
            id,
            command,
            started: t,
            asked,
            monitor,
            reads: Vec::new(),
            ended: None,
        });
    }

    /// A `TaskOutput` result: the output so far from `toolUseResult.task`, the status from it.
    fn task_output(&mut self, id: &str, text: String, result: Option<&Value>, line: usize, t: u64) {
        let Some(&task) = self.by_id.get(id) else {
            self.warn(line, format!("a `TaskOutput` of task `{id}`, which no Bash result of this transcript started: left out"));
            return;
        };
        let recorded = result.and_then(|r| r.get("task"));
        let field = |k: &str| recorded.and_then(|r| r.get(k));
        let status = field("status")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let exit_code = field("exitCode").and_then(Value::as_i64);
        let output = text
            .contains("<output>")
            .then(|| field("output").and_then(Value::as_str).map(str::to_owned))
            .flatten();
        if let Some(code) = exit_code.filter(|_| status != "running") {
            self.session.tasks[task]
                .ended
                .get_or_insert((t, Some(code)));
        }
        let kind = ReadKind::TaskOutput {
            output,
            status,
            exit_code,
        };
        self.session.tasks[task].reads.push(ClaudeRead {
            line,
            t,
            text,
            kind,
        });
    }

    /// A `Monitor` event in `text`: queued (`delivered` false) or reaching the model. A
    /// delivery takes the place of the queued event with the same body; the moment it is read
    /// is the later of the two, since the harness stamps them apart by a millisecond either way.
    fn event(&mut self, text: &str, line: usize, t: u64, delivered: bool) {
        let Some(id) = between(text, "<task-id>", "</task-id>") else {
            return;
        };
        let (Some(&task), Some(body)) = (self.by_id.get(id), between(text, "<event>", "</event>"))
        else {
            return;
        };
        let reads = &mut self.session.tasks[task].reads;
        let queued = reads.iter_mut().find(|r| {
            matches!(&r.kind, ReadKind::MonitorEvent { event, delivered: false } if event == body)
        });
        let read = ClaudeRead {
            line,
            t,
            text: text.to_owned(),
            kind: ReadKind::MonitorEvent {
                event: body.to_owned(),
                delivered,
            },
        };
        match queued {
            Some(q) if delivered => {
                *q = ClaudeRead {
                    t: t.max(q.t),
                    ..read
                }
            }
            Some(_) => {}
            None => reads.push(read),
        }
    }

    /// A `<task-notification>`: the task it names ended, with the exit code its summary states.
    fn notification(&mut self, text: &str, t: u64) {
        let Some(id) = between(text, "<task-id>", "</task-id>") else {
            return;
        };
        let Some(&task) = self.by_id.get(id) else {
            return;
        };
        let code = between(text, "(exit code ", ")").and_then(|c| c.parse().ok());
        if between(text, "<status>", "</status>").is_some_and(|s| s != "running") {
            self.session.tasks[task].ended.get_or_insert((t, code));
        }
    }

    /// The task whose output file `text` names (`tasks/<id>.output`).
    fn task_named_in(&self, text: &str) -> Option<usize> {
        self.by_id
            .iter()
            .find(|(id, _)| text.contains(&format!("{id}.output")))
            .map(|(_, &task)| task)
    }

    fn warn(&mut self, line: usize, message: String) {
        self.session.warnings.push(Warning { line, message });
    }
}

/// A result's text: a string, or its text blocks joined.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The id of `Command running in background with ID: X.`
fn started_id(text: &str) -> Option<String> {
    id_after(text, "Command running in background with ID: ")
}

/// The id of `Monitor started (task X, timeout Nms).`
fn monitor_id(text: &str) -> Option<String> {
    id_after(text, "Monitor started (task ")
}

/// The alphanumeric id right after `prefix`, which `text` opens with.
fn id_after(text: &str, prefix: &str) -> Option<String> {
    let id: String = text
        .strip_prefix(prefix)?
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    (!id.is_empty()).then_some(id)
}

/// The numbered lines of a `Read` result (`     3→text`, or `3\ttext`): `(number, text)`.
pub fn numbered_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines().filter_map(numbered).collect()
}

fn numbered(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let number = trimmed[..digits].parse().ok()?;
    let rest = &trimmed[digits..];
    let text = rest.strip_prefix('→').or_else(|| rest.strip_prefix('\t'))?;
    Some((number, text))
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let len = text[start..].find(close)?;
    Some(&text[start..start + len])
}

#[cfg(test)]
#[path = "claude_session_tests.rs"]
mod tests;
