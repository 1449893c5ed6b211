//! The judge reads a drain (Codex's `write_stdin` polls, `codex-343074d4`): each reply owes the
//! bytes the log gained since the previous read, its text is placed on them cut by cut, a line
//! joined across the inline cut is untrue, and a line the poll read past without delivering it
//! whole is out of reach. The replies below are Codex's words, written by hand.

use bgtail::condense::TextFormat;
use bgtail::judge::{AnomalyKind, Judge, ReadInput, Rules, Verdict};
use bgtail::{Limits, Request};

fn rules() -> Rules {
    let mut limits = Limits::default();
    limits.text_budget = 8;
    limits.view_default = u64::MAX;
    limits.view_max = u64::MAX;
    let mut rules = Rules::new(TextFormat::Codex, limits);
    rules.line_window = false;
    rules.drain = true;
    rules.largest_view = u64::MAX;
    rules
}

/// A poll's reply: the envelope over `output`, `tokens` the token count it states.
fn reply(running: bool, tokens: usize, output: &str) -> String {
    let state = if running {
        "Process running with session ID 1000".to_string()
    } else {
        "Process exited with code 0".to_string()
    };
    format!("Chunk ID: 0\nWall time: 0.0000 seconds\n{state}\nOriginal token count: {tokens}\nOutput:\n{output}")
}

fn judge(judge: &mut Judge, log: &[u8], running: bool, text: &str) -> Verdict {
    let request = Request::default().running(running);
    let input = ReadInput {
        log,
        file: 0,
        request: &request,
        text,
        shown: None,
        fields: None,
    };
    judge.judge(&rules(), &input)
}

fn kinds(v: &Verdict) -> Vec<AnomalyKind> {
    v.anomalies.iter().map(|a| a.kind).collect()
}

#[test]
fn a_poll_owes_what_arrived_since_the_last_and_delivers_it() {
    let mut j = Judge::default();
    let v = judge(&mut j, b"s0\n", true, &reply(true, 1, "s0\n"));
    assert_eq!(kinds(&v), []);
    assert_eq!(v.delivered, [(0, 3)]);
    let v = judge(&mut j, b"s0\ns1\n", true, &reply(true, 1, "s1\n"));
    assert_eq!((kinds(&v), v.delivered), (vec![], vec![(3, 6)]));
    let v = judge(&mut j, b"s0\ns1\n", true, &reply(true, 0, ""));
    assert_eq!(kinds(&v), []);
}

#[test]
fn a_line_begun_at_the_end_of_one_poll_is_finished_at_the_start_of_the_next() {
    let mut j = Judge::default();
    let v = judge(&mut j, b"s0\npro", true, &reply(true, 2, "s0\npro"));
    assert_eq!(kinds(&v), []);
    let v = judge(&mut j, b"s0\nprogress\n", true, &reply(true, 2, "gress\n"));
    assert_eq!((kinds(&v), v.delivered), (vec![], vec![(3, 12)]));
    assert!(v.flags.partial_completed);
}

#[test]
fn a_line_left_unfinished_when_the_job_exits_was_delivered_by_the_poll_that_showed_it() {
    let mut j = Judge::default();
    judge(&mut j, b"s0\nsummary", true, &reply(true, 3, "s0\nsummary"));
    let v = judge(&mut j, b"s0\nsummary", false, &reply(false, 0, ""));
    assert_eq!((kinds(&v), v.delivered), (vec![], vec![(3, 10)]));
}

#[test]
fn an_inline_cut_inside_one_line_puts_that_line_out_of_reach() {
    let mut j = Judge::default();
    let text = reply(
        true,
        3,
        "Warning: truncated output (original token count: 3)\nTotal output lines: 3\n\n\
         s0\ns…1 tokens truncated…\ns2\n",
    );
    let v = judge(&mut j, b"s0\ns1\ns2\n", true, &text);
    assert_eq!(kinds(&v), [AnomalyKind::OutOfReach]);
    assert_eq!(v.delivered, [(0, 3), (6, 9)]);
    assert_eq!(v.anomalies[0].line.as_ref().unwrap().offset, 3);
    assert_eq!(v.hidden, [(3, 6)]);
    // The next poll has nothing new: the line is hidden and the newest never delivered.
    let v = judge(&mut j, b"s0\ns1\ns2\n", true, &reply(true, 0, ""));
    assert_eq!(kinds(&v), [AnomalyKind::Lost, AnomalyKind::Stalled]);
}

