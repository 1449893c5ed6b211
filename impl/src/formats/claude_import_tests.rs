use super::*;
use crate::formats::claude_session::ClaudeSession;

use crate::formats::import_fixture as transcript;

fn log_of(imported: &JobImport) -> String {
    transcript::log_of(&imported.trace)
}

#[test]
fn cumulative_reads_and_tails_rebuild_the_log_and_agree_with_the_final_output() {
    let s = ClaudeSession::parse("t.jsonl", &transcript::transcript()).unwrap();
    let imported = import_task(&s, "t.jsonl", "t", &s.tasks[0]);
    assert_eq!(log_of(&imported), "a\nb\nc\nd\n");
    assert_eq!(
        imported.report,
        ["the log rebuilt from the reads equals the finished task's output, byte for byte"]
    );
    let kinds: Vec<&str> = imported
        .trace
        .events
        .iter()
        .map(|e| match e {
            Event::Append(_) => "append",
            Event::Read(_) => "read",
            Event::OtherTool(_) => "agent",
            Event::Exit(_) => "exit",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["append", "read", "append", "agent", "exit", "append", "read"]
    );
}

#[test]
fn tail_counts_are_read_in_each_spelling() {
    assert_eq!(tail_count("sleep 5 && tail -20 /t/b1.output"), Some(20));
    assert_eq!(tail_count("tail -n 7 /t/b1.output"), Some(7));
    assert_eq!(tail_count("tail -n7 /t/b1.output"), Some(7));
    assert_eq!(tail_count("grep x /t/b1.output | tail -1"), None);
    assert_eq!(tail_count("wc -l /t/b1.output"), None);
}

#[test]
fn read_windows_place_their_numbered_lines() {
    let lines = crate::formats::claude_session::numbered_lines("     3→text\n12\tmore\ntext");
    assert_eq!(lines, [(3, "text"), (12, "more")]);
}

#[test]
fn a_monitor_s_events_follow_each_other_and_one_never_delivered_is_no_read() {
    let s = ClaudeSession::parse("t.jsonl", &transcript::monitor_transcript()).unwrap();
    let imported = import_task(&s, "t.jsonl", "t", &s.tasks[0]);
    assert_eq!(
        log_of(&imported),
        "lint: pass\nbuild: pending\nbuild: pass\n"
    );
    let reads = imported
        .trace
        .events
        .iter()
        .filter(|e| matches!(e, Event::Read(_)));
    assert_eq!(reads.count(), 1);
    assert_eq!(
        imported.report,
        ["event 2 at line 6: still queued when the transcript ends, never shown to the agent"]
    );
    assert!(
        imported
            .trace
            .header
            .description
            .contains("Monitor task m1"),
        "{}",
        imported.trace.header.description
    );
}

#[test]
fn a_read_window_past_the_log_s_end_is_placed_by_its_numbers_and_said() {
    let mut r = Rebuild {
        text: "a\n".into(),
        ..Rebuild::default()
    };
    assert_eq!(r.window(1, 9, "     1→a\n     2→b"), "b\n");
    assert_eq!(r.window(2, 10, "     5→e"), "e\n");
    assert_eq!(
        r.report,
        ["read 2 at line 10: a window from line 5 of a log known to line 1; placed right after it"]
    );
}
