//! The shipped engine against upstream's own tests (docs/pi-bgrun-0.7.1.md §7), one test per behaviour.
//!
//! Not carried over, because they test pi-bgrun's host rather than bgtail's reading: §7.6
//! (slash-command toasts), §7.7 (resolving an id through the session record — our engines
//! receive the resolved path), §7.26 (native-job artifacts).

use crate::common::{log_of, numbered, read};

use bgtail::source::MemoryLog;
use bgtail::{Limits, ReadKind, Request, ResetReason, ShippedEngine, Tail};

fn tail() -> Tail<ShippedEngine> {
    Tail::new(
        ShippedEngine::new(Limits::default()),
        "job-1790000000-42",
        "/jobs/job.log",
    )
}

#[test]
fn s7_1_returns_last_n_lines_and_strips_the_exit_marker() {
    let mut t = tail();
    let log = log_of("line1\nline2\nline3\n\n__BGRUN_EXIT__=0\n");
    let r = read(&mut t, &log, Request::lines(2));
    assert!(!r.text.contains("__BGRUN_EXIT__"));
    assert!(r.text.ends_with("line2\nline3"), "{}", r.text);
}

#[test]
fn s7_2_condenses_strips_ansi_collapses_repeats_caps_long_lines() {
    let mut t = tail();
    let text = format!(
        "\u{1b}[32mOK\u{1b}[0m green\n{}line3\n{}\n__BGRUN_EXIT__=0\n",
        "wait\n".repeat(5),
        "x".repeat(5000)
    );
    let r = read(&mut t, &log_of(&text), Request::lines(40));
    assert!(!r.text.contains('\u{1b}'));
    assert!(r.text.contains("OK green"));
    assert!(r.text.contains("wait  [x5]"));
    assert!(!r.text.contains(&"x".repeat(4000)));
    assert!(r.text.contains("…[+3000 chars]"));
    assert!(r.text.contains("(1 ANSI escape sequence stripped; 1 repeated-line run collapsed; 1 long line truncated to 2000 chars)"), "{}", r.text);
    assert_eq!(r.details["condensed"], true);
}

#[test]
fn s7_3_raw_skips_condensing() {
    let mut t = tail();
    let text = "\u{1b}[31mred\u{1b}[0m\nwait\nwait\nwait\n__BGRUN_EXIT__=0\n";
    let r = read(&mut t, &log_of(text), Request::lines(40).raw());
    assert!(r.text.contains('\u{1b}'));
    assert!(r.text.contains("wait\nwait\nwait"));
    assert_eq!(r.details["condensed"], false);
    assert_eq!(r.kind, ReadKind::Raw);
}

#[test]
fn s7_4_a_repeated_pair_survives_and_runs_of_three_carry_their_count() {
    let mut t = tail();
    let r = read(
        &mut t,
        &log_of("dup\ndup\nspinner\nspinner\nspinner\ndone\n"),
        Request::lines(40),
    );
    assert_eq!(
        r.text,
        "dup\ndup\nspinner  [x3]\ndone\n\n(1 repeated-line run collapsed)"
    );
}

#[test]
fn s7_5_total_cap_kicks_in_with_guidance() {
    let mut t = tail();
    let text: String = (0..200)
        .map(|i| format!("{i:03} {}\n", "y".repeat(503)))
        .collect();
    let r = read(&mut t, &log_of(&text), Request::lines(200));
    assert!(r.text.len() < 10_000);
    assert!(r
        .text
        .contains("output capped at 8000 chars — 200 raw lines total"));
    assert!(r.details.contains_key("condenserNotes"));
    // The defect: the oldest lines were kept, yet all 200 count as shown.
    assert!(r.text.starts_with("000 "));
    assert_eq!(r.details["linesShown"], 200);
    assert_eq!(r.counts.shown, 15);
}

#[test]
fn s7_8_delta_tailing_full_tail_then_new_lines_then_none() {
    let mut t = tail();
    let mut log = log_of(&numbered(1, 5));
    let r = read(&mut t, &log, Request::lines(40));
    assert!(!r.details.contains_key("newLines"));
    assert!(!r.text.contains("since last read"));
    log.append(b"line-6\nline-7\n");
    let r = read(&mut t, &log, Request::lines(40));
    assert_eq!(
        r.text,
        "+2 new lines since last read — log at 7 lines\nline-6\nline-7"
    );
    assert_eq!(r.details["newLines"], 2);
    let r = read(&mut t, &log, Request::lines(40));
    assert_eq!(r.text, "(no new lines since last read — log at 7 lines)");
    assert_eq!(r.details["linesShown"], 0);
}