#[test]
fn an_inline_cut_that_joins_two_lines_shows_a_line_the_log_does_not_hold() {
    let mut j = Judge::default();
    let text = reply(
        true,
        3,
        "Warning: truncated output (original token count: 3)\nTotal output lines: 4\n\n\
         s0\ns1…2 tokens truncated…3\n",
    );
    let v = judge(&mut j, b"s0\ns1\ns2\ns3\n", true, &text);
    // `s3` came as its last byte and newline only: the newest line, not delivered.
    assert_eq!(
        kinds(&v),
        [
            AnomalyKind::UntrueLine,
            AnomalyKind::Stalled,
            AnomalyKind::OutOfReach
        ],
        "{}",
        v.report()
    );
    assert!(v.anomalies[0].said.contains("s1…3"), "{}", v.report());
}

#[test]
fn the_dropped_middle_and_a_marker_cut_by_the_inline_cut_are_read_as_cuts() {
    let mut j = Judge::default();
    // 12 bytes through an 8-byte buffer: head `s0\ns`, tail `s3\n`, 5 bytes dropped between
    // them; then cut again inside the omission marker.
    let text = reply(
        true,
        3,
        "Warning: truncated output (original token count: 3)\n\
         \ns0\ns\n... 5 by…9 tokens truncated…tes omitted ...\ns3\n",
    );
    let v = judge(&mut j, b"s0\ns1\ns2\ns3\n", true, &text);
    assert_eq!(kinds(&v), [AnomalyKind::OutOfReach], "{}", v.report());
    assert_eq!(v.delivered, [(0, 3), (9, 12)]);
}

#[test]
fn text_that_is_not_the_bytes_gained_is_untrue() {
    let mut j = Judge::default();
    let v = judge(&mut j, b"s0\n", true, &reply(true, 1, "s9\n"));
    assert!(
        kinds(&v).contains(&AnomalyKind::UntrueLine),
        "{}",
        v.report()
    );
    let mut j = Judge::default();
    let v = judge(&mut j, b"s0\n", true, "Hello\nOutput:\ns0\n");
    assert_eq!(kinds(&v), [AnomalyKind::UntrueLine], "{}", v.report());
}

#[test]
fn the_counts_and_the_state_a_poll_states_are_checked() {
    let mut j = Judge::default();
    let v = judge(&mut j, b"s0\ns1\n", true, &reply(true, 9, "s0\ns1\n"));
    assert_eq!(kinds(&v), [AnomalyKind::DishonestCount], "{}", v.report());
    let mut j = Judge::default();
    let v = judge(&mut j, b"s0\n", true, &reply(false, 1, "s0\n"));
    assert_eq!(kinds(&v), [AnomalyKind::DishonestCount], "{}", v.report());
    let mut j = Judge::default();
    let text = reply(
        true,
        3,
        "Warning: truncated output (original token count: 3)\nTotal output lines: 7\n\n\
         s0\ns…1 tokens truncated…\ns2\n",
    );
    let v = judge(&mut j, b"s0\ns1\ns2\n", true, &text);
    assert!(
        kinds(&v).contains(&AnomalyKind::DishonestCount),
        "{}",
        v.report()
    );
}

#[test]
fn more_text_than_the_budget_is_over_budget() {
    let mut j = Judge::default();
    let v = judge(
        &mut j,
        b"s0\ns1\ns2\n",
        true,
        &reply(true, 3, "s0\ns1\ns2\n"),
    );
    assert_eq!(kinds(&v), [AnomalyKind::OverBudget], "{}", v.report());
}

#[test]
fn a_line_longer_than_the_largest_view_is_out_of_reach_for_any_reader() {
    // Gemini CLI's reader: the last 64 KiB, no `bytes`; a 70,000-byte line never fits.
    let mut limits = Limits::default();
    limits.view_default = 65_536;
    let mut rules = Rules::new(TextFormat::GeminiCli, limits);
    rules.largest_view = 65_536;
    let mut log = vec![b'x'; 70_000];
    log.extend_from_slice(b"\nok\n");
    let request = Request::default().running(true);
    let input = ReadInput {
        log: &log,
        file: 0,
        request: &request,
        text: "Full Log Output:\nok",
        shown: None,
        fields: None,
    };
    let v = Judge::default().judge(&rules, &input);
    let out: Vec<_> = v
        .anomalies
        .iter()
        .filter(|a| a.kind == AnomalyKind::OutOfReach)
        .collect();
    assert_eq!(out.len(), 1, "{}", v.report());
    assert_eq!(out[0].line.as_ref().unwrap().end, 70_001);
    assert_eq!(AnomalyKind::OutOfReach.property(), "nothing lost");
}
