//! `docs/your-reader.md`'s two readers, written in Python against the docs alone
//! (`examples/python/`), judged in the plain format with nothing else declared: the stateless
//! tail repeats lines and, past the budget, is over it; the cursor that keeps the oldest
//! 8,000 characters loses the newest lines and stalls on them. The skeleton they share
//! (`eut.py`) is the quickstart's, so these tests are what keep it runnable.

use crate::common::run_text;

/// `bgtail check --engine "cmd:python3 examples/python/<reader>" [--bound <bound>]`: its
/// exit code and what it printed.
fn check(reader: &str, bound: Option<&str>) -> (Option<i32>, String) {
    let engine = format!("cmd:python3 examples/python/{reader}");
    let mut args = vec!["check", "--engine", &engine];
    args.extend(bound.iter().flat_map(|b| ["--bound", b]));
    run_text(&args)
}

/// The verdict line of `property` in a check's output.
fn verdict<'a>(out: &'a str, property: &str) -> &'a str {
    out.lines()
        .find(|l| l.trim_start().starts_with("always") && l.contains(property))
        .unwrap_or_else(|| panic!("no verdict for {property}:\n{out}"))
}

#[test]
fn the_stateless_tail_repeats_lines_and_goes_over_the_budget() {
    let (code, out) = check("tail.py", Some("cap"));
    let out = out.as_str();
    assert_eq!(code, Some(1), "{out}");
    assert!(
        verdict(out, "repeats bounded")
            .contains("BROKEN in 3 steps: [Append(Short), Read(1), Read(1)]"),
        "{out}"
    );
    assert!(
        verdict(out, "bounded output").contains("BROKEN in 5 steps"),
        "{out}"
    );
    for kept in ["nothing lost", "progress", "honest counts", "resets seen"] {
        assert!(verdict(out, kept).ends_with("holds"), "{kept}: {out}");
    }
    // Its header is no line of the log, and its count of them is true.
    assert!(
        !out.contains("UntrueLine") && !out.contains("DishonestCount"),
        "{out}"
    );
    assert!(
        out.contains("OverBudget: expected a body of at most 7999 units"),
        "{out}"
    );
}

/// With no `--bound`, a `cmd:` engine runs the quick set, its profile printed first; the
/// cursor's verdicts are read from the `cap` bound's.
#[test]
fn the_oldest_first_capped_cursor_loses_and_stalls_on_the_newest_lines() {
    let (code, all) = check("cursor.py", None);
    assert_eq!(code, Some(1), "{all}");
    for profile in [
        "engine cursor.py 0.1.0 (bgtail-eut 1):",
        "  text format   plain-1 (declared): {\"notes\":\"\\\\(no new lines\\\\)\",",
        "  window        none: every new line is owed whatever `lines` says (no_window, declared)",
        "  capabilities  reset, snapshot, no_window (declared); every other: no (default)",
        "  limits        text_budget 8000 (default),",
    ] {
        assert!(all.contains(profile), "{profile}\n{all}");
    }
    assert!(all.contains("no --bound: the quick set"), "{all}");
    let bounds: Vec<&str> = all
        .lines()
        .filter(|l| l.starts_with("cmd:cursor.py engine, bound"))
        .collect();
    assert_eq!(bounds.len(), 4, "gap, cap, budget-edge, ci: {bounds:?}");
    let cap = all.find("bound cap (").expect("the cap bound");
    let out = &all[cap..all[cap..]
        .find("bound budget-edge")
        .map_or(all.len(), |e| cap + e)];
    assert!(
        verdict(out, "nothing lost").contains("BROKEN in 6 steps"),
        "{out}"
    );
    assert!(
        verdict(out, "progress").contains("BROKEN in 5 steps"),
        "{out}"
    );
    assert!(out.contains("Lost at line 4"), "{out}");
    assert!(out.contains("Stalled at line 4"), "{out}");
    for kept in [
        "repeats bounded",
        "honest counts",
        "resets seen",
        "bounded output",
    ] {
        assert!(verdict(out, kept).ends_with("holds"), "{kept}: {out}");
    }
    // A long line it carried whole is a line of the log in the plain format.
    assert!(!out.contains("UntrueLine"), "{out}");
}

#[test]
fn the_cursor_keeps_every_property_while_nothing_reaches_its_cap() {
    let (code, out) = check("cursor.py", Some("gap"));
    assert_eq!(code, Some(0), "{out}");
}
