//! The check itself: every item of the enumeration and every group of reset states, dealt
//! out to threads, each step from every state judged and its successor held to the invariant.

use super::enumerate::views;
use super::factor::{self, Group, GroupKey, Log};
use super::shard::Shard;
use super::{
    broken_conjunct_with, log_conjuncts, log_shapes, writes_allowed, Candidate, Conjunct, Facts,
    Inductive, Written,
};
use crate::{Action, TailModel, TailState};
use bgtail::judge::Judge;
use stateright::{Expectation, Model};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// How the check treats the reset states (see [`factor`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Factoring {
    /// Every state run in full, each classed by its bytes (continuing or not).
    Full,
    /// The reset states by group: every action once from each group's representative, its
    /// reads compared with those of the group's most different members.
    Factored,
    /// [`Factoring::Factored`], and every member of every group also run: every read
    /// compared, reply and successor, with those of the first member of its group to be run,
    /// and every other action checked as in full. The check of the factoring itself.
    Compared,
}

/// What a check takes: which conjunct to leave out, threads, shard and factoring.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Options {
    /// A conjunct left out of the invariant (to show the rest is not enough).
    pub dropped: Option<Conjunct>,
    pub threads: usize,
    pub shard: Shard,
    pub factoring: Factoring,
}

impl Options {
    /// The whole check, factored, on `threads` threads.
    pub fn new(threads: usize) -> Options {
        Options {
            dropped: None,
            threads,
            shard: Shard::WHOLE,
            factoring: Factoring::Factored,
        }
    }

    /// These options with `conjunct` left out of the invariant.
    pub fn dropping(self, conjunct: Conjunct) -> Options {
        Options {
            dropped: Some(conjunct),
            ..self
        }
    }

    /// These options, over the items and groups `shard` takes only.
    pub fn shard(self, shard: Shard) -> Options {
        Options { shard, ..self }
    }

    /// These options with `factoring`.
    pub fn factoring(self, factoring: Factoring) -> Options {
        Options { factoring, ..self }
    }
}

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
    /// A member of a group of reset states read otherwise than the group's first member:
    /// the factoring's premise is false for this engine. The member, and what differed
    /// (`"reply"` or `"successor"`).
    Unfactorable { member: String, part: &'static str },
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
#[non_exhaustive]
pub struct Report<S> {
    pub max_lines: u8,
    /// The line kinds the logs are written in.
    pub kinds: Vec<crate::LineKind>,
    /// Which share of the items and groups this check took ([`Shard::WHOLE`]: all of them).
    pub shard: Shard,
    pub factoring: Factoring,
    /// Items (logs a last read can have seen, and "no read yet") this check took, and the
    /// enumeration's items in all.
    pub items: u64,
    pub items_total: u64,
    /// Groups of reset states this check ran, and the enumeration's groups in all (0 when
    /// the check is not factored).
    pub groups: u64,
    pub groups_total: u64,
    /// States of the invariant covered: before any read, continuing the bookmark's
    /// generation, and reset since the bookmark was written. Factored, a state is `reset`
    /// when the engine's own check starts over; `disputed` counts the states whose log does
    /// not continue the bookmark's bytes but which the engine continues (run in full).
    pub fresh: u64,
    pub continuing: u64,
    pub reset: u64,
    pub disputed: u64,
    /// Members of groups run in full and compared with their group ([`Factoring::Compared`]).
    pub compared: u64,
    /// Actions applied (successors judged and checked against the invariant).
    pub steps: u64,
    /// Reads among them.
    pub reads: u64,
    pub seconds: f64,
    /// Of `seconds`, those spent listing the groups (every shard lists all of them, so that
    /// each takes its own share without asking the others).
    pub group_seconds: f64,
    /// The first failure found (the check stops there); empty when the step holds.
    pub failures: Vec<Failure<S>>,
}

impl<S> Report<S> {
    /// Every state of the invariant covered.
    pub fn states(&self) -> u64 {
        self.fresh + self.continuing + self.reset + self.disputed
    }

    /// Whether every step kept every property and the invariant.
    pub fn proved(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The counters the check's threads share, by what they count.
#[derive(Clone, Copy)]
enum Count {
    Fresh,
    Continuing,
    Reset,
    Disputed,
    Compared,
    Steps,
    Reads,
}

/// What one read gives: the reply's text, and the successor written out whole.
type Outcome = (String, String);

/// Shared between the check's threads.
struct Shared<S> {
    /// The next item (then group) a thread takes: each is checked by one thread.
    next: AtomicUsize,
    /// Set by the first failure; every thread stops at its next state.
    stop: AtomicBool,
    /// What the report counts, by [`Count`].
    counts: [AtomicUsize; 7],
    /// The failures found (the first, and any another thread found before it stopped).
    failures: Mutex<Vec<Failure<S>>>,
    /// Under [`Factoring::Compared`]: each group's reads from its first member run, by action.
    outcomes: Mutex<HashMap<GroupKey, Vec<Option<Outcome>>>>,
    /// The first and last start of each item a group's members come from.
    extremes: Mutex<HashMap<usize, [(S, Judge); 2]>>,
}

impl<S: Send> Shared<S> {
    fn new() -> Self {
        Shared {
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            counts: Default::default(),
            failures: Mutex::new(Vec::new()),
            outcomes: Mutex::new(HashMap::new()),
            extremes: Mutex::new(HashMap::new()),
        }
    }

    fn add(&self, what: Count, n: usize) {
        self.counts[what as usize].fetch_add(n, Ordering::Relaxed);
    }

    fn count(&self, what: Count) -> u64 {
        self.counts[what as usize].load(Ordering::Relaxed) as u64
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Records `failure` and tells every thread to stop.
    fn fail(&self, failure: Failure<S>) {
        self.stop.store(true, Ordering::Relaxed);
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.push(failure);
    }

    /// Runs `work(i)` for `0..n` over `threads` threads, until done or stopped.
    fn deal(&self, threads: usize, n: usize, work: impl Fn(usize) + Sync) {
        self.next.store(0, Ordering::Relaxed);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| loop {
                    let i = self.next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || self.stopped() {
                        break;
                    }
                    work(i);
                });
            }
        });
    }
}