#[test]
fn s7_9_v080_a_running_job_returns_the_state_line_and_peek_returns_both() {
    let mut t = Tail::new(ShippedEngine::v080(Limits::default()), "job-1-2", "/j.log");
    let log = log_of(&numbered(1, 3));
    let mut req = Request::lines(40).running(true);
    req.elapsed_secs = Some(3.25);
    let r = read(&mut t, &log, req.clone());
    let pattern =
        regex::Regex::new(r"⏳ still running — [\d.]+s elapsed, no exit code yet").unwrap();
    assert!(pattern.is_match(&r.text), "{}", r.text);
    assert!(r
        .text
        .contains("Launching was the task; the wake is your next input"));
    assert!(r
        .text
        .contains("pass peek: true only if you need the live log now"));
    assert!(!r.text.contains("line-3"));
    assert_eq!(r.details["running"], true);
    assert!(
        t.state.get("job-1-2").is_none(),
        "a gated read leaves the bookmark alone"
    );
    req.peek = true;
    let r = read(&mut t, &log, req);
    assert!(pattern.is_match(&r.text) && r.text.contains("line-3"));
    assert_eq!(r.details["running"], true);
}

#[test]
fn s7_10_v080_a_finished_job_carries_no_state_line() {
    let mut t = Tail::new(ShippedEngine::v080(Limits::default()), "job-1-2", "/j.log");
    let log = log_of(&format!("{}\n__BGRUN_EXIT__=0\n", numbered(1, 3)));
    let r = read(&mut t, &log, Request::lines(40));
    assert!(!r.text.contains("still running"));
    assert_eq!(r.text, "line-1\nline-2\nline-3");
}

#[test]
fn s7_11_a_wider_lines_hands_back_the_earlier_lines_not_yet_shown() {
    let mut t = tail();
    let mut log = log_of(&numbered(1, 12));
    let r = read(&mut t, &log, Request::lines(3));
    assert_eq!(r.text, "line-10\nline-11\nline-12");
    let r = read(&mut t, &log, Request::lines(6));
    assert!(r
        .text
        .starts_with("no new lines since last read — showing the 3 earlier lines"));
    assert!(r.text.contains("line-7") && r.text.contains("line-9"));
    assert!(!r.text.contains("line-12") && !r.text.contains("line-6"));
    assert_eq!(
        (
            r.details["widened"].clone(),
            r.details["linesShown"].clone()
        ),
        (true.into(), 3.into())
    );
    let r = read(&mut t, &log, Request::lines(2));
    assert!(r.text.starts_with("(no new lines since last read"));
    assert_eq!(r.details["linesShown"], 0);
    let r = read(&mut t, &log, Request::lines(99));
    assert!(r.text.contains("line-1\n") && r.text.contains("line-6"));
    assert!(!r.text.contains("line-9"));
    let r = read(&mut t, &log, Request::lines(99));
    assert!(r.text.starts_with("(no new lines since last read"));
    log.append(b"line-13\n");
    let r = read(&mut t, &log, Request::lines(40));
    assert!(r
        .text
        .starts_with("+1 new line since last read — log at 13 lines"));
}

#[test]
fn s7_12_a_widening_after_a_shrinking_read_still_returns_the_missed_line() {
    let mut t = tail();
    let mut log = log_of(&numbered(1, 10));
    read(&mut t, &log, Request::lines(5));
    log.append(numbered(11, 13).as_bytes());
    let r = read(&mut t, &log, Request::lines(2));
    assert!(r.text.contains("line-13") && !r.text.contains("line-11"));
    let r = read(&mut t, &log, Request::lines(4));
    assert!(r.text.contains("line-11"));
}

#[test]
fn s7_13_raw_keeps_the_verbatim_window_but_advances_the_bookmark() {
    let mut t = tail();
    let log = log_of(&numbered(1, 5));
    read(&mut t, &log, Request::lines(3).raw());
    let r = read(&mut t, &log, Request::lines(3));
    assert!(r.text.starts_with("(no new lines since last read"));
}

