//! A reader of one job's log: an engine, its bookmarks, and the job — the smallest way to use
//! an engine as a library.

use crate::api::{Engine, Job, Rejected, Reply, Request};
use crate::source::LogSource;

/// One job read through one engine, remembering its bookmarks between reads.
#[derive(Clone, Debug)]
pub struct Tail<E: Engine> {
    pub engine: E,
    pub state: E::State,
    pub id: String,
    pub path: String,
}

impl<E: Engine> Tail<E> {
    pub fn new(engine: E, id: impl Into<String>, path: impl Into<String>) -> Self {
        Tail {
            engine,
            state: E::State::default(),
            id: id.into(),
            path: path.into(),
        }
    }

    /// Reads the log once.
    pub fn read(&mut self, log: &dyn LogSource, request: &Request) -> Result<Reply, Rejected> {
        let job = Job {
            id: &self.id,
            path: &self.path,
        };
        self.engine.read(&mut self.state, job, log, request)
    }
}
