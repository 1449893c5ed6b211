//! The groups of reset states, checked: every action from one group's representative, and
//! its reads compared with those of the group's most different members (or, under
//! [`Factoring::Compared`], with every member's).

use super::enumerate::Candidate;
use super::factor::{self, Group, GroupKey, Outcome};
use super::invariant::Inductive;
use super::plan::{extremes_of, Plan};
use super::pool::Shared;
use super::report::{Broke, Failure};
use crate::{Action, TailState};
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
        let reads = self.reads_of(&representative.state);
        for (engine, judge) in members {
            let member = self
                .candidate(seen, log, running, view, &engine, &judge)
                .state;
            if let Some(failure) = self.same_reads(&representative, &reads, &member) {
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

    /// Whether `member` reads as `representative` does (its reads, `reads`), by every read
    /// action: the failure naming the first difference, if any.
    pub(super) fn same_reads(
        &self,
        representative: &Candidate<E::State>,
        reads: &[(Action, Outcome<E::State>)],
        member: &TailState<E::State>,
    ) -> Option<Failure<E::State>> {
        // The member's own reads are the representative's read actions: a member of another
        // item holds that item's engine and judge beside the representative's seen log, which
        // the model's scope must not be asked about.
        let theirs: Vec<(Action, Outcome<E::State>)> = reads
            .iter()
            .filter_map(|(a, _)| Some((a.clone(), factor::read_outcome(self.model, member, a)?)))
            .collect();
        let (action, part, group, found) = first_difference::<E>(reads, &theirs)?;
        Some(Failure {
            candidate: representative.clone(),
            action: Some(action),
            broke: Broke::Unfactorable {
                member: format!("{member:?}"),
                part,
                group,
                found,
            },
        })
    }

    /// Every read `state` offers, with what it gives. Only the reads: which changes to the
    /// log the model may make depends on the log the last read saw (`scope`), which differs
    /// among a group's members.
    fn reads_of(&self, state: &TailState<E::State>) -> Vec<(Action, Outcome<E::State>)> {
        let mut actions = Vec::new();
        self.model.actions(state, &mut actions);
        actions
            .into_iter()
            .filter_map(|a| Some((a.clone(), factor::read_outcome(self.model, state, &a)?)))
            .collect()
    }

    /// `candidate`'s reads against those of the first member of its group to be run (kept
    /// for the group by whichever thread ran it first), read for read ([`Self::reads_of`]).
    pub(super) fn compare_with_group(
        &self,
        candidate: &Candidate<E::State>,
        key: &GroupKey,
        shared: &Shared<E::State>,
    ) -> Option<Failure<E::State>> {
        let reads = self.reads_of(&candidate.state);
        let mut kept = shared.outcomes.lock().unwrap_or_else(|e| e.into_inner());
        let first = kept.entry(key.clone()).or_insert_with(|| reads.clone());
        let (action, part, group, found) = first_difference::<E>(first, &reads)?;
        Some(Failure {
            candidate: candidate.clone(),
            action: Some(action),
            broke: Broke::Unfactorable {
                member: format!("{:?}", candidate.state),
                part,
                group,
                found,
            },
        })
    }
}

/// The first read at which a member's reads (`member`) differ from its group's (`group`):
/// the action, which part differs (`"reply"` or `"successor"`), and that part as the group
/// read it and as the member did. A read one of them has and the other has not differs in
/// its reply. Successors are compared whole ([`Outcome::same`]) and written out only where
/// they differ.
fn first_difference<E: Inductive>(
    group: &[(Action, Outcome<E::State>)],
    member: &[(Action, Outcome<E::State>)],
) -> Option<(Action, &'static str, String, String)> {
    let absent = || "(no such read)".to_string();
    for at in 0..group.len().max(member.len()) {
        match (group.get(at), member.get(at)) {
            (Some((a, x)), Some((b, y))) if a == b => {
                if x.reply != y.reply {
                    return Some((a.clone(), "reply", x.reply.clone(), y.reply.clone()));
                }
                if !x.same::<E>(y) {
                    let (x, y) = (format!("{:?}", x.next), format!("{:?}", y.next));
                    return Some((a.clone(), "successor", x, y));
                }
            }
            (Some((a, x)), other) => {
                let found = other.map_or_else(absent, |(b, _)| format!("a read {b:?}"));
                return Some((a.clone(), "reply", x.reply.clone(), found));
            }
            (None, Some((b, y))) => return Some((b.clone(), "reply", absent(), y.reply.clone())),
            (None, None) => unreachable!("`at` is below the longer length"),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LineKind, ModelConfig, TailModel};
    use bgtail::exact::ExactState;
    use bgtail::{ExactEngine, LineIndex};

    /// The state after one short line was appended and read: a bookmark with a line index.
    fn after_a_read() -> TailState<ExactState> {
        let model = TailModel::exact(ModelConfig::induction(1));
        let start = model.init_states().remove(0);
        let appended = model
            .next_state(&start, Action::Append(LineKind::Short))
            .unwrap();
        model.next_state(&appended, Action::Read(1)).unwrap()
    }

    fn read(n: u8, reply: &str, next: &TailState<ExactState>) -> (Action, Outcome<ExactState>) {
        let next = next.clone();
        (
            Action::Read(n),
            Outcome {
                reply: reply.into(),
                next,
            },
        )
    }

    fn differs(
        group: &[(Action, Outcome<ExactState>)],
        member: &[(Action, Outcome<ExactState>)],
    ) -> Option<(Action, &'static str, String, String)> {
        first_difference::<ExactEngine>(group, member)
    }

    #[test]
    fn reads_alike_read_for_read_do_not_differ() {
        let x = after_a_read();
        let group = [read(1, "a", &x), read(5, "b", &x)];
        assert_eq!(differs(&group, &group.clone()), None);
    }

    #[test]
    fn the_first_differing_read_is_named_with_its_part() {
        let x = after_a_read();
        let x2 = TailState {
            running: !x.running,
            ..x.clone()
        };
        let group = [read(1, "a", &x), read(5, "b", &x)];
        let member = [read(1, "a", &x2), read(5, "c", &x)];
        let (x_, x2_) = (format!("{x:?}"), format!("{x2:?}"));
        assert_eq!(
            differs(&group, &member),
            Some((Action::Read(1), "successor", x_, x2_))
        );
        let member = [read(1, "a", &x), read(5, "c", &x)];
        assert_eq!(
            differs(&group, &member),
            Some((Action::Read(5), "reply", "b".into(), "c".into()))
        );
    }

    /// Equality leaves the line index out; the successors are compared with it.
    #[test]
    fn successors_that_differ_only_in_their_line_index_differ() {
        let x = after_a_read();
        let mut x2 = x.clone();
        let (_, bookmark) = &mut x2.engine.bookmarks[0];
        assert!(!bookmark.index.is_empty(), "{x:?}");
        bookmark.index = LineIndex::default();
        assert_eq!(x, x2, "equality leaves the index out");
        let found = differs(&[read(1, "a", &x)], &[read(1, "a", &x2)]);
        assert_eq!(
            found.map(|(a, part, ..)| (a, part)),
            Some((Action::Read(1), "successor"))
        );
    }

    #[test]
    fn a_read_only_one_side_has_differs_in_its_reply() {
        let x = after_a_read();
        let group = [read(1, "a", &x), read(5, "b", &x)];
        assert_eq!(
            differs(&group, &group[..1]),
            Some((
                Action::Read(5),
                "reply",
                "b".into(),
                "(no such read)".into()
            ))
        );
        let member = [
            read(1, "a", &x),
            (
                Action::RawRead(5),
                Outcome {
                    reply: "b".into(),
                    next: x.clone(),
                },
            ),
        ];
        assert_eq!(
            differs(&group, &member),
            Some((
                Action::Read(5),
                "reply",
                "b".into(),
                "a read RawRead(5)".into()
            ))
        );
    }
}
