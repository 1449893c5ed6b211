//! Every reader the project measures (`docs/readers.md`): the page's tables are what
//! `bgtail readers` gives at CI's bounds, the shortest counterexamples it finds or replays
//! (mux's, found by full checks too slow for CI) are the committed ones byte for byte, and the
//! committed counterexamples replay with their anomalies through `bgtail replay`.

use crate::common::{codex_engine, gemini_cli_engine, mux_engine, repo, run_text as bgtail};
use std::collections::BTreeMap;

/// The files in `dir` whose names start with `prefix`, with their text.
fn traces_in(dir: &std::path::Path, prefix: &str) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(prefix) && name.ends_with(".jsonl"))
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).unwrap();
            (name, text)
        })
        .collect()
}

#[test]
fn the_readers_page_is_what_the_checks_give_and_its_counterexamples_are_committed() {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::GEMINI_CLI);
    bgtail_tests::inputs::require(&bgtail_tests::inputs::MUX);
    codex_engine("");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    let (code, report) = bgtail(&["readers", "--check", "--export", &out]);
    assert_eq!(code, Some(0), "{report}");
    let committed = repo().join("traces/counterexamples");
    for reader in ["cmd-pi-bgrun-", "cmd-gemini-cli-", "cmd-mux-", "cmd-codex-"] {
        let made = traces_in(dir.path(), reader);
        assert!(!made.is_empty(), "{reader}: no counterexample\n{report}");
        assert_eq!(made, traces_in(&committed, reader), "{reader}");
    }
}

#[test]
fn the_pinned_gemini_cli_and_mux_counterexamples_replay_with_their_anomalies() {
    let (gemini, mux, codex) = (gemini_cli_engine(), mux_engine(), codex_engine("--scaled"));
    for (engine, trace, anomalies) in [
        (
            &gemini,
            "cmd-gemini-cli-gap-repeats-bounded",
            &["repeats bounded: Repeated"][..],
        ),
        (
            &gemini,
            "cmd-gemini-cli-ci-nothing-lost",
            &["nothing lost: Lost", "progress: Stalled"],
        ),
        (
            &gemini,
            "cmd-gemini-cli-ci-resets-seen",
            &["resets seen: WrongReset"],
        ),
        (
            &gemini,
            "cmd-gemini-cli-cap-bounded-output",
            &["bounded output: OverBudget"],
        ),
        (
            &mux,
            "cmd-mux-cap-bounded-output",
            &["bounded output: OverBudget"],
        ),
        (
            &codex,
            "cmd-codex-cap-honest-counts",
            &["honest counts: UntrueLine", "nothing lost: OutOfReach"],
        ),
        (
            &codex,
            "cmd-codex-gap-progress",
            &["progress: Stalled", "nothing lost: OutOfReach"],
        ),
        (
            &mux,
            "cmd-mux-ci-honest-counts",
            &[
                "nothing lost: Lost",
                "progress: Stalled",
                "honest counts: UntrueLine",
                "resets seen: WrongReset",
            ],
        ),
    ] {
        let path = format!("traces/counterexamples/{trace}.jsonl");
        let (code, out) = bgtail(&["replay", "--require", "contract", "--engine", engine, &path]);
        assert_eq!(code, Some(1), "{trace}: {out}");
        for anomaly in anomalies {
            assert!(
                out.contains(&format!("!! {anomaly}")),
                "{trace}: {anomaly}\n{out}"
            );
        }
    }
}

#[test]
fn a_missing_checkout_fails_at_once_naming_it() {
    let (code, out) = bgtail(&["readers", "--check", "--shared", "/nowhere"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains(
            "/nowhere/upstream/pi-bgrun-0.7.1: pi-bgrun 0.7.1 (its own code)'s checkout is missing"
        ),
        "{out}"
    );
}
