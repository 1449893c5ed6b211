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
    let mut seen = std::collections::HashSet::new();
    let mut frontier: Vec<(M::State, bool, Vec<M::Action>)> = model
        .init_states()
        .into_iter()
        .map(|s| {
            let held = holds(&s);
            (s, held, Vec::new())
        })
        .collect();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (state, held, path) in frontier {
            let steps: Vec<_> = model
                .next_steps(&state)
                .into_iter()
                .filter(|(_, s)| model.within_boundary(s))
                .collect();
            let found = match prop.expectation {
                Expectation::Always => !holds(&state),
                Expectation::Sometimes => holds(&state),
                Expectation::Eventually => !held && steps.is_empty(),
            };
            if found {
                return Some(path);
            }
            for (action, successor) in steps {
                let held = held || holds(&successor);
                if seen.insert((successor.clone(), held)) {
                    let mut p = path.clone();
                    p.push(action);
                    next.push((successor, held, p));
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
}
