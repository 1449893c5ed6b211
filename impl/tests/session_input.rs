//! Hostile input to the Codex and Claude Code session parsers and importers: a file cut at any
//! byte, nesting past serde's limit, NUL bytes and a 10 MB reply — an error naming the line,
//! or a clean import; never a panic.

use bgtail::claude_import::import_task;
use bgtail::claude_session::ClaudeSession;
use bgtail::codex_import::import_job;
use bgtail::codex_session::CodexSession;
use proptest::prelude::*;
use serde_json::json;

fn codex_line(t: u32, kind: &str, payload: serde_json::Value) -> String {
    json!({"timestamp": format!("2026-06-22T00:00:{t:02}.000Z"), "type": kind, "payload": payload})
        .to_string()
}

/// A rollout: one job started, polled once with a cut read, then once to its exit.
fn rollout(output: &str) -> String {
    let call = |t, id: &str, name: &str, args: serde_json::Value| {
        codex_line(
            t,
            "response_item",
            json!({"type": "function_call", "name": name,
            "arguments": args.to_string(), "call_id": id}),
        )
    };
    let reply = |t, id: &str, text: &str| {
        codex_line(
            t,
            "response_item",
            json!({"type": "function_call_output",
            "call_id": id, "output": text}),
        )
    };
    [
        codex_line(0, "session_meta", json!({"id": "s", "cli_version": "0.141.0"})),
        call(1, "c1", "exec_command", json!({"cmd": "make test"})),
        reply(2, "c1", &format!("Process running with session ID 3\nOutput:\n{output}")),
        call(3, "c2", "write_stdin", json!({"session_id": 3, "chars": ""})),
        reply(4, "c2", "Process running with session ID 3\nOriginal token count: 9\nOutput:\nTotal output lines: 5\n\na\nb…4 tokens truncated…e\n"),
        call(5, "c3", "write_stdin", json!({"session_id": 3, "chars": ""})),
        reply(6, "c3", "Process exited with code 1\nOutput:\nf\n"),
    ]
    .join("\n")
        + "\n"
}

fn transcript(output: &str) -> String {
    let at = |t: u32| format!("2026-02-21T01:00:{t:02}.000Z");
    let status = format!("<retrieval_status>success</retrieval_status>\n\n<status>completed</status>\n\n<output>\n{output}\n</output>");
    [
        json!({"type": "assistant", "sessionId": "s", "timestamp": at(0), "message": {"content": [
            {"type": "tool_use", "id": "u1", "name": "Bash", "input": {"command": "make", "run_in_background": true}}]}}),
        json!({"type": "user", "sessionId": "s", "timestamp": at(1), "toolUseResult": {"backgroundTaskId": "b1"},
            "message": {"content": [{"type": "tool_result", "tool_use_id": "u1",
            "content": "Command running in background with ID: b1. Output is being written to: /t/tasks/b1.output"}]}}),
        json!({"type": "assistant", "sessionId": "s", "timestamp": at(2), "message": {"content": [
            {"type": "tool_use", "id": "u2", "name": "TaskOutput", "input": {"task_id": "b1"}}]}}),
        json!({"type": "user", "sessionId": "s", "timestamp": at(3),
            "toolUseResult": {"task": {"status": "completed", "output": output, "exitCode": 0}},
            "message": {"content": [{"type": "tool_result", "tool_use_id": "u2", "content": status}]}}),
    ]
    .map(|l| l.to_string())
    .join("\n")
        + "\n"
}

/// Parses and imports every job; the error's line when the text does not parse.
fn codex(text: &str) -> Result<usize, usize> {
    let s = CodexSession::parse("r.jsonl", text).map_err(|e| e.line)?;
    for job in &s.jobs {
        let imported = import_job(&s, "r.jsonl", "t", job);
        assert!(Trace::parse("t", &imported.trace.to_jsonl()).is_ok());
    }
    Ok(s.jobs.len())
}

fn claude(text: &str) -> Result<usize, usize> {
    let s = ClaudeSession::parse("t.jsonl", text).map_err(|e| e.line)?;
    for task in &s.tasks {
        let imported = import_task(&s, "t.jsonl", "t", task);
        assert!(Trace::parse("t", &imported.trace.to_jsonl()).is_ok());
    }
    Ok(s.tasks.len())
}

use bgtail::trace::Trace;

#[test]
fn the_sessions_as_written_import_whole() {
    assert_eq!(codex(&rollout("first\n")), Ok(1));
    assert_eq!(claude(&transcript("a\nb\n")), Ok(1));
}

#[test]
fn nul_bytes_and_a_ten_megabyte_reply_are_kept() {
    let big = "x".repeat(10 << 20) + "\n";
    assert_eq!(codex(&rollout(&format!("a\0b\n{big}"))), Ok(1));
    assert_eq!(claude(&transcript(&format!("a\0b\n{big}"))), Ok(1));
    let s = CodexSession::parse("r", &rollout("a\0b\n")).unwrap();
    assert!(s.jobs[0].reads[0].text.contains("a\0b"));
}

#[test]
fn nesting_past_the_limit_is_an_error_on_its_line() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = CodexSession::parse("r", &format!("{deep}\n")).unwrap_err();
    assert!(e.message.contains("recursion limit"), "{e}");
    let e = ClaudeSession::parse("t", &format!("{{\"type\":\"user\"}}\n{deep}\n")).unwrap_err();
    assert_eq!(e.line, 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A file cut at any byte (a capture that stopped mid-write) parses up to the cut, or fails
    /// naming a line that exists; importing what parsed never panics.
    #[test]
    fn a_file_cut_anywhere_fails_on_a_line_it_has_or_imports(cut in 0usize..2_000) {
        for (text, parse) in [
            (rollout("first\nsecond\n"), codex as fn(&str) -> Result<usize, usize>),
            (transcript("a\nb\n"), claude),
        ] {
            let cut = cut.min(text.len());
            let cut = (0..=cut).rev().find(|&c| text.is_char_boundary(c)).unwrap();
            let head = &text[..cut];
            match parse(head) {
                Ok(_) => {}
                Err(line) => prop_assert!(line >= 1 && line <= head.split('\n').count(), "line {line}"),
            }
        }
    }
}
