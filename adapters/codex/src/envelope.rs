//! The text the model sees for one poll: Codex's `ExecCommandToolOutput::response_text` and
//! its helpers (`codex-rs/core/src/tools/context.rs`, lines 412–506 at 343074d4), and the two
//! functions of `codex-rs/utils/output-truncation/src/lib.rs` they call (lines 11–29),
//! re-expressed because those files need the rest of Codex's core and protocol crates. The
//! cutting itself is upstream's own code (`truncate_middle_with_token_budget`,
//! `truncate_middle_chars`, compiled from the inputs).

use crate::codex_utils_string::{
    approx_token_count, truncate_middle_chars, truncate_middle_with_token_budget,
};
use crate::policy::TruncationPolicy;
use crate::unified_exec::{format_output_omission_marker, resolve_max_tokens};
use std::num::NonZeroUsize;

/// What one poll returns, as `write_stdin` builds its `ExecCommandToolOutput`
/// (process_manager.rs, lines 839–915).
#[derive(Clone, Debug)]
pub struct PollOutput {
    /// Upstream's random chunk id; a fixed value here (the judge's dialect ignores it).
    pub chunk_id: String,
    /// Upstream's measured wait; a fixed value here (the judge's dialect ignores it).
    pub wall_time_secs: f64,
    /// The drained bytes, with the omission marker between head and tail when bytes were
    /// dropped (`HeadTailBuffer::to_bytes_with_omission_marker`).
    pub raw_output: Vec<u8>,
    /// The turn's truncation policy.
    pub truncation_policy: TruncationPolicy,
    /// The agent's `max_output_tokens`, when it passed one.
    pub max_output_tokens: Option<usize>,
    /// The session id while the process runs; `None` once it has exited.
    pub process_id: Option<i32>,
    /// The exit code once the process has exited.
    pub exit_code: Option<i32>,
    /// Tokens of everything the poll drained, dropped bytes included.
    pub original_token_count: Option<usize>,
    /// Bytes the head-tail buffer dropped from the middle.
    pub output_omitted_bytes: Option<NonZeroUsize>,
    /// Whether the output is cut again until header and output fit 1.2× the budget
    /// (upstream always runs this loop). At Codex's sizes it never cuts: 1.2 × 40,000 bytes
    /// less the header exceeds the 40,000 bytes of text, the warning and the two markers a cut
    /// output holds. At a budget of a few tokens those fixed texts alone exceed it and every
    /// output would be cut to a bare marker, so a scaled reader leaves the loop out, keeping
    /// what happens at full size.
    pub budget_loop: bool,
}

impl PollOutput {
    /// The smaller of the agent's token request (10,000 when absent) and the turn's policy
    /// (`model_output_policy`, context.rs:413).
    fn model_output_policy(&self) -> TruncationPolicy {
        let requested = TruncationPolicy::Tokens(resolve_max_tokens(self.max_output_tokens));
        if requested.byte_budget() < self.truncation_policy.byte_budget() {
            requested
        } else {
            self.truncation_policy
        }
    }

    /// The output cut to `policy`, with the omission marker kept or put first, and the warning
    /// line when it was cut (`truncated_output_with_policy`, context.rs:426).
    fn truncated_output_with_policy(&self, policy: TruncationPolicy) -> String {
        let text = String::from_utf8_lossy(&self.raw_output).to_string();
        let Some(omitted_bytes) = self.output_omitted_bytes else {
            return formatted_truncate_text(&text, policy);
        };
        let marker = format_output_omission_marker(omitted_bytes.get());
        if text.len() <= policy.byte_budget() {
            return if text.contains(&marker) {
                text
            } else {
                format!("{marker}\n{text}")
            };
        }
        let original_token_count = self
            .original_token_count
            .unwrap_or_else(|| approx_token_count(&text));
        let truncated = truncate_text(&text, policy);
        let omission_notice = if truncated.contains(&marker) {
            String::new()
        } else {
            format!("{marker}\n")
        };
        format!(
            "Warning: truncated output (original token count: {original_token_count})\n{omission_notice}\n{truncated}"
        )
    }

