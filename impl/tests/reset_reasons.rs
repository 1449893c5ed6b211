//! The reason a reset gives is held to what happened to the log: the judge names a reason that
//! did not happen (`UntrueReason`, under honest counts). Each reply below is the exact
//! engine's words, after a log the judge saw was changed one way; the true reason passes.

use bgtail::condense::TextFormat;
use bgtail::judge::{AnomalyKind, Judge, ReadInput, Rules};
use bgtail::{Limits, Request};

/// The anomalies the judge finds in `text`, the reply to a read of `log` at file `file`.
fn judged(judge: &mut Judge, log: &[u8], file: u64, text: &str) -> Vec<AnomalyKind> {
    let rules = Rules::new(TextFormat::Exact, Limits::default());
    let request = Request::lines(40);
    let input = ReadInput {
        log,
        file,
        request: &request,
        text,
        shown: None,
        fields: None,
    };
    judge
        .judge(&rules, &input)
        .anomalies
        .iter()
        .map(|a| a.kind)
        .collect()
}

/// A judge that saw `a` and `b` delivered from the file numbered 0.
fn after_first_read() -> Judge {
    let mut judge = Judge::default();
    let first = judged(
        &mut judge,
        b"a\nb\n",
        0,
        "first read: 2 lines — log at 2 lines\na\nb",
    );
    assert_eq!(first, []);
    judge
}

const OTHER_FILE: &str = "another file now sits at the log path, so the bookmark starts over: ";
const REWRITTEN: &str =
    "the log's first bytes changed (it was rewritten, or cut and written again), so the bookmark starts over: ";
const SHRANK: &str = "the log shrank since the last read, so the bookmark starts over: ";

#[test]
fn another_file_named_where_the_same_file_was_rewritten_is_an_untrue_reason() {
    let text = format!("{OTHER_FILE}2 lines — log at 2 lines\nx\ny");
    let found = judged(&mut after_first_read(), b"x\ny\n", 0, &text);
    assert_eq!(found, [AnomalyKind::UntrueReason]);
    assert_eq!(AnomalyKind::UntrueReason.property(), "honest counts");
    let text = format!("{REWRITTEN}2 lines — log at 2 lines\nx\ny");
    assert_eq!(judged(&mut after_first_read(), b"x\ny\n", 0, &text), []);
}

#[test]
fn a_rewrite_named_where_another_file_sits_is_an_untrue_reason() {
    let text = format!("{REWRITTEN}2 lines — log at 2 lines\nx\ny");
    assert_eq!(
        judged(&mut after_first_read(), b"x\ny\n", 1, &text),
        [AnomalyKind::UntrueReason]
    );
    let text = format!("{OTHER_FILE}2 lines — log at 2 lines\nx\ny");
    assert_eq!(judged(&mut after_first_read(), b"x\ny\n", 1, &text), []);
}

#[test]
fn a_shrink_is_named_exactly_when_the_log_is_shorter() {
    let text = format!("{SHRANK}1 line — log at 1 line\nx");
    assert_eq!(judged(&mut after_first_read(), b"x\n", 0, &text), []);
    let text = format!("{REWRITTEN}1 line — log at 1 line\nx");
    assert_eq!(
        judged(&mut after_first_read(), b"x\n", 0, &text),
        [AnomalyKind::UntrueReason]
    );
    let text = format!("{SHRANK}3 lines — log at 3 lines\nx\ny\nz");
    assert_eq!(
        judged(&mut after_first_read(), b"x\ny\nz\n", 0, &text),
        [AnomalyKind::UntrueReason]
    );
}
