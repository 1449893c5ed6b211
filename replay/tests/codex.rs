//! Codex's reader through the harness (`adapters/codex`): a reader fed the job's output stream
//! is never sent a read it cannot be shown (a cut, a rewrite, another file), the model leaves
//! those actions out and says so, and the judge names what its cuts lose.

use crate::common::{codex_engine, run_text as bgtail};

#[test]
fn reads_after_a_change_an_appends_only_reader_cannot_see_are_not_replayed() {
    let engine = codex_engine("");
    for (trace, change) in [
        (
            "traces/faults/rotated-by-rename.jsonl",
            "another file replaces the log",
        ),
        (
            "traces/faults/truncated-to-zero-and-rewritten.jsonl",
            "the log is cut",
        ),
    ] {
        let (code, out) = bgtail(&[
            "replay",
            "--require",
            "contract",
            "--engine",
            &engine,
            trace,
        ]);
        assert_eq!(code, Some(0), "{trace}: {out}");
        assert!(
            out.contains(&format!(
                "(not replayed: not supported: {change}, and the reader is fed the job's output stream (appends_only))"
            )),
            "{trace}: {out}"
        );
        assert!(!out.contains("!! "), "{trace}: {out}");
    }
}

#[test]
fn the_model_leaves_cuts_and_rewrites_out_and_says_so() {
    let engine = codex_engine("--scaled");
    let (code, out) = bgtail(&[
        "check",
        "--engine",
        &engine,
        "--bound",
        "ci",
        "--max-lines",
        "2",
        "--max-reads",
        "2",
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("[Truncate, Rewrite: not supported (appends_only)]"),
        "{out}"
    );
    assert_eq!(verdict(&out, "resets seen"), Some("holds"), "{out}");
    assert!(
        verdict(&out, "nothing lost").is_some_and(|v| v.starts_with("BROKEN")),
        "{out}"
    );
}

/// The verdict a check's report gives `property`: what follows its name in its column.
fn verdict<'a>(report: &'a str, property: &str) -> Option<&'a str> {
    report.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("always")?;
        Some(rest.trim_start().strip_prefix(property)?.trim_start())
    })
}

#[test]
fn a_poll_past_the_budget_puts_lines_out_of_reach_and_joins_two() {
    let (code, out) = bgtail(&[
        "replay",
        "--require",
        "contract",
        "--engine",
        &codex_engine(""),
        "traces/issue-28/cap-979-lines.jsonl",
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("Total output lines: 979"), "{out}");
    assert!(
        out.contains("!! nothing lost: OutOfReach at line 434 (bytes 19971..20013"),
        "{out}"
    );
    assert!(out.contains("these 120 lines now"), "{out}");
    assert!(
        out.contains("!! honest counts: UntrueLine: expected a line of the log (the inline cut joins the start of one line to the end of another)"),
        "{out}"
    );
}

#[test]
fn the_exact_engine_in_codexs_place_keeps_the_contract_over_the_corpus() {
    let (code, out) = bgtail(&[
        "replay",
        "--require",
        "contract",
        "--engine",
        &codex_engine("--exact"),
        "traces/",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("!! "), "{out}");
}