/// What every item and group of one check shares.
struct Plan<'m, E: Inductive> {
    model: &'m TailModel<E>,
    options: Options,
    /// Every item of the enumeration, by index.
    items: Vec<Option<Written>>,
    logs: Vec<Log>,
    /// The groups of reset states (empty unless factored), and where each key lies.
    groups: Vec<Group>,
    /// The `always` properties.
    properties: Vec<stateright::Property<TailModel<E>>>,
    /// How long listing the groups took.
    group_seconds: f64,
}

/// One item's states: the log its last read saw, and every start the invariant allows
/// beside it.
struct Item<'a, S> {
    /// `None` before any read.
    seen: Option<&'a Written>,
    starts: Vec<(S, Judge)>,
    /// Whether each start holds an engine state no earlier start holds. A read of a log that
    /// does not continue the seen one begins a generation, and the judge then forgets what it
    /// held delivered before judging anything (`Judge::judge`): starts that differ only in
    /// the judge read such a log alike, so one of them stands for all (the engine's part,
    /// index included, is kept whole).
    distinct: Vec<bool>,
}

/// Every state of the invariant over logs of up to `model.config.max_lines` lines, every
/// action once from each (from each group's representative, for the reset states factored).
pub fn check<E: Inductive>(model: &TailModel<E>, options: &Options) -> Report<E::State> {
    let started = std::time::Instant::now();
    let plan = Plan::new(model, *options);
    let shard = options.shard;
    let items: Vec<usize> = (0..plan.items.len()).filter(|&i| shard.takes(i)).collect();
    let groups: Vec<usize> = (0..plan.groups.len()).filter(|&g| shard.takes(g)).collect();
    let shared = Shared::new();
    shared.deal(options.threads, items.len(), |i| {
        plan.check_item(items[i], &shared)
    });
    shared.deal(options.threads, groups.len(), |g| {
        plan.check_group(&plan.groups[groups[g]], &shared)
    });
    let count = |c| shared.count(c);
    Report {
        max_lines: model.config.max_lines,
        kinds: model.config.kinds.clone(),
        shard,
        factoring: options.factoring,
        items: items.len() as u64,
        items_total: plan.items.len() as u64,
        groups: groups.len() as u64,
        groups_total: plan.groups.len() as u64,
        fresh: count(Count::Fresh),
        continuing: count(Count::Continuing),
        reset: count(Count::Reset),
        disputed: count(Count::Disputed),
        compared: count(Count::Compared),
        steps: count(Count::Steps),
        reads: count(Count::Reads),
        seconds: started.elapsed().as_secs_f64(),
        group_seconds: plan.group_seconds,
        failures: shared
            .failures
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
    }
}

