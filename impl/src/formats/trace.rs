//! Job traces: a log's life (appends, truncation, replacement, the job's exit) and the reads an
//! agent made of it, with what upstream replied where that was recorded.
//!
//! Format: JSON Lines, version 1. The first line is the [`Header`], every other line one
//! [`Event`] tagged by `"event"`. Pure: parsing and writing text; no files.
//!
//! ```text
//! {"bgtail_trace":1,"name":"gap-13","source":"hand-written","description":"#28's gap"}
//! {"event":"append","text":"line-1\n"}
//! {"event":"read","lines":5}
//! {"event":"exit","code":0}
//! ```

use crate::interface::api::Request;
use crate::upstream::limits::Limits;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub use crate::formats::harness::Harness;

/// The format version this code reads and writes.
pub const VERSION: u32 = 1;

/// How a trace came to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// Recorded from a real command by `bgtail record`.
    Recorded,
    /// Imported from a captured agent session.
    Imported,
    /// Exported by the model checker.
    Counterexample,
    /// Written by hand.
    HandWritten,
    /// Made by [`crate::checker::generate`] from a seed.
    Generated,
}

/// The first line of a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always [`VERSION`].
    pub bgtail_trace: u32,
    /// The trace's name (its file's stem, usually).
    pub name: String,
    /// Where the trace came from.
    pub source: Source,
    /// What the trace shows, in a sentence.
    #[serde(default)]
    pub description: String,
    /// The command that produced the log, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Where it ran (`uname`, tool versions), when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// The job id and log path the reads use (upstream prints both).
    #[serde(default = "default_job_id")]
    pub job_id: String,
    /// The log's path the reads use.
    #[serde(default = "default_log_path")]
    pub log_path: String,
    /// Engine limits, when not upstream's (model counterexamples use tiny ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// Whether reads of a running job are gated (0.8.0). Off for traces of 0.7.x sessions,
    /// whose agents read the running job: every read then passes `peek`.
    #[serde(default)]
    pub running_gate: bool,
    /// The harness whose replies the reads' `expect` record, when not pi-bgrun's: the audit
    /// judges them in its dialect ([`Harness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Harness>,
}

fn default_job_id() -> String {
    "job-1-1".into()
}

fn default_log_path() -> String {
    "/jobs/job-1-1.log".into()
}

/// What upstream replied to a read, when it was recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The reply's text, exactly as recorded.
    pub text: String,
    /// The reply's `details` object, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Map<String, Value>>,
    /// The reply's `isError`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// A read, with upstream's parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Read {
    /// Milliseconds since the job started, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
    /// `lines` as the agent's JSON gave it; `null` is kept apart from absent.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_js_number"
    )]
    pub lines: Option<JsNumber>,
    /// Skip condensing: the verbatim window.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub raw: bool,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::upstream::js::js_number"
    )]
    /// The view in bytes, as the agent's JSON gave it.
    pub bytes: Option<f64>,
    /// 0.8.0's `peek`: read a running job's log anyway.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub peek: bool,
    /// Upstream's recorded reply, which the shipped engine must reproduce byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expected>,
}

/// A number parameter as JSON gave it. `null` is not the same as absent: upstream's default
/// (`lines = 40`) applies to `undefined` only, and `Math.floor(null)` is 0, so `lines: null`
/// shows one line where a missing `lines` shows 40.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JsNumber {
    /// JSON `null`.
    Null,
    /// A JSON number.
    Value(f64),
}

impl JsNumber {
    /// The number JavaScript's arithmetic makes of it (`null` is 0).
    pub fn to_f64(self) -> f64 {
        match self {
            JsNumber::Null => 0.0,
            JsNumber::Value(v) => v,
        }
    }
}

impl From<f64> for JsNumber {
    fn from(v: f64) -> Self {
        JsNumber::Value(v)
    }
}

impl Serialize for JsNumber {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            JsNumber::Null => s.serialize_none(),
            JsNumber::Value(v) => crate::upstream::js::js_number(&Some(*v), s),
        }
    }
}

