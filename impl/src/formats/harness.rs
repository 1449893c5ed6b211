//! The harnesses whose recorded replies an imported trace may carry (its header's `harness`).

use serde::{Deserialize, Serialize};

/// A harness whose recorded replies an imported trace carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Harness {
    /// Codex CLI: `exec_command` and `write_stdin` replies, each a drain of the job's output
    /// inside Codex's envelope.
    Codex,
    /// Claude Code: `TaskOutput` replies, each the task's whole output so far (or its status
    /// alone) inside Claude Code's tags.
    ClaudeCode,
}
