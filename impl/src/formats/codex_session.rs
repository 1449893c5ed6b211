//! Captured Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): the background jobs an
//! agent started with `exec_command` and polled with `write_stdin`, each read with the reply
//! the agent saw.
//!
//! A job is background when its `exec_command` reply says `Process running with session ID
//! N`; every later `write_stdin` naming `session_id` N reads it, until a reply says `Process
//! exited with code C`. Codex 0.128 also records `exec_command_end` with the job's whole output
//! (`aggregated_output`), kept as the job's final output. Pure: the caller reads the file.

use crate::formats::session_lines::{each_object, SessionError};
use crate::formats::timestamp::millis;
use serde_json::{Map, Value};

/// The Codex versions whose rollouts this parser was written against (`major.minor`, inclusive):
/// a rollout of another version is read, with a warning.
pub const KNOWN_VERSIONS: (u32, u32, u32) = (0, 118, 142);

/// A line of the rollout that was read, though something about it is unexpected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line of the rollout.
    pub line: usize,
    /// What is unexpected there, and what the import did.
    pub message: String,
}

/// One read of a job: the `exec_command` that started it or a `write_stdin` poll.
#[derive(Clone, Debug, PartialEq)]
pub struct CodexRead {
    /// 1-based line of the reply (`function_call_output`) in the rollout.
    pub line: usize,
    /// When the reply was recorded, in milliseconds since the session's first timestamp.
    pub t: u64,
    /// `exec_command` or `write_stdin`.
    pub tool: String,
    /// What the poll wrote to the job's stdin (`chars`); empty for a pure poll.
    pub chars: String,
    /// The call's `max_output_tokens`, when given.
    pub max_output_tokens: Option<u64>,
    /// The reply, as the agent saw it.
    pub text: String,
}

/// A background job and every read of it.
#[derive(Clone, Debug, PartialEq)]
pub struct CodexJob {
    /// Codex's `session_id` for the process.
    pub process: u64,
    /// The command, as the agent gave it.
    pub command: String,
    /// When the job was started, in milliseconds since the session's first timestamp.
    pub started: u64,
    /// Every read, in order; the first is the `exec_command` reply.
    pub reads: Vec<CodexRead>,
    /// The job's whole output as `exec_command_end` recorded it (Codex 0.128), when it did.
    pub aggregated_output: Option<String>,
}

/// What a rollout holds of its background jobs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CodexSession {
    /// The session's id (`session_meta.payload.id`).
    pub id: String,
    /// The Codex version that wrote it (`cli_version`).
    pub cli_version: String,
    /// Who wrote it (`originator`: `codex-tui`, `Codex Desktop`, …).
    pub originator: String,
    /// Every background job, in the order they were started.
    pub jobs: Vec<CodexJob>,
    /// Lines read though unexpected.
    pub warnings: Vec<Warning>,
}

/// A call whose reply has not been read yet.
struct Pending {
    name: String,
    arguments: Value,
}

/// The parser's state between lines.
#[derive(Default)]
struct Parser {
    session: CodexSession,
    /// The first timestamp: reads are timed from it.
    epoch: Option<u64>,
    /// Calls of `exec_command` and `write_stdin` by `call_id`, until their reply.
    pending: std::collections::HashMap<String, Pending>,
    /// `exec_command` calls by `call_id` whose job runs in the background, and the job's index.
    started_by: std::collections::HashMap<String, usize>,
    /// The job each running `session_id` names.
    running: std::collections::HashMap<u64, usize>,
    /// Whether a `session_meta` line has been read.
    has_meta: bool,
}

impl CodexSession {
    /// Parses a rollout's text. `source` names it in errors and warnings.
    pub fn parse(source: &str, text: &str) -> Result<CodexSession, SessionError> {
        let mut parser = Parser::default();
        each_object(source, text, "a rollout line", |obj, line| {
            parser.entry(obj, line)
        })?;
        if !parser.has_meta {
            return Err(SessionError {
                source: source.to_owned(),
                line: 1,
                column: None,
                message: "no `session_meta` line: not a Codex rollout".into(),
            });
        }
        Ok(parser.session)
    }
}

