//! Codex jobs to traces: the log rebuilt from what the polls drained, every read kept with the
//! reply the agent saw as its expectation.
//!
//! Codex drains the job's output on every read, so the log is the concatenation of the reads'
//! texts — except where a read was cut to its token budget. Such a text opens with `Total
//! output lines: N`, keeps a head and a tail, and splices `…K tokens truncated…` into a line:
//! the head's complete lines and the tail's are placed, and the lines between them, whose text
//! no read showed, stand as placeholders ([`crate::formats::unknown`]). Where the session also
//! records the job's whole output (`exec_command_end`'s `aggregated_output`, Codex 0.128), the
//! log is rebuilt from it too, and the import says where the two disagree. Pure.

use crate::formats::codex_reply::{self, inline_cut};
use crate::formats::codex_session::{CodexJob, CodexSession};
use crate::formats::pi_import::JobImport;
use crate::formats::trace::{self, Event, Expected, Harness, Header, Source, Trace, Write};
use crate::formats::unknown::placeholder_of_len;

/// The log as rebuilt so far.
#[derive(Default)]
struct Rebuild {
    /// The log's text, placeholders in place of the lines no read showed.
    text: String,
    /// Placeholder lines in `text`.
    unknown: usize,
    events: Vec<Event>,
    report: Vec<String>,
}

/// Imports `job` of `session` (read from the file `file`) as the trace `name`.
pub fn import_job(session: &CodexSession, file: &str, name: &str, job: &CodexJob) -> JobImport {
    let mut r = Rebuild::default();
    for (n, read) in job.reads.iter().enumerate() {
        if !read.text.lines().any(|l| l == "Output:") {
            // Not Codex's envelope (`aborted by user after 29.7s`): the harness's word on the
            // call, no read of the job's output. Kept, not judged.
            r.report.push(format!(
                "read {} at line {}: a reply without Codex's envelope ({:?}); kept as another tool's result, not judged",
                n + 1,
                read.line,
                crate::upstream::js::truncate_utf16(&read.text, 60)
            ));
            r.events.push(Event::OtherTool(trace::OtherTool {
                t: Some(read.t),
                name: read.tool.clone(),
                arguments: serde_json::json!({ "session_id": job.process, "chars": read.chars }),
                result: Some(read.text.clone()),
            }));
            continue;
        }
        let reply = codex_reply::parse(&read.text);
        let piece = r.drained(n + 1, read.line, &reply);
        if !piece.is_empty() {
            r.events
                .push(Event::Append(Write::new(Some(read.t), piece.as_bytes())));
            r.text.push_str(&piece);
        }
        if let Some(code) = reply.exit_code {
            r.events.push(Event::Exit(trace::Exit {
                t: Some(read.t),
                code,
                marker: false,
            }));
        }
        r.events.push(Event::Read(read_of(read.t, &read.text)));
    }
    r.compare_with_final(job.aggregated_output.as_deref());
    let description = format!(
        "Codex {} ({}) job {} in {file}: {} reads; the log rebuilt from what they drained, {} line(s) of it never shown and unknown",
        session.cli_version,
        session.originator,
        job.process,
        job.reads.len(),
        r.unknown
    );
    JobImport {
        trace: Trace {
            header: header(name, description, session, job),
            events: r.events,
        },
        report: r.report,
    }
}

