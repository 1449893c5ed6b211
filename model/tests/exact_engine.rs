//! The exact engine keeps every guarantee of the contract on the CI bounds, and reaches every
//! path the guarantees are about. Each check pins its unique state count: a change in the
//! engine or the model that changes the space shows here first.

use bgtail_model::{
    line_text, Action::*, Bytes, Elapsed, LineKind::*, Lines, ModelConfig, OtherId, TailModel,
    ASTRAL,
};
use stateright::{Checker, Expectation, Model};

/// Checks the exact engine at `config`: every property holds, every path is reached, and the
/// space has `unique` states.
fn keeps_the_contract(config: ModelConfig, unique: usize) {
    let checker = TailModel::exact(config)
        .checker()
        .threads(2)
        .spawn_dfs()
        .join();
    checker.assert_properties();
    assert_eq!(checker.unique_state_count(), unique);
}

/// Checks the exact engine at `config` breadth first: every property holds, every path but
/// `unreachable` is reached, and those are not (a bound that reaches one should ask for it).
fn keeps_the_contract_reaching(
    config: ModelConfig,
    unreachable: &[&str],
) -> impl Checker<TailModel<bgtail::ExactEngine>> {
    let checker = TailModel::exact(config)
        .checker()
        .threads(2)
        .spawn_bfs()
        .join();
    for property in checker.model().properties() {
        let found = checker.discovery(property.name).is_some();
        match property.expectation {
            Expectation::Always => assert!(!found, "{} broke", property.name),
            _ if unreachable.contains(&property.name) => {
                assert!(!found, "{} was reached: ask for it", property.name)
            }
            _ => assert!(found, "{} was never reached", property.name),
        }
    }
    checker
}

#[test]
fn exact_keeps_the_contract_with_blank_and_wrapper_lines_up_to_3_lines_1_reset_any_reads() {
    keeps_the_contract(ModelConfig::ci_non_content(), 228_806);
}

/// Literal paths to each path the guarantees are about, replayed through the real engine.
#[test]
fn exact_reaches_every_interesting_path_by_a_literal_action_list() {
    let config = ModelConfig {
        max_lines: 3,
        ..ModelConfig::ci()
    };
    let checker = TailModel::exact(config)
        .checker()
        .threads(2)
        .spawn_bfs()
        .join();
    checker.assert_discovery(
        "a widening returned earlier lines",
        vec![Append(Short), Append(Short), Read(1), Read(2)],
    );
    checker.assert_discovery(
        "the budget left lines out",
        vec![Append(Long), Append(Long), Read(2)],
    );
    checker.assert_discovery(
        "a reset was reported",
        vec![Append(Short), Read(1), Truncate, Read(1)],
    );
    checker.assert_discovery(
        "a partial line was completed",
        vec![WritePartial, Read(1), CompletePartial, Read(1)],
    );
    checker.assert_discovery(
        "coverage overflow forgot a range",
        vec![
            Append(Short),
            Read(1),
            Append(Short),
            Append(Short),
            Read(1),
        ],
    );
    checker.assert_discovery(
        "a fold was emitted",
        vec![
            Append(Repeated),
            Append(Repeated),
            Append(Repeated),
            Read(4),
        ],
    );
    checker.assert_discovery(
        "a seen last line rewritten behind the head",
        vec![Append(Short), Append(Short), Read(1), RewriteLast],
    );
    checker.assert_discovery(
        "a seen partial line redrawn behind the head",
        vec![Append(Short), WritePartial, Read(1), RewritePartial],
    );
}

/// A partial line the budget crowded out of a reply was still read: cut there and regrown
/// behind the same head and the same bytes before the settled end, the log is another
/// generation, and the reply says so (the path on which the model found the engine silent
/// while it fingerprinted only a partial line it showed).
#[test]
fn a_partial_line_left_out_then_cut_and_regrown_is_a_new_generation() {
    let model = TailModel::exact(ModelConfig::ci());
    let explained = model.explain(&[
        Append(Long),
        Append(Short),
        Read(1),
        WritePartial,
        Read(2),
        Truncate,
        Append(Short),
        Append(Short),
        Read(1),
    ]);
    let crowded = explained[4].text.as_deref().unwrap();
    assert!(
        crowded.contains("it did not fit the budget this time"),
        "{crowded}"
    );
    let last = explained.last().unwrap();
    assert!(last.anomalies.is_empty(), "{:?}", last.anomalies);
    let text = last.text.as_deref().unwrap();
    assert!(
        text.starts_with("the unfinished last line the last read saw changed"),
        "{text}"
    );
}

