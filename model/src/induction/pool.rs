//! The check's threads: the counters and failures they share, and how items and groups are
//! dealt out to them.

use super::factor::{GroupKey, Outcome};
use super::report::Failure;
use crate::Action;
use bgtail::judge::Judge;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The counters the check's threads share, by what they count.
#[derive(Clone, Copy)]
pub(super) enum Count {
    Fresh,
    Continuing,
    Reset,
    Disputed,
    Compared,
    Mirrored,
    Steps,
    Reads,
}

/// Every read a state offers, with what it gives, in the model's order of actions.
pub(super) type Reads<S> = Vec<(Action, Outcome<S>)>;

/// Shared between the check's threads.
pub(super) struct Shared<S> {
    /// The next item (then group) a thread takes: each is checked by one thread.
    pub next: AtomicUsize,
    /// Set by the first failure; every thread stops at its next state.
    pub stop: AtomicBool,
    /// What the report counts, by [`Count`].
    pub counts: [AtomicUsize; 8],
    /// The failures found (the first, and any another thread found before it stopped).
    pub failures: Mutex<Vec<Failure<S>>>,
    /// Under [`Factoring::Compared`]: each group's reads from its first member run, each
    /// with its read action.
    pub outcomes: Mutex<HashMap<GroupKey, Reads<S>>>,
    /// The first and last start of each item a group's members come from.
    pub extremes: Mutex<HashMap<usize, [(S, Judge); 2]>>,
}

impl<S: Send> Shared<S> {
    pub fn new() -> Self {
        Shared {
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            counts: Default::default(),
            failures: Mutex::new(Vec::new()),
            outcomes: Mutex::new(HashMap::new()),
            extremes: Mutex::new(HashMap::new()),
        }
    }

    pub fn add(&self, what: Count, n: usize) {
        self.counts[what as usize].fetch_add(n, Ordering::Relaxed);
    }

    pub fn count(&self, what: Count) -> u64 {
        self.counts[what as usize].load(Ordering::Relaxed) as u64
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Records `failure` and tells every thread to stop.
    pub fn fail(&self, failure: Failure<S>) {
        self.stop.store(true, Ordering::Relaxed);
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.push(failure);
    }

    /// Whether a step held: `true` for `None`; a failure is recorded ([`Shared::fail`]) and
    /// gives `false`, so that the caller stops.
    pub fn holds(&self, failure: Option<Failure<S>>) -> bool {
        match failure {
            None => true,
            Some(failure) => {
                self.fail(failure);
                false
            }
        }
    }

    /// Runs `work(i)` for `0..n` over `threads` threads, until done or stopped.
    pub fn deal(&self, threads: usize, n: usize, work: impl Fn(usize) + Sync) {
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
