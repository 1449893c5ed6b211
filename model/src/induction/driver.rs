//! The check itself: every item of the enumeration, dealt out to threads, each step from
//! every candidate judged and its successor held to the invariant.

use super::enumerate::views;
use super::shard::Shard;
use super::{
    broken_conjunct_with, log_conjuncts, log_shapes, writes_allowed, Candidate, Conjunct, Facts,
    Inductive, Written,
};
use crate::{Action, TailModel, TailState};
use bgtail::judge::Judge;
use stateright::{Expectation, Model};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// What broke, one step from a state of the invariant.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Broke {
    /// A start the enumeration made breaks the invariant (the enumeration is wrong).
    Start(Conjunct),
    /// The reply broke an `always` property: its text and what the judge found.
    Property {
        name: &'static str,
        text: String,
        anomalies: Vec<bgtail::judge::Anomaly>,
    },
    /// The successor breaks the invariant.
    Invariant(Conjunct),
}

/// A state of the invariant, an action, and what broke.
#[derive(Clone, Debug)]
pub struct Failure<S> {
    pub candidate: Candidate<S>,
    /// `None` for a start that breaks the invariant.
    pub action: Option<Action>,
    pub broke: Broke,
}

/// What an inductive check did.
#[derive(Clone, Debug)]
pub struct Report<S> {
    pub max_lines: u8,
    /// Which share of the items this check took ([`Shard::WHOLE`]: all of them).
    pub shard: Shard,
    /// Items (logs a last read can have seen, and "no read yet") this check took, and the
    /// enumeration's items in all.
    pub items: u64,
    pub items_total: u64,
    /// States of the invariant checked: before any read, continuing the bookmark's
    /// generation, and reset since the bookmark was written.
    pub fresh: u64,
    pub continuing: u64,
    pub reset: u64,
    /// Actions applied (successors judged and checked against the invariant).
    pub steps: u64,
    /// Reads among them.
    pub reads: u64,
    pub seconds: f64,
    /// The first failure found (the check stops there); empty when the step holds.
    pub failures: Vec<Failure<S>>,
}

impl<S> Report<S> {
    /// Every state of the invariant checked.
    pub fn states(&self) -> u64 {
        self.fresh + self.continuing + self.reset
    }

    /// Whether every step kept every property and the invariant.
    pub fn proved(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Shared between the check's threads.
struct Shared<S> {
    /// The next item of the enumeration a thread takes: each item is checked by one thread.
    next: AtomicUsize,
    /// Set by the first failure; every thread stops at its next candidate.
    stop: AtomicBool,
    /// What the report counts: candidates before any read, continuing the bookmark's
    /// generation and reset since (0, 1, 2), then steps (3) and, of those, reads (4).
    counts: [AtomicUsize; 5],
    /// The failures found (the first, and any another thread found before it stopped).
    failures: Mutex<Vec<Failure<S>>>,
}

impl<S> Shared<S> {
    /// Records `failure` and tells every thread to stop.
    fn fail(&self, failure: Failure<S>) {
        self.stop.store(true, Ordering::Relaxed);
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.push(failure);
    }
}

/// Every state of the invariant over logs of up to `model.config.max_lines` lines, every
/// action once from each; `dropped` leaves one conjunct out (to show the rest is not enough).
pub fn check<E>(model: &TailModel<E>, dropped: Option<Conjunct>, threads: usize) -> Report<E::State>
where
    E: Inductive,
{
    check_shard(model, dropped, threads, Shard::WHOLE)
}

/// [`check`], over the items `shard` takes only.
pub fn check_shard<E>(
    model: &TailModel<E>,
    dropped: Option<Conjunct>,
    threads: usize,
    shard: Shard,
) -> Report<E::State>
where
    E: Inductive,
{
    let started = std::time::Instant::now();
    let config = &model.config;
    let shapes = log_shapes(config, usize::from(config.max_lines));
    let mut items: Vec<Option<Written>> = vec![None];
    for (lines, partial) in &shapes {
        for running in [true, false] {
            if running || config.finish {
                items.push(Some(Written {
                    lines: lines.clone(),
                    partial: *partial,
                    variant: false,
                    running,
                }));
            }
        }
    }
    let logs: Vec<Written> = shapes
        .iter()
        .flat_map(|(lines, partial)| {
            [false, true].map(|variant| Written {
                lines: lines.clone(),
                partial: *partial,
                variant,
                running: true,
            })
        })
        .collect();
    let items_total = items.len() as u64;
    let items: Vec<Option<Written>> = items
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| shard.takes(i))
        .map(|(_, item)| item)
        .collect();
    let shared = Shared {
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        counts: Default::default(),
        failures: Mutex::new(Vec::new()),
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = shared.next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() || shared.stop.load(Ordering::Relaxed) {
                    break;
                }
                check_item(model, items[i].as_ref(), &logs, dropped, &shared);
            });
        }
    });
    let count = |i: usize| shared.counts[i].load(Ordering::Relaxed) as u64;
    Report {
        max_lines: config.max_lines,
        shard,
        items: items.len() as u64,
        items_total,
        fresh: count(0),
        continuing: count(1),
        reset: count(2),
        steps: count(3),
        reads: count(4),
        seconds: started.elapsed().as_secs_f64(),
        failures: shared
            .failures
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
    }
}