    /// `Chunk ID`, `Wall time`, the exit code or the session id, the token count, `Output:`
    /// (`response_header`, context.rs:455).
    fn response_header(&self) -> String {
        let mut sections = Vec::new();
        if !self.chunk_id.is_empty() {
            sections.push(format!("Chunk ID: {}", self.chunk_id));
        }
        sections.push(format!("Wall time: {:.4} seconds", self.wall_time_secs));
        if let Some(exit_code) = self.exit_code {
            sections.push(format!("Process exited with code {exit_code}"));
        }
        if let Some(process_id) = &self.process_id {
            sections.push(format!("Process running with session ID {process_id}"));
        }
        if let Some(original_token_count) = self.original_token_count {
            sections.push(format!("Original token count: {original_token_count}"));
        }
        sections.push("Output:".to_string());
        sections.join("\n")
    }

    /// The whole text the model sees: the header, then the output cut again, a smaller budget
    /// each time, until header and output fit 1.2× the turn's budget (`response_text`,
    /// context.rs:481).
    pub fn response_text(&self) -> String {
        let header = self.response_header();
        let output_budget = (self.truncation_policy * 1.2)
            .byte_budget()
            .saturating_sub(header.len().saturating_add(1));
        let mut policy = self.model_output_policy();
        let mut output = self.truncated_output_with_policy(policy);
        while self.budget_loop && output.len() > output_budget && policy.byte_budget() > 0 {
            let excess_bytes = output.len() - output_budget;
            policy = match policy {
                TruncationPolicy::Bytes(bytes) => {
                    TruncationPolicy::Bytes(bytes.saturating_sub(excess_bytes))
                }
                TruncationPolicy::Tokens(tokens) => TruncationPolicy::Tokens(
                    tokens.saturating_sub(TruncationPolicy::Bytes(excess_bytes).token_budget()),
                ),
            };
            output = self.truncated_output_with_policy(policy);
        }
        format!("{header}\n{output}")
    }
}

/// The text unchanged when it fits, else a warning with its token and line counts and the text
/// cut in the middle (`formatted_truncate_text`, output-truncation/src/lib.rs:11).
fn formatted_truncate_text(content: &str, policy: TruncationPolicy) -> String {
    if content.len() <= policy.byte_budget() {
        return content.to_string();
    }
    let original_token_count = approx_token_count(content);
    let total_lines = content.lines().count();
    let result = truncate_text(content, policy);
    format!(
        "Warning: truncated output (original token count: {original_token_count})\nTotal output lines: {total_lines}\n\n{result}"
    )
}

/// The middle cut of upstream's own truncation, by bytes or by tokens (`truncate_text`,
/// output-truncation/src/lib.rs:24).
fn truncate_text(content: &str, policy: TruncationPolicy) -> String {
    match policy {
        TruncationPolicy::Bytes(bytes) => truncate_middle_chars(content, bytes),
        TruncationPolicy::Tokens(tokens) => truncate_middle_with_token_budget(content, tokens).0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poll(raw: &[u8], tokens: usize, omitted: usize) -> PollOutput {
        PollOutput {
            chunk_id: "c0ffee".into(),
            wall_time_secs: 0.0,
            raw_output: raw.to_vec(),
            truncation_policy: TruncationPolicy::Tokens(tokens),
            max_output_tokens: Some(tokens),
            process_id: Some(1000),
            exit_code: None,
            original_token_count: Some(raw.len().div_ceil(4)),
            output_omitted_bytes: NonZeroUsize::new(omitted),
            budget_loop: false,
        }
    }

    #[test]
    fn output_within_the_budget_comes_whole_under_the_envelope() {
        assert_eq!(
            poll(b"s0\ns1\n", 10, 0).response_text(),
            "Chunk ID: c0ffee\nWall time: 0.0000 seconds\nProcess running with session ID 1000\n\
             Original token count: 2\nOutput:\ns0\ns1\n"
        );
    }

    #[test]
    fn output_past_the_budget_is_cut_inline_with_a_warning_and_its_line_count() {
        let text = poll(b"s0\ns1\ns2\n", 2, 0).response_text();
        let output = text.split_once("Output:\n").unwrap().1;
        assert_eq!(
            output,
            "Warning: truncated output (original token count: 3)\nTotal output lines: 3\n\n\
             s0\ns…1 tokens truncated…\ns2\n"
        );
    }

    #[test]
    fn dropped_bytes_are_named_by_the_omission_marker_even_when_the_cut_removes_it() {
        let raw = b"s0\n\n... 9 bytes omitted ...\ns3\n";
        let text = poll(raw, 2, 9).response_text();
        let output = text.split_once("Output:\n").unwrap().1;
        assert!(output.starts_with("Warning: truncated output"), "{output}");
        assert!(output.contains("... 9 bytes omitted ...\n"), "{output}");
        assert!(output.contains("tokens truncated…"), "{output}");
    }
}
