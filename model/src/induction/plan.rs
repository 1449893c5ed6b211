//! What every item and group of one inductive check shares: the enumeration's items and logs,
//! the groups of reset states, the properties; and one step from a state, judged and held to
//! the invariant.

use super::enumerate::{log_shapes, views, Candidate, Facts, Log, Written};
use super::factor::{self, Group, Pairs};
use super::invariant::{broken_conjunct_with, log_conjuncts, writes_allowed, Inductive};
use super::options::{Factoring, Options};
use super::pool::{Count, Shared};
use super::report::{Broke, Failure};
use crate::{Action, Bytes, TailModel, TailState};
use bgtail::judge::Judge;
use stateright::{Expectation, Model};

/// What every item and group of one check shares.
pub(super) struct Plan<'m, E: Inductive> {
    pub(super) model: &'m TailModel<E>,
    pub(super) options: Options,
    /// Every item of the enumeration, by index.
    pub(super) items: Vec<Option<Written>>,
    pub(super) logs: Vec<Log>,
    /// The groups of reset states (empty unless factored), and where each key lies.
    pub(super) groups: Vec<Group>,
    /// Each item's pairs with the logs, as the listing of the groups found them (empty
    /// unless factored).
    pub(super) pairs: Vec<Pairs>,
    /// The `always` properties.
    pub(super) properties: Vec<stateright::Property<TailModel<E>>>,
    /// How long listing the groups took.
    pub(super) group_seconds: f64,
}

/// One item's states: the log its last read saw, and every start the invariant allows
/// beside it.
pub(super) struct Item<'a, S> {
    /// `None` before any read.
    pub(super) seen: Option<&'a Written>,
    /// The seen log's facts (`None` before any read).
    pub(super) facts: Option<Facts>,
    pub(super) starts: Vec<(S, Judge)>,
    /// The starts of the item's mirror, in the order of `starts`, where the mirrors are
    /// compared ([`Factoring::compares_mirrors`]).
    pub(super) mirror_starts: Option<Vec<(S, Judge)>>,
    /// Whether each start holds an engine state no earlier start holds. A read of a log that
    /// does not continue the seen one begins a generation, and the judge then forgets what it
    /// held delivered before judging anything (`Judge::judge`): starts that differ only in
    /// the judge read such a log alike, so one of them stands for all (the engine's part,
    /// index included, is kept whole).
    pub(super) distinct: Vec<bool>,
}

impl<'m, E: Inductive> Plan<'m, E> {
    /// The enumeration's items and logs, and its groups when factored.
    pub(super) fn new(model: &'m TailModel<E>, options: Options) -> Self {
        let config = &model.config;
        let shapes = log_shapes(config, usize::from(config.max_lines));
        let mut items: Vec<Option<Written>> = vec![None];
        for shape in &shapes {
            for running in [true, false] {
                if running || config.finish {
                    items.push(Some(Written {
                        running,
                        ..shape.clone()
                    }));
                }
            }
        }
        let logs: Vec<Log> = shapes
            .iter()
            .flat_map(|shape| {
                [false, true].map(|variant| {
                    let written = Written {
                        variant,
                        ..shape.clone()
                    };
                    let bytes = written.facts(config).bytes;
                    Log { written, bytes }
                })
            })
            .collect();
        let listing = std::time::Instant::now();
        let (groups, pairs) = match options.factoring {
            Factoring::Full => (Vec::new(), Vec::new()),
            _ => factor::groups(model, &items, &logs, options.threads),
        };
        let group_seconds = listing.elapsed().as_secs_f64();
        let properties = model
            .properties()
            .into_iter()
            .filter(|p| p.expectation == Expectation::Always)
            .collect();
        Plan {
            model,
            options,
            items,
            logs,
            groups,
            pairs,
            properties,
            group_seconds,
        }
    }

    pub(super) fn factored(&self) -> bool {
        self.options.factoring != Factoring::Full
    }

