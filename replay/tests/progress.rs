//! Progress on long work is drawn on a terminal only: a check run under a pseudo-terminal
//! (`script`, util-linux) shows its states as it goes; the same check piped, or with `CI`
//! set, prints its results and nothing else.

use crate::common::{repo, run_text};
use std::process::Command;

/// The check's arguments: about a second of work at CI's bound cut to 3 lines.
const CHECK: &str = "check --engine exact --bound ci --max-lines 3";

/// A progress line: the spinner's `states, N unique, R/s` (the summary says `unique/s`).
fn has_progress(out: &str) -> bool {
    out.contains("exact, ci: ") && out.contains(" unique, ") && out.contains("/s (")
}

/// `bgtail CHECK` on a pseudo-terminal, with `ci` set or not: what the terminal showed.
fn on_a_terminal(ci: bool) -> String {
    let bin = env!("CARGO_BIN_EXE_bgtail");
    let mut command = Command::new("script");
    command
        .args(["-qec", &format!("{bin} {CHECK}"), "/dev/null"])
        .current_dir(repo())
        .env_remove("CI");
    if ci {
        command.env("CI", "true");
    }
    let out = command.output().expect("script (util-linux) runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_check_shows_its_states_on_a_terminal() {
    let shown = on_a_terminal(false);
    assert!(has_progress(&shown), "{shown}");
    // The results follow, as when piped.
    assert!(shown.contains("exact engine, bound ci (3 lines"), "{shown}");
}

#[test]
fn a_check_draws_nothing_when_piped_or_in_ci() {
    let (code, piped) = run_text(&CHECK.split(' ').collect::<Vec<_>>());
    assert_eq!(code, Some(0), "{piped}");
    assert!(!has_progress(&piped), "{piped}");
    let ci = on_a_terminal(true);
    assert!(!has_progress(&ci), "{ci}");
    assert!(ci.contains("exact engine, bound ci (3 lines"), "{ci}");
}