impl Rebuild {
    /// The text read `n` (at rollout line `line`) drained, placeholders standing for the lines
    /// a cut dropped.
    fn drained(&mut self, n: usize, line: usize, reply: &codex_reply::CodexReply<'_>) -> String {
        let display = reply.display;
        if !reply.says_cut {
            return display.to_owned();
        }
        let Some((start, end)) = inline_cut(display) else {
            self.report.push(format!(
                "read {n} at line {line}: cut without the inline marker (the head-tail buffer's \
                 omission); its text is placed as shown, and the bytes omitted are not in the log"
            ));
            return display.to_owned();
        };
        let cut = Cut::of(&display[..start], &display[end..]);
        let total = reply.total_lines.map_or(0, |t| t as usize);
        let shown = cut.head_lines + cut.tail_lines;
        let dropped = total
            .checked_sub(shown)
            .filter(|d| *d > 0)
            .unwrap_or_else(|| {
                self.report.push(format!(
                    "read {n} at line {line}: `Total output lines: {total}` is fewer than the {} \
                 lines shown around the cut; one unknown line stands for the cut",
                    shown + 1
                ));
                1
            });
        let first = self.text.matches('\n').count() + cut.head_lines + 1;
        // Codex's token count is ⌈bytes / 4⌉ of everything drained: the placeholders are padded
        // so that the rebuilt text is as long as the drained one.
        let bytes = reply.token_count.map_or(0, |t| 4 * t as usize);
        let piece = cut.rebuilt(first, dropped, bytes);
        self.unknown += dropped;
        self.report.push(format!(
            "read {n} at line {line}: cut to {} + {} of {total} lines; {dropped} line(s) never \
             shown stand as placeholders",
            cut.head_lines, cut.tail_lines
        ));
        piece
    }

    /// Says whether the log rebuilt from the reads is the job's whole output as recorded.
    fn compare_with_final(&mut self, output: Option<&str>) {
        let Some(output) = output else {
            return;
        };
        let line = |at: usize| self.text[..at].matches('\n').count() + 1;
        let same = self
            .text
            .bytes()
            .zip(output.bytes())
            .position(|(a, b)| a != b);
        let verdict = match same {
            None if self.text.len() == output.len() => {
                "the log rebuilt from the reads equals `aggregated_output`, byte for byte".into()
            }
            None => format!(
                "the log rebuilt from the reads ({} bytes) and `aggregated_output` ({} bytes) \
                 agree until the shorter ends",
                self.text.len(),
                output.len()
            ),
            Some(at) => format!(
                "the log rebuilt from the reads and `aggregated_output` first differ at byte {at} \
                 (line {}){}",
                line(at),
                if self.unknown > 0 {
                    ": the reads' cuts left lines unknown"
                } else {
                    ""
                }
            ),
        };
        self.report.push(verdict);
    }
}

/// The text around an inline cut: the head's complete lines and the start of the line the cut
/// falls in, the end of the line it resumes in and the tail's complete lines.
struct Cut<'a> {
    head: &'a str,
    head_partial: &'a str,
    tail_partial: &'a str,
    tail: &'a str,
    /// Whether the tail's first line ends (else the cut resumes in the log's last, unfinished
    /// line).
    tail_partial_ends: bool,
    head_lines: usize,
    tail_lines: usize,
}

impl<'a> Cut<'a> {
    fn of(before: &'a str, after: &'a str) -> Cut<'a> {
        let split = before.rfind('\n').map_or(0, |i| i + 1);
        let (tail_partial, tail, ends) = match after.split_once('\n') {
            Some((partial, rest)) => (partial, rest, true),
            None => (after, "", false),
        };
        Cut {
            head: &before[..split],
            head_partial: &before[split..],
            tail_partial,
            tail,
            tail_partial_ends: ends,
            head_lines: before[..split].matches('\n').count(),
            tail_lines: tail.split_terminator('\n').count(),
        }
    }

    /// The drained text with `dropped` placeholders from line `first` between head and tail,
    /// each keeping the known start or end of its line, padded toward `bytes` in all.
    fn rebuilt(&self, first: usize, dropped: usize, bytes: usize) -> String {
        let known = self.head.len()
            + self.head_partial.len()
            + self.tail_partial.len()
            + usize::from(self.tail_partial_ends)
            + self.tail.len()
            + (dropped - 1);
        let room = bytes.saturating_sub(known);
        let (each, more) = (room / dropped, room % dropped);
        let mut piece = self.head.to_owned();
        for k in 0..dropped {
            if k == 0 {
                piece.push_str(self.head_partial);
            }
            piece.push_str(&placeholder_of_len(first + k, each + usize::from(k < more)));
            if k + 1 < dropped {
                piece.push('\n');
            }
        }
        piece.push_str(self.tail_partial);
        if self.tail_partial_ends {
            piece.push('\n');
        }
        piece.push_str(self.tail);
        piece
    }
}

