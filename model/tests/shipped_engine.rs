//! The checker rediscovers both symptoms of issue #28 in the shipped engine by itself, and the
//! shortest counterexamples are pinned; so are the shipped engine's replies where they rest on
//! upstream's JavaScript (a window of NaN lines) and its first line's fingerprint.

use bgtail_model::{
    line_text, shortest_discovery, Action::*, LineKind::*, Lines, ModelConfig, TailModel, Times,
};
use stateright::{Checker, Model};

/// The gap symptom: a delta read shows fewer lines than were appended (upstream's D2) and
/// shrinks `served` to `lines`, so the following widening slices from the forgotten run and
/// sends line 0 again — #28's 13-line reproduction (`lines:5`, append 3, `lines:2`, `lines:4`)
/// at its smallest: one line read, two appended, `lines:1` shows the newest, `lines:3` widens.
#[test]
fn shipped_repeats_a_line_after_a_narrow_delta_read_the_gap_symptom() {
    let model = TailModel::shipped(ModelConfig::issue_28_gap());
    let shortest = vec![
        Append(Short),
        Read(1),
        Append(Short),
        Append(Short),
        Read(1),
        Read(3),
    ];
    assert_eq!(
        shortest_discovery(&model, "repeats bounded"),
        Some(shortest.clone())
    );
    let checker = model.checker().spawn_bfs().join();
    checker.assert_discovery("repeats bounded", shortest);
    assert_eq!(checker.unique_state_count(), 102);
}

/// The cap symptom: two lines that together overflow the budget; upstream's condenser keeps
/// the oldest and the bookmark counts both as shown, so the newest is never delivered — #28's
/// 979-line `lines:400` read at its smallest. The judge reads replies, not the bookmark: the
/// loss shows at the next read, which says there is nothing new while the window holds the
/// line never delivered (#28's `lines: 60` read).
#[test]
fn shipped_hides_the_newest_line_behind_the_budget_the_cap_symptom() {
    let model = TailModel::shipped(ModelConfig::issue_28_cap());
    let shortest = vec![Append(Long), Append(Long), Read(2), Read(1)];
    assert_eq!(
        shortest_discovery(&model, "nothing lost"),
        Some(shortest.clone())
    );
    let checker = model.checker().spawn_bfs().join();
    checker.assert_discovery("nothing lost", shortest);
    assert_eq!(checker.unique_state_count(), 1_165);
}

/// The same two worlds hold no counterexample for the exact engine.
#[test]
fn exact_has_neither_symptom_in_the_same_worlds() {
    for config in [ModelConfig::issue_28_gap(), ModelConfig::issue_28_cap()] {
        let checker = TailModel::exact(config).checker().spawn_bfs().join();
        for property in [
            "nothing lost",
            "progress",
            "repeats bounded",
            "honest counts",
            "resets seen",
            "bounded output",
        ] {
            checker.assert_no_discovery(property);
        }
    }
}

/// A `lines` of NaN, which a JavaScript caller can pass: upstream's `slice(-NaN)` starts at 0,
/// so a first read shows every line of the view; after a read of 1 line, a NaN read says
/// nothing is new and the older line that read left out is never shown. The first reply and
/// the shortest counterexample are pinned: an engine that read NaN as a number (1 line) shows
/// one line where upstream shows both, and its state space is another.
#[test]
fn shipped_reads_a_window_of_nan_lines_as_every_line() {
    let model = TailModel::shipped(ModelConfig {
        odd_lines: vec![Lines::NotANumber],
        ..ModelConfig::issue_28_gap()
    });
    let limits = &model.config.limits;
    let first = model.explain(&[Append(Short), Append(Short), ReadOddly(Lines::NotANumber)]);
    let text = first[2].text.as_deref().expect("a read's reply");
    for index in 0..2 {
        let line = line_text(index, Short, false, limits);
        assert!(text.contains(&line), "{line:?} not in {text:?}");
    }
    let shortest = vec![
        Append(Short),
        Append(Short),
        Read(1),
        ReadOddly(Lines::NotANumber),
    ];
    assert_eq!(
        shortest_discovery(&model, "nothing lost"),
        Some(shortest.clone())
    );
    let checker = model.checker().spawn_bfs().join();
    checker.assert_discovery("nothing lost", shortest);
    assert_eq!(checker.unique_state_count(), 138);
}