#[test]
fn the_model_is_bounded_by_its_counters() {
    let model = TailModel::exact(ModelConfig::ci());
    let mut state = model.init_states().remove(0);
    for _ in 0..10 {
        state = model.next_state(&state, Append(Short)).unwrap();
    }
    assert!(
        !model.within_boundary(&state),
        "more lines than max_lines is outside"
    );
}

/// Upstream's line bound within reach (a bound of 2 `\n` bytes over logs of up to 3 lines,
/// blank and wrapper lines among them): every guarantee holds on every path, and the bound
/// cuts the view on a literal one. The budget and the fold are out of reach there — a view
/// keeps at most the lines after its second-to-last `\n`, one complete line and maybe a
/// partial one, too little to overflow the budget or to fold — so their `sometimes` are not
/// asked for; every other one is.
#[test]
fn exact_keeps_the_contract_where_upstreams_line_bound_cuts_the_view() {
    let checker = keeps_the_contract_reaching(
        ModelConfig::line_bound(),
        &["the budget left lines out", "a fold was emitted"],
    );
    // "a\nb\n": two `\n` bytes, so the view starts after the first.
    checker.assert_discovery(
        "upstream's line bound cut the view",
        vec![Append(Short), Append(Short), Read(1)],
    );
    assert_eq!(checker.unique_state_count(), 220_465);
}

/// What a bound of appends and reads of short (and blank) lines cannot reach: the budget's
/// overflow, resets, partial lines and folds are other bounds' to reach.
const OFF_WITH_APPENDS_AND_READS_OF_SHORT_LINES: [&str; 4] = [
    "the budget left lines out",
    "a reset was reported",
    "a partial line was completed",
    "a fold was emitted",
];

/// Lines skipped between covered runs of a view that upstream's line bound cuts (two coverage
/// ranges kept, a bound of 5 `\n` bytes, 6 short lines): the bound refuses the cheap count of
/// the view from the mark at its start, the engine counts back from its tail, and a reply that
/// leaves the view above uncounted must still say the skipped lines exactly.
#[test]
fn exact_says_the_lines_skipped_in_a_view_the_line_bound_cut() {
    let checker = keeps_the_contract_reaching(
        ModelConfig::skipped_in_cut_view(),
        &OFF_WITH_APPENDS_AND_READS_OF_SHORT_LINES,
    );
    // Lines 2 and 3 read, 5 read with 4 skipped, then 6: the view of 6 lines is cut to the
    // last 5, where 4 lies between delivered lines above the window.
    checker.assert_discovery(
        "a view the line bound cut held lines skipped above the window",
        vec![
            Append(Short),
            Append(Short),
            Append(Short),
            Read(2),
            Append(Short),
            Append(Short),
            Read(1),
            Append(Short),
            Read(1),
        ],
    );
    assert_eq!(checker.unique_state_count(), 178);
}

/// A view narrower than the log that upstream's line bound cuts (a bound of 4 `\n` bytes, 5
/// short and blank lines, views of 6 and 12 bytes): the view is counted from a line index mark
/// before it only while the bound does not cut it, counting the newline of the line its start
/// falls in.
#[test]
fn exact_counts_a_narrow_view_against_the_line_bound() {
    let checker = keeps_the_contract_reaching(
        ModelConfig::narrow_view_cut(),
        &OFF_WITH_APPENDS_AND_READS_OF_SHORT_LINES,
    );
    // Two blank lines and three short ones, read along the way; the last read's view, the
    // last 12 bytes of 15, is counted with the newline before it, where upstream's scan
    // starts: 4 `\n` bytes, and the bound cuts it ("only the last 4 lines of the view were
    // scanned").
    checker.assert_discovery(
        "upstream's line bound cut the view",
        vec![
            Append(Blank),
            Append(Blank),
            Append(Short),
            Read(1),
            Append(Short),
            Append(Short),
            Read(1),
            Read(2),
            SetView(Some(Bytes::Whole(12))),
            Read(1),
        ],
    );
    assert_eq!(checker.unique_state_count(), 3_159);
}

