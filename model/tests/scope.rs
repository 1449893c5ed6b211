//! The model's scope (`bgtail_model::scope`): the changes the contract promises a read sees
//! are made, the others are not — each regime on a literal log.

use bgtail_model::scope::{compared_places, in_scope, rewrite_behind_head};
use bgtail_model::{Action, Action::*, InPlace, LineKind::*, ModelConfig, TailModel, TailState};
use stateright::Model;

fn after(actions: &[Action]) -> TailState<bgtail::ExactState> {
    let model = TailModel::exact(ModelConfig::ci());
    let mut state = model.init_states().remove(0);
    for action in actions {
        state = model.next_state(&state, action.clone()).unwrap();
    }
    state
}

#[test]
fn the_places_are_the_head_the_bytes_before_the_settled_end_and_the_partial_lines_end() {
    let limits = ModelConfig::tiny_limits();
    assert_eq!(compared_places(20, 14, &limits), [0..3, 11..14, 18..20]);
    // A short log: every place is inside it; no partial line, no partial place.
    assert_eq!(compared_places(2, 2, &limits), [0..2, 0..2, 2..2]);
}

#[test]
fn a_change_before_any_read_or_past_what_it_saw_is_in_scope() {
    let limits = ModelConfig::tiny_limits();
    assert!(in_scope(&after(&[]), &Append(Long), &limits));
    let s = after(&[Append(Short), Read(1), Append(Short)]);
    assert!(in_scope(&s, &RewriteLast, &limits));
}

#[test]
fn a_rewrite_only_between_the_places_is_out_of_scope() {
    let limits = ModelConfig::tiny_limits();
    // `s0\ns1\n` read: the head holds `s0\n`, the settled place `s1\n`.
    let s = after(&[Append(Short), Append(Short), Read(1)]);
    assert!(in_scope(&s, &RewriteLast, &limits));
    assert_eq!(
        rewrite_behind_head(&s, &RewriteLast, &limits),
        Some(InPlace::LastLine)
    );
    // A long last line's first letter lies before the settled place's 3 bytes.
    let s = after(&[Append(Short), Append(Long), Read(1)]);
    assert!(!in_scope(&s, &RewriteLast, &limits));
    // A blank first line and a repeated one: a rewrite changes only `again`'s letter.
    let s = after(&[Append(Blank), Append(Repeated), Read(1)]);
    assert!(!in_scope(&s, &Rewrite, &limits));
}

#[test]
fn a_cut_regrown_to_the_old_size_with_the_same_places_is_out_of_scope() {
    let limits = ModelConfig::tiny_limits();
    let s = after(&[
        Append(Short),
        Append(Repeated),
        Append(Long),
        Read(1),
        Truncate,
        Append(Short),
        Append(Short),
    ]);
    // `s0\nagain\ns2x…\n` read; `s0\ns1\ns2\n` and a long line `s3x…\n` would be as long,
    // with the same head and the same `xx\n` before the end.
    assert!(!in_scope(&s, &Append(Long), &limits));
    assert!(in_scope(&s, &Append(Short), &limits));
}

#[test]
fn the_partial_line_a_read_found_is_compared_shown_or_not() {
    let limits = ModelConfig::tiny_limits();
    let s = after(&[Append(Short), WritePartial, Read(1)]);
    assert!(in_scope(&s, &RewritePartial, &limits));
    assert_eq!(
        rewrite_behind_head(&s, &RewritePartial, &limits),
        Some(InPlace::PartialLine)
    );
}