impl Parser {
    /// One line of the rollout.
    fn entry(&mut self, obj: &Map<String, Value>, line: usize) -> Result<(), String> {
        let t = self.time_of(obj)?;
        let kind = obj.get("type").and_then(Value::as_str).unwrap_or_default();
        let payload = obj.get("payload").cloned().unwrap_or(Value::Null);
        match kind {
            "session_meta" => self.meta(&payload, line),
            "response_item" => self.response_item(&payload, line, t),
            "event_msg" => {
                self.event(&payload);
                Ok(())
            }
            "turn_context" | "compacted" => Ok(()),
            other => {
                self.warn(
                    line,
                    format!("unknown line type `{other}`: left out (it carries no read)"),
                );
                Ok(())
            }
        }
    }

    /// The line's timestamp, in milliseconds since the first.
    fn time_of(&mut self, obj: &Map<String, Value>) -> Result<u64, String> {
        let Some(stamp) = obj.get("timestamp").and_then(Value::as_str) else {
            return Ok(0);
        };
        let ms = millis(stamp).ok_or_else(|| format!("`timestamp` {stamp:?} is not RFC 3339"))?;
        let epoch = *self.epoch.get_or_insert(ms);
        Ok(ms.saturating_sub(epoch))
    }

    /// `session_meta`: the session's id and version. Codex Desktop repeats it every turn; a
    /// second id means two sessions in one file.
    fn meta(&mut self, payload: &Value, line: usize) -> Result<(), String> {
        let field = |k: &str| payload.get(k).and_then(Value::as_str).unwrap_or_default();
        let id = field("id");
        if self.has_meta {
            if id != self.session.id {
                return Err(format!(
                    "a second session (`{id}`) in a file of session `{}`: split the file, one session each",
                    self.session.id
                ));
            }
            return Ok(());
        }
        self.has_meta = true;
        self.session.id = id.to_owned();
        self.session.cli_version = field("cli_version").to_owned();
        self.session.originator = field("originator").to_owned();
        if !known_version(&self.session.cli_version) {
            let (major, low, high) = KNOWN_VERSIONS;
            self.warn(
                line,
                format!(
                    "Codex {:?}: this importer knows {major}.{low} to {major}.{high}; read as those",
                    self.session.cli_version
                ),
            );
        }
        Ok(())
    }

