//! The check itself: every item of the enumeration and every group of reset states, dealt
//! out to threads, each step from every state judged and its successor held to the invariant.

use super::enumerate::{Candidate, Facts, Log, Written};
use super::factor::{self, GroupKey, Pairs};
use super::invariant::{broken_conjunct_with, Inductive};
use super::mirror;
use super::options::{Factoring, Options};
use super::plan::{extremes_of, state_of, Item, Plan};
use super::pool::{Count, Shared};
use super::report::{Broke, Failure, Report};
use crate::scope::contract_sees;
use crate::{Bytes, TailModel, TailState};
use bgtail::judge::Judge;

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
        mirrored: count(Count::Mirrored),
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

impl<E: Inductive> Plan<'_, E> {
    /// Every state of the invariant whose last read saw item `index`'s log, and every action
    /// from each; when factored, the reset states only counted (and, where the job had
    /// finished, their steps that change the log checked), and the continuing states with
    /// lines in the other variant counted as their mirror's ([`mirror`]).
    fn check_item(&self, index: usize, shared: &Shared<E::State>) {
        let Some(item) = self.item(index, shared) else {
            return;
        };
        // Factored, with no reset state compared, the listing of the groups counted the
        // reset states and found the pairs that need more than a count.
        let listed = self.factored() && self.options.factoring != Factoring::Compared;
        if listed && item.seen.is_some() {
            self.visit_listed(&item, &self.pairs[index], shared);
        } else {
            self.visit_every_log(&item, shared);
        }
    }

    /// Item `index`'s starts, each start held to the invariant (`None`, the failure recorded,
    /// where one breaks it), and what its pairs share.
    fn item(&self, index: usize, shared: &Shared<E::State>) -> Option<Item<'_, E::State>> {
        let (model, config) = (self.model, &self.model.config);
        let seen = self.items[index].as_ref();
        let facts = seen.map(|w| w.facts(config));
        let starts = match (seen, &facts) {
            (Some(w), Some(f)) => model.engine.starts(config, w, f, self.options.dropped),
            _ => vec![(E::State::default(), Judge::default())],
        };
        if let Some(failure) = self.broken_start(seen, facts.as_ref(), &starts) {
            shared.fail(failure);
            return None;
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
        let mirror_starts = seen.and_then(|w| self.mirror_starts(w, &starts));
        Some(Item {
            seen,
            facts,
            starts,
            mirror_starts,
            distinct,
        })
    }

    /// `item`'s pairs as the listing found them: its reset states counted, the logs the
    /// engine continues visited, and the finished job's reset states' steps that change the
    /// log checked. Returns false once the check stops.
    fn visit_listed(
        &self,
        item: &Item<'_, E::State>,
        pairs: &Pairs,
        shared: &Shared<E::State>,
    ) -> bool {
        let members = item.distinct.iter().filter(|&&d| d).count();
        shared.add(Count::Reset, pairs.resets as usize * members);
        pairs
            .continued
            .iter()
            .all(|&at| self.check_pair(item, at as usize, None, shared))
            && pairs
                .finished
                .iter()
                .all(|&at| self.finished_steps(item, &self.logs[at as usize], shared))
    }

    /// `item` beside every log, each pair's reset reason worked out here (when factored).
    /// Returns false once the check stops.
    fn visit_every_log(&self, item: &Item<'_, E::State>, shared: &Shared<E::State>) -> bool {
        let resets = match (item.seen, &item.facts) {
            (Some(w), Some(f)) if self.factored() => {
                factor::resets_of(self.model, w, f, &item.starts[0].1, &self.logs)
            }
            _ => vec![None; self.logs.len()],
        };
        resets
            .into_iter()
            .enumerate()
            .all(|(at, reset)| self.check_pair(item, at, reset, shared))
    }

    /// One pair of `item` with the log at `at` among the logs, whose reset reason and
    /// judge's opening are `reset` (`None`: the engine's check continues, or the check is not
    /// factored): every state of it checked, counted or mirrored. Returns false once the
    /// check stops.
    fn check_pair(
        &self,
        item: &Item<'_, E::State>,
        at: usize,
        reset: Option<(bgtail::ResetReason, bgtail::judge::Opening)>,
        shared: &Shared<E::State>,
    ) -> bool {
        let (seen, facts, log) = (item.seen, item.facts.as_ref(), &self.logs[at]);
        if seen.is_none() && log.written.variant {
            // Before any read, a rewrite changes nothing a first read can tell.
            return true;
        }
        // `L` is free within the model's scope: a log the contract sees is not P
        // (`crate::scope`); the others the model never makes.
        let limits = &self.model.config.limits;
        let out_of_scope =
            facts.is_some_and(|f| !contract_sees(&f.bytes, f.settled, &log.bytes, limits));
        if out_of_scope {
            return true;
        }
        let continues = facts.is_some_and(|f| log.bytes.starts_with(&f.bytes));
        let swap_lines = match seen {
            Some(w) if continues && self.factored() => mirror::swapped(w, &log.written),
            _ => 0,
        };
        match reset {
            None if swap_lines != 0 => self.check_mirrored(item, log, swap_lines, shared),
            None => self.check_in_full(item, log, continues, shared),
            Some((reason, opening)) => {
                let key = |running, view| GroupKey {
                    log: at,
                    running,
                    view,
                    reason,
                    opening,
                };
                self.count_reset(item, log, key, shared)
            }
        }
    }

    /// Where the mirrors are compared ([`Factoring::compares_mirrors`]), the starts of the
    /// mirror of the item that saw `seen` (its starts: `starts`): its seen log with every line
    /// unedited ([`mirror`]), in the order of the item's own.
    fn mirror_starts(
        &self,
        seen: &Written,
        starts: &[(E::State, Judge)],
    ) -> Option<Vec<(E::State, Judge)>> {
        if !self.options.factoring.compares_mirrors() {
            return None;
        }
        if seen.edited == 0 {
            return Some(starts.to_vec());
        }
        let config = &self.model.config;
        let mirror = mirror::swap(seen, seen.edited);
        let facts = mirror.facts(config);
        Some(
            self.model
                .engine
                .starts(config, &mirror, &facts, self.options.dropped),
        )
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
                if !shared.holds(self.step(candidate, shared, false)) {
                    return false;
                }
            }
        }
        true
    }

    /// `item`'s reset states beside `log`: counted (each distinct engine a state), their
    /// steps that change the log checked where the job had finished, and, under
    /// [`Factoring::Compared`], every one's reads compared with its group's and its other
    /// steps checked. Returns false once the check stops.
    fn count_reset(
        &self,
        item: &Item<'_, E::State>,
        log: &Log,
        key: impl Fn(bool, Option<Bytes>) -> GroupKey,
        shared: &Shared<E::State>,
    ) -> bool {
        let (seen, starts) = (item.seen, &item.starts);
        let members = item.distinct.iter().filter(|&&d| d).count();
        let runs: Vec<_> = self.runs_and_views(seen, log).collect();
        shared.add(Count::Reset, members * runs.len());
        if !self.finished_steps(item, log, shared) {
            return false;
        }
        if self.options.factoring != Factoring::Compared {
            return true;
        }
        for (running, view) in runs {
            let key = key(running, view);
            let distinct = starts.iter().zip(&item.distinct).filter(|(_, &d)| d);
            for ((engine, judge), _) in distinct {
                if shared.stopped() {
                    return false;
                }
                let candidate = self.candidate(seen, log, running, view, engine, judge);
                shared.add(Count::Compared, 1);
                // Its reads are its group's, byte for byte, and so are judged with the
                // group's representative; its other steps change only the log.
                let failure = self
                    .compare_with_group(&candidate, &key, shared)
                    .or_else(|| self.step(candidate, shared, true));
                if !shared.holds(failure) {
                    return false;
                }
            }
        }
        true
    }

    /// Where the job had finished at the seen log, the steps that change the log from
    /// `item`'s reset states beside `log` (only there can "a finished job writes nothing"
    /// tell one seen log from another; elsewhere the group's representative stands for
    /// them). Returns false once the check stops.
    fn finished_steps(
        &self,
        item: &Item<'_, E::State>,
        log: &Log,
        shared: &Shared<E::State>,
    ) -> bool {
        let seen = item.seen;
        if seen.is_none_or(|w| w.running) {
            return true;
        }
        let (engine, judge) = &item.starts[0];
        for (running, view) in self.runs_and_views(seen, log) {
            if shared.stopped() {
                return false;
            }
            let candidate = self.candidate(seen, log, running, view, engine, judge);
            if !shared.holds(self.step(candidate, shared, true)) {
                return false;
            }
        }
        true
    }
}