impl<'m, E: Inductive> Plan<'m, E> {
    /// The enumeration's items and logs, and its groups when factored.
    fn new(model: &'m TailModel<E>, options: Options) -> Self {
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
        let logs: Vec<Log> = shapes
            .iter()
            .flat_map(|(lines, partial)| {
                [false, true].map(|variant| {
                    let written = Written {
                        lines: lines.clone(),
                        partial: *partial,
                        variant,
                        running: true,
                    };
                    let bytes = written.facts(config).bytes;
                    Log { written, bytes }
                })
            })
            .collect();
        let listing = std::time::Instant::now();
        let groups = match options.factoring {
            Factoring::Full => Vec::new(),
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
            properties,
            group_seconds,
        }
    }

    fn factored(&self) -> bool {
        self.options.factoring != Factoring::Full
    }

    /// Every state of the invariant whose last read saw item `index`'s log, and every action
    /// from each; the reset states only counted (and, where the job had finished, their
    /// steps that change the log checked), when factored.
    fn check_item(&self, index: usize, shared: &Shared<E::State>) {
        let (model, config) = (self.model, &self.model.config);
        let seen = self.items[index].as_ref();
        let facts = seen.map(|w| w.facts(config));
        let starts = match (seen, &facts) {
            (Some(w), Some(f)) => model.engine.starts(config, w, f, self.options.dropped),
            _ => vec![(E::State::default(), Judge::default())],
        };
        if let Some(failure) = self.broken_start(seen, facts.as_ref(), &starts) {
            return shared.fail(failure);
        }
        if self.factored() && seen.is_some() {
            let mut kept = shared.extremes.lock().unwrap_or_else(|e| e.into_inner());
            kept.insert(index, extremes_of(&starts));
        }
        let mut engines_seen = std::collections::HashSet::new();
        let distinct: Vec<bool> = starts
            .iter()
            .map(|(engine, _)| engines_seen.insert(format!("{engine:?}")))
            .collect();
        let resets = match (seen, &facts) {
            (Some(w), Some(f)) if self.factored() => {
                factor::resets_of(model, w, f, &starts[0].1, &self.logs)
            }
            _ => vec![None; self.logs.len()],
        };
        let item = Item {
            seen,
            starts,
            distinct,
        };
        for (at, (log, reset)) in self.logs.iter().zip(resets).enumerate() {
            if seen.is_none() && log.written.variant {
                // Before any read, a rewrite changes nothing a first read can tell.
                continue;
            }
            let continues = facts
                .as_ref()
                .is_some_and(|f| log.bytes.starts_with(&f.bytes));
            let done = match reset {
                None => self.check_in_full(&item, log, continues, shared),
                Some((reason, opening)) => {
                    let key = |running, view| GroupKey {
                        log: at,
                        running,
                        view,
                        reason,
                        opening,
                    };
                    self.count_reset(&item, log, key, shared)
                }
            };
            if !done {
                return;
            }
        }
    }

    /// The first start that breaks the invariant, as a failure. The engine's and the judge's
    /// conjuncts are checked once per start (they do not depend on the log now).
    fn broken_start(
        &self,
        seen: Option<&Written>,
        facts: Option<&Facts>,
        starts: &[(E::State, Judge)],
    ) -> Option<Failure<E::State>> {
        let log = seen.map_or_else(Written::default_log, Clone::clone);
        starts.iter().find_map(|(engine, judge)| {
            let candidate = Candidate {
                state: TailState {
                    running: log.running,
                    ..state_of(&log, engine.clone(), judge.clone())
                },
                seen: seen.cloned(),
            };
            let broke = broken_conjunct_with(self.model, &candidate, facts, self.options.dropped)?;
            Some(Failure {
                candidate,
                action: None,
                broke: Broke::Start(broke),
            })
        })
    }

