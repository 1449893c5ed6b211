//! Fidelity with real recorded sessions: the shipped engine must reproduce, byte for byte,
//! every bgtail reply that pi-bgrun 0.7.x gave in the recorded sessions
//! (`upstream-sessions/red-tail-short` among the external inputs: docs/inputs.md).
//!
//! The logs are rebuilt from the replies themselves (bgrun-1 and bgrun-2 deliver every content
//! line exactly once; the README gives the raw positions of the 13 blank lines), grown between
//! calls to the line count each reply reports, with the exit marker once the job's record says
//! it finished.

use bgtail::pi_session::{layout, rebuild_from_chain, recorded_read, PiSession, RecordedRead};
use bgtail::source::MemoryLog;
use bgtail::{Engine, Job, Limits, Request, ShippedEngine};
use serde_json::Value;
use std::path::PathBuf;

/// Raw line numbers of the blank lines in red-tail-short's log (its README).
const BLANK_RAW_LINES: [usize; 13] = [
    2, 242, 263, 269, 285, 292, 299, 311, 318, 330, 335, 356, 359,
];

fn sessions_dir() -> PathBuf {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::SESSIONS).join("red-tail-short")
}

fn load(name: &str) -> PiSession {
    let path = sessions_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    PiSession::parse(&path.display().to_string(), &text).unwrap()
}

fn rebuilt_lines(session: &PiSession) -> Vec<String> {
    let reads: Vec<RecordedRead> = session
        .calls_to("bgtail")
        .map(|c| {
            let r = c.result.as_ref().expect("every call has its result");
            recorded_read(&r.text, &r.details).expect("bgrun-1/2 replies are verbatim")
        })
        .collect();
    rebuild_from_chain(&reads).expect("the chain adds up")
}

fn lines_arg(args: &Value) -> Option<f64> {
    args.get("lines").and_then(Value::as_f64)
}

/// The log as it stood when a call ran: the first `content` lines, then the exit marker if the
/// job had finished.
fn log_at(lines: &[String], content: usize, exit_code: Option<i64>) -> MemoryLog {
    let mut log = MemoryLog::new();
    log.append(layout(lines, &BLANK_RAW_LINES, content).as_bytes());
    if let Some(code) = exit_code {
        log.append(bgtail::trace::exit_marker(code).as_bytes());
    }
    log
}

/// Replays every bgtail call of a session; returns (matching replies, total replies).
fn replay_exact_chain(name: &str) -> (usize, usize) {
    let session = load(name);
    let lines = rebuilt_lines(&session);
    assert_eq!(
        lines.len(),
        349,
        "{name}: the rebuilt log has 349 content lines"
    );
    let engine = ShippedEngine::new(Limits::default());
    let mut state = Default::default();
    let (mut matched, mut total) = (0, 0);
    for call in session.calls_to("bgtail") {
        let recorded = call.result.as_ref().unwrap();
        let id = call.arguments["id"].as_str().unwrap();
        let path = recorded.details["logPath"].as_str().unwrap();
        let content = recorded.details["totalLines"]
            .as_u64()
            .unwrap_or_else(|| recorded.details["linesShown"].as_u64().unwrap())
            as usize;
        let exit = session
            .exit_before(id, recorded.line)
            .and_then(|j| j.exit_code);
        let log = log_at(&lines, content, exit);
        let request = Request {
            lines: lines_arg(&call.arguments),
            ..Request::default()
        };
        let reply = engine
            .read(&mut state, Job { id, path }, &log.source(), &request)
            .unwrap();
        total += 1;
        let details_match = serde_json::to_string(&reply.details).unwrap()
            == serde_json::to_string(&recorded.details).unwrap();
        if reply.text == recorded.text && details_match && !recorded.is_error {
            matched += 1;
        } else {
            eprintln!(
                "{name} line {}: mismatch\n--- recorded ({} chars)\n{}\n{}\n--- ours ({} chars)\n{}\n{}",
                recorded.line,
                recorded.text.len(),
                recorded.text,
                recorded.details,
                reply.text.len(),
                reply.text,
                Value::Object(reply.details.into())
            );
        }
    }
    eprintln!("{name}: {matched} of {total} recorded bgtail replies reproduced byte for byte");
    (matched, total)
}

#[test]
fn red_tail_short_bgrun_1_every_reply_byte_for_byte() {
    assert_eq!(replay_exact_chain("bgrun-1.jsonl"), (10, 10));
}

#[test]
fn red_tail_short_bgrun_2_every_reply_byte_for_byte() {
    assert_eq!(replay_exact_chain("bgrun-2.jsonl"), (9, 9));
}

/// bgrun-3's `lines: 133` read is the cap defect of #28 recorded in the wild: `+112 new lines`,
/// of which the condenser kept the oldest 85 (lines 21–105) and dropped 106–132.
///
/// Lines 1–20 and 21–105 come from bgrun-3's own replies. Lines 106–132 were never shown, so
/// they are stood in for by the same positions of bgrun-1's log (the same test suite, only the
/// timings differ); the reply depends on them only through line 106 not fitting the budget.
#[test]
fn red_tail_short_bgrun_3_capped_read_byte_for_byte() {
    let session = load("bgrun-3.jsonl");
    let stand_in = rebuilt_lines(&load("bgrun-1.jsonl"));
    let calls: Vec<_> = session.calls_to("bgtail").collect();
    assert_eq!(calls.len(), 2);
    let first = calls[0].result.as_ref().unwrap();
    let capped = calls[1].result.as_ref().unwrap();
    let mut lines: Vec<String> = first.text.split('\n').map(str::to_owned).collect();
    assert_eq!(lines.len(), 20);
    let body = capped.text.split_once('\n').unwrap().1;
    let body = body.split("\n\n(output capped").next().unwrap();
    lines.extend(body.split('\n').map(str::to_owned));
    assert_eq!(lines.len(), 105);
    lines.extend(stand_in[105..132].iter().cloned());

    let engine = ShippedEngine::new(Limits::default());
    let mut state = Default::default();
    for (call, recorded, content) in [(calls[0], first, 20), (calls[1], capped, 132)] {
        let id = call.arguments["id"].as_str().unwrap();
        let path = recorded.details["logPath"].as_str().unwrap();
        let log = log_at(&lines, content, None);
        let request = Request {
            lines: lines_arg(&call.arguments),
            ..Request::default()
        };
        let reply = engine
            .read(&mut state, Job { id, path }, &log.source(), &request)
            .unwrap();
        assert_eq!(reply.text, recorded.text);
        assert_eq!(
            serde_json::to_string(&reply.details).unwrap(),
            serde_json::to_string(&recorded.details).unwrap()
        );
    }
    assert_eq!(
        capped.text.chars().map(char::len_utf16).sum::<usize>(),
        8145
    );
}
