//! The reset states, factored (dead-variable reduction).
//!
//! A state of the invariant whose log no longer continues the bookmark's generation is a
//! *reset state*. A read from it starts a new generation, and what that read does depends on
//! the old bookmark and the old judge only through two values that the read computes first:
//! the engine's reset reason (the exact engine's `Opening::Reset` holds the generation
//! number and the reason, nothing else of the bookmark) and the judge's opening
//! ([`Judge::opening`]: whether the log shrank; the judge then starts from nothing). Every
//! other part of the old state is dead: overwritten before it is read.
//!
//! So the reset states fall into *groups* by what such a read can see — the log now, whether
//! the job runs, the view, the engine's reason and the judge's opening — and one read from
//! one real member of a group stands for the reads from all of them. [`groups`] lists the
//! groups of the whole enumeration; the check runs every action once from each group's
//! representative and compares its reads with those of the group's most different members
//! ([`Group::members`]). The listing works out every item's reset reason against every log
//! beside which it has a state (all of them for a running job's item, a few for a finished
//! one's), the one pass over those pairs: it also counts each item's reset states and keeps
//! the pairs that need more than a count ([`Pairs`]), so that the factored check visits only
//! those.
//!
//! The actions that change only the log leave the bookmark and the judge as they are, and
//! their successors are checked only against the conjuncts about the log now. Of those, "a
//! finished job writes nothing" reads the log the last read saw, which differs among a
//! group's members: the driver checks those steps for every reset state whose job had
//! finished, and leaves the rest (where the conjunct holds whatever the log) to the
//! representative.

use super::enumerate::views;
use super::enumerate::{Facts, Log, Written};
use super::invariant::{writes_allowed, Inductive};
use crate::scope::contract_sees;
use crate::{Action, Bytes, TailModel, TailState};
use bgtail::judge::{Judge, Opening};
use bgtail::ResetReason;
use std::collections::HashMap;

/// What a read from a reset state can see.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroupKey {
    /// The log now, by its place among the check's logs.
    pub log: usize,
    pub running: bool,
    pub view: Option<Bytes>,
    /// Why the engine's own generation check starts over.
    pub reason: ResetReason,
    /// What the judge's own check finds of its generation.
    pub opening: Opening,
}

/// One group of reset states: its key, and the first and last item of the enumeration with
/// a member in it.
#[derive(Clone, Debug)]
pub struct Group {
    pub key: GroupKey,
    pub first_item: usize,
    pub last_item: usize,
}

impl Group {
    /// The members a check runs: the representative (the first item's first start), then
    /// the most different members — the first item's last start (most coverage, the partial
    /// line seen, a full index), and the last item's first and last starts (another log
    /// seen). `starts_of(item)` gives an item's first and last start.
    pub fn members<S: Clone>(
        &self,
        starts_of: &mut impl FnMut(usize) -> [(S, Judge); 2],
    ) -> Vec<(S, Judge)> {
        let [first, last] = starts_of(self.first_item);
        let mut out = vec![first, last];
        if self.last_item != self.first_item {
            let [first, last] = starts_of(self.last_item);
            out.extend([first, last]);
        }
        out
    }
}

/// Why a read of each of `logs` starts over after a read that saw `seen` (its judge having
/// seen what `judge_of_seen` saw): the engine's reason and the judge's opening, each by its
/// own check. `None` where the engine's check continues the generation: such states are run
/// in full.
pub fn resets_of<E: Inductive>(
    model: &TailModel<E>,
    seen: &Written,
    facts: &Facts,
    judge_of_seen: &Judge,
    logs: &[Log],
) -> Vec<Option<(ResetReason, Opening)>> {
    let check = model.engine.reset_check(&model.config, seen, facts);
    logs.iter()
        .map(|log| Some((check(log)?, judge_of_seen.opening(&log.bytes, 0))))
        .collect()
}

