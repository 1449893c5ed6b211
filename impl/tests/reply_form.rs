//! What a reply says beside its text — its `details`, its kind, where its body lies — is held
//! to the text (`UntrueField`), and the text to its format's way of saying things: each count
//! once, none of nothing (`OffFormat`); both under honest counts. Each reply below is the
//! exact engine's, honest as it comes; each field or wording changed one way is named, and
//! nothing else is.

use bgtail::judge::{AnomalyKind, Fields, Judge, ReadInput, Rules};
use bgtail::source::SliceLog;
use bgtail::{Engine, ExactEngine, ExactState, Job, Limits, ReadKind, Reply, Request};
use serde_json::{json, Value};

const JOB: Job<'static> = Job {
    id: "build-1-1",
    path: "/tmp/w/build-1-1.log",
};

/// The log after each read: the replies to `requests`, each read on its log, and the judge
/// that judged them honest.
struct Reads {
    engine: ExactEngine,
    state: ExactState,
    judge: Judge,
    rules: Rules,
}

impl Reads {
    fn new() -> Reads {
        let limits = Limits::default();
        Reads {
            engine: ExactEngine::new(limits.clone()),
            state: ExactState::default(),
            judge: Judge::default(),
            rules: Rules::new(bgtail::TextFormat::Exact, limits),
        }
    }

    /// The engine's reply to `request` on `log`, before the judge sees it.
    fn reply(&mut self, log: &[u8], request: &Request) -> Reply {
        let source = SliceLog {
            bytes: log,
            file_number: 0,
            missing: false,
        };
        let mut state = self.state.clone();
        let reply = self.engine.read(&mut state, JOB, &source, request).unwrap();
        self.state = state;
        reply
    }

    /// What the judge finds in `reply` (read on `log`), with every field reported unless
    /// `text_only`; the judge then holds it delivered, as the agent would.
    fn judged(
        &mut self,
        log: &[u8],
        request: &Request,
        reply: &Reply,
        text_only: bool,
    ) -> Vec<AnomalyKind> {
        let shown = reply.shown_ranges();
        let input = ReadInput {
            log,
            file: 0,
            request,
            text: &reply.text,
            shown: Some(&shown),
            fields: (!text_only).then(|| Fields::of_reply(reply)),
        };
        let verdict = self.judge.judge(&self.rules, &input);
        verdict.anomalies.iter().map(|a| a.kind).collect()
    }
}

/// `change` applied to the reply a read of `log` gets after a first read of `before`, and
/// what the judge finds in it (the honest reply checked first, on a judge of its own).
fn changed(before: &[u8], log: &[u8], request: &Request, change: Change) -> Vec<AnomalyKind> {
    judged_changed(before, log, request, change, false)
}

/// [`changed`], the reply judged from its text alone.
fn reworded(before: &[u8], log: &[u8], request: &Request, change: Change) -> Vec<AnomalyKind> {
    judged_changed(before, log, request, change, true)
}

fn judged_changed(
    before: &[u8],
    log: &[u8],
    request: &Request,
    change: Change,
    text_only: bool,
) -> Vec<AnomalyKind> {
    let mut honest = Reads::new();
    let mut doctored = Reads::new();
    for reads in [&mut honest, &mut doctored] {
        let first = reads.reply(before, &Request::lines(2));
        assert_eq!(reads.judged(before, &Request::lines(2), &first, false), []);
    }
    let reply = honest.reply(log, request);
    assert_eq!(
        honest.judged(log, request, &reply, false),
        [],
        "{}",
        reply.text
    );
    let mut reply = doctored.reply(log, request);
    change(&mut reply);
    doctored.judged(log, request, &reply, text_only)
}

/// One change to a reply.
type Change = fn(&mut Reply);

const BEFORE: &[u8] = b"a\nb\nc\n";
const GROWN: &[u8] = b"a\nb\nc\nd\ne\nf\n";

fn set(reply: &mut Reply, key: &'static str, value: Value) {
    reply.details.insert(key, value);
}

/// `key` taken out of the reply's `details`, the others kept in their order.
fn remove(reply: &mut Reply, key: &str) {
    let map = reply.details.to_map();
    reply.details = map
        .into_iter()
        .filter(|(k, _)| k != key)
        .collect::<serde_json::Map<_, _>>()
        .into();
}

