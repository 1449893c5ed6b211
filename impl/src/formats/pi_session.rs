//! Captured pi agent sessions (JSON Lines): the tool calls, their recorded results, and the
//! job records — the external oracle the shipped engine is checked against.
//!
//! Pure: this module parses text the caller read and rebuilds logs from recorded replies; it
//! opens no files.

use serde_json::{Map, Value};

pub use crate::formats::session_lines::SessionError;

/// A tool's recorded result.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    /// 1-based line of the result in the session file: the call ran before this point.
    pub line: usize,
    /// The text the agent saw (text items joined).
    pub text: String,
    /// The result's `details` object, as recorded.
    pub details: Value,
    /// The result's `isError`.
    pub is_error: bool,
}

/// One tool call and, when the session holds it, its result.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// 1-based line of the assistant message that made the call.
    pub line: usize,
    /// The call's `id`, which its result names.
    pub call_id: String,
    /// The tool's name (`bgtail`, `bgrun`, …).
    pub name: String,
    /// The call's arguments, as recorded.
    pub arguments: Value,
    /// The call's result, when the session holds one.
    pub result: Option<ToolResult>,
}

/// A `bgrun-job` record: a job's start or end.
#[derive(Clone, Debug, PartialEq)]
pub struct JobRecord {
    /// 1-based line of the record in the session file.
    pub line: usize,
    /// The job's id.
    pub id: String,
    /// `running` or `exited` (other values kept as written).
    pub state: String,
    /// The job's command line, when recorded.
    pub command: Option<String>,
    /// The job's log path, when recorded.
    pub log_path: Option<String>,
    /// The job's exit code, once it exited.
    pub exit_code: Option<i64>,
}

/// The parts of a session the replay uses, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PiSession {
    /// Every tool call, in file order.
    pub calls: Vec<ToolCall>,
    /// Every job record, in file order.
    pub jobs: Vec<JobRecord>,
}

impl PiSession {
    /// Parses a session's JSONL text. `source` names it in errors.
    pub fn parse(source: &str, text: &str) -> Result<PiSession, SessionError> {
        let mut session = PiSession::default();
        crate::formats::session_lines::each_object(source, text, "an entry", |obj, line| {
            session.add_entry(obj, line)
        })?;
        Ok(session)
    }

    /// One entry of the session, at `line`: a message's tool calls or result, or a job's
    /// record; other entries carry nothing the replay uses.
    fn add_entry(&mut self, obj: &Map<String, Value>, line: usize) -> Result<(), String> {
        match obj.get("type").and_then(Value::as_str) {
            Some("message") => {
                let message = obj
                    .get("message")
                    .and_then(Value::as_object)
                    .ok_or("a message entry has no `message` object")?;
                match message.get("role").and_then(Value::as_str) {
                    Some("assistant") => self.add_calls(message, line),
                    Some("toolResult") => self.add_result(message, line),
                    _ => Ok(()),
                }
            }
            Some("custom")
                if obj.get("customType").and_then(Value::as_str) == Some("bgrun-job") =>
            {
                self.add_job(obj, line)
            }
            _ => Ok(()),
        }
    }

    /// The tool calls of an assistant message.
    fn add_calls(&mut self, message: &Map<String, Value>, line: usize) -> Result<(), String> {
        let content = message.get("content").and_then(Value::as_array);
        for item in content.into_iter().flatten() {
            if item.get("type").and_then(Value::as_str) != Some("toolCall") {
                continue;
            }
            let name = item
                .get("name")
                .and_then(Value::as_str)
                .ok_or("a toolCall has no string `name`")?;
            self.calls.push(ToolCall {
                line,
                call_id: item
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                name: name.to_owned(),
                arguments: item.get("arguments").cloned().unwrap_or(Value::Null),
                result: None,
            });
        }
        Ok(())
    }

