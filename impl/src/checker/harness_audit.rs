//! What a harness's reads of one imported job cost the agent, and what the exact engine would
//! have sent on the same reads: the recorded replies judged in the harness's dialect by the one
//! judge, then the same trace replayed through the exact engine.
//!
//! The dialects, as the judge reads them:
//! - **pi-bgrun 0.7.1** (a pi session's `bgtail` replies): its own text format and window.
//! - **Codex**: its own text format (`codex-343074d4`, with Codex 0.118–0.142's line count): a
//!   drain owes exactly the bytes written since the previous read, with no line window.
//! - **Claude Code**: `TaskOutput`'s tags are the reader's notes (`plain-1`), and the text
//!   between `<output>` and `</output>` is the log's lines as they are; with no window, a read
//!   owes every line of the log. A `Monitor` event is read the same way, its
//!   `<task-notification>` tags notes too: `<event>` and `</event>` open and close its first
//!   and last lines, and the judge reads them as lines of their own. A `Read` of the output
//!   file says what the file's line of each number holds, and is checked line by line.
//!
//! The exact engine's reads are the harness's, one for one, at the same moments, each with the
//! engine's default request: neither harness's read names a window of lines or a budget the
//! exact engine takes (Codex's `max_output_tokens` bounds what one poll may return; Claude
//! Code's `TaskOutput` has no bound), so the engine's own 40-line window and 8,000-character
//! budget stand. The agent's own reads of a Claude Code task's output file (a Bash `tail`, a
//! `Read`) are the agent's reader and not the harness's: they are counted, a `Read`'s numbered
//! lines are checked against the file, and the exact engine replays each as a read of its own.

use crate::checker::judge::{AnomalyKind, Rules};
use crate::checker::replay::{replay, Audit, Observed, ReadRecord, Tally};
use crate::engines::exact::ExactEngine;
use crate::engines::shipped::ShippedEngine;
use crate::formats::claude_session::numbered_lines;
use crate::formats::trace::{Event, Harness, Trace};
use crate::interface::plain::{Plain, PlainBody};
use crate::source::MemoryLog;
use crate::upstream::condense::TextFormat;
use crate::upstream::js::utf16_len;
use crate::upstream::limits::Limits;
use serde::Serialize;
use std::borrow::Cow;

/// One imported job, audited.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct JobAudit {
    /// The harness whose replies were judged; `None`: pi-bgrun 0.7.1's (a pi session).
    pub harness: Option<Harness>,
    /// Content lines of the rebuilt log at the trace's end.
    pub log_lines: u64,
    /// Of them, placeholders: lines no read showed, whose text is unknown.
    pub unknown_lines: u64,
    /// The harness's replies, judged: reads, characters, lines delivered, repeated, lost, never
    /// shown.
    pub harness_tally: Tally,
    /// Lines the harness's replies showed that the log does not hold (a line spliced by an
    /// inline cut marker).
    pub untrue_lines: u64,
    /// The agent's own reads of the output file, and their characters.
    pub agent_reads: u64,
    /// UTF-16 units of the agent's own reads' results.
    pub agent_chars: u64,
    /// Lines a `Read` of the output file numbered with a text the file's line of that number
    /// does not hold.
    pub agent_untrue_lines: u64,
    /// The same reads through the exact engine.
    pub exact_tally: Tally,
    /// What the judge found wrong with the harness's replies: `read N: anomaly`, N counting
    /// the trace's reads from 1.
    pub findings: Vec<String>,
}

impl JobAudit {
    /// Adds `other`'s counts to these (the total of several jobs of one harness).
    pub fn add(&mut self, other: &JobAudit) {
        self.log_lines += other.log_lines;
        self.unknown_lines += other.unknown_lines;
        self.harness_tally.add(&other.harness_tally);
        self.untrue_lines += other.untrue_lines;
        self.agent_reads += other.agent_reads;
        self.agent_chars += other.agent_chars;
        self.agent_untrue_lines += other.agent_untrue_lines;
        self.exact_tally.add(&other.exact_tally);
        self.findings.extend(other.findings.iter().cloned());
    }
}

/// Audits an imported trace: its recorded replies are its harness's, or pi-bgrun 0.7.1's when
/// it names none.
pub fn audit(trace: &Trace) -> JobAudit {
    let harness = trace.header.harness;
    let mut audit = Audit::new(rules_for(harness));
    let mut log = MemoryLog::new();
    let mut running = true;
    let (mut untrue, mut agent_reads, mut agent_chars, mut agent_untrue) = (0, 0, 0, 0);
    let mut findings = Vec::new();
    for (index, event) in trace.events.iter().enumerate() {
        event.apply_to(&mut log);
        audit.event(event);
        match event {
            Event::Exit(_) => running = false,
            Event::Read(read) => {
                let Some(expect) = &read.expect else { continue };
                let request = read.request(running, trace.header.running_gate);
                let mut record = ReadRecord::new(index, request.clone());
                let text = judged_text(harness, &expect.text);
                let observed = Observed {
                    text: &text,
                    is_error: expect.is_error,
                    shown: None,
                    fields: None,
                };
                audit.reply(log.bytes(), &request, observed, &mut record);
                untrue += record
                    .anomalies
                    .iter()
                    .filter(|a| a.kind == AnomalyKind::UntrueLine)
                    .count() as u64;
                let n = trace.events[..=index]
                    .iter()
                    .filter(|e| matches!(e, Event::Read(_)))
                    .count();
                findings.extend(record.anomalies.iter().map(|a| format!("read {n}: {a}")));
            }
            Event::OtherTool(tool) => {
                let result = tool.result.as_deref().unwrap_or("");
                agent_reads += 1;
                agent_chars += utf16_len(result) as u64;
                if tool.name == "Read" {
                    let wrong = untrue_numbered_lines(log.bytes(), result);
                    agent_untrue += wrong.len() as u64;
                    findings.extend(wrong.iter().map(|w| format!("event {}: {w}", index + 1)));
                }
            }
            _ => {}
        }
    }
    let bytes = log.bytes();
    let text = String::from_utf8_lossy(bytes);
    let mut harness_tally = audit.finish(bytes);
    // The agent's own reads are not the harness's: `Audit` counted them as not replayed.
    harness_tally.not_replayed = 0;
    let exact = replay(&ExactEngine::new(Limits::default()), &as_exact_reads(trace));
    JobAudit {
        harness,
        log_lines: crate::checker::judge::content_lines_of(bytes).len() as u64,
        unknown_lines: crate::formats::unknown::count(&text) as u64,
        harness_tally,
        untrue_lines: untrue,
        agent_reads,
        agent_chars,
        agent_untrue_lines: agent_untrue,
        exact_tally: exact.tally,
        findings,
    }
}