/// A narrow view counted from a line index mark before it (a bound of 5 `\n` bytes, a mark
/// about every 12 bytes, 9 short lines, views of 11 and 14 bytes): where the bound cuts by
/// exactly the newlines the mark gives, a mark numbered wrong or the newline before the view
/// left out lets the view escape the cut, and the reply leaves out the bound's note.
#[test]
fn exact_counts_a_view_from_a_mark_before_it_against_the_line_bound() {
    let checker = keeps_the_contract_reaching(
        ModelConfig::line_bound_from_a_mark(),
        &OFF_WITH_APPENDS_AND_READS_OF_SHORT_LINES,
    );
    // The reads along the way leave the line index a mark at line 4 (offset 9) and the
    // settled end at line 9. The last read's view, the last 14 bytes of 27, starts inside line
    // 5, before that settled end: its tail is read from there, and its first line, line 6, is
    // counted forward from the mark at line 4. With the newline ending line 5, the view holds
    // 5 `\n` bytes, and the bound cuts it ("only the last 5 lines of the view were scanned").
    checker.assert_discovery(
        "upstream's line bound cut the view",
        vec![
            Append(Short),
            Append(Short),
            Read(2),
            Append(Short),
            Read(1),
            Append(Short),
            Append(Short),
            Read(1),
            Read(2),
            Append(Short),
            Append(Short),
            Read(2),
            Append(Short),
            Read(1),
            Append(Short),
            SetView(Some(Bytes::Whole(14))),
            Read(1),
        ],
    );
    assert_eq!(checker.unique_state_count(), 7_841);
}

/// Requests that are not plain: views asked by numbers that are not a whole number of bytes
/// within the largest view (0, -1, NaN, +Infinity, 1.5, 5000; a default view of 6 bytes), each
/// read as upstream's clamp reads it, and reads naming the job by each id upstream refuses and
/// by the longest it reads, and reads without `peek` while the job runs, passing elapsed times
/// the state line says as they are or as 0.0. The judge reads `bytes`, ids and elapsed times
/// with its own code.
#[test]
fn exact_reads_requests_that_are_not_plain_as_upstream_does() {
    let checker = keeps_the_contract_reaching(
        ModelConfig::odd_requests(),
        &["a reset was reported", "a fold was emitted"],
    );
    for (property, bytes) in [
        (
            "a read asked for a view by a number not positive and finite",
            Bytes::Negative,
        ),
        ("a read asked for a view by a fraction", Bytes::AndAHalf(1)),
        (
            "a read asked for a view past the largest",
            Bytes::Whole(5000),
        ),
    ] {
        checker.assert_discovery(
            property,
            vec![Append(Short), Append(Short), SetView(Some(bytes)), Read(2)],
        );
    }
    for (property, lines) in [
        ("a read asked for a window by NaN", Lines::NotANumber),
        (
            "a read asked for a window by a fraction",
            Lines::OneAndAHalf,
        ),
        ("a read asked for a window below 1 line", Lines::Zero),
        ("a read asked for a window past every line", Lines::Infinite),
    ] {
        checker.assert_discovery(property, vec![Append(Short), ReadOddly(lines)]);
    }
    checker.assert_discovery(
        "a read named the job by an id upstream refuses",
        vec![Append(Short), Read(1), ReadAs(OtherId::Dots)],
    );
    checker.assert_discovery(
        "the running-job gate held a read back",
        vec![Append(Short), GatedRead(Elapsed::Seconds)],
    );
    assert_eq!(checker.unique_state_count(), 70_463);
}

/// The job's end (the wrapper's exit marker, a view narrower than the partial line, a partial
/// line that grows): every guarantee holds on every path, and each regime is reached on a
/// literal one. Repeated lines are CI's other bounds' to reach, so the fold is not asked for
/// here.
#[test]
fn exact_keeps_the_contract_at_the_jobs_end() {
    let checker = keeps_the_contract_reaching(ModelConfig::job_end(), &["a fold was emitted"]);
    checker.assert_discovery(
        "a read found the exit marker while the caller said the job runs",
        vec![WriteExitMarker, Read(1)],
    );
    checker.assert_discovery(
        "the exit marker's newline completed a shown partial line",
        vec![WritePartial, Read(1), WriteExitMarker, Read(1)],
    );
    checker.assert_discovery(
        "a read's view started inside its partial line",
        vec![WritePartial, SetView(Some(Bytes::Whole(1))), Read(1)],
    );
    checker.assert_discovery(
        "a read's view started inside a partial line that grew",
        vec![
            WritePartial,
            GrowPartial,
            SetView(Some(Bytes::Whole(1))),
            Read(1),
        ],
    );
    assert_eq!(checker.unique_state_count(), 121_465);
}

