//! Which harness wrote a captured session, told from its first lines where that is
//! unambiguous: pi opens with a `session` line, a Codex rollout with `session_meta`, and every
//! line of a Claude Code transcript carries `sessionId` (or is one of its bookkeeping lines).

use serde_json::Value;

/// A harness whose sessions `bgtail import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SessionFormat {
    /// pi's session files: bgtail and bggrep calls of pi-bgrun.
    Pi,
    /// Codex CLI rollouts: `exec_command` and `write_stdin`.
    Codex,
    /// Claude Code transcripts: background Bash tasks and their reads.
    ClaudeCode,
}

impl SessionFormat {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            SessionFormat::Pi => "pi",
            SessionFormat::Codex => "codex",
            SessionFormat::ClaudeCode => "claude-code",
        }
    }
}

/// The lines of Claude Code's transcripts that carry no `sessionId`.
const CLAUDE_BOOKKEEPING: [&str; 3] = ["file-history-snapshot", "summary", "queue-operation"];

/// The format of the session whose text is `text`, from its first JSON object line; `Err`
/// says why it cannot be told (for the caller to name the file).
pub fn detect(text: &str) -> Result<SessionFormat, String> {
    for (i, raw) in text.lines().enumerate().take(50) {
        if raw.trim().is_empty() {
            continue;
        }
        let entry: Value = serde_json::from_str(raw).map_err(|e| {
            format!(
                "line {}: not JSON ({e}); give --format to read it anyway",
                i + 1
            )
        })?;
        let kind = entry.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "session" {
            return Ok(SessionFormat::Pi);
        }
        if kind == "session_meta" {
            return Ok(SessionFormat::Codex);
        }
        if entry.get("sessionId").is_some() {
            return Ok(SessionFormat::ClaudeCode);
        }
        if !CLAUDE_BOOKKEEPING.contains(&kind) {
            return Err(format!(
                "line {}: a `{kind}` line opens no session format this importer knows; give --format",
                i + 1
            ));
        }
    }
    Err("no line that tells pi's, Codex's or Claude Code's format; give --format".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_told_by_its_first_lines() {
        assert_eq!(
            detect("{\"type\":\"session\",\"version\":3}\n"),
            Ok(SessionFormat::Pi)
        );
        assert_eq!(
            detect("\n{\"type\":\"session_meta\"}\n"),
            Ok(SessionFormat::Codex)
        );
        let claude =
            "{\"type\":\"file-history-snapshot\"}\n{\"type\":\"user\",\"sessionId\":\"s\"}\n";
        assert_eq!(detect(claude), Ok(SessionFormat::ClaudeCode));
    }

    #[test]
    fn what_cannot_be_told_says_why() {
        assert!(detect("{oops\n")
            .unwrap_err()
            .starts_with("line 1: not JSON"));
        assert!(detect("{\"type\":\"event\"}\n")
            .unwrap_err()
            .contains("`event` line"));
        assert!(detect("").unwrap_err().starts_with("no line"));
    }
}
