//! `bgtail_model::checking`, as `bgtail check` runs it, called without the binary.

use bgtail_model::checking;
use bgtail_model::{ModelConfig, TailModel};

#[test]
fn the_shipped_engine_breaks_issue_28s_properties_and_each_becomes_a_trace() {
    let (summary, model) =
        checking::check(TailModel::shipped(ModelConfig::issue_28_gap()), 2, false);
    let broken: Vec<&str> = summary.failures().iter().map(|v| v.name).collect();
    assert!(broken.contains(&"repeats bounded"), "{broken:?}");
    let found = checking::counterexamples(&model, &summary, "gap");
    assert_eq!(found.len(), broken.len());
    for c in &found {
        assert!(c.name.starts_with("shipped-gap-"), "{}", c.name);
        assert!(!c.name.contains(' '), "{}", c.name);
        assert_eq!(c.trace.header.name, c.name);
    }
    // The shortest counterexample is the committed one, byte for byte.
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces/counterexamples/shipped-gap-repeats-bounded.jsonl");
    let repeats = found
        .iter()
        .find(|c| c.name == "shipped-gap-repeats-bounded")
        .expect("the repeats counterexample");
    assert_eq!(
        repeats.trace.to_jsonl(),
        std::fs::read_to_string(committed).unwrap()
    );
}

#[test]
fn the_exact_engine_keeps_every_property_at_the_same_bound() {
    let (summary, model) = checking::check(TailModel::exact(ModelConfig::issue_28_gap()), 2, false);
    assert!(summary.unique > 0);
    assert!(summary.failures().is_empty());
    assert!(checking::counterexamples(&model, &summary, "gap").is_empty());
    let why: Vec<_> = summary
        .verdicts
        .iter()
        .filter_map(|v| v.why.as_ref())
        .collect();
    assert!(why.is_empty(), "{why:?}");
}
