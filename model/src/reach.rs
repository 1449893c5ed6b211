//! The bounded reachability check split by the kind of the log's first line.
//!
//! Every path of the model starts in the *prefix*: the states whose log has never held a
//! byte (reads of the empty log, view changes, the job finishing). The first line written —
//! a complete line of some kind, or a partial one — takes the path out of it, into a
//! *starting state* of that kind. [`explore`] runs shard `i` of `n` from the prefix and the
//! starting states whose kind is its own, breadth first over everything reachable from them
//! (no pruning), every property judged on every state; [`merge`] puts the shards together:
//! the union of their visited states is what one unsharded run visits (a truncation can
//! empty the log and a later first line be of another kind, so shards may meet: the overlap
//! is counted), and the verdict is every `always` property holding in every shard and every
//! `sometimes` reached in one.

use crate::{LineKind, TailModel, TailState};
use bgtail::Engine;
use stateright::{Expectation, Model};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// What the first line written is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstLine {
    /// A complete line of this kind.
    Kind(LineKind),
    /// An unfinished line.
    Partial,
}

impl FirstLine {
    /// The first line of `state`'s log, `None` while it is empty.
    pub fn of<S>(state: &TailState<S>) -> Option<FirstLine> {
        match (state.lines.first(), state.partial) {
            (Some(&kind), _) => Some(FirstLine::Kind(kind)),
            (None, true) => Some(FirstLine::Partial),
            (None, false) => None,
        }
    }
}

/// The kinds a first line can be, in the model's order: shard `i` of `n` takes the ones at
/// positions `i` modulo `n`.
pub fn first_lines(model: &TailModel<impl Engine>) -> Vec<FirstLine> {
    let c = &model.config;
    let mut out: Vec<FirstLine> = c.kinds.iter().map(|&k| FirstLine::Kind(k)).collect();
    if c.partial_lines {
        out.push(FirstLine::Partial);
    }
    out
}

/// What one shard explored.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ShardRun {
    /// The first lines this shard started from.
    pub first_lines: Vec<FirstLine>,
    /// States of the prefix (every shard explores them), and starting states of its own.
    pub prefix: usize,
    pub starts: usize,
    /// Every state visited, by fingerprint, sorted.
    pub visited: Vec<u64>,
    /// The `always` properties broken here, and the `sometimes` ones reached.
    pub broken: Vec<&'static str>,
    pub reached: Vec<&'static str>,
    pub seconds: f64,
}

/// The shards together.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Merged {
    /// Distinct states over all shards, and the visits by more than one shard.
    pub unique: usize,
    pub overlap: usize,
    /// `always` properties broken in some shard; `sometimes` properties reached in none.
    pub broken: Vec<&'static str>,
    pub unreached: Vec<&'static str>,
}

/// A state's fingerprint: stable within one build, as the checker's own.
fn fingerprint<T: Hash>(value: &T) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// States of the model over engine `E`.
type States<E> = Vec<TailState<<E as Engine>::State>>;

/// The prefix (every state reachable from the initial states while the log stays empty;
/// walked in any order, as only the set matters) and the starting states: each distinct
/// successor of a prefix state whose log holds a first line.
pub fn split<E>(model: &TailModel<E>) -> (States<E>, States<E>)
where
    TailModel<E>: Model<State = TailState<E::State>>,
    E: Engine,
{
    let mut prefix: Vec<TailState<E::State>> = Vec::new();
    let mut starts = Vec::new();
    let mut seen = HashSet::new();
    let mut pending: Vec<_> = model.init_states();
    let mut actions = Vec::new();
    while let Some(state) = pending.pop() {
        if !seen.insert(fingerprint(&state)) {
            continue;
        }
        actions.clear();
        model.actions(&state, &mut actions);
        for action in actions.drain(..) {
            let Some(next) = model.next_state(&state, action) else {
                continue;
            };
            if !model.within_boundary(&next) {
                continue;
            }
            match FirstLine::of(&next) {
                None => pending.push(next),
                Some(_) if seen.insert(fingerprint(&next)) => starts.push(next),
                Some(_) => {}
            }
        }
        prefix.push(state);
    }
    (prefix, starts)
}