    /// Every start of `item` beside the log `log`, every action from each. Returns false once
    /// the check stops.
    fn check_in_full(
        &self,
        item: &Item<'_, E::State>,
        log: &Log,
        continues: bool,
        shared: &Shared<E::State>,
    ) -> bool {
        let seen = item.seen;
        let case = match seen {
            None => Count::Fresh,
            Some(_) if continues => Count::Continuing,
            Some(_) if self.factored() => Count::Disputed,
            Some(_) => Count::Reset,
        };
        for ((engine, judge), &distinct) in item.starts.iter().zip(&item.distinct) {
            if seen.is_some() && !continues && !distinct {
                continue;
            }
            for (running, view) in self.runs_and_views(seen, log) {
                if shared.stopped() {
                    return false;
                }
                shared.add(case, 1);
                let candidate = self.candidate(seen, log, running, view, engine, judge);
                if let Some(failure) = self.step(candidate, shared, false) {
                    shared.fail(failure);
                    return false;
                }
            }
        }
        true
    }

    /// `item`'s reset states beside `log`: counted (each distinct engine a state), their
    /// steps that change the log checked where the job had finished (only there can "a
    /// finished job writes nothing" tell one seen log from another), and, under
    /// [`Factoring::Compared`], every one's reads compared with its group's and its other
    /// steps checked. Returns false once the check stops.
    fn count_reset(
        &self,
        item: &Item<'_, E::State>,
        log: &Log,
        key: impl Fn(bool, Option<u16>) -> GroupKey,
        shared: &Shared<E::State>,
    ) -> bool {
        let (seen, starts) = (item.seen, &item.starts);
        let members = item.distinct.iter().filter(|&&d| d).count();
        let (engine, judge) = &starts[0];
        for (running, view) in self.runs_and_views(seen, log) {
            if shared.stopped() {
                return false;
            }
            shared.add(Count::Reset, members);
            let finished = seen.is_some_and(|w| !w.running);
            if finished {
                let candidate = self.candidate(seen, log, running, view, engine, judge);
                if let Some(failure) = self.step(candidate, shared, true) {
                    shared.fail(failure);
                    return false;
                }
            }
            if self.options.factoring == Factoring::Compared {
                let key = key(running, view);
                let distinct = starts.iter().zip(&item.distinct).filter(|(_, &d)| d);
                for ((engine, judge), _) in distinct {
                    let candidate = self.candidate(seen, log, running, view, engine, judge);
                    shared.add(Count::Compared, 1);
                    // Its reads are its group's, byte for byte, and so are judged with the
                    // group's representative; its other steps change only the log.
                    let failure = self
                        .compare_with_group(&candidate, &key, shared)
                        .or_else(|| self.step(candidate, shared, true));
                    if let Some(failure) = failure {
                        shared.fail(failure);
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Every action from one group's representative, and its reads against those of the
    /// group's most different members.
    fn check_group(&self, group: &Group, shared: &Shared<E::State>) {
        let mut starts_of = |item: usize| self.extremes(item, shared);
        let mut members = group.members(&mut starts_of).into_iter();
        let (engine, judge) = members.next().expect("a group has a representative");
        let (seen, log) = (
            self.items[group.first_item].as_ref(),
            &self.logs[group.key.log],
        );
        let (running, view) = (group.key.running, group.key.view);
        let representative = self.candidate(seen, log, running, view, &engine, &judge);
        for (engine, judge) in members {
            let member = self
                .candidate(seen, log, running, view, &engine, &judge)
                .state;
            if let Some(failure) = self.same_reads(&representative, &member) {
                return shared.fail(failure);
            }
        }
        if let Some(failure) = self.step(representative, shared, false) {
            shared.fail(failure);
        }
    }

    /// Item `item`'s first and last start, worked out once for all groups.
    fn extremes(&self, item: usize, shared: &Shared<E::State>) -> [(E::State, Judge); 2] {
        let kept = shared.extremes.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(both) = kept.get(&item) {
            return both.clone();
        }
        drop(kept);
        let model = self.model;
        let seen = self.items[item]
            .as_ref()
            .expect("a reset state's item saw a log");
        let facts = seen.facts(&model.config);
        let starts = model
            .engine
            .starts(&model.config, seen, &facts, self.options.dropped);
        let both = extremes_of(&starts);
        let mut kept = shared.extremes.lock().unwrap_or_else(|e| e.into_inner());
        kept.entry(item).or_insert(both).clone()
    }

    /// Whether `member` reads as `representative` does, by every read action: the failure
    /// naming the first difference, if any.
    fn same_reads(
        &self,
        representative: &Candidate<E::State>,
        member: &TailState<E::State>,
    ) -> Option<Failure<E::State>> {
        let mut actions = Vec::new();
        self.model.actions(&representative.state, &mut actions);
        actions.into_iter().find_map(|action| {
            let a = factor::read_outcome(self.model, &representative.state, &action)?;
            let b = factor::read_outcome(self.model, member, &action)?;
            let part = if a.0 != b.0 {
                "reply"
            } else if a.1 != b.1 {
                "successor"
            } else {
                return None;
            };
            Some(Failure {
                candidate: representative.clone(),
                action: Some(action),
                broke: Broke::Unfactorable {
                    member: format!("{member:?}"),
                    part,
                },
            })
        })
    }

    /// `candidate`'s reads against those of the first member of its group to be run (kept
    /// for the group by whichever thread ran it first).
    fn compare_with_group(
        &self,
        candidate: &Candidate<E::State>,
        key: &GroupKey,
        shared: &Shared<E::State>,
    ) -> Option<Failure<E::State>> {
        let mut actions = Vec::new();
        self.model.actions(&candidate.state, &mut actions);
        let outcomes: Vec<_> = actions
            .iter()
            .map(|a| factor::read_outcome(self.model, &candidate.state, a))
            .collect();
        let mut kept = shared.outcomes.lock().unwrap_or_else(|e| e.into_inner());
        let first = kept.entry(key.clone()).or_insert_with(|| outcomes.clone());
        let at = first.iter().zip(&outcomes).position(|(a, b)| a != b)?;
        let part = match (&first[at], &outcomes[at]) {
            (Some(a), Some(b)) if a.0 == b.0 => "successor",
            _ => "reply",
        };
        Some(Failure {
            candidate: candidate.clone(),
            action: Some(actions[at].clone()),
            broke: Broke::Unfactorable {
                member: format!("{:?}", candidate.state),
                part,
            },
        })
    }

    /// Whether the job may run or not now, with each view: the states beside `log`.
    fn runs_and_views<'a>(
        &'a self,
        seen: Option<&'a Written>,
        log: &'a Log,
    ) -> impl Iterator<Item = (bool, Option<u16>)> + 'a {
        [true, false]
            .into_iter()
            .filter(move |&running| seen.is_none_or(|w| writes_allowed(w, running, &log.written)))
            .flat_map(move |running| views(&self.model.config).map(move |v| (running, v)))
    }

    fn candidate(
        &self,
        seen: Option<&Written>,
        log: &Log,
        running: bool,
        view: Option<u16>,
        engine: &E::State,
        judge: &Judge,
    ) -> Candidate<E::State> {
        Candidate {
            state: TailState {
                running,
                view,
                ..state_of(&log.written, engine.clone(), judge.clone())
            },
            seen: seen.cloned(),
        }
    }

    /// The candidate's log conjuncts, then every action from it (only those that change the
    /// log, with `logs_only`): each reply against the `always` properties, each successor
    /// against the invariant.
    fn step(
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
    fn default_log() -> Written {
        Written {
            lines: Vec::new(),
            partial: false,
            variant: false,
            running: true,
        }
    }
}

/// The first and last of `starts`: the most different bookmarks the enumeration makes of one
/// seen log (no coverage and an empty index; the most coverage, the partial line seen and
/// a full index).
fn extremes_of<S: Clone>(starts: &[(S, Judge)]) -> [(S, Judge); 2] {
    let first = starts
        .first()
        .cloned()
        .expect("an item of a group has starts");
    [first, starts.last().cloned().expect("and so a last one")]
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

/// The candidate's log conjuncts, then every action from it (only those that change the log,
/// with `logs_only`): what broke, after which action.
fn step<E: Inductive>(
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
        let read = matches!(action, Action::Read(_) | Action::RawRead(_));
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
