use super::*;
use crate::formats::import_fixture::{
    monitor_transcript, task_output, tool_result, tool_use, transcript,
};
use serde_json::json;

#[test]
fn a_task_its_reads_and_its_end_are_read() {
    let s = ClaudeSession::parse("t.jsonl", &transcript()).unwrap();
    assert_eq!((s.id.as_str(), s.version.as_str()), ("s", "2.1.49"));
    let task = &s.tasks[0];
    assert_eq!(
        (task.id.as_str(), task.command.as_str(), task.asked),
        ("b1", "make", true)
    );
    let kinds: Vec<_> = task.reads.iter().map(|r| (r.line, r.t)).collect();
    assert_eq!(kinds, [(4, 3000), (6, 5000), (8, 7000)]);
    assert!(
        matches!(&task.reads[1].kind, ReadKind::AgentBash { command } if command.starts_with("tail"))
    );
    assert_eq!(task.ended, Some((7000, Some(0))));
}

#[test]
fn bad_lines_and_second_sessions_are_named() {
    let e = ClaudeSession::parse("t.jsonl", "{\"type\":\"user\"}\n[1,\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().starts_with("t.jsonl:2:"), "{e}");
    let two = "{\"type\":\"user\",\"sessionId\":\"a\"}\n{\"type\":\"user\",\"sessionId\":\"b\"}\n";
    let e = ClaudeSession::parse("t.jsonl", two).unwrap_err();
    assert!(e.message.starts_with("a second session (`b`)"), "{e}");
}

#[test]
fn unknown_lines_and_reads_of_unknown_tasks_are_warned_of() {
    let (text, result) = task_output("running", "x\n", None);
    let lines = [
        json!({"type": "telemetry", "sessionId": "s"}).to_string(),
        tool_use(1, "u1", "TaskOutput", json!({"task_id": "zz"})),
        tool_result(2, "u1", &text, result),
    ];
    let s = ClaudeSession::parse("t.jsonl", &lines.join("\n")).unwrap();
    let at: Vec<_> = s.warnings.iter().map(|w| w.line).collect();
    assert_eq!(at, [1, 3]);
    assert!(s.warnings[1].message.contains("task `zz`"));
    assert!(s.tasks.is_empty());
}

#[test]
fn a_monitor_s_events_are_reads_delivered_or_still_queued() {
    let s = ClaudeSession::parse("t.jsonl", &monitor_transcript()).unwrap();
    let task = &s.tasks[0];
    assert_eq!((task.id.as_str(), task.monitor), ("m1", true));
    let events: Vec<_> = task
        .reads
        .iter()
        .map(|r| match &r.kind {
            ReadKind::MonitorEvent { event, delivered } => {
                (r.line, r.t, event.as_str(), *delivered)
            }
            other => panic!("not an event: {other:?}"),
        })
        .collect();
    assert_eq!(
        events,
        [
            (5, 4000, "lint: pass\nbuild: pending", true),
            (6, 9000, "build: pass", false)
        ]
    );
    assert!(task.reads[0].text.starts_with("<task-notification>"));
}