    /// `response_item`: a call of `exec_command` or `write_stdin`, or a reply to one.
    fn response_item(&mut self, payload: &Value, line: usize, t: u64) -> Result<(), String> {
        let kind = payload.get("type").and_then(Value::as_str);
        let call_id = payload.get("call_id").and_then(Value::as_str);
        match (kind, call_id) {
            (Some("function_call"), Some(id)) => {
                let name = payload.get("name").and_then(Value::as_str).unwrap_or("");
                if name == "exec_command" || name == "write_stdin" {
                    let arguments = arguments_of(payload)?;
                    self.pending.insert(
                        id.to_owned(),
                        Pending {
                            name: name.to_owned(),
                            arguments,
                        },
                    );
                }
                Ok(())
            }
            (Some("function_call_output"), Some(id)) => match self.pending.remove(id) {
                Some(call) => self.reply(id, call, output_of(payload)?, line, t),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// The reply to a call: it starts a background job, or reads one.
    fn reply(
        &mut self,
        call_id: &str,
        call: Pending,
        text: String,
        line: usize,
        t: u64,
    ) -> Result<(), String> {
        let read = CodexRead {
            line,
            t,
            tool: call.name.clone(),
            chars: string_arg(&call.arguments, "chars"),
            max_output_tokens: call
                .arguments
                .get("max_output_tokens")
                .and_then(Value::as_u64),
            text,
        };
        if call.name == "exec_command" {
            let Some(process) = running_id(&read.text) else {
                return Ok(());
            };
            self.session.jobs.push(CodexJob {
                process,
                command: string_arg(&call.arguments, "cmd"),
                started: t,
                reads: Vec::new(),
                aggregated_output: None,
            });
            let job = self.session.jobs.len() - 1;
            self.started_by.insert(call_id.to_owned(), job);
            self.running.insert(process, job);
            self.session.jobs[job].reads.push(read);
            return Ok(());
        }
        self.poll(&call.arguments, read, line)
    }

    /// A `write_stdin` reply: a read of the job its `session_id` names.
    fn poll(&mut self, arguments: &Value, read: CodexRead, line: usize) -> Result<(), String> {
        let Some(process) = arguments.get("session_id").and_then(Value::as_u64) else {
            return Err("`write_stdin` without a numeric `session_id`".into());
        };
        let Some(&job) = self.running.get(&process) else {
            self.warn(
                line,
                format!(
                    "a `write_stdin` of session ID {process}, which no `exec_command` of this \
                     file left running: its reply is left out"
                ),
            );
            return Ok(());
        };
        if running_id(&read.text).is_none() {
            self.running.remove(&process);
        }
        self.session.jobs[job].reads.push(read);
        Ok(())
    }

    /// `event_msg`: `exec_command_end` records a background job's whole output.
    fn event(&mut self, payload: &Value) {
        if payload.get("type").and_then(Value::as_str) != Some("exec_command_end") {
            return;
        }
        let call_id = payload.get("call_id").and_then(Value::as_str);
        let job = call_id.and_then(|id| self.started_by.get(id)).copied();
        let output = payload.get("aggregated_output").and_then(Value::as_str);
        if let (Some(job), Some(output)) = (job, output) {
            self.session.jobs[job].aggregated_output = Some(output.to_owned());
        }
    }

    fn warn(&mut self, line: usize, message: String) {
        self.session.warnings.push(Warning { line, message });
    }
}

/// A call's `arguments`: a JSON object, or a string holding one.
fn arguments_of(payload: &Value) -> Result<Value, String> {
    match payload.get("arguments") {
        Some(Value::String(s)) => serde_json::from_str(s)
            .map_err(|e| format!("the call's `arguments` string is not JSON: {e}")),
        Some(v @ Value::Object(_)) => Ok(v.clone()),
        _ => Err("a function call without `arguments`".into()),
    }
}

/// A reply's text: `output` as a string, or the text items of a content list.
fn output_of(payload: &Value) -> Result<String, String> {
    match payload.get("output") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(items)) => Ok(items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect()),
        Some(Value::Object(o)) => o
            .get("content")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| "a `function_call_output` whose `output` holds no text".into()),
        _ => Err("a `function_call_output` without `output`".into()),
    }
}

