//! The groups of reset states, checked: every action from one group's representative, and
//! its reads compared with those of the group's most different members (or, under
//! [`Factoring::Compared`], with every member's).

use super::enumerate::Candidate;
use super::factor::{self, Group, GroupKey};
use super::invariant::Inductive;
use super::plan::{extremes_of, Plan};
use super::pool::Shared;
use super::report::{Broke, Failure};
use crate::TailState;
use bgtail::judge::Judge;
use stateright::Model;

impl<E: Inductive> Plan<'_, E> {
    /// Every action from one group's representative, and its reads against those of the
    /// group's most different members.
    pub(super) fn check_group(&self, group: &Group, shared: &Shared<E::State>) {
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
    pub(super) fn extremes(
        &self,
        item: usize,
        shared: &Shared<E::State>,
    ) -> [(E::State, Judge); 2] {
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
    pub(super) fn same_reads(
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
    pub(super) fn compare_with_group(
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
}
