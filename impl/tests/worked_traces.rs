//! The worked traces of docs/pi-bgrun-0.7.1.md (§8.1–§8.3) through both engines, as reviewed snapshots.
//!
//! Each step records the request, the reply's kind, its exact text, upstream's `details`, and
//! which view lines the text carries. YAML, so that any change of a byte shows as a diff.

use crate::common::numbered;

use bgtail::source::MemoryLog;
use bgtail::{Engine, ExactEngine, Request, ShippedEngine, Tail};
use serde_json::{json, Value};

enum Step {
    Append(String),
    Read(Request),
}

fn run<E: Engine>(engine: E, start: &str, steps: &[Step]) -> Vec<Value> {
    let mut log = MemoryLog::new();
    log.append(start.as_bytes());
    let mut t = Tail::new(engine, "trace-1-1", "/trace.log");
    let mut out = Vec::new();
    for step in steps {
        match step {
            Step::Append(text) => {
                log.append(text.as_bytes());
                out.push(json!({ "append_lines": text.lines().count() }));
            }
            Step::Read(req) => {
                let r = t.read(&log.source(), req).unwrap();
                out.push(json!({
                    "request": req,
                    "kind": r.kind,
                    "text": r.text,
                    "details": r.details,
                    "view_lines_shown": r.shown.iter().map(|s| s.view_line).collect::<Vec<_>>(),
                }));
            }
        }
    }
    out
}

fn gap_steps() -> Vec<Step> {
    vec![
        Step::Read(Request::lines(5)),
        Step::Append(numbered(11, 13)),
        Step::Read(Request::lines(2)),
        Step::Read(Request::lines(4)),
        Step::Read(Request::lines(6)),
        Step::Read(Request::lines(6)),
    ]
}

fn conformance_steps() -> Vec<Step> {
    vec![
        Step::Read(Request::lines(3)),
        Step::Read(Request::lines(6)),
        Step::Read(Request::lines(2)),
        Step::Read(Request::lines(99)),
        Step::Read(Request::lines(99)),
        Step::Append(numbered(13, 13)),
        Step::Read(Request::lines(40)),
    ]
}

/// §8.2's log: 979 lines of 44 characters, so that 177 fit the budget.
fn cap_log() -> String {
    (1..=979)
        .map(|i| {
            let head = format!("L{i:04} ");
            format!("{head}{}\n", "c".repeat(44 - head.len()))
        })
        .collect()
}

fn cap_steps() -> Vec<Step> {
    vec![
        Step::Read(Request::lines(400)),
        Step::Read(Request::lines(400)),
        Step::Read(Request::lines(800)),
        Step::Read(Request::lines(979)),
    ]
}

#[test]
fn s8_1_scalar_coverage_gap() {
    insta::assert_yaml_snapshot!(
        "s8_1_shipped",
        run(ShippedEngine::default(), &numbered(1, 10), &gap_steps())
    );
    insta::assert_yaml_snapshot!(
        "s8_1_exact",
        run(ExactEngine::default(), &numbered(1, 10), &gap_steps())
    );
}

#[test]
fn s8_2_cap_symptom() {
    insta::assert_yaml_snapshot!(
        "s8_2_shipped",
        run(ShippedEngine::default(), &cap_log(), &cap_steps())
    );
    insta::assert_yaml_snapshot!(
        "s8_2_exact",
        run(ExactEngine::default(), &cap_log(), &cap_steps())
    );
}

#[test]
fn s8_3_conformance_vector() {
    insta::assert_yaml_snapshot!(
        "s8_3_shipped",
        run(
            ShippedEngine::default(),
            &numbered(1, 12),
            &conformance_steps()
        )
    );
    insta::assert_yaml_snapshot!(
        "s8_3_exact",
        run(
            ExactEngine::default(),
            &numbered(1, 12),
            &conformance_steps()
        )
    );
}
