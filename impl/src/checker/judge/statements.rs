//! The exact engine's words beyond its counts, held to the truth: that a condensed reply has a
//! header or a status line, whether a read is the first, whether its line count names the log
//! or the view, the partial line, the `lines` that reach lines never shown, the left-out
//! note's budget and `lines`, and the notes about the view and the line bound.
//!
//! The contract's "honest counts" asks that every number in a header or note be the truth.
//! These are the numbers and statements of the `bgtail-exact-1` text that [`Claimed`]'s counts
//! do not hold: cargo-mutants showed each could be wrong while every count was right (a status
//! saying the last line is still being written when the log has no partial
//! line; a note naming a `lines` the caller never passed).

use super::sizes::size_said;
use super::text::{Claimed, Stated};
use super::truth::Truth;
use super::{Anomaly, AnomalyKind, Verdict};
use crate::interface::api::Request;
use crate::upstream::limits::Limits;

/// Which of its forms a reply's text took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// A condensed reply with a body, under a header.
    Header,
    /// A condensed reply with nothing to show: one status line.
    Status,
    /// A verbatim read.
    Raw,
    /// A condensed reply with neither: the format has none (every condensed reply of the
    /// exact engine opens with a header or is a status line).
    Bare,
}

/// One read's facts, as the statements are checked against them.
pub(super) struct Facts<'a> {
    pub truth: &'a Truth,
    pub request: &'a Request,
    pub limits: &'a Limits,
    pub form: Form,
    /// No read came before this one.
    pub first: bool,
    /// The reply carried the partial line.
    pub partial_carried: bool,
    /// For each complete line of the view: delivered in this generation, this reply included.
    /// It is the engine's coverage while no forget was said (`nothing lost` and `repeats
    /// bounded` hold it so), which is what the `lines` that reach lines never shown count from.
    pub delivered: &'a [bool],
    /// No forget was said in this generation: `delivered` is the coverage.
    pub trusted: bool,
}

/// Checks what `claimed` states beyond its counts against `facts`.
pub(super) fn check(claimed: &Claimed, facts: &Facts<'_>, v: &mut Verdict) {
    let stated = &claimed.stated;
    let skipped = skipped_above(facts.delivered, facts.truth.window_start);
    v.flags.skipped_above = !skipped.is_empty();
    check_standing(stated, facts, v);
    check_partial(stated, facts, v);
    // Whether or not the view's line count was said: the skipped lines and the `lines` that
    // reach them are exact in a lazily counted reply too (the engine counts down to the
    // oldest covered line in the view).
    if facts.trusted {
        check_reaches(stated, facts, &skipped, v);
    }
    check_left_out(stated, facts, v);
    check_view(stated, facts, claimed.total.is_some(), v);
    check_cap(stated, facts, v);
}

fn wrong(what: &str, expected: impl Into<String>, said: impl Into<String>, v: &mut Verdict) {
    v.push(Anomaly::new(
        AnomalyKind::DishonestCount,
        None,
        format!("{what}: {}", expected.into()),
        said.into(),
    ));
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "said"
    } else {
        "not said"
    }
}

/// A condensed text opens with a header or is a status line; "first read: " opens it exactly
/// when no read came before; its line count names the log ("log at T lines") exactly when the
/// view is the whole log.
fn check_standing(stated: &Stated, facts: &Facts<'_>, v: &mut Verdict) {
    if facts.form == Form::Bare {
        wrong("a header or a status line", "one", "neither", v);
    }
    if facts.form != Form::Raw && stated.first_read != facts.first {
        let what = "\"first read\" (no read came before)";
        wrong(what, yes_no(facts.first), yes_no(stated.first_read), v);
    }
    let whole_log = facts.truth.origin == 0 && !facts.truth.bound_hit;
    if let Some(said) = stated.names_log.filter(|&said| said != whole_log) {
        let what = "the line count named \"log at\" (the view is the whole log)";
        wrong(what, yes_no(whole_log), yes_no(said), v);
    }
    // A view past the log's first byte may hold no line of a log that has many.
    if stated.empty_log && !whole_log {
        let what = "\"empty log\" (only where the view is the whole log)";
        wrong(what, "not said", "said", v);
    }
}