fn string_arg(arguments: &Value, key: &str) -> String {
    arguments
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The `session_id` of a reply that says its process still runs.
pub fn running_id(text: &str) -> Option<u64> {
    text.lines()
        .take_while(|l| *l != "Output:")
        .find_map(|l| l.strip_prefix("Process running with session ID "))
        .and_then(|n| n.trim().parse().ok())
}

/// Whether `version` (`0.141.0`, `0.128.0-alpha.1`) is one this parser was written against.
fn known_version(version: &str) -> bool {
    let mut parts = version.split(['.', '-']);
    let major = parts.next().and_then(|p| p.parse::<u32>().ok());
    let minor = parts.next().and_then(|p| p.parse::<u32>().ok());
    let (m, low, high) = KNOWN_VERSIONS;
    matches!((major, minor), (Some(a), Some(b)) if a == m && (low..=high).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(t: &str, kind: &str, payload: Value) -> String {
        serde_json::json!({"timestamp": t, "type": kind, "payload": payload}).to_string()
    }

    fn meta(id: &str, version: &str) -> String {
        line(
            "2026-06-22T00:00:00.000Z",
            "session_meta",
            serde_json::json!({"id": id, "cli_version": version, "originator": "codex-tui"}),
        )
    }

    fn call(t: &str, id: &str, name: &str, args: Value) -> String {
        let payload = serde_json::json!({"type": "function_call", "name": name,
            "arguments": args.to_string(), "call_id": id});
        line(t, "response_item", payload)
    }

    fn output(t: &str, id: &str, text: &str) -> String {
        let payload =
            serde_json::json!({"type": "function_call_output", "call_id": id, "output": text});
        line(t, "response_item", payload)
    }

    fn rollout(lines: &[String]) -> String {
        lines.join("\n") + "\n"
    }

    #[test]
    fn a_job_left_running_is_read_until_a_poll_says_it_exited() {
        let text = rollout(&[
            meta("s", "0.141.0"),
            call(
                "2026-06-22T00:00:01.000Z",
                "c1",
                "exec_command",
                serde_json::json!({"cmd": "make"}),
            ),
            output(
                "2026-06-22T00:00:02.000Z",
                "c1",
                "Process running with session ID 7\nOutput:\na\n",
            ),
            call(
                "2026-06-22T00:00:03.000Z",
                "c2",
                "write_stdin",
                serde_json::json!({"session_id": 7, "chars": ""}),
            ),
            output(
                "2026-06-22T00:00:04.500Z",
                "c2",
                "Process exited with code 0\nOutput:\nb\n",
            ),
        ]);
        let s = CodexSession::parse("r.jsonl", &text).unwrap();
        assert_eq!(s.jobs.len(), 1);
        let job = &s.jobs[0];
        assert_eq!(
            (job.process, job.command.as_str(), job.started),
            (7, "make", 2000)
        );
        let at: Vec<_> = job.reads.iter().map(|r| (r.line, r.t)).collect();
        assert_eq!(at, [(3, 2000), (5, 4500)]);
        assert!(s.warnings.is_empty());
    }

    #[test]
    fn bad_lines_are_named_by_file_and_line() {
        let cut = rollout(&[meta("s", "0.141.0"), "{\"timestamp\": \"2026".into()]);
        let e = CodexSession::parse("r.jsonl", &cut).unwrap_err();
        assert_eq!((e.line, e.source.as_str()), (2, "r.jsonl"));
        assert!(e.message.starts_with("not JSON"), "{e}");
        let two = rollout(&[meta("a", "0.141.0"), meta("b", "0.141.0")]);
        let e = CodexSession::parse("r.jsonl", &two).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("r.jsonl:2: a second session (`b`)"),
            "{e}"
        );
        let none = CodexSession::parse("r.jsonl", "{\"type\":\"turn_context\"}\n").unwrap_err();
        assert!(none.message.contains("no `session_meta`"), "{none}");
    }

    #[test]
    fn unknown_lines_versions_and_jobs_are_warned_of() {
        let text = rollout(&[
            meta("s", "0.200.0"),
            line("2026-06-22T00:00:01.000Z", "telemetry", Value::Null),
            call(
                "2026-06-22T00:00:01.000Z",
                "c",
                "write_stdin",
                serde_json::json!({"session_id": 9}),
            ),
            output(
                "2026-06-22T00:00:02.000Z",
                "c",
                "Process exited with code 0\nOutput:\n",
            ),
        ]);
        let s = CodexSession::parse("r.jsonl", &text).unwrap();
        let lines: Vec<_> = s.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, [1, 2, 4]);
        assert!(s.warnings[0].message.contains("\"0.200.0\""));
        assert!(s.warnings[1].message.contains("`telemetry`"));
        assert!(s.warnings[2].message.contains("session ID 9"));
        assert!(s.jobs.is_empty());
    }
}
