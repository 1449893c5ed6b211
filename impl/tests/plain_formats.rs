//! The judge on the replies of readers that do not condense: Gemini CLI's tail
//! (`gemini-cli-0.56`) and mux's result object (`mux-0.28`). Each reply below is written the
//! way that reader writes it; the judge must pass the honest ones and name what is wrong with
//! the others.

use bgtail::condense::TextFormat;
use bgtail::judge::{AnomalyKind, Judge, ReadInput, Rules};
use bgtail::{Limits, Request};

/// Gemini CLI's limits as its adapter declares them: a 64 KiB view, 100 lines by default.
fn gemini() -> Rules {
    let mut limits = Limits::default();
    limits.view_default = 65_536;
    limits.default_lines = 100;
    Rules::new(TextFormat::GeminiCli, limits)
}

/// mux's: the whole log, no window.
fn mux() -> Rules {
    let mut limits = Limits::default();
    limits.view_default = u64::MAX;
    limits.view_max = u64::MAX;
    let mut rules = Rules::new(TextFormat::Mux, limits);
    rules.line_window = false;
    rules
}

/// The anomalies the judge finds in `text` as the reply to `request` over `log`.
fn judged(
    judge: &mut Judge,
    rules: &Rules,
    log: &[u8],
    request: &Request,
    text: &str,
) -> Vec<AnomalyKind> {
    let input = ReadInput {
        log,
        file: 0,
        request,
        text,
        shown: None,
        fields: None,
    };
    let verdict = judge.judge(rules, &input);
    verdict.anomalies.iter().map(|a| a.kind).collect()
}

fn running(lines: u64) -> Request {
    let mut r = Request::lines(lines);
    r.running = true;
    r
}

#[test]
fn gemini_tail_with_its_true_count_passes() {
    let mut j = Judge::default();
    let log = b"a\nb\nc\n";
    let text = "Showing last 2 of 3 lines:\nb\nc";
    assert_eq!(judged(&mut j, &gemini(), log, &running(2), text), []);
}

#[test]
fn gemini_blank_lines_and_carriage_returns_are_its_lines_as_they_are() {
    let mut j = Judge::default();
    let log = b"a\r\n\nb\n";
    let text = "Full Log Output:\na\r\n\nb";
    assert_eq!(judged(&mut j, &gemini(), log, &running(5), text), []);
}

#[test]
fn gemini_count_of_the_window_not_the_log_is_dishonest() {
    let mut j = Judge::default();
    let log = b"a\nb\nc\nd\n";
    let text = "Showing last 2 of 3 lines:\nc\nd";
    assert_eq!(
        judged(&mut j, &gemini(), log, &running(2), text),
        [AnomalyKind::DishonestCount]
    );
}

#[test]
fn gemini_full_log_output_over_a_partial_view_is_dishonest() {
    let mut j = Judge::default();
    let log = b"a\nb\nc\n";
    let text = "Full Log Output:\nb\nc";
    let found = judged(&mut j, &gemini(), log, &running(5), text);
    assert!(found.contains(&AnomalyKind::DishonestCount), "{found:?}");
}

#[test]
fn gemini_empty_body_is_zero_lines_or_one_blank_line() {
    let mut j = Judge::default();
    assert_eq!(
        judged(&mut j, &gemini(), b"\n", &running(5), "Full Log Output:\n"),
        []
    );
    let mut j = Judge::default();
    assert_eq!(
        judged(&mut j, &gemini(), b"", &running(5), "Log is empty."),
        []
    );
}

#[test]
fn gemini_poll_that_shows_the_same_tail_again_repeats() {
    let mut j = Judge::default();
    let log = b"a\nb\n";
    let text = "Full Log Output:\na\nb";
    assert_eq!(judged(&mut j, &gemini(), log, &running(5), text), []);
    assert_eq!(
        judged(&mut j, &gemini(), log, &running(5), text),
        [AnomalyKind::Repeated]
    );
}

#[test]
fn gemini_parenthesised_log_line_is_a_line_not_a_note() {
    let mut j = Judge::default();
    let log = b"a\n\n(b)\n";
    let text = "Full Log Output:\na\n\n(b)";
    assert_eq!(judged(&mut j, &gemini(), log, &running(5), text), []);
}

#[test]
fn mux_result_with_every_new_line_passes_and_holds_back_the_partial_line() {
    let mut j = Judge::default();
    let text = r#"{"success":true,"status":"running","output":"a\nb","elapsed_ms":0}"#;
    assert_eq!(judged(&mut j, &mux(), b"a\nb\nc", &running(1), text), []);
    let text = r#"{"success":true,"status":"running","output":"c","elapsed_ms":0}"#;
    assert_eq!(judged(&mut j, &mux(), b"a\nb\nc\n", &running(1), text), []);
}

#[test]
fn mux_owes_every_new_line_whatever_lines_says() {
    let mut j = Judge::default();
    let log = b"a\nb\nc\n";
    let text = r#"{"success":true,"status":"running","output":"c","elapsed_ms":0}"#;
    assert_eq!(judged(&mut j, &mux(), log, &running(1), text), []);
    let nothing = r#"{"success":true,"status":"running","output":"","elapsed_ms":0}"#;
    let found = judged(&mut j, &mux(), log, &running(1), nothing);
    assert!(found.contains(&AnomalyKind::Lost), "{found:?}");
}

#[test]
fn mux_status_that_is_not_the_jobs_is_dishonest() {
    let mut j = Judge::default();
    let text = r#"{"success":true,"status":"exited","exitCode":0,"output":"a","elapsed_ms":0}"#;
    assert_eq!(
        judged(&mut j, &mux(), b"a\n", &running(1), text),
        [AnomalyKind::DishonestCount]
    );
}

#[test]
fn mux_text_that_is_not_a_result_object_is_named() {
    let mut j = Judge::default();
    let found = judged(&mut j, &mux(), b"a\n", &running(1), "a");
    assert_eq!(found[0], AnomalyKind::UntrueLine);
}

#[test]
fn mux_truncated_log_read_on_with_no_reset_said_is_a_wrong_reset() {
    let mut j = Judge::default();
    let text = r#"{"success":true,"status":"running","output":"aaaa\nbbbb","elapsed_ms":0}"#;
    assert_eq!(
        judged(&mut j, &mux(), b"aaaa\nbbbb\n", &running(1), text),
        []
    );
    let nothing = r#"{"success":true,"status":"running","output":"","elapsed_ms":0}"#;
    let found = judged(&mut j, &mux(), b"cc\n", &running(1), nothing);
    assert!(found.contains(&AnomalyKind::WrongReset), "{found:?}");
}
