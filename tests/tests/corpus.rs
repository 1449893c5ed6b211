//! Every trace under `traces/`, through both engines, as one YAML snapshot per trace and
//! engine: any change in behaviour shows as a reviewed diff.

use bgtail::replay::{replay, Replay};
use bgtail::trace::Trace;
use bgtail::{ExactEngine, ShippedEngine};
use serde_json::{json, Value};

fn snapshot_of(r: &Replay) -> Value {
    let reads: Vec<Value> = r
        .reads
        .iter()
        .map(|read| {
            let reply = read.reply.as_ref();
            json!({
                "event": read.event + 1,
                "request": read.request,
                "kind": reply.map(|r| r.kind),
                "reset": reply.and_then(|r| r.reset),
                "text": read.text,
                "details": reply.map(|r| Value::Object(r.details.to_map())),
                "view_lines_shown": reply.map(|r| r.shown.iter().map(|s| s.view_line).collect::<Vec<_>>()),
                "matches_recording": read.matches_recording,
                "repeated": read.repeated,
                "anomalies": read.anomalies,
            })
        })
        .collect();
    json!({ "tally": r.tally, "reads": reads })
}

#[test]
fn every_trace_through_both_engines() {
    insta::glob!("../../traces", "**/*.jsonl", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let trace = Trace::parse(&path.display().to_string(), &text).unwrap();
        let limits = trace.limits();
        // Another reader's limits the in-crate engines cannot keep (Codex's scaled budget):
        // every read is reported not replayed, with the relation they break.
        let (shipped, exact) = match limits.validate() {
            Ok(()) => (
                replay(&ShippedEngine::new(limits.clone()), &trace),
                replay(&ExactEngine::new(limits), &trace),
            ),
            Err(why) => {
                let why = format!("the trace's limits are another reader's: {why}");
                (
                    bgtail::replay::not_replayed("shipped", &trace, &why),
                    bgtail::replay::not_replayed("exact", &trace, &why),
                )
            }
        };
        // The corpus's own verdicts, independent of the snapshots.
        assert!(
            shipped.tally.faithful(),
            "{}: shipped departs from a recorded reply",
            path.display()
        );
        assert!(
            exact.tally.contract_held(),
            "{}: exact broke its contract: {:?}",
            path.display(),
            exact.tally
        );
        insta::assert_yaml_snapshot!("shipped", snapshot_of(&shipped));
        insta::assert_yaml_snapshot!("exact", snapshot_of(&exact));
    });
}

/// The pinned counterexamples still show the shipped engine's defects when replayed.
#[test]
fn pinned_counterexamples_replay_as_defects() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/counterexamples");
    let load = |name: &str| {
        let path = dir.join(name);
        Trace::parse(name, &std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let gap = load("shipped-gap-repeats-bounded.jsonl");
    let r = replay(&ShippedEngine::new(gap.limits()), &gap);
    assert!(r.tally.lines_repeated > 0, "{:?}", r.tally);
    assert!(replay(&ExactEngine::new(gap.limits()), &gap)
        .tally
        .contract_held());
    let cap = load("shipped-cap-nothing-lost.jsonl");
    let r = replay(&ShippedEngine::new(cap.limits()), &cap);
    assert!(r.tally.lines_lost > 0, "{:?}", r.tally);
    assert!(replay(&ExactEngine::new(cap.limits()), &cap)
        .tally
        .contract_held());
}

/// Across every fault in `traces/faults/` (truncation, rotation, same-size rewrite, a partial
/// line completed later, invalid UTF-8 and NUL bytes, CR-only and mixed endings, a body one unit
/// over the budget, coverage overflowing its ranges, a line longer than a 64 KiB view), the exact
/// engine loses nothing: every line of the final log was delivered, none counted unseen.
#[test]
fn no_line_is_lost_across_log_faults() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/faults");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let trace = Trace::parse(
            &path.display().to_string(),
            &std::fs::read_to_string(&path).unwrap(),
        )
        .unwrap();
        let r = replay(&ExactEngine::new(trace.limits()), &trace);
        assert!(r.tally.contract_held(), "{}: {:?}", path.display(), r.tally);
        assert_eq!(
            r.tally.lines_never_shown,
            0,
            "{}: {:?}",
            path.display(),
            r.tally
        );
        assert!(r
            .reads
            .iter()
            .any(|read| read.reply.as_ref().is_some_and(|x| x.counts.shown > 0)));
        checked += 1;
    }
    assert_eq!(checked, 11);
}

/// Every trace imported from another harness, audited: its recorded replies judged in the
/// harness's dialect beside the exact engine's on the same reads (`bgtail audit`'s figures).
#[test]
fn every_trace_imported_from_another_harness_audits_as_snapshotted() {
    insta::glob!(
        "../../traces/imported",
        "{codex,claude-code}/*.jsonl",
        |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let trace = Trace::parse(&path.display().to_string(), &text).unwrap();
            let audit = bgtail::harness_audit::audit(&trace);
            assert_eq!(audit.exact_tally.lines_lost, 0, "{}", path.display());
            insta::assert_yaml_snapshot!("audit", audit);
        }
    );
}
