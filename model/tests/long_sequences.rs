//! Long random sequences, far beyond the checker's bound and with upstream's real limits,
//! through the same model and the same judge, for both engines.

use bgtail::{Engine, ExactEngine};
use bgtail_model::{
    renumber_generations, Action, Bytes, LineKind, ModelConfig, TailModel, TailState, Times,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use stateright::Model;

fn action() -> impl Strategy<Value = Action> {
    let kind = prop_oneof![
        5 => Just(LineKind::Short),
        2 => Just(LineKind::Long),
        3 => Just(LineKind::Repeated),
        1 => Just(LineKind::Blank),
        1 => Just(LineKind::Wrapper),
    ];
    prop_oneof![
        10 => kind.prop_map(Action::Append),
        1 => Just(Action::WritePartial),
        1 => Just(Action::CompletePartial),
        6 => prop::sample::select(vec![1u8, 2, 3, 5, 10, 40]).prop_map(Action::Read),
        1 => Just(Action::Read(144)),
        1 => prop::sample::select(vec![2u8, 40]).prop_map(Action::RawRead),
        1 => prop::sample::select(vec![None, Some(Bytes::Whole(300)), Some(Bytes::Whole(1200))]).prop_map(Action::SetView),
        1 => Just(Action::Truncate),
        1 => Just(Action::Rewrite),
        1 => Just(Action::Finish),
    ]
}

/// Runs the actions the model offers (others are skipped) and returns every state reached.
fn run<E>(model: &TailModel<E>, actions: &[Action]) -> Vec<TailState<E::State>>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    let mut state = model.init_states().remove(0);
    let mut states = Vec::new();
    let mut offered = Vec::new();
    for a in actions {
        offered.clear();
        model.actions(&state, &mut offered);
        if !offered.contains(a) {
            continue;
        }
        state = model.next_state(&state, a.clone()).expect("a successor");
        states.push(state.clone());
    }
    states
}

fn config() -> ModelConfig {
    ModelConfig::long_random()
}

/// The exact engine's model with resets not counted, where it takes the engine's quotient,
/// and the same model without the quotient.
fn quotiented_and_plain() -> (TailModel<ExactEngine>, TailModel<ExactEngine>) {
    let any_resets = || ModelConfig {
        max_resets: Times::Any,
        ..config()
    };
    let plain = TailModel {
        quotient: None,
        ..TailModel::exact(any_resets())
    };
    (TailModel::exact(any_resets()), plain)
}

/// Each reply's text and what the judge found in it, along `path`.
fn replies(model: &TailModel<ExactEngine>, path: &[Action]) -> Vec<(Option<String>, String)> {
    model
        .explain(path)
        .into_iter()
        .map(|e| (e.text, format!("{:?}", e.anomalies)))
        .collect()
}

proptest! {
    #![proptest_config(bgtail_tests::seeds::config(300))]

    #[test]
    fn exact_keeps_the_contract_on_long_random_sequences(actions in prop::collection::vec(action(), 1..200)) {
        let model = TailModel::exact(config());
        for (step, s) in run(&model, &actions).iter().enumerate() {
            let v = s.last;
            prop_assert!(!v.lost && !v.stalled && !v.repeated && !v.dishonest && !v.over_budget,
                "step {}: {:?}", step, v);
        }
    }
}

proptest! {
    #![proptest_config(bgtail_tests::seeds::config(200))]

    /// The exact engine's quotient (every generation number made 1 after a read), which
    /// keeps a check with any number of resets finite, changes nothing a reply or the judge
    /// shows: the same paths with and without it pass through the same states once the plain
    /// run's generation numbers are renumbered, and every reply's text and anomalies are the
    /// same.
    #[test]
    fn the_exact_quotient_changes_no_reply(actions in prop::collection::vec(action(), 1..200)) {
        let (quotiented, plain) = quotiented_and_plain();
        let with = run(&quotiented, &actions);
        let without = run(&plain, &actions);
        prop_assert_eq!(with.len(), without.len());
        for (step, (q, mut p)) in with.into_iter().zip(without).enumerate() {
            renumber_generations(&mut p.engine);
            prop_assert_eq!(q, p, "step {}", step);
        }
        prop_assert_eq!(replies(&quotiented, &actions), replies(&plain, &actions));
    }
}

/// The quotient is not vacuous: after a rewrite the plain engine is in its second
/// generation, where the quotiented one says 1, and the replies are the same.
#[test]
fn the_exact_quotient_merges_generations() {
    use Action::*;
    let path = [Append(LineKind::Short), Read(1), Rewrite, Read(1)];
    let (quotiented, plain) = quotiented_and_plain();
    let generation = |states: &[TailState<bgtail::ExactState>]| {
        states.last().unwrap().engine.bookmarks[0].1.generation
    };
    assert_eq!(generation(&run(&plain, &path)), 2);
    assert_eq!(generation(&run(&quotiented, &path)), 1);
    assert_eq!(replies(&quotiented, &path), replies(&plain, &path));
}

/// The same sequences find both of #28's symptoms in the shipped engine (a fixed seed, so the
/// run is the same every time).
#[test]
fn shipped_shows_both_symptoms_on_long_random_sequences() {
    let model = TailModel::shipped(config());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[28; 32]),
    );
    let (mut repeated, mut lost) = (0, 0);
    for _ in 0..300 {
        let actions = prop::collection::vec(action(), 1..200)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let states = run(&model, &actions);
        repeated += usize::from(states.iter().any(|s| s.last.repeated));
        lost += usize::from(states.iter().any(|s| s.last.lost));
    }
    assert!(
        repeated > 0 && lost > 0,
        "repeated in {repeated} runs, lost in {lost}"
    );
}
