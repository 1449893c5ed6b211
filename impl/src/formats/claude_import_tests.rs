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
    assert_eq!(numbered("     3→text"), Some("text"));
    assert_eq!(numbered("12\ttext"), Some("text"));
    assert_eq!(numbered("text"), None);
}
