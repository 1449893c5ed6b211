//! For the importers' tests: Claude Code transcript lines, and the log a trace leaves.

use serde_json::{json, Value};

pub(crate) fn at(s: u64) -> String {
    format!("2026-02-21T01:00:{s:02}.000Z")
}

pub(crate) fn tool_use(t: u64, id: &str, name: &str, input: Value) -> String {
    json!({"type": "assistant", "sessionId": "s", "version": "2.1.49", "timestamp": at(t),
        "message": {"content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
    .to_string()
}

pub(crate) fn tool_result(t: u64, id: &str, text: &str, result: Value) -> String {
    json!({"type": "user", "sessionId": "s", "timestamp": at(t), "toolUseResult": result,
        "message": {"content": [{"type": "tool_result", "tool_use_id": id, "content": text}]}})
    .to_string()
}

pub(crate) fn task_output(status: &str, output: &str, code: Option<i64>) -> (String, Value) {
    let exit = code.map_or(String::new(), |c| format!("<exit_code>{c}</exit_code>\n\n"));
    let text = format!(
        "<retrieval_status>success</retrieval_status>\n\n<task_id>b1</task_id>\n\n\
         <task_type>local_bash</task_type>\n\n<status>{status}</status>\n\n{exit}<output>\n{}\n</output>",
        output.trim_end()
    );
    let result = json!({"retrieval_status": "success",
        "task": {"task_id": "b1", "status": status, "output": output, "exitCode": code}});
    (text, result)
}

/// A task started, read by `TaskOutput` twice and by the agent's `tail` once.
pub(crate) fn transcript() -> String {
    let (first, first_result) = task_output("running", "a\nb\n", None);
    let (done, done_result) = task_output("completed", "a\nb\nc\nd\n", Some(0));
    [
        tool_use(0, "u1", "Bash", json!({"command": "make", "run_in_background": true})),
        tool_result(1, "u1", "Command running in background with ID: b1. Output is being written to: /tmp/tasks/b1.output", json!({"backgroundTaskId": "b1"})),
        tool_use(2, "u2", "TaskOutput", json!({"task_id": "b1", "block": false})),
        tool_result(3, "u2", &first, first_result),
        tool_use(4, "u3", "Bash", json!({"command": "tail -2 /tmp/tasks/b1.output"})),
        tool_result(5, "u3", "b\nc", json!({"stdout": "b\nc"})),
        tool_use(6, "u4", "TaskOutput", json!({"task_id": "b1", "block": true})),
        tool_result(7, "u4", &done, done_result),
    ]
    .join("\n")
}

fn notification(event: &str) -> String {
    format!(
        "<task-notification>\n<task-id>m1</task-id>\n<summary>Monitor event: \"ci\"</summary>\n<event>{event}</event>\n</task-notification>"
    )
}

/// A `Monitor` task: its first event queued and delivered, its second queued as the file ends.
pub(crate) fn monitor_transcript() -> String {
    let queued = |t: u64, op: &str, event: &str| {
        json!({"type": "queue-operation", "operation": op, "sessionId": "s", "timestamp": at(t),
            "content": notification(event)})
        .to_string()
    };
    let delivered = json!({"type": "attachment", "sessionId": "s", "timestamp": at(4),
        "attachment": {"type": "queued_command", "prompt": notification("lint: pass\nbuild: pending"),
            "commandMode": "task-notification"}})
    .to_string();
    [
        tool_use(
            0,
            "u1",
            "Monitor",
            json!({"command": "watch-ci", "timeout_ms": 300000}),
        ),
        tool_result(
            1,
            "u1",
            "Monitor started (task m1, timeout 300000ms). You will be notified on each event.",
            json!({"taskId": "m1"}),
        ),
        queued(3, "enqueue", "lint: pass\nbuild: pending"),
        queued(5, "remove", "lint: pass\nbuild: pending"),
        delivered,
        queued(9, "enqueue", "build: pass"),
    ]
    .join("\n")
}

/// The log's text once every event of `trace` has happened.
pub(crate) fn log_of(trace: &crate::formats::trace::Trace) -> String {
    let mut log = crate::source::MemoryLog::new();
    for e in &trace.events {
        e.apply_to(&mut log);
    }
    String::from_utf8(log.bytes().to_vec()).unwrap()
}