/// The partial line: a header and its note say it is carried exactly when it is; a status says
/// the last line is still being written exactly when the log has a partial line; the note that
/// it did not fit only when it is there and was not carried.
fn check_partial(stated: &Stated, facts: &Facts<'_>, v: &mut Verdict) {
    let there = facts.truth.partial().is_some();
    let carried = facts.partial_carried;
    match facts.form {
        Form::Header => {
            if stated.partial_in_header != carried {
                wrong(
                    "\"a partial line\" in the header",
                    yes_no(carried),
                    yes_no(stated.partial_in_header),
                    v,
                );
            }
            if stated.partial_note != carried {
                wrong(
                    "the note that the carried last line is still being written",
                    yes_no(carried),
                    yes_no(stated.partial_note),
                    v,
                );
            }
            if stated.partial_crowded_out && (!there || carried) {
                wrong(
                    "the note that a partial last line did not fit",
                    "not said (no partial line left out)",
                    "said",
                    v,
                );
            }
        }
        Form::Status if stated.still_writing != there => {
            wrong(
                "\"the last line is still being written\"",
                yes_no(there),
                yes_no(stated.still_writing),
                v,
            );
        }
        _ => {}
    }
}

/// The `lines` that reach lines above the window never shown: a header's note on the ones
/// newer than a shown line (skipped over), a status's on the newest. Counted from the view's
/// end, so that a read with that many lines starts at the line meant. `skipped`: the lines the
/// header's note counts ([`skipped_above`]).
fn check_reaches(stated: &Stated, facts: &Facts<'_>, skipped: &[usize], v: &mut Verdict) {
    let truth = facts.truth;
    let reach = |i: usize| (truth.complete - i) as u64;
    match facts.form {
        Form::Header => {
            let expected = skipped
                .first()
                .map(|&i| (skipped.len() as u64, Some(reach(i))));
            if stated.skipped != expected {
                let say = |s: Option<(u64, Option<u64>)>| match s {
                    Some((n, r)) => format!("{n} skipped, lines: {r:?} reaches them"),
                    None => "no note".to_owned(),
                };
                wrong(
                    "lines skipped above the window",
                    say(expected),
                    say(stated.skipped),
                    v,
                );
            }
        }
        Form::Status => {
            let newest_never_shown = (0..truth.window_start).rfind(|&i| !facts.delivered[i]);
            let expected = newest_never_shown.map(reach);
            if stated.unseen_reach != expected {
                wrong(
                    "the `lines` that reaches the newest line never shown",
                    format!("{expected:?}"),
                    format!("{:?}", stated.unseen_reach),
                    v,
                );
            }
        }
        Form::Raw | Form::Bare => {}
    }
}

/// The lines above the window `window_start` never delivered but newer than a delivered line
/// of the view: the lines a header's skipped-lines note counts.
fn skipped_above(delivered: &[bool], window_start: usize) -> Vec<usize> {
    let Some(oldest_shown) = delivered.iter().position(|&d| d) else {
        return Vec::new();
    };
    (oldest_shown + 1..window_start)
        .filter(|&i| !delivered[i])
        .collect()
}

/// The left-out note names the budget and the read that returns the lines: the `lines` the
/// request passed ("the same `lines`" when it asked for every line).
fn check_left_out(stated: &Stated, facts: &Facts<'_>, v: &mut Verdict) {
    let Some((budget, again)) = &stated.left_out_by else {
        return;
    };
    let want_budget = facts.limits.text_budget as u64;
    if *budget != Some(want_budget) {
        wrong(
            "the budget that left lines out",
            want_budget.to_string(),
            format!("{budget:?}"),
            v,
        );
    }
    let (lines, _) = super::truth::window_asked(facts.request.lines, facts.limits);
    let want = if lines == usize::MAX {
        "the same `lines`".to_owned()
    } else {
        format!("lines: {lines}")
    };
    if *again != want {
        wrong(
            "the read that returns the lines left out",
            want,
            again.clone(),
            v,
        );
    }
}

/// The view note is there exactly when the view starts after the log's first byte, naming the
/// window and the log's size; the line bound's only when the bound cut the
/// view, and always then when the text states the view's line count (a count that stopped at
/// the tail, or a raw read's, may not have reached where the bound cuts).
fn check_view(stated: &Stated, facts: &Facts<'_>, counted_whole: bool, v: &mut Verdict) {
    let (truth, limits) = (facts.truth, facts.limits);
    let expected = (truth.origin > 0).then(|| super::text::ViewNote {
        window: size_said(truth.view_bytes as f64),
        size: size_said(truth.len as f64),
    });
    if stated.view != expected {
        wrong(
            "the view note",
            format!("{expected:?}"),
            format!("{:?}", stated.view),
            v,
        );
    }
    let bound = truth.bound_hit.then_some(limits.scan_lines_max as u64);
    if stated.scanned != bound && (stated.scanned.is_some() || counted_whole) {
        wrong(
            "the line bound's note",
            format!("{bound:?}"),
            format!("{:?}", stated.scanned),
            v,
        );
    }
}

