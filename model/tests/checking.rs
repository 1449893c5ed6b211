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

/// What the console prints for each broken property is the path `--export` writes: the
/// shortest, equal byte for byte to the committed counterexamples of the shipped engine.
#[test]
fn the_console_path_is_the_exported_one_for_every_committed_shipped_counterexample() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/counterexamples");
    let mut compared = 0;
    for (slug, config) in [
        ("gap", ModelConfig::issue_28_gap()),
        ("cap", ModelConfig::issue_28_cap()),
    ] {
        let (summary, model) = checking::check(TailModel::shipped(config), 2, false);
        for v in summary.failures() {
            let path = v.discovery.as_ref().expect("a broken property has a path");
            assert_eq!(
                Some(path),
                bgtail_model::shortest_discovery(&model, v.name).as_ref(),
                "{slug}: {}",
                v.name
            );
            let exported = checking::counterexample(&model, slug, v.name, path);
            let file = dir.join(format!("{}.jsonl", exported.name));
            if let Ok(committed) = std::fs::read_to_string(&file) {
                assert_eq!(exported.trace.to_jsonl(), committed, "{}", file.display());
                compared += 1;
            }
        }
    }
    assert_eq!(
        compared, 3,
        "shipped-gap-repeats-bounded, shipped-cap-nothing-lost, -progress"
    );
}

/// A reply in a counterexample is shown whole but for long lines, cut with their length, and
/// the middle of a long reply, counted.
#[test]
fn a_counterexample_reply_elides_long_lines_and_counts_left_out_ones() {
    let long = "x".repeat(2_000);
    let lines = checking::reply_lines(&format!("head\n{long}\n\u{1b}[1mbold\r"));
    assert_eq!(lines[0], "head");
    assert_eq!(lines[1], format!("{}… (2000 chars)", "x".repeat(100)));
    assert_eq!(lines[2], "\\u{1b}[1mbold\\r");
    let many: Vec<String> = (0..100).map(|i| i.to_string()).collect();
    let shown = checking::reply_lines(&many.join("\n"));
    assert_eq!(shown.len(), 31);
    assert_eq!(shown[14], "14");
    assert_eq!(shown[15], "… 70 more lines …");
    assert_eq!(shown[16], "85");
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
