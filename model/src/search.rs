//! The shortest path on which a property fails (or, for `sometimes`, holds).

use stateright::Model;
use std::hash::Hash;

/// The shortest action sequences (breadth first, actions in the model's order) that make
/// `property` fail — or, for a `sometimes` property, hold. Single-threaded and deterministic,
/// unlike a parallel checker's discovery, so a test can pin its length. (stateright's own BFS,
/// even on one thread, returns longer paths for the pinned counterexamples: it is not used.)
///
/// An `always` property fails at its first false state. An `eventually` property fails on a
/// path that ends — a state without successors inside the boundary — without its condition
/// having held anywhere on it, which is stateright's semantics; so a search state is a model
/// state together with whether the condition has held on the way to it.
pub fn shortest_discovery<M>(model: &M, property: &'static str) -> Option<Vec<M::Action>>
where
    M: Model,
    M::State: Hash + Eq + Clone,
    M::Action: Clone,
{
    use stateright::Expectation;
    let prop = model.property(property);
    let holds = |s: &M::State| (prop.condition)(model, s);
    breadth_first(
        model,
        |s| holds(s),
        |held, _, successor| held || holds(successor),
        |state, held, ends| match prop.expectation {
            Expectation::Always => !holds(state),
            Expectation::Sometimes => holds(state),
            Expectation::Eventually => !held && ends,
        },
    )
}

/// The shortest action sequence (breadth first, actions in the model's order) that takes an
/// action `marks` accepts and reaches a state where `bad` holds, at that action or after it:
/// the shortest counterexample that goes through a kind of step (a partial line, say).
pub fn shortest_through<M>(
    model: &M,
    marks: impl Fn(&M::Action) -> bool,
    bad: impl Fn(&M::State) -> bool,
) -> Option<Vec<M::Action>>
where
    M: Model,
    M::State: Hash + Eq + Clone,
    M::Action: Clone,
{
    breadth_first(
        model,
        |_| false,
        |marked, action, _| marked || marks(action),
        |state, marked, _| marked && bad(state),
    )
}

/// Breadth-first search over a model's states, each paired with a flag carried along the
/// path: `start` gives an initial state's, `then` a successor's from its predecessor's flag
/// and the action taken. The first state (in breadth-first order) for which `found` holds of
/// it, its flag and whether it ends its path (no successor inside the boundary) gives the
/// path to it. The visited set is of states with their flags, so that a state reached first
/// without the flag is still searched again with it.
fn breadth_first<M>(
    model: &M,
    start: impl Fn(&M::State) -> bool,
    then: impl Fn(bool, &M::Action, &M::State) -> bool,
    found: impl Fn(&M::State, bool, bool) -> bool,
) -> Option<Vec<M::Action>>
where
    M: Model,
    M::State: Hash + Eq + Clone,
    M::Action: Clone,
{
    let mut seen = std::collections::HashSet::new();
    let mut frontier: Vec<(M::State, bool, Vec<M::Action>)> = model
        .init_states()
        .into_iter()
        .map(|s| {
            let flag = start(&s);
            (s, flag, Vec::new())
        })
        .collect();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (state, flag, path) in frontier {
            let steps: Vec<_> = model
                .next_steps(&state)
                .into_iter()
                .filter(|(_, s)| model.within_boundary(s))
                .collect();
            if found(&state, flag, steps.is_empty()) {
                return Some(path);
            }
            for (action, successor) in steps {
                let flag = then(flag, &action, &successor);
                if seen.insert((successor.clone(), flag)) {
                    let mut p = path.clone();
                    p.push(action);
                    next.push((successor, flag, p));
                }
            }
        }
        frontier = next;
    }
    None
}

#[cfg(test)]
mod shortest_discovery_tests {
    use super::shortest_discovery;
    use stateright::{Model, Property};

    /// From 0, `a` adds 1 up to 2; `b` jumps to 10, where nothing more happens.
    struct Counter;

    impl Model for Counter {
        type State = u8;
        type Action = char;
        fn init_states(&self) -> Vec<u8> {
            vec![0]
        }
        fn actions(&self, s: &u8, actions: &mut Vec<char>) {
            if *s < 2 {
                actions.extend(['a', 'b']);
            }
        }
        fn next_state(&self, s: &u8, a: char) -> Option<u8> {
            Some(if a == 'a' { s + 1 } else { 10 })
        }
        fn properties(&self) -> Vec<Property<Self>> {
            vec![
                Property::eventually("reaches 2", |_, s| *s == 2),
                Property::always("below 10", |_, s| *s < 10),
                Property::sometimes("at 1", |_, s| *s == 1),
            ]
        }
    }

    #[test]
    fn an_eventually_property_fails_on_a_path_that_ends_without_it() {
        // Not at the first state where the condition is false (the initial one): on the
        // shortest path that ends, at 10, without having reached 2.
        assert_eq!(shortest_discovery(&Counter, "reaches 2"), Some(vec!['b']));
        assert_eq!(shortest_discovery(&Counter, "below 10"), Some(vec!['b']));
        assert_eq!(shortest_discovery(&Counter, "at 1"), Some(vec!['a']));
    }

    #[test]
    fn a_path_through_a_marked_action_is_the_shortest_that_takes_it() {
        // 2 is reached by `aa`; through `b` it is never reached, and 10 only through `b`.
        let at = |n: u8| move |s: &u8| *s == n;
        assert_eq!(
            super::shortest_through(&Counter, |a| *a == 'a', at(2)),
            Some(vec!['a', 'a'])
        );
        assert_eq!(
            super::shortest_through(&Counter, |a| *a == 'b', at(2)),
            None
        );
        // The mark is carried: `a` then `b` reaches 10 through `a`, one step longer than `b`.
        assert_eq!(
            super::shortest_through(&Counter, |a| *a == 'a', at(10)),
            Some(vec!['a', 'b'])
        );
    }
}