impl<'de> Deserialize<'de> for JsNumber {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.map_or(JsNumber::Null, JsNumber::Value))
    }
}

/// Deserializes a field that is present as a [`JsNumber`], `null` included; an absent field
/// takes the field's default (`None`). Use with `#[serde(default, deserialize_with = …)]`.
pub(crate) fn present_js_number<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<JsNumber>, D::Error> {
    JsNumber::deserialize(d).map(Some)
}

/// Bytes written to the log: `text`, or `base64` for anything that is not UTF-8 (exactly
/// one of the two).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Write {
    /// Milliseconds since the job started, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
    /// The bytes, when they are UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The bytes in standard base64, when they are not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
}

impl Write {
    /// A write of these bytes: as `text` when they are UTF-8, else as `base64`.
    pub fn new(t: Option<u64>, bytes: &[u8]) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => Write {
                t,
                text: Some(text.to_owned()),
                base64: None,
            },
            Err(_) => Write {
                t,
                text: None,
                base64: Some(base64_encode(bytes)),
            },
        }
    }

    /// The bytes written: `text` as UTF-8, or `base64` decoded.
    pub fn decode(&self) -> Result<Vec<u8>, WriteError> {
        match (&self.text, &self.base64) {
            (Some(text), None) => Ok(text.as_bytes().to_vec()),
            (None, Some(b64)) => Ok(base64_decode(b64)?),
            _ => Err(WriteError::NotExactlyOne),
        }
    }
}

/// Why a [`Write`]'s bytes could not be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// `base64` is not standard base64 with padding.
    #[error(transparent)]
    Base64(#[from] Base64Error),
    /// Both `text` and `base64`, or neither.
    #[error("give exactly one of `text` and `base64`")]
    NotExactlyOne,
}

/// Text that is not standard base64 with padding; the decoder's reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad base64: {0}")]
pub struct Base64Error(pub String);

/// One event of a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The job wrote bytes to its log.
    Append(Write),
    /// The log was cut to `len` bytes in place.
    Truncate(Truncate),
    /// The log was rewritten in place with these bytes (same file).
    Rewrite(Write),
    /// Another file with these bytes now sits at the log path (rotation, rename).
    Replace(Write),
    /// The log was deleted: nothing sits at the path until the next append creates a new file.
    Remove(Remove),
    /// The job exited. With `marker` (the default) the wrapper's exit marker is appended.
    Exit(Exit),
    /// The agent read the log.
    Read(Read),
    /// Another tool call of the session (bggrep, bgstatus): kept, not replayed.
    OtherTool(OtherTool),
}

/// The log cut in place to `len` bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Truncate {
    /// Milliseconds since the job started, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
    /// The length the log is cut to.
    pub len: u64,
}

/// The log's deletion.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Remove {
    /// Milliseconds since the job started, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
}

/// The job's end, with its exit code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exit {
    /// Milliseconds since the job started, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
    /// The job's exit code.
    pub code: i64,
    /// Whether the wrapper appended its exit marker to the log (false: the job was killed before it could).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub marker: bool,
}

/// A call of another tool, kept from a session for context; never replayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherTool {
    /// Milliseconds since the job started, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
    /// The tool's name.
    pub name: String,
    /// The call's arguments.
    #[serde(default)]
    pub arguments: Value,
    /// The result's text, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// A whole trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The header line.
    pub header: Header,
    /// Every other line, in order.
    pub events: Vec<Event>,
}

/// Where and why a trace could not be read: `source:line:column: message`.
// Display by hand: thiserror would take a field named `source` for the error's cause.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceError {
    /// The trace's name as the caller gave it (usually its path).
    pub source: String,
    /// 1-based line of the JSONL file.
    pub line: usize,
    /// 1-based column within that line (1 when the fault is the whole line's).
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TraceError {
            source,
            line,
            column,
            message,
        } = self;
        write!(f, "{source}:{line}:{column}: {message}")
    }
}

impl std::error::Error for TraceError {}