    /// Whether the job may run or not now, with each view: the states beside `log`.
    pub(super) fn runs_and_views<'a>(
        &'a self,
        seen: Option<&'a Written>,
        log: &'a Log,
    ) -> impl Iterator<Item = (bool, Option<Bytes>)> + 'a {
        [true, false]
            .into_iter()
            .filter(move |&running| seen.is_none_or(|w| writes_allowed(w, running, &log.written)))
            .flat_map(move |running| views(&self.model.config).map(move |v| (running, v)))
    }

    pub(super) fn candidate(
        &self,
        seen: Option<&Written>,
        log: &Log,
        running: bool,
        view: Option<Bytes>,
        engine: &E::State,
        judge: &Judge,
    ) -> Candidate<E::State> {
        Candidate {
            state: TailState {
                running,
                view,
                // What the model's scope holds each change to (`crate::scope`).
                seen: crate::state::SeenBytes(
                    seen.map_or_else(Vec::new, |w| w.facts(&self.model.config).bytes),
                ),
                ..state_of(&log.written, engine.clone(), judge.clone())
            },
            seen: seen.cloned(),
        }
    }

    /// The candidate's log conjuncts, then every action from it (only those that change the
    /// log, with `logs_only`): each reply against the `always` properties, each successor
    /// against the invariant.
    pub(super) fn step(
        &self,
        candidate: Candidate<E::State>,
        shared: &Shared<E::State>,
        logs_only: bool,
    ) -> Option<Failure<E::State>> {
        let (action, broke) = step(self, &candidate, shared, logs_only)?;
        Some(Failure {
            candidate,
            action,
            broke,
        })
    }
}

impl Written {
    /// The empty log of a running job: the log a first read finds before anything is written.
    pub(super) fn default_log() -> Written {
        Written {
            lines: Vec::new(),
            partial: false,
            variant: false,
            edited: 0,
            grown: 0,
            running: true,
        }
    }
}

/// The first and last of `starts`: the most different bookmarks the enumeration makes of one
/// seen log (no coverage and an empty index; the most coverage, the partial line seen and
/// a full index).
pub(super) fn extremes_of<S: Clone>(starts: &[(S, Judge)]) -> [(S, Judge); 2] {
    let first = starts
        .first()
        .cloned()
        .expect("an item of a group has starts");
    [first, starts.last().cloned().expect("and so a last one")]
}

/// A state of the log `log` with the engine's bookmarks and the judge given; the job
/// running, the default view, nothing counted.
pub(super) fn state_of<S>(log: &Written, engine: S, judge: Judge) -> TailState<S> {
    TailState {
        lines: log.lines.clone(),
        partial: log.partial,
        variant: log.variant,
        edited: log.edited,
        grown: log.grown,
        judge,
        ..TailState::empty(engine)
    }
}

/// The candidate's log conjuncts, then every action from it (only those that change the log,
/// with `logs_only`): what broke, after which action.
pub(super) fn step<E: Inductive>(
    plan: &Plan<'_, E>,
    candidate: &Candidate<E::State>,
    shared: &Shared<E::State>,
    logs_only: bool,
) -> Option<(Option<Action>, Broke)> {
    let (model, dropped) = (plan.model, plan.options.dropped);
    if let Some(c) = log_conjuncts(model, candidate.seen.as_ref(), &candidate.state, dropped) {
        return Some((None, Broke::Start(c)));
    }
    let mut actions = Vec::new();
    model.actions(&candidate.state, &mut actions);
    for action in actions {
        let read = action.own_read().is_some();
        if read && logs_only {
            continue;
        }
        shared.add(Count::Steps, 1);
        if read {
            shared.add(Count::Reads, 1);
        }
        let Some(mut next) = model.next_state(&candidate.state, action.clone()) else {
            continue;
        };
        if let Some(p) = plan
            .properties
            .iter()
            .find(|p| !(p.condition)(model, &next))
        {
            return Some((
                Some(action.clone()),
                explain(model, candidate, &action, p.name),
            ));
        }
        next.reads = 0;
        next.resets = 0;
        // Only a read changes the engine, the judge and the seen log: after any other action
        // only the conjuncts about the log now can break.
        let broke = if !read {
            log_conjuncts(model, candidate.seen.as_ref(), &next, dropped)
        } else {
            let seen = Written::of(&next);
            let facts = seen.facts(&model.config);
            let next = Candidate {
                state: next,
                seen: Some(seen),
            };
            broken_conjunct_with(model, &next, Some(&facts), dropped)
        };
        if let Some(c) = broke {
            return Some((Some(action), Broke::Invariant(c)));
        }
    }
    None
}

/// The reply that broke `property`, read again, with what the judge found in it.
pub(super) fn explain<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    action: &Action,
    property: &'static str,
) -> Broke {
    let mut s = candidate.state.clone();
    let read = action
        .own_read()
        .and_then(|(lines, raw)| model.read(&mut s, lines, raw));
    let (text, anomalies) = read.map_or((String::new(), Vec::new()), |(t, v)| (t, v.anomalies));
    Broke::Property {
        name: property,
        text,
        anomalies,
    }
}