/// A rewrite of the whole log to the same size, which no shrink shows: upstream sees it by
/// the fingerprint of the log's first line (`Utf16Prefix`, its first `first_line_units`
/// UTF-16 units, here 1, so that the fingerprint is a prefix of the model's short lines), and
/// the read after it reports the reset. A fingerprint that held nothing misses every such
/// rewrite (`Utf16Prefix::of` made to give the empty prefix breaks resets seen, by hand).
#[test]
fn shipped_sees_a_same_size_rewrite_by_its_first_line() {
    let mut config = ModelConfig {
        rewrite: true,
        max_resets: Times::AtMost(1),
        ..ModelConfig::issue_28_gap()
    };
    config.limits.first_line_units = 1;
    let checker = TailModel::shipped(config).checker().spawn_bfs().join();
    checker.assert_no_discovery("resets seen");
    assert_eq!(checker.unique_state_count(), 282);
}

/// The shipped engine's reply to a read after a line of `kind` was read and the log rewritten,
/// its first line fingerprinted to `units` UTF-16 units.
fn reply_after_a_rewrite(kind: bgtail_model::LineKind, units: usize) -> String {
    let mut config = ModelConfig {
        rewrite: true,
        max_resets: Times::AtMost(1),
        kinds: vec![kind],
        ..ModelConfig::issue_28_gap()
    };
    config.limits.first_line_units = units;
    let steps = TailModel::shipped(config).explain(&[Append(kind), Read(1), Rewrite, Read(1)]);
    steps[3].text.clone().expect("a read's reply")
}

/// The same fingerprint cuts the first line at exactly `first_line_units` UTF-16 units, as
/// upstream's `slice(0, 200)` does: a rewrite that changes the line's 5th unit only (a styled
/// line, `ESC[1ms0…` to `ESC[1mt0…`) goes unseen by a fingerprint of 4 units — the read after
/// it says nothing is new — and is seen by one of 5, whose read starts over. A fingerprint cut
/// a unit later or earlier, or never, gives the other reply at one of the two.
#[test]
fn shipped_fingerprints_the_first_line_to_exactly_its_units() {
    let last_reply = |units| reply_after_a_rewrite(Styled, units);
    assert_eq!(
        last_reply(4),
        "(no new lines since last read — log at 1 line)"
    );
    let seen = last_reply(5);
    assert!(
        seen.starts_with("log was replaced since last read — showing full tail\nt0"),
        "{seen}"
    );
}
/// The shipped engine condenses as upstream's oldest-first condenser does, pinned on one read
/// of styled, repeated and long lines at a budget they fill exactly (4 emissions of 20 units
/// and their newlines: 84 chars, which upstream's `total > budget` keeps): the escape sequence stripped and
/// the OSC title kept (so a styled line stays past the cap), the fold's count added before the
/// cap cuts it (`again  [ …[+3 chars]`), and the notes' counts as upstream keeps them — lines
/// with escapes (said as sequences), runs folded, emissions the cap cut (the fold among them).
#[test]
fn shipped_condenses_styled_repeated_and_long_lines_as_upstream_does() {
    let mut config = ModelConfig {
        kinds: vec![Styled, Repeated, Long],
        max_lines: 8,
        ..ModelConfig::fold_pairs()
    };
    config.limits.text_budget = 84;
    let path = [
        Append(Styled),
        Append(Repeated),
        Append(Repeated),
        Append(Repeated),
        Append(Long),
        Append(Styled),
        Read(7),
    ];
    let steps = TailModel::shipped(config).explain(&path);
    assert_eq!(
        steps[6].text.as_deref(),
        Some(
            "s0yyyyy\0 …[+6 chars]\nagain  [ …[+3 chars]\ns4xxxxxx …[+4 chars]\ns5yyyyy\0 …[+6 chars]\n\n\
             (2 ANSI escape sequences stripped; 1 repeated-line run collapsed; 4 long lines truncated to 8 chars)"
        )
    );
}

/// The fingerprint cut inside or at the end of a character past U+FFFF, as JavaScript's
/// `slice(0, n)` cuts its surrogate pair: a line of 7 units then the pair (units 8 and 9), read,
/// then rewritten to another such character. Cut after the pair (9 units), a change of its low
/// half is seen; cut inside it (8), the fingerprint keeps the high half alone, so a change of
/// the low half goes unseen and one of the high half is seen; cut before it (7), neither is.
#[test]
fn shipped_fingerprints_a_character_past_u_ffff_as_javascript_slices_it() {
    let seen = |kind, units| {
        let text = reply_after_a_rewrite(kind, units);
        match text.as_str() {
            "(no new lines since last read — log at 1 line)" => false,
            t if t.starts_with("log was replaced since last read — showing full tail\n") => true,
            t => panic!("{kind:?} at {units} units: {t}"),
        }
    };
    assert!(
        seen(Astral, 9),
        "the low half, after a cut at the pair's end"
    );
    assert!(
        !seen(Astral, 8),
        "the low half, after a cut inside the pair"
    );
    assert!(
        seen(AstralApart, 8),
        "the high half, after a cut inside the pair"
    );
    assert!(!seen(AstralApart, 7), "the pair, after a cut before it");
}
