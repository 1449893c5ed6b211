//! A reader of one job's log: an engine, its bookmarks, and the job — the smallest way to use
//! an engine as a library.

use crate::interface::api::{Engine, Job, Rejected, Reply, Request};
use crate::source::LogSource;

/// One job read through one engine, remembering its bookmarks between reads.
#[derive(Clone, Debug)]
pub struct Tail<E: Engine> {
    /// The engine that reads.
    pub engine: E,
    /// Every bookmark the engine keeps.
    pub state: E::State,
    /// The job's id.
    pub id: String,
    /// The log's path.
    pub path: String,
}

impl<E: Engine> Tail<E> {
    /// A reader of job `id`'s log at `path`, with no bookmark yet.
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