    /// A tool result, given to the latest call of its id that has none yet.
    fn add_result(&mut self, message: &Map<String, Value>, line: usize) -> Result<(), String> {
        let call_id = message
            .get("toolCallId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let content = message.get("content").and_then(Value::as_array);
        let text: String = content
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect();
        let result = ToolResult {
            line,
            text,
            details: message.get("details").cloned().unwrap_or(Value::Null),
            is_error: message
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        };
        let call = self
            .calls
            .iter_mut()
            .rev()
            .find(|c| c.call_id == call_id && c.result.is_none())
            .ok_or_else(|| {
                format!(
                    "a toolResult for call {call_id:?}, which no earlier assistant message made"
                )
            })?;
        call.result = Some(result);
        Ok(())
    }

    /// A bgrun job's record (its state, command, log and exit code).
    fn add_job(&mut self, obj: &Map<String, Value>, line: usize) -> Result<(), String> {
        let data = obj
            .get("data")
            .and_then(Value::as_object)
            .ok_or("a bgrun-job entry has no `data` object")?;
        let s = |k: &str| data.get(k).and_then(Value::as_str).map(str::to_owned);
        self.jobs.push(JobRecord {
            line,
            id: s("id").ok_or("a bgrun-job entry has no `id`")?,
            state: s("state").unwrap_or_default(),
            command: s("cmd"),
            log_path: s("logPath"),
            exit_code: data.get("exitCode").and_then(Value::as_i64),
        });
        Ok(())
    }

    /// The calls of one tool, in order.
    pub fn calls_to<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a ToolCall> + 'a {
        self.calls.iter().filter(move |c| c.name == name)
    }

    /// The exit record of a job that appears before `line`, if any.
    pub fn exit_before(&self, job_id: &str, line: usize) -> Option<&JobRecord> {
        self.jobs
            .iter()
            .find(|j| j.id == job_id && j.line < line && j.exit_code.is_some())
    }
}

/// A recorded bgtail reply, read for its log content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedRead {
    /// A first read: the whole text is the window.
    Window {
        /// The window's lines, oldest first.
        lines: Vec<String>,
        /// The log's `T`: its content lines as the reply counted them.
        total: u64,
    },
    /// `+F new lines since last read — log at T lines`: the text after the header.
    Delta {
        /// The new lines shown, oldest first.
        lines: Vec<String>,
        /// The log's `T`: its content lines as the reply counted them.
        total: u64,
    },
    /// `(no new lines since last read — log at T lines)`.
    Nothing {
        /// The log's `T`: its content lines as the reply counted them.
        total: u64,
    },
}

/// Why a recorded reply's lines are not the log's lines verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotVerbatim(pub String);

/// Reads the log lines out of a recorded condensed bgtail reply. Only replies whose body is
/// the log's lines verbatim qualify: no condenser notes (nothing stripped, folded, cut or
/// capped), no window or cap notes, no widening.
pub fn recorded_read(text: &str, details: &Value) -> Result<RecordedRead, NotVerbatim> {
    let num = |k: &str| details.get(k).and_then(Value::as_u64);
    if details.get("condenserNotes").is_some() {
        return Err(NotVerbatim(
            "the condenser changed the lines (see condenserNotes)".into(),
        ));
    }
    if details.get("widened").is_some() {
        return Err(NotVerbatim(
            "a widening: the lines' place in the log is not certain".into(),
        ));
    }
    if text.contains("\n\n(") {
        return Err(NotVerbatim(
            "the reply carries notes after its lines".into(),
        ));
    }
    let shown = num("linesShown").ok_or_else(|| NotVerbatim("no linesShown in details".into()))?;
    if text.starts_with("(no new lines since last read") {
        let total = num("totalLines").ok_or_else(|| NotVerbatim("no totalLines".into()))?;
        return Ok(RecordedRead::Nothing { total });
    }
    let (lines, total): (Vec<String>, u64) = if let Some(total) =
        num("newLines").and(num("totalLines"))
    {
        let (header, body) = text
            .split_once('\n')
            .ok_or_else(|| NotVerbatim("a delta reply without lines".into()))?;
        if !header.starts_with('+') || header.contains("(showing last") {
            return Err(NotVerbatim(format!("not a complete delta: {header:?}")));
        }
        (body.split('\n').map(str::to_owned).collect(), total)
    } else {
        if text.starts_with("log ") || text.starts_with("search window") || text == "(empty log)" {
            return Err(NotVerbatim("a reset read".into()));
        }
        let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let total = lines.len() as u64;
        (lines, total)
    };
    if lines.len() as u64 != shown {
        return Err(NotVerbatim(format!(
            "{} lines in the text but linesShown is {shown}",
            lines.len()
        )));
    }
    Ok(match num("newLines") {
        Some(_) => RecordedRead::Delta { lines, total },
        None => RecordedRead::Window { lines, total },
    })
}