#[test]
fn a_count_in_details_other_than_the_header_is_an_untrue_field() {
    let delta = Request::lines(2);
    let cases: [(&str, Change); 5] = [
        ("linesShown", |r| set(r, "linesShown", json!(3))),
        ("newLines", |r| set(r, "newLines", json!(2))),
        ("totalLines", |r| set(r, "totalLines", json!(7))),
        ("leftOut", |r| set(r, "leftOut", json!(1))),
        ("condensed", |r| set(r, "condensed", json!(false))),
    ];
    for (key, change) in cases {
        let found = changed(BEFORE, GROWN, &delta, change);
        assert_eq!(found, [AnomalyKind::UntrueField], "{key}");
    }
    assert_eq!(AnomalyKind::UntrueField.property(), "honest counts");
}

#[test]
fn details_left_empty_are_an_untrue_field() {
    let found = changed(BEFORE, GROWN, &Request::lines(2), |r| {
        r.details = bgtail::Details::new()
    });
    assert!(found.contains(&AnomalyKind::UntrueField), "{found:?}");
    assert!(found.iter().all(|&k| k == AnomalyKind::UntrueField));
}

#[test]
fn notes_other_than_the_texts_are_an_untrue_field() {
    // Lines 4 to 6 are new and `lines: 2` shows two: a note says what the window skipped.
    let delta = Request::lines(2);
    let with_notes = |r: &mut Reply| {
        assert!(r.details.contains_key("notes"), "{}", r.text);
        set(r, "notes", json!(["a note the text does not have"]));
    };
    assert_eq!(
        changed(BEFORE, GROWN, &delta, with_notes),
        [AnomalyKind::UntrueField]
    );
    let no_notes = |r: &mut Reply| {
        remove(r, "notes");
    };
    assert_eq!(
        changed(BEFORE, GROWN, &delta, no_notes),
        [AnomalyKind::UntrueField]
    );
}

#[test]
fn a_kind_other_than_the_texts_is_an_untrue_field() {
    let delta = Request::lines(2);
    assert_eq!(
        changed(BEFORE, GROWN, &delta, |r| r.kind = ReadKind::First),
        [AnomalyKind::UntrueField]
    );
    assert_eq!(
        changed(BEFORE, BEFORE, &delta, |r| r.kind = ReadKind::Delta),
        [AnomalyKind::UntrueField]
    );
}

#[test]
fn a_lines_place_in_the_view_other_than_its_own_is_an_untrue_field() {
    let moved = |r: &mut Reply| {
        let line = r.shown.iter_mut().find(|l| l.view_line.is_some());
        let line = line.expect("a shown line with its place in the view");
        line.view_line = line.view_line.map(|n| n * 2);
    };
    let found = changed(BEFORE, GROWN, &Request::lines(2), moved);
    assert_eq!(found, [AnomalyKind::UntrueField]);
}

#[test]
fn a_body_range_other_than_where_the_lines_are_is_an_untrue_field() {
    let shifted = |r: &mut Reply| r.body = r.body.start + 1..r.body.end;
    assert_eq!(
        changed(BEFORE, GROWN, &Request::lines(2), shifted),
        [AnomalyKind::UntrueField]
    );
    let raw = Request::lines(2).raw();
    let emptied = |r: &mut Reply| r.body = 0..0;
    assert_eq!(
        changed(BEFORE, GROWN, &raw, emptied),
        [AnomalyKind::UntrueField]
    );
}

/// The log grown by a wrapper's exit marker that records `cap` (digits) as the log's cap.
fn capped(cap: &str) -> Vec<u8> {
    let mut log = GROWN.to_vec();
    log.extend_from_slice(format!("__BGRUN_EXIT__=0 truncated={cap}\n").as_bytes());
    log
}

#[test]
fn a_cap_in_details_other_than_the_markers_is_an_untrue_field() {
    let log = capped("1000000");
    let delta = Request::lines(2);
    let cases: [(&str, Change); 4] = [
        ("another cap", |r| {
            set(r, "truncatedAtBytes", json!(1_000_001))
        }),
        ("null", |r| set(r, "truncatedAtBytes", Value::Null)),
        ("as a string", |r| {
            set(r, "truncatedAtBytes", json!("1000000"))
        }),
        ("left out", |r| remove(r, "truncatedAtBytes")),
    ];
    for (case, change) in cases {
        assert_eq!(
            changed(BEFORE, &log, &delta, change),
            [AnomalyKind::UntrueField],
            "{case}"
        );
    }
}

