//! Codex's poll with bgtail's exact engine in place of its buffer-and-truncate: the engine
//! reads the job's output file by position, and Codex's envelope carries its reply.
//!
//! This is what Codex would give its agent with bgtail's reading: every line of the job once,
//! nothing dropped from the middle, a line never joined to another. The poll takes bgtail's
//! `lines` (how many of the newest lines one reply shows; the engine says what it left out and
//! the next poll brings it), and a session stays readable after the process exits, so that
//! lines the budget left out of the last poll are still owed and still delivered.

use bgtail::source::file::open_log;
use bgtail::{Engine, ExactEngine, ExactState, Job, Limits, Request};
use std::collections::BTreeMap;

/// The first session id handed out, as for Codex's own reader.
const FIRST_SESSION_ID: i32 = 1000;

/// The exact engine's bookmarks, and each job's session id.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// The exact engine's bookmarks, by job id.
    pub engine: ExactState,
    /// The session id the envelope names, by job id.
    pub sessions: BTreeMap<String, i32>,
}

impl State {
    /// The state without the engine's line index, a cache that changes no reply: equal states
    /// give equal snapshots.
    pub fn snapshot(&self) -> serde_json::Value {
        let mut state = self.clone();
        for (_, bookmark) in &mut state.engine.bookmarks {
            bookmark.index = bgtail::LineIndex::default();
        }
        serde_json::to_value(&state).expect("the state serialises")
    }
}

/// The exact engine's limits in Codex: its budget is Codex's, in bytes (10,000 tokens of 4
/// bytes); scaled for the model, the model's own (a 40-unit budget, an 8-unit line cap), as
/// the exact engine is checked everywhere else.
pub fn limits(scaled: bool) -> Limits {
    let mut limits = Limits::default();
    if scaled {
        limits.text_budget = 40;
        limits.line_cap = 8;
    } else {
        limits.text_budget = 40_000;
    }
    limits
}

/// The reply to one poll of job `id` (its output file at `path`), as Codex's envelope carries
/// it, and the byte ranges of the lines it shows.
pub fn poll(
    engine: &ExactEngine,
    state: &mut State,
    (id, path): (&str, &str),
    lines: Option<f64>,
    running: bool,
) -> Result<(String, Vec<(u64, u64)>), String> {
    let next = FIRST_SESSION_ID + state.sessions.len() as i32;
    let session = *state.sessions.entry(id.to_string()).or_insert(next);
    let request = Request {
        lines,
        running,
        peek: true,
        ..Request::default()
    };
    let log = open_log(path.as_ref());
    let reply = engine
        .read(&mut state.engine, Job { id, path }, log.as_ref(), &request)
        .map_err(|r| r.0)?;
    let process = if running {
        format!("Process running with session ID {session}")
    } else {
        "Process exited with code 0".to_string()
    };
    let text = format!(
        "Chunk ID: 000000\nWall time: 0.0000 seconds\n{process}\nOutput:\n{}",
        reply.text
    );
    Ok((text, reply.shown_ranges()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_poll_shows_what_is_new_under_codexs_envelope() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.log");
        let path_str = path.to_str().unwrap();
        let engine = ExactEngine::new(limits(false));
        let mut state = State::default();
        std::fs::write(&path, "s0\ns1\n").unwrap();
        let (text, shown) = poll(&engine, &mut state, ("j", path_str), None, true).unwrap();
        assert!(text.starts_with("Chunk ID: 000000\nWall time: 0.0000 seconds\nProcess running with session ID 1000\nOutput:\n"), "{text}");
        assert_eq!(shown, [(0, 3), (3, 6)]);
        std::fs::write(&path, "s0\ns1\ns2\n").unwrap();
        let (text, shown) = poll(&engine, &mut state, ("j", path_str), None, false).unwrap();
        assert!(
            text.contains("Process exited with code 0\nOutput:\n"),
            "{text}"
        );
        assert_eq!(shown, [(6, 9)]);
    }
}