/// Shard `shard` of the reachability check: breadth first from the prefix and the starting
/// states of its first lines, every property judged on every state visited.
pub fn explore<E>(model: &TailModel<E>, shard: crate::induction::shard::Shard) -> ShardRun
where
    TailModel<E>: Model<State = TailState<E::State>>,
    E: Engine,
{
    let started = std::time::Instant::now();
    let kinds = first_lines(model);
    let own: Vec<FirstLine> = (0..kinds.len())
        .filter(|i| i % shard.count() == shard.index())
        .map(|i| kinds[i])
        .collect();
    let (prefix, starts) = split(model);
    let starts: Vec<_> = starts
        .into_iter()
        .filter(|s| FirstLine::of(s).is_some_and(|k| own.contains(&k)))
        .collect();
    let (prefix_count, start_count) = (prefix.len(), starts.len());
    // The prefix is every shard's; it is left only by a first line of the shard's own.
    let in_prefix: HashSet<u64> = prefix.iter().map(fingerprint).collect();
    let properties = model.properties();
    let mut held = vec![false; properties.len()];
    let mut visited = HashSet::new();
    let mut frontier: Vec<_> = prefix.into_iter().chain(starts).collect();
    let mut actions = Vec::new();
    while !frontier.is_empty() {
        let mut next_frontier = Vec::new();
        for state in frontier {
            let print = fingerprint(&state);
            if !visited.insert(print) {
                continue;
            }
            judge(model, &properties, &state, &mut held);
            let leaves_prefix = in_prefix.contains(&print);
            actions.clear();
            model.actions(&state, &mut actions);
            for action in actions.drain(..) {
                let Some(next) = model.next_state(&state, action) else {
                    continue;
                };
                let another_shards =
                    leaves_prefix && FirstLine::of(&next).is_some_and(|k| !own.contains(&k));
                if model.within_boundary(&next)
                    && !another_shards
                    && !visited.contains(&fingerprint(&next))
                {
                    next_frontier.push(next);
                }
            }
        }
        frontier = next_frontier;
    }
    let pick = |e: Expectation| -> Vec<&'static str> {
        properties
            .iter()
            .zip(&held)
            .filter(|(p, &h)| p.expectation == e && h)
            .map(|(p, _)| p.name)
            .collect()
    };
    let mut visited: Vec<u64> = visited.into_iter().collect();
    visited.sort_unstable();
    ShardRun {
        first_lines: own,
        prefix: prefix_count,
        starts: start_count,
        visited,
        broken: pick(Expectation::Always),
        reached: pick(Expectation::Sometimes),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Marks in `held` each `always` property `state` breaks and each `sometimes` it reaches.
fn judge<M: Model>(
    model: &M,
    properties: &[stateright::Property<M>],
    state: &M::State,
    held: &mut [bool],
) {
    for (p, h) in properties.iter().zip(held.iter_mut()) {
        let holds = (p.condition)(model, state);
        match p.expectation {
            Expectation::Always => *h |= !holds,
            Expectation::Sometimes => *h |= holds,
            Expectation::Eventually => {
                unreachable!("the model has no eventually property: {}", p.name)
            }
        }
    }
}

/// The names of `model`'s `sometimes` properties, as [`merge`] takes them.
pub fn sometimes<M: Model>(model: &M) -> Vec<&'static str> {
    model
        .properties()
        .iter()
        .filter(|p| p.expectation == Expectation::Sometimes)
        .map(|p| p.name)
        .collect()
}

/// The shards' runs as one check. `sometimes` names the model's `sometimes` properties.
pub fn merge(runs: &[ShardRun], sometimes: &[&'static str]) -> Merged {
    let mut all: Vec<u64> = runs
        .iter()
        .flat_map(|r| r.visited.iter().copied())
        .collect();
    let visits = all.len();
    all.sort_unstable();
    all.dedup();
    let mut broken: Vec<&'static str> = runs.iter().flat_map(|r| r.broken.clone()).collect();
    broken.sort_unstable();
    broken.dedup();
    let unreached = sometimes
        .iter()
        .copied()
        .filter(|p| !runs.iter().any(|r| r.reached.contains(p)))
        .collect();
    Merged {
        unique: all.len(),
        overlap: visits - all.len(),
        broken,
        unreached,
    }
}