#[test]
fn a_cap_past_every_double_is_null_in_details_and_one_past_2_to_the_53_is_written_as_javascript_writes_it(
) {
    // JavaScript's `JSON.stringify` writes 10^19 in full and 10^29 as `1e+29`; a cap of 400
    // digits is Infinity, which JSON cannot hold: `null`.
    let delta = Request::lines(2);
    let keep: Change = |r| assert!(r.details.contains_key("truncatedAtBytes"), "{}", r.text);
    for (cap, json) in [
        ("10000000000000000000".to_owned(), "10000000000000000000"),
        (format!("1{}", "0".repeat(29)), "1e+29"),
        ("9".repeat(400), "null"),
    ] {
        let log = capped(&cap);
        assert_eq!(changed(BEFORE, &log, &delta, keep), [], "{cap}");
        let mut reads = Reads::new();
        reads.reply(BEFORE, &Request::lines(2));
        let reply = reads.reply(&log, &delta);
        assert_eq!(
            reply.details.get("truncatedAtBytes").unwrap().to_string(),
            json
        );
    }
}

/// `from` replaced by `to` in the reply's text, where the honest text has `from`.
fn replace(reply: &mut Reply, from: &str, to: &str) {
    assert!(reply.text.contains(from), "{from:?} in {}", reply.text);
    reply.text = reply.text.replacen(from, to, 1);
}

#[test]
fn all_of_the_new_lines_given_as_a_part_of_them_is_off_format() {
    // Three new lines, all shown: `+3 new lines`, never `+3 of 3`.
    let found = reworded(BEFORE, GROWN, &Request::lines(3), |r| {
        replace(r, "+3 new lines", "+3 of 3 new lines")
    });
    assert_eq!(found, [AnomalyKind::OffFormat]);
    assert_eq!(AnomalyKind::OffFormat.property(), "honest counts");
}

#[test]
fn a_count_of_zero_is_off_format() {
    let header = |r: &mut Reply| {
        replace(
            r,
            "+3 new lines",
            "+3 new lines, 0 earlier lines not shown before",
        )
    };
    let found = reworded(BEFORE, GROWN, &Request::lines(3), header);
    assert_eq!(found, [AnomalyKind::OffFormat]);
    let note = |r: &mut Reply| {
        let zero = "(0 older lines left out by the 8000-char budget — the next read with lines: 2 returns them; ";
        replace(r, "\n\n(", &format!("\n\n{zero}"))
    };
    let found = reworded(BEFORE, GROWN, &Request::lines(2), note);
    assert_eq!(found, [AnomalyKind::OffFormat]);
}

#[test]
fn an_empty_part_is_off_format() {
    let found = reworded(BEFORE, GROWN, &Request::lines(2), |r| {
        replace(r, "\n\n(", "\n\n(; ")
    });
    assert_eq!(found, [AnomalyKind::OffFormat]);
}

#[test]
fn a_first_reads_lines_left_uncounted_are_off_format() {
    // The log's first line rewritten: the read starts over, and says how many lines it carries.
    let first = |r: &mut Reply| {
        replace(
            r,
            "starts over: 3 lines — ",
            "starts over: a partial line — ",
        )
    };
    let found = reworded(b"x\n", BEFORE, &Request::lines(3), first);
    assert!(found.contains(&AnomalyKind::OffFormat), "{found:?}");
}

#[test]
fn a_skipped_lines_note_beside_a_status_is_off_format() {
    // Nothing new after the grown log was read: the status counts what lies above itself.
    let status = |r: &mut Reply| {
        assert!(r.text.starts_with("(no new lines"), "{}", r.text);
        r.text
            .push_str("\n\n(4 skipped lines above this window — lines: 6 reaches them)")
    };
    let found = reworded(GROWN, GROWN, &Request::lines(2), status);
    assert!(found.contains(&AnomalyKind::OffFormat), "{found:?}");
}