/// The slow checks: minutes on 2 cores. `cargo xtask test` (the developer's loop) skips them
/// with `--skip slow::`; `cargo xtask test --full`, as CI runs it, and a plain `cargo test` run
/// them.
mod slow {
    use super::*;

    #[test]
    fn exact_keeps_the_contract_up_to_4_lines_1_reset_and_any_number_of_reads() {
        keeps_the_contract(ModelConfig::ci(), 2_832_665);
    }

    /// A fold beside the budget's overflow and beside coverage overflow, each in one reply,
    /// within 4 lines (a fold threshold of 2): the two `sometimes` properties of the pairs are
    /// reached, and the contract holds.
    #[test]
    fn exact_keeps_the_contract_where_a_fold_meets_either_overflow_in_4_lines() {
        let config = ModelConfig::fold_pairs();
        assert!(config.reaches_fold_pairs() && !ModelConfig::ci().reaches_fold_pairs());
        keeps_the_contract(config, 2_837_556);
    }

    /// Every sequence of any length over logs of up to 3 lines — any number of reads and of
    /// truncations and rewrites — by reachability: the inductive check's claim at 3 lines, from
    /// no invariant, only the engine's quotient (`model/tests/long_sequences.rs` holds it to
    /// changing no reply).
    #[test]
    fn exact_keeps_the_contract_on_every_sequence_of_any_length_up_to_3_lines() {
        keeps_the_contract(ModelConfig::any_length(), 1_474_554);
    }
}

/// Lines styled by escape sequences with a NUL in them, printed exactly the per-line cap
/// long, and lines whose cap falls inside a surrogate pair, among short lines (up to 3,
/// condensed reads of 1 and 2, raw reads of 1): the judge prints each line of the log with its
/// own code, so a reply that keeps an escape, prints the NUL as it is, cuts a line of the
/// cap's length, or drops the cut pair's U+FFFD shows as a line the log does not hold. Two
/// astral lines overflow the budget.
#[test]
fn exact_strips_escapes_and_shows_nul_before_the_per_line_cap() {
    let checker = keeps_the_contract_reaching(
        ModelConfig::styled_lines(),
        &OFF_WITH_APPENDS_AND_READS_OF_SHORT_LINES[1..],
    );
    checker.assert_discovery(
        "a condensed read stripped a line's escape sequences",
        vec![Append(Styled), Read(1)],
    );
    checker.assert_discovery(
        "the budget left lines out",
        vec![Append(Astral), Append(Astral), Read(2)],
    );
    assert_eq!(checker.unique_state_count(), 480);
}

/// The cap falls inside an astral line's last character, a surrogate pair in JavaScript's
/// units: the reply prints the pair's half as U+FFFD, as Node writes a lone surrogate, and
/// counts the one unit it left out.
#[test]
fn exact_prints_a_pair_the_cap_cuts_as_a_replacement_character() {
    let model = TailModel::exact(ModelConfig::styled_lines());
    let limits = &model.config.limits;
    let explained = model.explain(&[Append(Astral), Read(1)]);
    let text = explained[1].text.as_deref().expect("a read's reply");
    let line = line_text(0, Astral, false, limits);
    let kept = line
        .strip_suffix(ASTRAL)
        .expect("an astral line ends in it");
    assert!(
        text.contains(&format!("{kept}\u{FFFD} …[+1 chars]")),
        "{text:?}"
    );
    assert!(
        explained[1].anomalies.is_empty(),
        "{:?}",
        explained[1].anomalies
    );
}

/// Reads during a cut to half the log, whose first look at its size is from before the cut:
/// each answers as the same read made after the cut, reply and bookmarks, on every path, and
/// the judge holds it to the cut log. The race is reached on a literal path: two lines, the
/// tail's first piece asked for past the cut.
#[test]
fn exact_answers_a_read_during_a_cut_as_a_read_after_it() {
    let checker =
        keeps_the_contract_reaching(ModelConfig::cut_during_read(), &["a fold was emitted"]);
    checker.assert_discovery(
        "a read during a cut asked for bytes past the cut",
        vec![Append(Short), Append(Short), ReadDuringCut(1)],
    );
    assert_eq!(checker.unique_state_count(), 53_970);
}