/// What the listing found of one item's pairs with every log, so that the factored check
/// visits only the pairs that need more than a count.
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    /// The item's reset states per start: the triples of a log, whether the job runs and a
    /// view, where the log is within the model's scope and the engine's check starts over.
    pub resets: u64,
    /// The logs the engine's check continues (continuing the seen bytes, or disputed).
    pub continued: Vec<u32>,
    /// Where the job had finished at the seen log: the reset logs within the model's scope
    /// beside which a state of the job exists (their steps that change the log are checked
    /// state by state).
    pub finished: Vec<u32>,
}

/// Every group of the enumeration's reset states, in a fixed order (by first item, then by
/// log, running, view, reason and opening): `items[i]` is the log the last read of item `i`
/// saw (`None`: no read yet, where nothing is a reset). Beside them, each item's [`Pairs`].
/// Worked out over `threads` threads.
pub fn groups<E: Inductive>(
    model: &TailModel<E>,
    items: &[Option<Written>],
    logs: &[Log],
    threads: usize,
) -> (Vec<Group>, Vec<Pairs>) {
    let threads = threads.max(1);
    let chunk = items.len().div_ceil(threads).max(1);
    let parts: Vec<(Vec<Group>, Vec<Pairs>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| scope.spawn(move || groups_of(model, part, c * chunk, logs)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let (parts, pairs): (Vec<Vec<Group>>, Vec<Vec<Pairs>>) = parts.into_iter().unzip();
    (merge_groups(parts), pairs.into_iter().flatten().collect())
}

/// The groups of each part of the items, in item order, as one list: a key's first part has
/// its first item, its last the last.
fn merge_groups(parts: Vec<Vec<Group>>) -> Vec<Group> {
    let mut place: HashMap<GroupKey, usize> = HashMap::new();
    let mut out: Vec<Group> = Vec::new();
    for group in parts.into_iter().flatten() {
        match place.get(&group.key) {
            Some(&at) => out[at].last_item = group.last_item,
            None => {
                place.insert(group.key.clone(), out.len());
                out.push(group);
            }
        }
    }
    out.sort_by_key(|g| g.first_item);
    out
}

/// The groups with a member among `items` (numbered from `first`), by first member, and
/// each item's [`Pairs`].
fn groups_of<E: Inductive>(
    model: &TailModel<E>,
    items: &[Option<Written>],
    first: usize,
    logs: &[Log],
) -> (Vec<Group>, Vec<Pairs>) {
    let mut listing = Listing::new(views(&model.config).collect(), logs.len());
    let pairs = items
        .iter()
        .enumerate()
        .map(|(i, seen)| match seen {
            None => Pairs::default(),
            Some(seen) => listing.item(model, seen, first + i, logs),
        })
        .collect();
    (listing.groups(), pairs)
}

/// The groups met so far: a key is kept in a slot of a table indexed by log and running, one
/// table for each pair of reason and opening met — no hashing in the loop over every pair of
/// logs. An item is a member beside a log with every view or with none, so a slot stands for
/// the groups of every view, which [`Listing::groups`] spells out.
struct Listing {
    views: Vec<Option<Bytes>>,
    logs: usize,
    /// The pairs of reason and opening met, in the order met.
    kinds: Vec<(ResetReason, Opening)>,
    /// For each kind, the first and last item of each slot.
    tables: Vec<Vec<Option<(usize, usize)>>>,
}

impl Listing {
    fn new(views: Vec<Option<Bytes>>, logs: usize) -> Listing {
        Listing {
            views,
            logs,
            kinds: Vec::new(),
            tables: Vec::new(),
        }
    }

    fn slot(log: usize, running: bool) -> usize {
        log * 2 + usize::from(running)
    }

    /// Item `item` (its last read saw `seen`) beside every log: its reset states marked in
    /// their groups' slots, and its [`Pairs`].
    fn item<E: Inductive>(
        &mut self,
        model: &TailModel<E>,
        seen: &Written,
        item: usize,
        logs: &[Log],
    ) -> Pairs {
        let mut found = Pairs::default();
        let facts = seen.facts(&model.config);
        // Every judge of the item last saw `seen` ("the judge saw P"), and the judge's opening
        // reads nothing else.
        let judge = Judge::after_read(&facts.bytes, 0, seen.running, Vec::new(), false);
        let check = model.engine.reset_check(&model.config, seen, &facts);
        for (index, log) in logs.iter().enumerate() {
            // A finished job's log beside only a few of the logs (`writes_allowed`): the
            // others hold no state of the item, so neither reason nor count is asked of them.
            let runs = [true, false].map(|running| writes_allowed(seen, running, &log.written));
            if runs == [false, false] {
                continue;
            }
            let Some(reason) = check(log) else {
                found.continued.push(index as u32);
                continue;
            };
            let kind = (reason, judge.opening(&log.bytes, 0));
            for (running, _) in [true, false].into_iter().zip(runs).filter(|&(_, r)| r) {
                self.mark(kind, index, running, item);
            }
            let states = runs.iter().filter(|&&r| r).count() as u64 * self.views.len() as u64;
            let limits = &model.config.limits;
            if contract_sees(&facts.bytes, facts.settled, &log.bytes, limits) {
                found.resets += states;
                if !seen.running {
                    found.finished.push(index as u32);
                }
            }
        }
        found
    }

    /// Marks `item` a member of the groups of `kind` beside log `log`, `running` or not, with
    /// every view.
    fn mark(&mut self, kind: (ResetReason, Opening), log: usize, running: bool, item: usize) {
        let k = match self.kinds.iter().position(|&x| x == kind) {
            Some(k) => k,
            None => {
                self.kinds.push(kind);
                self.tables.push(vec![None; self.logs * 2]);
                self.kinds.len() - 1
            }
        };
        let cell = &mut self.tables[k][Self::slot(log, running)];
        match cell {
            Some((_, last)) => *last = item,
            None => *cell = Some((item, item)),
        }
    }

    /// Every group met, by first member.
    fn groups(self) -> Vec<Group> {
        let mut out = Vec::new();
        for (&(reason, opening), table) in self.kinds.iter().zip(&self.tables) {
            for log in 0..self.logs {
                for running in [true, false] {
                    let Some((first_item, last_item)) = table[Self::slot(log, running)] else {
                        continue;
                    };
                    for &view in &self.views {
                        let key = GroupKey {
                            log,
                            running,
                            view,
                            reason,
                            opening,
                        };
                        out.push(Group {
                            key,
                            first_item,
                            last_item,
                        });
                    }
                }
            }
        }
        // A fixed order, whatever order the kinds were met in.
        out.sort_by_key(|g| (g.first_item, g.key.log, g.key.running, g.key.view));
        out
    }
}

/// What one read gives: the reply's text, and the successor with its counters zeroed.
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    /// The reply's text (empty where the read gave none).
    pub reply: String,
    /// The state after the read, its `reads` and `resets` zeroed.
    pub next: TailState<S>,
}

impl<S: Clone + Eq> Outcome<S> {
    /// Whether `self` and `other` are the same reply and the same successor whole: equal, and
    /// alike in what equality leaves out ([`Inductive::alike_beyond_eq`]: the line index).
    pub fn same<E: Inductive<State = S>>(&self, other: &Self) -> bool {
        self.reply == other.reply
            && self.next == other.next
            && E::alike_beyond_eq(&self.next.engine, &other.next.engine)
    }
}

/// What a read from `state` gives ([`Outcome`]). `None` for an action that is not a read.
pub fn read_outcome<E: Inductive>(
    model: &TailModel<E>,
    state: &TailState<E::State>,
    action: &Action,
) -> Option<Outcome<E::State>> {
    let (lines, raw) = action.own_read()?;
    let mut next = state.clone();
    next.last = Default::default();
    let text = model.read(&mut next, lines, raw).map(|(t, _)| t);
    next.reads = 0;
    next.resets = 0;
    Some(Outcome {
        reply: text.unwrap_or_default(),
        next,
    })
}
