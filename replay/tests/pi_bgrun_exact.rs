//! pi-bgrun with the exact engine: a pi-bgrun 0.7.1 checkout whose `bgtail` reads through the
//! TypeScript package (`node adapters/pi-bgrun/main.mjs CHECKOUT --exact`), so that what a pi
//! user runs after the change is what is checked:
//! - the model checker at the bounds where 0.7.1's own code breaks (gap, cap), and further:
//!   every property holds, its states rebuilt from the engine's snapshots;
//! - every read equal to the in-crate exact engine's (`bgtail compare`), generated and corpus;
//! - the imported pi sessions replayed with the contract required, with the in-crate engine's
//!   figures;
//! - a checkout it cannot route through the package, and a mode it does not have, are named.

use crate::common::{
    check_outcome as outcome, compare_figures as figures, pi_bgrun_engine, pi_bgrun_exact_engine,
    repo, run_text as bgtail,
};

/// The `always` verdicts of a check, in order.
fn always(report: &str) -> Vec<String> {
    outcome(report)
        .1
        .into_iter()
        .filter(|v| v.starts_with("  always"))
        .collect()
}

fn holds_everywhere(report: &str) -> bool {
    let verdicts = always(report);
    verdicts.len() == 6 && verdicts.iter().all(|v| v.ends_with("holds"))
}

/// Whether the check rebuilt its states from the engine's snapshots.
fn by_snapshot(report: &str) -> bool {
    report.contains("(states rebuilt by snapshot/restore;")
}

#[test]
fn every_property_holds_at_gap_and_cap_where_pi_bgruns_own_code_breaks() {
    let exact = pi_bgrun_exact_engine();
    let own = pi_bgrun_engine();
    // 0.7.1's own code keeps its bookmarks inside the extension: each state is its path of
    // reads, replayed. With the package, the bookmarks are its snapshots, which tell apart
    // only what a later read can: far fewer states.
    for (bound, own_states, fixed_counts) in [
        ("gap", 735, "170 states generated, 94 unique"),
        ("cap", 7_845, "1691 states generated, 937 unique"),
    ] {
        let (code, fixed) = bgtail(&["check", "--engine", &exact, "--bound", bound]);
        let (_, broken) = bgtail(&["check", "--engine", &own, "--bound", bound]);
        assert_eq!(code, Some(0), "{fixed}");
        assert!(holds_everywhere(&fixed), "{fixed}");
        assert!(broken.contains("BROKEN"), "{broken}");
        let own_counts = format!("{own_states} states generated, {own_states} unique");
        assert_eq!(outcome(&fixed).0, fixed_counts, "{fixed}");
        assert_eq!(outcome(&broken).0, own_counts, "{broken}");
        assert!(
            by_snapshot(&fixed) && !by_snapshot(&broken),
            "{fixed}\n{broken}"
        );
        assert!(
            fixed.starts_with("cmd:pi-bgrun+bgtail-exact engine"),
            "{fixed}"
        );
    }
}

#[test]
fn every_property_holds_at_the_budgets_edge() {
    let exact = pi_bgrun_exact_engine();
    let (code, report) = bgtail(&["check", "--engine", &exact, "--bound", "budget-edge"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(holds_everywhere(&report), "{report}");
    assert_eq!(outcome(&report).0, "3049 states generated, 2486 unique");
}

/// CI's families at 2 lines and 2 reads: partial lines, exits, truncation, rewrites and views,
/// which gap and cap leave out. This is where the engine's `shown` claims matter: two lines
/// that print the same are told apart by them (checked against the text), as the judge tells
/// them apart for the in-crate engine.
#[test]
fn every_property_holds_over_partial_lines_resets_and_views() {
    let exact = pi_bgrun_exact_engine();
    let (code, report) = bgtail(&[
        "check",
        "--engine",
        &exact,
        "--bound",
        "ci",
        "--max-lines",
        "2",
        "--max-reads",
        "2",
    ]);
    assert_eq!(code, Some(0), "{report}");
    assert!(holds_everywhere(&report), "{report}");
    assert_eq!(outcome(&report).0, "36881 states generated, 10033 unique");
    assert!(by_snapshot(&report), "{report}");
}

#[test]
fn every_read_equals_the_rust_engines_through_pi_bgruns_tool() {
    let exact = pi_bgrun_exact_engine();
    let (code, report) = bgtail(&["compare", "--engine", &exact, "--generated", "100"]);
    assert_eq!(
        (code, figures(&report)),
        (Some(0), (120, 759, 0)),
        "{report}"
    );
    let (code, report) = bgtail(&["compare", "--engine", &exact, "traces/"]);
    let (_, reads, mismatching) = figures(&report);
    assert_eq!((code, mismatching), (Some(0), 0), "{report}");
    assert!(reads > 200, "{report}");
}

/// Each trace's row of a replay table without its engine and fidelity columns: reads, chars,
/// lines, repeated, repeated chars, lost, unseen.
fn rows(table: &str) -> Vec<String> {
    // The table: after its header row, up to the first line that is no row (stderr follows
    // stdout here: the engine's profile, then the closing count).
    table
        .lines()
        .skip_while(|l| !l.starts_with("trace "))
        .skip(1)
        .take_while(|l| l.split_whitespace().count() >= 10)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            format!("{} {}", w[0], w[2..9].join(" "))
        })
        .collect()
}