#[test]
fn s7_14_a_shrunken_log_resets_to_a_full_tail() {
    let mut t = tail();
    let mut log = log_of(&numbered(1, 10));
    read(&mut t, &log, Request::lines(3));
    log.truncate(numbered(1, 4).len());
    let r = read(&mut t, &log, Request::lines(3));
    assert_eq!(
        r.text,
        "log shrank since last read — showing full tail\nline-2\nline-3\nline-4"
    );
    assert_eq!(r.reset, Some(ResetReason::Shrank));
}

#[test]
fn s7_15_a_replaced_log_with_the_same_line_count_resets() {
    let mut t = tail();
    let mut log = log_of("a\nb\nc\n");
    read(&mut t, &log, Request::lines(3));
    log.rewrite(b"first\nsecond\nthird\n");
    let r = read(&mut t, &log, Request::lines(3));
    assert!(r
        .text
        .starts_with("log was replaced since last read — showing full tail\n"));
}

#[test]
fn s7_16_crlf_logs_are_normalised() {
    let mut t = tail();
    let r = read(&mut t, &log_of("a\r\nb\r\n"), Request::lines(5));
    assert_eq!(r.text, "a\nb");
}

#[test]
fn s7_17_nonsensical_lines_are_clamped() {
    let mut t = tail();
    let r = read(&mut t, &log_of(&numbered(1, 3)), Request::lines(0));
    assert_eq!(r.details["linesShown"], 1);
    assert_eq!(r.text, "line-3");
}

fn capped_log(limit: usize) -> MemoryLog {
    let all: String = (1..=400).map(|i| format!("{i}\n")).collect();
    let kept = &all[..limit];
    log_of(&format!(
        "{kept}\n__BGRUN_TRUNC__ output truncated: kept the first {limit} bytes\n\n__BGRUN_EXIT__=0 truncated={limit}\n"
    ))
}

#[test]
fn s7_18_19_a_capped_log_shows_only_what_was_kept_and_is_labelled() {
    let mut t = tail();
    let r = read(&mut t, &capped_log(1000), Request::lines(3));
    assert!(
        r.text
            .starts_with("275\n276\n277\n\n(log truncated at 1000 bytes"),
        "{}",
        r.text
    );
    assert!(r.text.contains("not the run's real end"));
    assert!(!r.text.contains("__BGRUN_TRUNC__"));
    assert_eq!(r.details["truncatedAtBytes"], 1000);
}

#[test]
fn s7_20_22_no_label_and_no_window_caveat_on_a_small_uncapped_log() {
    let mut t = tail();
    let r = read(
        &mut t,
        &log_of(&format!("{}__BGRUN_EXIT__=0\n", numbered(1, 3))),
        Request::lines(3),
    );
    assert!(!r.text.contains("log truncated") && !r.text.contains("searched the last"));
    assert!(!r.details.contains_key("truncatedAtBytes"));
}

#[test]
fn s7_21_a_log_bigger_than_the_window_says_it_was_only_partly_searched() {
    let mut t = tail();
    let text: String = (1..=400_000).map(|i| format!("{i}\n")).collect();
    let r = read(&mut t, &log_of(&text), Request::lines(3));
    assert!(
        r.text
            .contains("searched the last 2 MiB of 2.6 MiB — the earlier bytes were not searched"),
        "{}",
        r.text
    );
    assert_eq!(r.bytes_read, 2_097_152, "only the view is read");
}

#[test]
fn s7_23_bytes_widens_the_window_and_resets() {
    let mut t = tail();
    let log = log_of(&numbered(1, 10));
    read(&mut t, &log, Request::lines(3));
    let r = read(&mut t, &log, Request::lines(3).bytes(8 * 1024 * 1024));
    assert!(r
        .text
        .starts_with("search window changed since last read — showing full tail"));
    assert!(!r.text.contains("new lines since last read"));
}

#[test]
fn s7_25_a_window_of_very_short_lines_is_scan_bounded() {
    let mut t = tail();
    let r = read(&mut t, &log_of(&"x\n".repeat(600_000)), Request::lines(3));
    assert!(r
        .text
        .contains("(and only the last 500,000 lines of that window were scanned)"));
}

