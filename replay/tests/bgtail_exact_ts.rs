//! The exact engine's TypeScript package (`packages/bgtail-exact/`) proven equal to the in-crate
//! exact engine with the project's own tools:
//! - the differential harness (`bgtail compare`) over generated traces of every profile and the
//!   corpus: every read equal (text, `details` and its key order, error or not, shown ranges);
//! - the model checker over the protocol at the in-crate engine's protocol bounds: the same
//!   verdicts and unique state counts;
//! - the corpus replayed through it with the contract required: no anomaly.

mod common;

use common::{
    bgtail_exact_ts_engine, check_outcome as outcome, run_text as bgtail, PROTOCOL_BOUNDS,
};

/// `N traces, R reads, M mismatching reads`, as numbers.
fn figures(report: &str) -> (u64, u64, u64) {
    let line = report
        .lines()
        .find(|l| l.ends_with("mismatching reads"))
        .unwrap_or_else(|| panic!("no summary in:\n{report}"));
    let n: Vec<u64> = line
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

#[test]
fn every_generated_read_of_every_profile_equals_the_rust_engines() {
    let engine = bgtail_exact_ts_engine();
    let (code, report) = bgtail(&["compare", "--engine", &engine, "--generated", "300"]);
    let (traces, reads, mismatching) = figures(&report);
    assert_eq!((code, mismatching), (Some(0), 0), "{report}");
    // 300 of the default profile, 30 past the default view, 30 past the line bound.
    assert_eq!(traces, 360, "{report}");
    assert!(reads > 1_500, "{report}");
}

#[test]
fn every_corpus_read_equals_the_rust_engines_at_each_traces_limits() {
    let engine = bgtail_exact_ts_engine();
    let (code, report) = bgtail(&["compare", "--engine", &engine, "traces/"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(figures(&report).1 > 200, "{report}");
    let model = format!("{engine} --limits model");
    let (code, report) = bgtail(&[
        "compare",
        "--engine",
        &model,
        "--limits",
        "model",
        "traces/counterexamples/",
    ]);
    assert_eq!(code, Some(0), "{report}");
    // The traces written at the model's limits (the in-crate engines' counterexamples).
    assert!(figures(&report).0 >= 3, "{report}");
}

/// The harness is not blind: the package under other limits than the reference's differs on
/// the first read that reaches the budget, and the command says where and fails.
#[test]
fn a_port_that_reads_otherwise_is_named_read_by_read() {
    let engine = bgtail_exact_ts_engine();
    let (code, report) = bgtail(&[
        "compare",
        "--engine",
        &engine,
        "--limits",
        "model",
        "--generated",
        "20",
        "--profiles",
        "default",
    ]);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains(": text differs"), "{report}");
    assert!(figures(&report).2 > 0, "{report}");
}

#[test]
fn the_model_checker_gives_the_package_the_rust_engines_verdicts_and_state_counts() {
    let engine = format!("{} --limits model", bgtail_exact_ts_engine());
    for bound in PROTOCOL_BOUNDS {
        let (_, inside) = bgtail(&[&["check", "--engine", "exact"][..], bound].concat());
        let (_, outside) = bgtail(&[&["check", "--engine", &engine][..], bound].concat());
        assert_eq!(outcome(&inside), outcome(&outside), "{bound:?}\n{outside}");
        assert!(
            outside.contains("states rebuilt by snapshot/restore"),
            "{outside}"
        );
        assert!(!outside.contains("BROKEN"), "{outside}");
    }
}

#[test]
fn the_corpus_keeps_the_contract_through_the_package() {
    let engine = bgtail_exact_ts_engine();
    let (code, report) = bgtail(&[
        "replay",
        "--engine",
        &engine,
        "--require",
        "contract",
        "--quiet",
        "traces/",
    ]);
    assert_eq!(code, Some(0), "{report}");
}

/// The large run of docs/differential.md: ≥ 5,000 traces and ≥ 50,000 reads (about 4 minutes
/// on 2 cores). `cargo test -p bgtail-cli --test bgtail_exact_ts -- --ignored`.
#[test]
#[ignore = "about 4 minutes: the large differential run"]
fn the_large_differential_run_finds_no_mismatching_read() {
    let engine = bgtail_exact_ts_engine();
    let (code, report) = bgtail(&[
        "compare",
        "--engine",
        &engine,
        "--generated",
        "8000",
        "--seed",
        "1000",
    ]);
    let (traces, reads, mismatching) = figures(&report);
    assert_eq!((code, mismatching), (Some(0), 0), "{report}");
    assert!(traces >= 5_000 && reads >= 50_000, "{report}");
}