/// Every state of the invariant whose last read saw `seen` (none: no read yet), and every
/// action from each.
fn check_item<E>(
    model: &TailModel<E>,
    seen: Option<&Written>,
    logs: &[Written],
    dropped: Option<Conjunct>,
    shared: &Shared<E::State>,
) where
    E: Inductive,
{
    let config = &model.config;
    let facts = seen.map(|w| w.facts(config));
    let starts = match (seen, &facts) {
        (Some(w), Some(f)) => model.engine.starts(config, w, f, dropped),
        _ => vec![(E::State::default(), Judge::default())],
    };
    let now = logs_now(model, seen, facts.as_ref(), logs);
    let properties: Vec<_> = model
        .properties()
        .into_iter()
        .filter(|p| p.expectation == Expectation::Always)
        .collect();
    // A read of a log that does not continue the seen one begins a generation, and the
    // judge then forgets what it held delivered before judging anything (`Judge::judge`):
    // starts that differ only in the judge read such a log alike, so one of them stands for
    // all (the engine's part, index included, is kept whole).
    let mut engines_seen = std::collections::HashSet::new();
    for (engine, judge) in starts {
        let stands_for_resets = engines_seen.insert(format!("{engine:?}"));
        let mut whole = true;
        for &(log, continues) in &now {
            if seen.is_some() && !continues && !stands_for_resets {
                continue;
            }
            for running in [true, false] {
                let allowed = seen.is_none_or(|w| writes_allowed(w, running, log));
                if !allowed {
                    continue;
                }
                for view in views(config) {
                    if shared.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let case = match seen {
                        None => 0,
                        Some(_) if continues => 1,
                        Some(_) => 2,
                    };
                    shared.counts[case].fetch_add(1, Ordering::Relaxed);
                    let state = TailState {
                        running,
                        view,
                        ..state_of(log, engine.clone(), judge.clone())
                    };
                    let candidate = Candidate {
                        state,
                        seen: seen.cloned(),
                    };
                    let failure = check_candidate(
                        model,
                        &candidate,
                        facts.as_ref(),
                        std::mem::take(&mut whole),
                        &properties,
                        dropped,
                        shared,
                    );
                    if let Some((action, broke)) = failure {
                        shared.fail(Failure {
                            candidate,
                            action,
                            broke,
                        });
                        return;
                    }
                }
            }
        }
    }
}

/// Each log now, with whether it continues the one the last read saw (`facts`); before any
/// read, only the logs of the first variant (a rewrite changes nothing a first read can tell).
fn logs_now<'a, E: Inductive>(
    model: &TailModel<E>,
    seen: Option<&Written>,
    facts: Option<&Facts>,
    logs: &'a [Written],
) -> Vec<(&'a Written, bool)> {
    logs.iter()
        .filter(|l| seen.is_some() || !l.variant)
        .map(|l| {
            let bytes = l.facts(&model.config).bytes;
            let continues = facts.is_some_and(|f| bytes.starts_with(&f.bytes));
            (l, continues)
        })
        .collect()
}

/// A state of the log `log` with the engine's bookmarks and the judge given; the job
/// running, the default view, nothing counted.
fn state_of<S>(log: &Written, engine: S, judge: Judge) -> TailState<S> {
    TailState {
        lines: log.lines.clone(),
        partial: log.partial,
        variant: log.variant,
        judge,
        ..TailState::empty(engine)
    }
}

/// The candidate against the invariant, then every action from it.
fn check_candidate<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    facts: Option<&Facts>,
    whole: bool,
    properties: &[stateright::Property<TailModel<E>>],
    dropped: Option<Conjunct>,
    shared: &Shared<E::State>,
) -> Option<(Option<Action>, Broke)> {
    // The engine's and the judge's conjuncts are checked once per start (they do not depend
    // on the log now), the log's for every candidate.
    let broke = if whole {
        broken_conjunct_with(model, candidate, facts, dropped)
    } else {
        log_conjuncts(model, candidate.seen.as_ref(), &candidate.state, dropped)
    };
    if let Some(c) = broke {
        return Some((None, Broke::Start(c)));
    }
    let mut actions = Vec::new();
    model.actions(&candidate.state, &mut actions);
    for action in actions {
        shared.counts[3].fetch_add(1, Ordering::Relaxed);
        let read = matches!(action, Action::Read(_) | Action::RawRead(_));
        if read {
            shared.counts[4].fetch_add(1, Ordering::Relaxed);
        }
        let Some(mut next) = model.next_state(&candidate.state, action.clone()) else {
            continue;
        };
        if let Some(p) = properties.iter().find(|p| !(p.condition)(model, &next)) {
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
fn explain<E: Inductive>(
    model: &TailModel<E>,
    candidate: &Candidate<E::State>,
    action: &Action,
    property: &'static str,
) -> Broke {
    let mut s = candidate.state.clone();
    let read = match *action {
        Action::Read(n) => model.read(&mut s, n, false),
        Action::RawRead(n) => model.read(&mut s, n, true),
        _ => None,
    };
    let (text, anomalies) = read.map_or((String::new(), Vec::new()), |(t, v)| (t, v.anomalies));
    Broke::Property {
        name: property,
        text,
        anomalies,
    }
}