impl Trace {
    /// Parses a trace; `source` names it in errors.
    pub fn parse(source: &str, text: &str) -> Result<Trace, TraceError> {
        let err = |line: usize, column: usize, message: String| TraceError {
            source: source.to_owned(),
            line,
            column,
            message,
        };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((i, first)) = lines.next() else {
            return Err(err(
                1,
                1,
                "empty trace: the first line must be its header".into(),
            ));
        };
        let header: Header = serde_json::from_str(first)
            .map_err(|e| err(i + 1, e.column(), format!("bad header: {e}")))?;
        if header.bgtail_trace != VERSION {
            return Err(err(
                i + 1,
                1,
                format!(
                    "trace format version {} is not supported (this bgtail reads version {VERSION})",
                    header.bgtail_trace
                ),
            ));
        }
        if let Some(limits) = &header.limits {
            limits
                .validate_shape()
                .map_err(|why| err(i + 1, 1, format!("bad limits: {why}")))?;
        }
        let mut events = Vec::new();
        for (i, line) in lines {
            let event: Event = serde_json::from_str(line)
                .map_err(|e| err(i + 1, e.column(), format!("bad event: {e}")))?;
            if let Event::Append(w) | Event::Rewrite(w) | Event::Replace(w) = &event {
                w.decode().map_err(|why| err(i + 1, 1, why.to_string()))?;
            }
            events.push(event);
        }
        Ok(Trace { header, events })
    }

    /// Writes the trace as JSON Lines.
    pub fn to_jsonl(&self) -> String {
        let mut out = serde_json::to_string(&self.header).expect("a header serialises");
        out.push('\n');
        for e in &self.events {
            out.push_str(&serde_json::to_string(e).expect("an event serialises"));
            out.push('\n');
        }
        out
    }

    /// The limits the engines use for this trace.
    pub fn limits(&self) -> Limits {
        self.header.limits.clone().unwrap_or_default()
    }
}

impl Event {
    /// Applies the event's change to `log`, as every replay of a trace does: an append
    /// writes at the end, `truncate` cuts the same file (never past its end), `rewrite`
    /// rewrites the same file, `replace` puts another file at the path, `remove` deletes it,
    /// and `exit` appends the wrapper's exit marker unless the trace says it wrote none.
    /// Reads and other tools change nothing. The bytes were checked when the trace was parsed.
    pub fn apply_to(&self, log: &mut crate::source::MemoryLog) {
        let bytes = |w: &Write| w.decode().expect("a parsed trace's bytes decode");
        match self {
            Event::Append(w) => log.append(&bytes(w)),
            Event::Truncate(t) => log.truncate(t.len.min(log.bytes().len() as u64) as usize),
            Event::Rewrite(w) => log.rewrite(&bytes(w)),
            Event::Replace(w) => log.replace(&bytes(w)),
            Event::Remove(_) => log.remove(),
            Event::Exit(e) if e.marker => log.append(exit_marker(e.code).as_bytes()),
            Event::Exit(_) | Event::Read(_) | Event::OtherTool(_) => {}
        }
    }

    /// Applies the event's change to the real file at `path`, as [`Event::apply_to`] applies it
    /// in memory: an append writes at the end (creating a deleted log again), `truncate`
    /// cuts the same file (nothing to cut when it is gone), `rewrite` rewrites the same file,
    /// `replace` renames another file over the path, `remove` deletes it, and `exit` appends the
    /// wrapper's marker unless the trace wrote none. Reads and other tools change nothing.
    pub fn apply_to_file(&self, path: &Path) -> io::Result<()> {
        use std::io::Write as _;
        let bytes = |w: &Write| {
            w.decode()
                .map_err(|why| io::Error::new(io::ErrorKind::InvalidData, why))
        };
        let append = |data: &[u8]| -> io::Result<()> {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            f.write_all(data)
        };
        match self {
            Event::Append(w) => append(&bytes(w)?),
            Event::Truncate(t) => match std::fs::OpenOptions::new().write(true).open(path) {
                Ok(f) => f.set_len(t.len.min(f.metadata()?.len())),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(e),
            },
            Event::Rewrite(w) => std::fs::write(path, bytes(w)?),
            Event::Replace(w) => {
                let mut name = path.as_os_str().to_owned();
                name.push(".replacement");
                let next = PathBuf::from(name);
                std::fs::write(&next, bytes(w)?)?;
                std::fs::rename(&next, path)
            }
            Event::Remove(_) => match std::fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
            Event::Exit(e) if e.marker => append(exit_marker(e.code).as_bytes()),
            Event::Exit(_) | Event::Read(_) | Event::OtherTool(_) => Ok(()),
        }
    }