/// A Claude Code reply as the judge reads it: a `Monitor` event's `<event>` and `</event>` sit
/// on its first and last lines, and go onto lines of their own, where the notes pattern
/// finds them. Every other reply is read as it is.
fn judged_text(harness: Option<Harness>, text: &str) -> Cow<'_, str> {
    if harness != Some(Harness::ClaudeCode) {
        return Cow::Borrowed(text);
    }
    let (Some(open), Some(close)) = (text.find("<event>"), text.rfind("</event>")) else {
        return Cow::Borrowed(text);
    };
    if close < open {
        return Cow::Borrowed(text);
    }
    let body = open + "<event>".len();
    Cow::Owned(format!(
        "{}\n{}\n{}",
        &text[..body],
        &text[body..close],
        &text[close..]
    ))
}

/// The numbered lines of a `Read` result that the file (`log`, as it stood then) does not hold
/// at that number, each said. A line is the file's text up to a `\n`, without a `\r` before it.
fn untrue_numbered_lines(log: &[u8], result: &str) -> Vec<String> {
    let text = String::from_utf8_lossy(log);
    let lines: Vec<&str> = text.lines().collect();
    numbered_lines(result)
        .into_iter()
        .filter_map(|(n, shown)| {
            let held = n.checked_sub(1).and_then(|i| lines.get(i));
            match held {
                Some(&held) if held == shown => None,
                Some(held) => Some(format!(
                    "the agent's Read shows line {n} as {shown:?}; the file holds {held:?}"
                )),
                None => Some(format!(
                    "the agent's Read shows line {n} as {shown:?}; the file has {} lines",
                    lines.len()
                )),
            }
        })
        .collect()
}

/// The trace the exact engine replays: the agent's own reads of a Claude Code task's output
/// file become reads too, since through the exact engine they would be; pi's `bggrep` calls
/// search, and stay as they are.
fn as_exact_reads(trace: &Trace) -> Trace {
    if trace.header.harness != Some(Harness::ClaudeCode) {
        return trace.clone();
    }
    let events = trace
        .events
        .iter()
        .map(|e| match e {
            Event::OtherTool(tool) => Event::Read(crate::formats::trace::Read {
                t: tool.t,
                ..crate::formats::trace::Read::default()
            }),
            other => other.clone(),
        })
        .collect();
    Trace {
        header: trace.header.clone(),
        events,
    }
}

/// The rules the judge holds a harness's replies to.
fn rules_for(harness: Option<Harness>) -> Rules {
    match harness {
        None => crate::checker::replay::rules_of(&ShippedEngine::new(Limits::default())),
        Some(Harness::Codex) => {
            // The largest reply Codex may give: its token budget at 4 bytes a token.
            let limits = Limits {
                text_budget: 4 * CODEX_LARGEST_TOKENS,
                ..Limits::default()
            };
            let mut rules = Rules::new(TextFormat::Codex, limits);
            rules.line_window = false;
            rules.drain = true;
            rules.largest_view = u64::MAX;
            rules
        }
        Some(Harness::ClaudeCode) => {
            let mut rules = Rules::new(TextFormat::Plain, Limits::default());
            rules.line_window = false;
            rules.largest_view = u64::MAX;
            rules.plain = Plain::new(task_output_tags()).expect("the tags' pattern compiles");
            rules
        }
    }
}

/// `TaskOutput`'s and a `Monitor` event's own lines, declared as a plain reader's notes.
fn task_output_tags() -> PlainBody {
    PlainBody {
        notes: Some(TASK_OUTPUT_TAGS.into()),
        ..PlainBody::default()
    }
}

/// Every line of a `TaskOutput` reply or a `Monitor` notification that is not the task's output.
const TASK_OUTPUT_TAGS: &str =
    "<retrieval_status>[a-z_]+</retrieval_status>|<task_id>[^<]*</task_id>\
    |<task_type>[a-z_]+</task_type>|<status>[a-z_]+</status>|<exit_code>-?[0-9]+</exit_code>\
    |<output>|</output>\
    |<task-notification>|</task-notification>|<task-id>[^<]*</task-id>|<summary>.*</summary>\
    |<event>|</event>";

/// The largest `max_output_tokens` a Codex poll may ask for in the sessions at hand: the judge
/// holds every reply to it (4 bytes a token), since the import keeps no request's own budget.
const CODEX_LARGEST_TOKENS: usize = 30_000;

#[cfg(test)]
#[path = "harness_audit_tests.rs"]
mod tests;
