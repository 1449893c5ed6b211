//! Hostile input to every parser and to the engines' numbers: clear errors, no panics.

use bgtail::pi_session::PiSession;
use bgtail::source::MemoryLog;
use bgtail::trace::Trace;
use bgtail::{ExactEngine, Request, ShippedEngine, Tail};

const HEADER: &str = r#"{"bgtail_trace":1,"name":"t","source":"hand-written"}"#;

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = Trace::parse("deep.jsonl", &format!("{HEADER}\n{deep}\n")).unwrap_err();
    assert_eq!(e.line, 2);
    let inside =
        format!("{HEADER}\n{{\"event\":\"other_tool\",\"name\":\"x\",\"arguments\":{deep}}}\n");
    let e = Trace::parse("deep.jsonl", &inside).unwrap_err();
    assert!(e.message.contains("recursion limit"), "{e}");
    let e = PiSession::parse("deep.jsonl", &deep).unwrap_err();
    assert!(e.message.contains("recursion limit"), "{e}");
    let nested_args = format!(
        r#"{{"type":"message","message":{{"role":"assistant","content":[{{"type":"toolCall","id":"a","name":"bgtail","arguments":{}1{}}}]}}}}"#,
        "[".repeat(5_000),
        "]".repeat(5_000)
    );
    assert!(PiSession::parse("s", &nested_args).is_err());
}

#[test]
fn huge_negative_and_non_numbers_are_refused_or_clamped() {
    let huge = Trace::parse(
        "x",
        &format!("{HEADER}\n{{\"event\":\"read\",\"lines\":1e400}}\n"),
    )
    .unwrap_err();
    assert!(huge.message.contains("number out of range"), "{huge}");
    let nan = Trace::parse(
        "x",
        &format!("{HEADER}\n{{\"event\":\"read\",\"lines\":NaN}}\n"),
    )
    .unwrap_err();
    assert_eq!(nan.line, 2);
    let trace = Trace::parse(
        "x",
        &format!("{HEADER}\n{{\"event\":\"read\",\"lines\":-5,\"bytes\":-1e300}}\n{{\"event\":\"truncate\",\"len\":18446744073709551615}}\n"),
    )
    .unwrap();
    assert_eq!(trace.events.len(), 2);
    let e = Trace::parse(
        "x",
        &format!("{HEADER}\n{{\"event\":\"truncate\",\"len\":-1}}\n"),
    )
    .unwrap_err();
    assert!(e.message.contains("invalid value"), "{e}");
}

#[test]
fn engines_take_any_number_javascript_could_pass() {
    let mut log = MemoryLog::new();
    log.append(b"a\nb\nc\n");
    let odd = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        -1.0,
        0.5,
        1e300,
        -1e300,
        f64::MIN_POSITIVE,
        9_007_199_254_740_993.0,
    ];
    for &lines in &odd {
        for &bytes in &odd {
            let req = Request {
                lines: Some(lines),
                bytes: Some(bytes),
                ..Request::default()
            };
            let mut shipped = Tail::new(ShippedEngine::default(), "job-1-1", "/j.log");
            let mut exact = Tail::new(ExactEngine::default(), "job-1-1", "/j.log");
            for _ in 0..2 {
                assert!(!shipped.read(&log.source(), &req).unwrap().is_error);
                let r = exact.read(&log.source(), &req).unwrap();
                assert!(
                    !r.is_error && r.counts.shown <= 3,
                    "lines {lines} bytes {bytes}: {}",
                    r.text
                );
            }
        }
    }
}

#[test]
fn traces_with_unknown_fields_are_refused_rather_than_half_read() {
    let e = Trace::parse(
        "x",
        &format!("{HEADER}\n{{\"event\":\"read\",\"lines\":5,\"line\":6}}\n"),
    )
    .unwrap_err();
    assert!(e.message.contains("unknown field `line`"), "{e}");
    let limits = |budget: u32, lines: u32| {
        format!(
            r#"{{"bgtail_trace":1,"name":"t","source":"hand-written","limits":{{"text_budget":{budget},"line_cap":2000,"fold_threshold":3,"default_lines":{lines},"view_default":2097152,"view_max":67112960,"scan_lines_max":500000,"bookmark_capacity":1000,"coverage_ranges_max":64,"first_line_units":200,"head_probe_bytes":4096}}}}"#
        )
    };
    let e = Trace::parse("x", &limits(8000, 0)).unwrap_err();
    assert!(e.message.starts_with("bad limits: default_lines"), "{e}");
    // A budget below one capped line is another reader's (Codex's, scaled): the trace is read,
    // and only the in-crate engines refuse to run with it.
    let t = Trace::parse("x", &limits(10, 40)).unwrap();
    let why = t.limits().validate().unwrap_err().to_string();
    assert!(
        why.starts_with("text_budget 10 cannot hold one capped line"),
        "{why}"
    );
}