    /// Whether the event puts another file at the log's path (or none).
    pub fn changes_file(&self) -> bool {
        matches!(self, Event::Replace(_) | Event::Remove(_))
    }
}

/// The line upstream's wrapper appends when the job exits with `code`.
pub fn exit_marker(code: i64) -> String {
    format!("\n{}{code}\n", crate::upstream::view::EXIT_MARKER)
}

impl Read {
    /// The engine request for this read, given whether the job is still running.
    pub fn request(&self, running: bool, gate: bool) -> Request {
        Request {
            lines: self.lines.map(JsNumber::to_f64),
            raw: self.raw,
            bytes: self.bytes,
            // Without the gate (0.7.x), reads see the running job as if they peeked.
            peek: self.peek || !gate,
            running,
            elapsed_secs: None,
        }
    }
}

/// Standard base64 with padding.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Decodes standard base64.
pub(crate) fn base64_decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| Base64Error(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for data in [&b""[..], b"f", b"fo", b"foo", b"foob", b"\xff\x00\xfe\n"] {
            assert_eq!(base64_decode(&base64_encode(data)).unwrap(), data);
        }
        assert_eq!(base64_encode(b"foobar"), "Zm9vYmFy");
        assert!(base64_decode("Zm9v!").is_err());
        assert!(base64_decode("Zm9").is_err());
    }

    #[test]
    fn a_trace_round_trips() {
        let text = concat!(
            r#"{"bgtail_trace":1,"name":"t","source":"hand-written"}"#,
            "\n",
            r#"{"event":"append","text":"a\n"}"#,
            "\n",
            r#"{"event":"append","base64":"/w=="}"#,
            "\n",
            r#"{"event":"read","lines":5,"expect":{"text":"a"}}"#,
            "\n",
            r#"{"event":"exit","code":1}"#,
            "\n"
        );
        let trace = Trace::parse("t.jsonl", text).unwrap();
        assert_eq!(trace.events.len(), 4);
        assert_eq!(Trace::parse("again", &trace.to_jsonl()).unwrap(), trace);
    }

    #[test]
    fn errors_name_the_file_line_and_column() {
        let e = Trace::parse("x.jsonl", "").unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.jsonl:1:1: empty trace: the first line must be its header"
        );
        let head = r#"{"bgtail_trace":1,"name":"t","source":"hand-written"}"#;
        let e = Trace::parse("x.jsonl", &format!("{head}\n{{\"event\":\"dance\"}}\n")).unwrap_err();
        assert_eq!((e.line, e.column > 0), (2, true));
        assert!(e.message.contains("unknown variant `dance`"), "{e}");
        let e = Trace::parse(
            "x.jsonl",
            r#"{"bgtail_trace":2,"name":"t","source":"recorded"}"#,
        )
        .unwrap_err();
        assert!(e.message.contains("version 2 is not supported"));
        let e = Trace::parse(
            "x.jsonl",
            &format!("{head}\n{{\"event\":\"append\",\"base64\":\"%%\"}}\n"),
        )
        .unwrap_err();
        assert!(e.message.starts_with("bad base64"), "{e}");
        let e = Trace::parse(
            "x.jsonl",
            &format!("{head}\n{{\"event\":\"read\",\"lines\":\"x\"}}\n"),
        )
        .unwrap_err();
        assert_eq!(e.line, 2);
    }
}
