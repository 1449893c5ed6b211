//! The shipped engine's part of the invariant: every bookmark it allows, and its conjuncts.

use super::enumerate::views;
use super::enumerate::{Facts, Written};
use super::invariant::{Conjunct, Inductive};
use crate::{Bytes, ModelConfig};
use crate::{JOB_ID, JOB_PATH};
use bgtail::judge::Judge;
use bgtail::shipped::ShippedBookmark;
use bgtail::source::SliceLog;
use bgtail::{Engine, Job, Request, ShippedEngine, ShippedState};

impl Inductive for ShippedEngine {
    /// The shipped engine's bookmark is a line count, a fingerprint of the view's first line
    /// and the length of the run of lines it believes shown. Its analogue of the exact
    /// invariant: the bookmark a read of P leaves, under any view, believing any trailing run
    /// shown, and that run was delivered.
    fn starts(
        &self,
        config: &ModelConfig,
        seen: &Written,
        facts: &Facts,
        _dropped: Option<Conjunct>,
    ) -> Vec<(ShippedState, Judge)> {
        let mut out = Vec::new();
        for read in shipped_reads(self, config, seen, facts) {
            for served in 0..=read.lines {
                let run = (served as usize).min(facts.complete.len());
                let delivered = facts.complete[facts.complete.len() - run..].to_vec();
                let judge = Judge::after_read(&facts.bytes, 0, seen.running, delivered, false);
                let bookmark = ShippedBookmark {
                    served,
                    ..read.clone()
                };
                let state = ShippedState {
                    bookmarks: vec![(JOB_ID.to_owned(), bookmark)],
                };
                out.push((state, judge));
            }
        }
        out
    }

    fn bookmark_conjuncts(
        &self,
        config: &ModelConfig,
        state: &ShippedState,
        seen: &Written,
        facts: &Facts,
        judge: &Judge,
        dropped: Option<Conjunct>,
    ) -> Option<Conjunct> {
        let keep = |c: Conjunct| dropped != Some(c);
        let [(id, b)] = state.bookmarks.as_slice() else {
            return keep(Conjunct::BookmarkDescribesSeen)
                .then_some(Conjunct::BookmarkDescribesSeen);
        };
        let described = id == JOB_ID
            && b.served <= b.lines
            && shipped_reads(self, config, seen, facts).iter().any(|r| {
                *r == ShippedBookmark {
                    served: r.served,
                    ..b.clone()
                }
            });
        if !described && keep(Conjunct::BookmarkDescribesSeen) {
            return Some(Conjunct::BookmarkDescribesSeen);
        }
        let run = (b.served as usize).min(facts.complete.len());
        let delivered = facts.complete[facts.complete.len() - run..]
            .iter()
            .all(|l| judge.delivered().binary_search(l).is_ok());
        (!delivered && keep(Conjunct::BelievedShownDelivered))
            .then_some(Conjunct::BelievedShownDelivered)
    }

    fn no_bookmark(state: &ShippedState) -> bool {
        state.bookmarks.is_empty()
    }

    /// Equality leaves nothing of the shipped engine's bookmarks out.
    fn alike_beyond_eq(_a: &ShippedState, _b: &ShippedState) -> bool {
        true
    }
}

/// The bookmarks a first read of `seen` leaves, under each view the model passes.
fn shipped_reads(
    engine: &ShippedEngine,
    config: &ModelConfig,
    seen: &Written,
    facts: &Facts,
) -> Vec<ShippedBookmark> {
    views(config)
        .filter_map(|view| {
            let mut state = ShippedState::default();
            let log = SliceLog {
                bytes: &facts.bytes,
                file_number: 0,
                missing: false,
            };
            let request = Request {
                lines: Some(1.0),
                raw: false,
                bytes: view.map(Bytes::value),
                peek: true,
                running: seen.running,
                elapsed_secs: None,
            };
            let job = Job {
                id: JOB_ID,
                path: JOB_PATH,
            };
            engine.read(&mut state, job, &log, &request).ok()?;
            state.get(JOB_ID).cloned()
        })
        .collect()
}