#[test]
fn the_imported_pi_sessions_keep_the_contract_with_the_rust_engines_figures() {
    let exact = pi_bgrun_exact_engine();
    let replay = |engine: &str| {
        bgtail(&[
            "replay",
            "--engine",
            engine,
            "--require",
            "contract",
            "--quiet",
            "traces/imported/",
        ])
    };
    let (code, through_pi) = replay(&exact);
    assert_eq!(code, Some(0), "{through_pi}");
    let (_, in_crate) = replay("exact");
    let (ours, reference) = (rows(&through_pi), rows(&in_crate));
    // The 16 pi sessions and the 6 jobs imported from Codex and Claude Code sessions.
    assert_eq!(ours.len(), 22, "{through_pi}");
    assert_eq!(ours, reference, "{through_pi}\n{in_crate}");
    // Nothing repeated and nothing lost, in any session: columns repeated, their chars, lost.
    for row in &ours {
        let w: Vec<&str> = row.split(' ').collect();
        assert_eq!(w[4..7], ["0", "0", "0"], "{row}");
    }
}

#[test]
fn the_corpus_keeps_the_contract_through_pi_bgruns_tool() {
    let exact = pi_bgrun_exact_engine();
    let (code, report) = bgtail(&[
        "replay",
        "--engine",
        &exact,
        "--require",
        "contract",
        "--quiet",
        "traces/",
    ]);
    assert_eq!(code, Some(0), "{report}");
}

fn adapter(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new("node")
        .current_dir(repo())
        .arg("adapters/pi-bgrun/main.mjs")
        .args(args)
        .output()
        .expect("node runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A checkout whose `bgtail` is read by another function than `bgtailCore` cannot be routed
/// through the package: the adapter says so and where, and serves nothing.
#[test]
fn a_checkout_without_bgtail_core_is_named() {
    let checkout = bgtail_tests::inputs::require(&bgtail_tests::inputs::PI_BGRUN);
    let dir = tempfile::tempdir().unwrap();
    let extension = dir.path().join("extension");
    std::fs::create_dir(&extension).unwrap();
    let source = std::fs::read_to_string(checkout.join("extension/index.ts")).unwrap();
    let entry = extension.join("index.ts");
    std::fs::write(&entry, source.replace("bgtailCore(", "readTail(")).unwrap();
    let (code, stderr) = adapter(&[dir.path().to_str().unwrap(), "--exact"]);
    assert_eq!(code, Some(2), "{stderr}");
    let expected = format!(
        "{}: cannot read through the exact engine: `async function bgtailCore(` is declared nowhere",
        entry.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn the_oracle_records_pi_bgruns_own_replies_only() {
    let checkout = bgtail_tests::inputs::require(&bgtail_tests::inputs::PI_BGRUN);
    let out = tempfile::tempdir().unwrap();
    let (code, stderr) = adapter(&[
        checkout.to_str().unwrap(),
        "--exact",
        "--oracle",
        "--out",
        out.path().to_str().unwrap(),
        "traces/imported",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--exact is for the protocol, not --oracle"),
        "{stderr}"
    );
}