/// Rebuilds a log's content lines from a chain of recorded replies that each delivered every
/// new line (a first read of the whole log, then complete deltas): the README's "exactly"
/// case. Fails when a reply skipped lines or its counts do not add up.
pub fn rebuild_from_chain(reads: &[RecordedRead]) -> Result<Vec<String>, NotVerbatim> {
    let mut log: Vec<String> = Vec::new();
    for (i, read) in reads.iter().enumerate() {
        match read {
            RecordedRead::Window { lines, total } => {
                if i != 0 || *total != lines.len() as u64 {
                    return Err(NotVerbatim(format!(
                        "read {}: a window that is not the whole log",
                        i + 1
                    )));
                }
                log.extend(lines.iter().cloned());
            }
            RecordedRead::Delta { lines, total } => {
                log.extend(lines.iter().cloned());
                if log.len() as u64 != *total {
                    return Err(NotVerbatim(format!(
                        "read {}: the log would hold {} lines but the reply says {total}",
                        i + 1,
                        log.len()
                    )));
                }
            }
            RecordedRead::Nothing { total } => {
                if log.len() as u64 != *total {
                    return Err(NotVerbatim(format!(
                        "read {}: {} lines known but the reply says {total}",
                        i + 1,
                        log.len()
                    )));
                }
            }
        }
    }
    Ok(log)
}

/// Lays content lines out as raw log text with blank lines at the given 1-based raw line
/// numbers, keeping the first `content` content lines (and the blank lines among them).
pub fn layout(lines: &[String], blank_raw_lines: &[usize], content: usize) -> String {
    let mut out = String::new();
    let mut raw = 0;
    let mut placed = 0;
    while placed < content.min(lines.len()) {
        raw += 1;
        if blank_raw_lines.contains(&raw) {
            out.push('\n');
        } else {
            out.push_str(&lines[placed]);
            out.push('\n');
            placed += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn malformed_lines_are_named_with_line_and_column() {
        let e = PiSession::parse("s.jsonl", "{\"type\":\"session\"}\n{oops}\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(2)));
        assert!(e.to_string().starts_with("s.jsonl:2:2: not JSON"));
        let e = PiSession::parse("s.jsonl", "[1]\n").unwrap_err();
        assert_eq!(e.to_string(), "s.jsonl:1: an entry must be a JSON object");
    }

    #[test]
    fn a_result_without_its_call_is_refused() {
        let text =
            r#"{"type":"message","message":{"role":"toolResult","toolCallId":"x","content":[]}}"#;
        let e = PiSession::parse("s", text).unwrap_err();
        assert!(e.message.contains("no earlier assistant message"), "{e}");
    }

    #[test]
    fn calls_pair_with_results() {
        let text = [
            r#"{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"bgtail","arguments":{"id":"j","lines":3}}]}}"#,
            r#"{"type":"message","message":{"role":"toolResult","toolCallId":"a","content":[{"type":"text","text":"x"}],"details":{"linesShown":1},"isError":false}}"#,
        ]
        .join("\n");
        let s = PiSession::parse("s", &text).unwrap();
        assert_eq!(s.calls.len(), 1);
        assert_eq!(s.calls[0].result.as_ref().unwrap().text, "x");
        assert_eq!(s.calls[0].arguments["lines"], 3);
    }

    #[test]
    fn chains_rebuild_and_inconsistent_counts_fail() {
        let first = recorded_read("a\nb", &json!({"linesShown": 2})).unwrap();
        let delta = recorded_read(
            "+1 new line since last read — log at 3 lines\nc",
            &json!({"linesShown": 1, "newLines": 1, "totalLines": 3}),
        )
        .unwrap();
        assert_eq!(
            rebuild_from_chain(&[first.clone(), delta]).unwrap(),
            vec!["a", "b", "c"]
        );
        let wrong = RecordedRead::Delta {
            lines: vec!["c".into()],
            total: 9,
        };
        assert!(rebuild_from_chain(&[first, wrong]).is_err());
        assert!(recorded_read(
            "x\n\n(1 repeated-line run collapsed)",
            &json!({"linesShown": 1, "condenserNotes": []})
        )
        .is_err());
    }

    #[test]
    fn layout_places_blank_lines() {
        let lines: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(layout(&lines, &[2], 3), "a\n\nb\nc\n");
        assert_eq!(layout(&lines, &[2], 1), "a\n");
    }
}
