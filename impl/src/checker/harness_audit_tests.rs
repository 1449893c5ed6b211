use super::*;
use crate::formats::claude_import::import_task;
use crate::formats::claude_session::ClaudeSession;
use crate::formats::import_fixture::{monitor_transcript, transcript};
use crate::formats::trace::OtherTool;

fn imported(text: &str) -> Trace {
    let s = ClaudeSession::parse("t.jsonl", text).unwrap();
    import_task(&s, "t.jsonl", "t", &s.tasks[0]).trace
}

#[test]
fn a_monitor_event_is_judged_as_its_lines_between_the_tags() {
    let trace = imported(&monitor_transcript());
    let clean = audit(&trace);
    assert_eq!(clean.findings, Vec::<String>::new());
    assert_eq!(
        (
            clean.harness_tally.lines_delivered,
            clean.harness_tally.lines_never_shown
        ),
        (2, 1)
    );
    let mut lying = trace.clone();
    for event in &mut lying.events {
        if let Event::Read(read) = event {
            let expect = read.expect.as_mut().unwrap();
            expect.text = expect.text.replace("build: pending", "build: green");
        }
    }
    let judged = audit(&lying);
    assert_eq!(judged.untrue_lines, 1, "{:?}", judged.findings);
}

#[test]
fn a_read_window_s_numbered_lines_are_checked_against_the_file() {
    let mut trace = imported(&transcript());
    let window = |result: &str| {
        Event::OtherTool(OtherTool {
            t: Some(9000),
            name: "Read".into(),
            arguments: serde_json::json!({ "offset": 1 }),
            result: Some(result.into()),
        })
    };
    trace.events.push(window("     1→a\n     2→b"));
    assert_eq!(audit(&trace).agent_untrue_lines, 0);
    trace.events.push(window("     2→x\n     9→z"));
    let judged = audit(&trace);
    assert_eq!(judged.agent_untrue_lines, 2);
    let said: Vec<&String> = judged
        .findings
        .iter()
        .filter(|f| f.contains("Read"))
        .collect();
    assert_eq!(
        said,
        [
            "event 9: the agent's Read shows line 2 as \"x\"; the file holds \"b\"",
            "event 9: the agent's Read shows line 9 as \"z\"; the file has 4 lines"
        ]
    );
}