/// A read of the trace, with Codex's reply as the expectation.
fn read_of(t: u64, text: &str) -> trace::Read {
    trace::Read {
        t: Some(t),
        expect: Some(Expected {
            text: text.to_owned(),
            details: None,
            is_error: false,
        }),
        ..trace::Read::default()
    }
}

fn header(name: &str, description: String, session: &CodexSession, job: &CodexJob) -> Header {
    Header {
        bgtail_trace: trace::VERSION,
        name: name.to_owned(),
        source: Source::Imported,
        description,
        command: Some(job.command.clone()),
        machine: None,
        job_id: job.process.to_string(),
        log_path: format!("/codex/{}/{}.log", session.id, job.process),
        limits: None,
        running_gate: false,
        harness: Some(Harness::Codex),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::codex_session::CodexRead;
    use crate::formats::unknown;

    fn read(t: u64, text: &str) -> CodexRead {
        CodexRead {
            line: t as usize,
            t,
            tool: "write_stdin".into(),
            chars: String::new(),
            max_output_tokens: None,
            text: text.into(),
        }
    }

    fn job(reads: Vec<CodexRead>, output: Option<&str>) -> CodexJob {
        CodexJob {
            process: 7,
            command: "make".into(),
            started: 0,
            reads,
            aggregated_output: output.map(str::to_owned),
        }
    }

    fn log_of(imported: &JobImport) -> String {
        crate::formats::import_fixture::log_of(&imported.trace)
    }

    #[test]
    fn drains_concatenate_into_the_log() {
        let j = job(
            vec![
                read(1, "Process running with session ID 7\nOutput:\na\nb"),
                read(2, "Process running with session ID 7\nOutput:\n"),
                read(3, "Process exited with code 2\nOutput:\nc\n"),
            ],
            Some("a\nbc\n"),
        );
        let imported = import_job(&CodexSession::default(), "r.jsonl", "t", &j);
        assert_eq!(log_of(&imported), "a\nbc\n");
        assert_eq!(
            imported.report,
            ["the log rebuilt from the reads equals `aggregated_output`, byte for byte"]
        );
        let exit = imported.trace.events.iter().find_map(|e| match e {
            Event::Exit(x) => Some(x.code),
            _ => None,
        });
        assert_eq!(exit, Some(2));
    }

    #[test]
    fn a_cut_read_leaves_placeholders_for_the_lines_it_dropped() {
        let cut = "Process running with session ID 7\nOutput:\nTotal output lines: 6\n\n\
                   l1\nl2\nl…9 tokens truncated…5\nl6\n";
        let j = job(
            vec![
                read(1, "Process running with session ID 7\nOutput:\nl0\n"),
                read(2, cut),
            ],
            None,
        );
        let imported = import_job(&CodexSession::default(), "r.jsonl", "t", &j);
        let log = log_of(&imported);
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines[..3], ["l0", "l1", "l2"]);
        assert_eq!(lines[6], "l6");
        assert_eq!(unknown::count(&log), 3);
        assert!(lines[3].contains("line 4 was never shown"), "{}", lines[3]);
        assert!(imported.report[0].contains("cut to 2 + 1 of 6 lines; 3 line(s)"));
    }

    #[test]
    fn the_final_output_names_where_the_rebuild_differs() {
        let j = job(
            vec![read(1, "Process exited with code 0\nOutput:\na\nb\n")],
            Some("a\nB\n"),
        );
        let imported = import_job(&CodexSession::default(), "r.jsonl", "t", &j);
        assert_eq!(
            imported.report,
            ["the log rebuilt from the reads and `aggregated_output` first differ at byte 2 (line 2)"]
        );
    }
}