#[test]
fn s7_27_job_ids_with_control_bytes_or_separators_are_refused() {
    for id in ["a\u{1b}b", "../etc", "a/b", "a\\b", "x\u{85}"] {
        let mut t = Tail::new(ShippedEngine::default(), id, "/x.log");
        let err = t
            .read(&log_of("a\n").source(), &Request::default())
            .unwrap_err();
        assert!(err.0.starts_with("bgtail: invalid job id \""), "{err}");
    }
    let mut t = Tail::new(ShippedEngine::default(), "", "/x.log");
    assert_eq!(
        t.read(&log_of("a\n").source(), &Request::default())
            .unwrap_err()
            .0,
        "bgtail: id is required"
    );
}

#[test]
fn s6_5_missing_and_unreadable_logs_are_error_results() {
    use bgtail::source::{LogSource, LogStat, SourceError};
    struct Broken(SourceError);
    impl LogSource for Broken {
        fn stat(&self) -> Result<LogStat, SourceError> {
            Err(self.0.clone())
        }
        fn read_at(&self, _: u64, _: &mut [u8]) -> Result<usize, SourceError> {
            Err(self.0.clone())
        }
    }
    let mut t = tail();
    let r = t
        .read(&Broken(SourceError::NotFound), &Request::default())
        .unwrap();
    assert!(r.is_error);
    assert_eq!(r.text, "No log found for job job-1790000000-42 at /jobs/job.log. bgrun job ids look like `<name>-<epoch>-<pid>`; run `bgstatus` with no id to list this session's jobs.");
    assert_eq!(r.details["notFound"], true);
    let r = t
        .read(
            &Broken(SourceError::Unreadable("EACCES".into())),
            &Request::default(),
        )
        .unwrap();
    assert_eq!(r.text, "Log for job job-1790000000-42 at /jobs/job.log exists but could not be read (file may be too large or unreadable)");
    assert_eq!(r.details["notFound"], false);
    assert!(
        t.state.bookmarks.is_empty(),
        "error reads do not touch the bookmark"
    );
}

#[test]
fn s2_2_nan_and_infinite_lines_read_the_whole_view() {
    let mut t = tail();
    let log = log_of(&numbered(1, 50));
    for lines in [f64::NAN, f64::INFINITY] {
        let mut t = tail();
        let request = Request {
            lines: Some(lines),
            ..Request::default()
        };
        assert_eq!(read(&mut t, &log, request).details["linesShown"], 50);
    }
    let r = read(
        &mut t,
        &log,
        Request {
            bytes: Some(0.5),
            ..Request::default()
        },
    );
    // A view in (0, 1) floors to zero bytes: an empty view of a non-empty log, and says so.
    assert!(
        r.text
            .starts_with("(empty log)\n\n(searched the last 0 bytes of 391 bytes"),
        "{}",
        r.text
    );
}

#[test]
fn s3_bookmarks_evict_the_first_inserted_id_not_the_least_recent() {
    let limits = {
        let mut limits = Limits::default();
        limits.bookmark_capacity = 2;
        limits
    };
    let engine = ShippedEngine::new(limits);
    let log = log_of(&numbered(1, 3));
    let mut state = Default::default();
    for id in ["a", "b", "a", "c"] {
        bgtail::Engine::read(
            &engine,
            &mut state,
            bgtail::Job { id, path: "/p" },
            &log.source(),
            &Request::lines(1),
        )
        .unwrap();
    }
    let ids: Vec<&str> = state.bookmarks.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        ids,
        vec!["b", "c"],
        "re-reading `a` did not move it, so it went first"
    );
}

#[test]
fn s4_d2_counts_all_fresh_lines_but_shows_the_newest() {
    let mut t = tail();
    let mut log = log_of(&numbered(1, 10));
    read(&mut t, &log, Request::lines(5));
    log.append(numbered(11, 13).as_bytes());
    let r = read(&mut t, &log, Request::lines(2));
    assert_eq!(
        r.text,
        "+3 new lines since last read — log at 13 lines (showing last 2)\nline-12\nline-13"
    );
    assert_eq!(
        (
            r.details["newLines"].clone(),
            r.details["linesShown"].clone()
        ),
        (3.into(), 2.into())
    );
}

#[test]
fn s4_a_path_change_resets_first() {
    let mut t = tail();
    let log = log_of(&numbered(1, 3));
    read(&mut t, &log, Request::lines(2));
    t.path = "/elsewhere.log".into();
    let r = read(&mut t, &log, Request::lines(2));
    assert!(r.text.starts_with(
        "log path changed since last read (the id now resolves elsewhere) — showing full tail\n"
    ));
}
