//! The corpus bites on its own: each trace under `traces/contract/` holds one mechanism of the
//! exact engine, which its description names, and `replay` of that trace alone fails when the
//! mechanism is broken, with the anomaly below named. A mechanism a wrapper can break from
//! outside the engine is broken by `bgtail serve --break KIND`; the count-back over blank and
//! wrapper lines and the newlines a line-index mark records sit inside a read, where no wrapper
//! reaches, and are broken by cargo-mutants (`scripts/mutants.sh --corpus`, docs/mutation.md),
//! against which `the_corpus_keeps_the_contract_through_the_exact_engine` is the test: the
//! corpus alone.

use crate::common::{repo, run_text as bgtail};

/// Each trace, the break of its mechanism, and the anomaly that names it.
const MECHANISMS: [(&str, &str, &str); 6] = [
    // Coverage runs stop at a line the budget left out, so that a wider read shows it.
    (
        "coverage-closed-at-an-unshown-line",
        "covers-left-out",
        "nothing lost: Lost",
    ),
    // The settled end (where new lines begin) sits at the end of what was shown.
    (
        "line-grows-after-it-was-shown",
        "settled-off-by-one",
        "honest counts: DishonestCount",
    ),
    // The unfinished last line's fingerprint, taken whether or not it was shown.
    (
        "partial-line-cut-and-regrown-behind-the-head",
        "forgets-partial-print",
        "resets seen: WrongReset",
    ),
    (
        "partial-line-redrawn-behind-the-head",
        "forgets-partial-print",
        "resets seen: WrongReset",
    ),
    // The bytes before the settled end, fingerprinted, behind an unchanged head.
    (
        "settled-bytes-rewritten-behind-the-head",
        "forgets-settled-print",
        "resets seen: WrongReset",
    ),
    // A partial line's start stays the settled end while it grows.
    (
        "partial-line-shown-then-completed-with-coverage",
        "settled-off-by-one",
        "honest counts: DishonestCount",
    ),
];

/// The traces whose mechanisms only a mutant of the engine's source breaks: the count-back
/// that numbers every line (`count.rs`'s `count_back`), and a mark that records the newlines
/// it passed multiplied, not added (`count.rs`'s `advance`).
const HELD_BY_A_MUTANT: [&str; 2] = [
    "count-runs-back-over-blank-and-wrapper-lines",
    "line-bound-counted-from-a-mark-before-the-view",
];

fn served(args: &str) -> String {
    format!("cmd:{} serve {args}", env!("CARGO_BIN_EXE_bgtail"))
}

fn path_of(trace: &str) -> String {
    format!("traces/contract/{trace}.jsonl")
}

#[test]
fn the_corpus_keeps_the_contract_through_the_exact_engine() {
    let (code, report) = bgtail(&[
        "replay",
        "--require",
        "contract",
        "--engine",
        "exact",
        "traces/",
    ]);
    assert_eq!(code, Some(0), "{report}");
}

#[test]
fn every_contract_trace_fails_alone_with_its_mechanism_broken() {
    for (trace, kind, anomaly) in MECHANISMS {
        let engine = served(&format!("--engine exact --break {kind}"));
        let path = path_of(trace);
        let (code, report) = bgtail(&[
            "replay",
            "--require",
            "contract",
            "--engine",
            &engine,
            &path,
        ]);
        assert_eq!(code, Some(1), "{trace} with {kind}: {report}");
        assert!(
            report.contains(&format!("!! {anomaly}")),
            "{trace} with {kind}: wanted {anomaly}\n{report}"
        );
    }
}

#[test]
fn every_contract_trace_has_its_mechanism_named_here() {
    let mut on_disk: Vec<String> = std::fs::read_dir(repo().join("traces/contract"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.strip_suffix(".jsonl").map(str::to_owned))
        .collect();
    on_disk.sort();
    let mut named: Vec<String> = MECHANISMS
        .iter()
        .map(|(trace, _, _)| trace.to_string())
        .chain(HELD_BY_A_MUTANT.map(str::to_string))
        .collect();
    named.sort();
    assert_eq!(on_disk, named);
}