/// The note on the wrapper's truncation names the cap the log's exit marker records. It is
/// there whenever the marker line lies whole in the view, where a read finds it; a view that
/// cuts the line may leave the note out, never name another cap.
fn check_cap(stated: &Stated, facts: &Facts<'_>, v: &mut Verdict) {
    let marker = facts.truth.exit;
    let cap = marker.and_then(|m| m.cap).map(size_said);
    let in_view = marker.is_some_and(|m| m.start >= facts.truth.origin);
    let wrong_cap = stated.cap.is_some() && stated.cap != cap;
    if wrong_cap || (stated.cap.is_none() && in_view && cap.is_some()) {
        wrong(
            "the note on the wrapper's truncation (the cap the exit marker records)",
            format!("{cap:?}"),
            format!("{:?}", stated.cap),
            v,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{lines, wrong_at, wrong_in};
    use super::super::Judge;
    use crate::interface::api::Request;
    use crate::upstream::limits::Limits;

    /// Each text is judged after the same first read, by a judge of its own.
    fn after_first_read(log: &[u8], request: &Request, text: &str) -> Vec<String> {
        let mut judge = Judge::default();
        let first = "first read: 1 line — log at 3 lines\nc";
        assert_eq!(
            wrong_in(&mut judge, log, &lines(1.0), first),
            Vec::<String>::new()
        );
        wrong_in(&mut judge, log, request, text)
    }

    #[test]
    fn a_status_states_where_the_lines_never_shown_are_and_no_partial_line_it_lacks() {
        let log = b"a\nb\nc\n";
        let right = "(no new lines — log at 3 lines; 2 earlier lines never shown — lines: 2 reaches the newest)";
        assert!(after_first_read(log, &lines(1.0), right).is_empty());
        let far = "(no new lines — log at 3 lines; 2 earlier lines never shown — lines: 3 reaches the newest)";
        let found = after_first_read(log, &lines(1.0), far);
        assert_eq!(
            found,
            ["the `lines` that reaches the newest line never shown: Some(2)"]
        );
        let writing = "(no new lines — log at 3 lines; 2 earlier lines never shown — lines: 2 reaches the newest; the last line is still being written)";
        let found = after_first_read(log, &lines(1.0), writing);
        assert_eq!(
            found,
            ["\"the last line is still being written\": not said"]
        );
        let first_again = format!("first read: {right}");
        let found = after_first_read(log, &lines(1.0), &first_again);
        assert_eq!(found, ["\"first read\" (no read came before): not said"]);
    }

    #[test]
    fn a_condensed_reply_says_something() {
        let found = after_first_read(b"a\nb\nc\n", &lines(1.0), "");
        assert_eq!(found, ["a header or a status line: one"]);
    }

    #[test]
    fn the_skipped_note_counts_the_lines_and_names_the_lines_that_reach_them() {
        // The same whether the header counts the view or leaves the view above uncounted.
        for log_words in [
            "log at 4 lines",
            "2 lines in the last 4 bytes (the view above is not counted yet)",
        ] {
            let skipped = |note: &str| {
                let mut judge = Judge::default();
                let first = "first read: 1 line — log at 1 line\na";
                assert!(wrong_in(&mut judge, b"a\n", &lines(1.0), first).is_empty());
                let text = format!("+1 of 3 new lines — {log_words}\nd{note}");
                wrong_in(&mut judge, b"a\nb\nc\nd\n", &lines(1.0), &text)
            };
            let right = "\n\n(2 skipped lines above this window — lines: 3 reaches them)";
            assert!(
                skipped(right).is_empty(),
                "{log_words}: {:?}",
                skipped(right)
            );
            let near = "\n\n(2 skipped lines above this window — lines: 2 reaches them)";
            assert_eq!(
                skipped(near),
                ["lines skipped above the window: 2 skipped, lines: Some(3) reaches them"]
            );
            assert_eq!(
                skipped(""),
                ["lines skipped above the window: 2 skipped, lines: Some(3) reaches them"],
                "{log_words}"
            );
        }
    }

    #[test]
    fn the_view_note_names_the_window_and_the_log_and_the_count_names_the_view() {
        let request = Request {
            lines: Some(1.0),
            bytes: Some(3.0),
            ..Request::default()
        };
        let judge = |text: &str| wrong_in(&mut Judge::default(), b"a\nb\n", &request, text);
        let note = |size: &str| {
            format!("\n\n(view: the last 3 bytes of {size} — earlier lines are not counted; pass a larger `bytes` (max 64 MiB) to reach them)")
        };
        let right = format!("first read: 1 line — 1 line in view\nb{}", note("4 bytes"));
        assert!(judge(&right).is_empty());
        let wrong_size = format!("first read: 1 line — 1 line in view\nb{}", note("5 bytes"));
        assert_eq!(judge(&wrong_size).len(), 1);
        assert!(judge(&wrong_size)[0].starts_with("the view note: Some("));
        let no_note = "first read: 1 line — 1 line in view\nb";
        assert!(judge(no_note)[0].starts_with("the view note: Some("));
        let names_log = format!("first read: 1 line — log at 1 line\nb{}", note("4 bytes"));
        assert_eq!(
            judge(&names_log),
            ["the line count named \"log at\" (the view is the whole log): not said"]
        );
    }

    #[test]
    fn the_left_out_note_names_the_budget_and_the_lines_passed() {
        let log = b"a\nb\nc\n";
        let text = |again: &str| {
            format!("first read: 1 line — log at 3 lines\nc\n\n(1 older line left out by the 3-char budget — the next read with {again} returns them)")
        };
        // The window is b and c: c carried (2 units of the budget's 3), b left out (it costs
        // 2), and the note says so.
        let limits = Limits {
            text_budget: 3,
            ..Limits::default()
        };
        let words = |again: &str| {
            wrong_at(
                &limits,
                &mut Judge::default(),
                log,
                &lines(2.0),
                &text(again),
            )
        };
        assert!(words("lines: 2").is_empty());
        assert_eq!(
            words("the same `lines`"),
            ["the read that returns the lines left out: lines: 2"]
        );
    }

    #[test]
    fn the_truncation_note_names_the_cap_of_the_exit_marker_in_view() {
        let log = b"a\n\n__BGRUN_EXIT__=0 truncated=40\n";
        let note = |cap: &str| {
            format!("\n\n(log truncated at {cap} — lines past the cap were never written, so this is not the run's real end)")
        };
        let judge = |log: &[u8], request: &Request, text: &str| {
            wrong_in(&mut Judge::default(), log, request, text)
        };
        let reply = |note: &str| format!("first read: 1 line — log at 1 line\na{note}");
        assert!(judge(log, &lines(1.0), &reply(&note("40 bytes"))).is_empty());
        let expected = "the note on the wrapper's truncation (the cap the exit marker records): ";
        assert_eq!(
            judge(log, &lines(1.0), &reply(&note("41 bytes"))),
            [format!("{expected}Some(\"40 bytes\")")]
        );
        assert_eq!(
            judge(log, &lines(1.0), &reply("")),
            [format!("{expected}Some(\"40 bytes\")")]
        );
        let uncapped = b"a\n\n__BGRUN_EXIT__=0\n";
        assert_eq!(
            judge(uncapped, &lines(1.0), &reply(&note("40 bytes"))),
            [format!("{expected}None")]
        );
        // A view that cuts the marker line may leave the note out, but not name another cap.
        let cut = Request {
            lines: Some(1.0),
            bytes: Some(10.0),
            ..Request::default()
        };
        let view = "\n\n(view: the last 10 bytes of 33 bytes — earlier lines are not counted; pass a larger `bytes` (max 64 MiB) to reach them)";
        let status = format!("first read: (nothing in view — 0 lines in view){view}");
        assert_eq!(judge(log, &cut, &status), Vec::<String>::new());
        let capped = format!(
            "first read: (nothing in view — 0 lines in view){}{view}",
            note("41 bytes")
        );
        assert_eq!(
            judge(log, &cut, &capped),
            [format!("{expected}Some(\"40 bytes\")")]
        );
    }

    #[test]
    fn a_view_that_holds_no_line_of_a_log_that_has_some_does_not_call_it_empty() {
        let request = Request {
            lines: Some(1.0),
            bytes: Some(1.0),
            ..Request::default()
        };
        let view = "\n\n(view: the last 1 bytes of 4 bytes — earlier lines are not counted; pass a larger `bytes` (max 64 MiB) to reach them)";
        let judge = |text: &str| wrong_in(&mut Judge::default(), b"a\nb\n", &request, text);
        let nothing = format!("first read: (nothing in view — 0 lines in view){view}");
        assert_eq!(judge(&nothing), Vec::<String>::new());
        let empty = format!("first read: (empty log — 0 lines in view){view}");
        assert_eq!(
            judge(&empty),
            ["\"empty log\" (only where the view is the whole log): not said"]
        );
        let raw = Request {
            raw: true,
            ..request
        };
        let raw_empty = format!("(empty log){view}");
        assert_eq!(
            wrong_in(&mut Judge::default(), b"a\nb\n", &raw, &raw_empty),
            ["\"empty log\" (only where the view is the whole log): not said"]
        );
        let raw_nothing = format!("(nothing in view){view}");
        assert!(wrong_in(&mut Judge::default(), b"a\nb\n", &raw, &raw_nothing).is_empty());
    }
}
