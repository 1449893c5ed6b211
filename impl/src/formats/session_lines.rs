//! The lines of a captured session (JSON Lines), each a JSON object handed on with its line
//! number: what every session parser shares. A line that is not JSON, or not an object, or
//! that the parser refuses, ends the parse with an error naming the file and the line
//! ([`SessionError`], re-exported as `bgtail::pi_session::SessionError`).

use serde_json::{Map, Value};
use std::fmt;

/// Where and why a session could not be parsed: `source:line[:column]: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionError {
    /// The session's name as the caller gave it (usually its path).
    pub source: String,
    /// 1-based line of the JSONL file.
    pub line: usize,
    /// 1-based column within that line, when the JSON parser knows it.
    pub column: Option<usize>,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "{}:{}:{}: {}", self.source, self.line, c, self.message),
            None => write!(f, "{}:{}: {}", self.source, self.line, self.message),
        }
    }
}

impl std::error::Error for SessionError {}

/// Calls `entry` with every non-blank line of `text` as an object and its 1-based number;
/// `what` names a line in the error for one that is no object (`a rollout line`).
pub(crate) fn each_object(
    source: &str,
    text: &str,
    what: &str,
    mut entry: impl FnMut(&Map<String, Value>, usize) -> Result<(), String>,
) -> Result<(), SessionError> {
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let err = |message: String, column: Option<usize>| SessionError {
            source: source.to_owned(),
            line,
            column,
            message,
        };
        let value: Value = serde_json::from_str(raw)
            .map_err(|e| err(format!("not JSON: {e}"), Some(e.column())))?;
        let obj = value
            .as_object()
            .ok_or_else(|| err(format!("{what} must be a JSON object"), None))?;
        entry(obj, line).map_err(|m| err(m, None))?;
    }
    Ok(())
}
