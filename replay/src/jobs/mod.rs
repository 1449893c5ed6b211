//! Background jobs in a jobs folder, read through the exact engine: what `bgtail mcp` serves.
//! A job is a command started in its own process group by a small shell wrapper that writes
//! pi-bgrun's exit marker (`__BGRUN_EXIT__=<code>`) into its log when it ends, or a log
//! attached to follow. Records and bookmarks live in the folder (`record`, and the exact
//! engine's state through `bgtail::state_file`), so a server restarted — or a second one —
//! continues every job's reads where the last left them.

mod error;
mod process;
pub mod record;
mod status;

pub use error::JobError;
pub use record::JobRecord;
pub use status::{JobState, Status};

use bgtail::source::open_log;
use bgtail::state_file::StateFile;
use bgtail::{Engine as _, ExactEngine, Job, Limits, Reply, Request};
use std::path::{Path, PathBuf};

/// The jobs folder and the engine that reads its logs.
#[derive(Clone, Debug)]
pub struct Jobs {
    dir: PathBuf,
    engine: ExactEngine,
}

/// Jobs with their status, and the records that could not be read, named.
pub struct Listing {
    pub jobs: Vec<(JobRecord, Status)>,
    pub unreadable: Vec<String>,
}

/// One read: the reply, and the job as it was read (its state when the read began; how far
/// its reads have come after it).
#[derive(Debug)]
pub struct ReadOutcome {
    pub reply: Reply,
    pub status: Status,
    /// The log that was read.
    pub log: PathBuf,
}

impl Jobs {
    /// The jobs in `dir`, made (mode 0700) if missing.
    pub fn open(dir: &Path) -> Result<Jobs, JobError> {
        use std::os::unix::fs::DirBuilderExt as _;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| {
                JobError::Io(format!(
                    "{}: cannot make the jobs folder: {e}",
                    dir.display()
                ))
            })?;
        Ok(Jobs {
            dir: dir.to_owned(),
            engine: ExactEngine::new(Limits::default()),
        })
    }

    /// Starts `command` (see `process::start`).
    pub fn start(
        &self,
        command: &str,
        cwd: Option<&str>,
        env: &[(String, String)],
    ) -> Result<JobRecord, JobError> {
        process::start(&self.dir, command, cwd, env)
    }

    /// Follows the log at `path`, written by process `writer` when given: a new id, or the
    /// one it already has.
    pub fn attach(&self, path: &str, writer: Option<i32>) -> Result<JobRecord, JobError> {
        process::attach(&self.dir, path, writer)
    }

    /// Signals job `id`'s process group and waits up to `wait` for it to end.
    pub fn kill(
        &self,
        id: &str,
        signal: &str,
        wait: std::time::Duration,
    ) -> Result<(JobRecord, Status), JobError> {
        let record = self.record(id)?;
        process::signal(&self.dir, &record, signal, wait)?;
        let record = self.record(id)?;
        let status = status::of(&record, self.bookmarks()?.get(id));
        Ok((record, status))
    }

    /// Job `id`'s record, the id checked first.
    pub fn record(&self, id: &str) -> Result<JobRecord, JobError> {
        if !record::valid_id(id) {
            return Err(JobError::InvalidId(id.to_owned()));
        }
        record::load(&self.dir, id)
    }

    /// Every job (or job `id`) with its status; records that cannot be read, named.
    pub fn status(&self, id: Option<&str>) -> Result<Listing, JobError> {
        let (records, unreadable) = match id {
            Some(id) => (vec![self.record(id)?], Vec::new()),
            None => record::load_all(&self.dir)?,
        };
        let bookmarks = self.bookmarks()?;
        let jobs = records
            .into_iter()
            .map(|r| {
                let s = status::of(&r, bookmarks.get(&r.id));
                (r, s)
            })
            .collect();
        Ok(Listing { jobs, unreadable })
    }

    /// One read of job `id`'s log through the exact engine, its bookmark kept in the folder's
    /// state file (locked for the read, replaced whole after it).
    pub fn read(
        &self,
        id: &str,
        lines: Option<f64>,
        raw: bool,
        bytes: Option<f64>,
    ) -> Result<ReadOutcome, JobError> {
        let record = self.record(id)?;
        let file = StateFile::lock(&self.state_path()).map_err(|e| JobError::Io(e.to_string()))?;
        let (mut state, _warning) = file.load(&self.engine);
        let before = status::of(&record, state.get(id));
        let path = record.log.to_string_lossy().into_owned();
        let request = Request {
            lines,
            raw,
            bytes,
            peek: true,
            running: before.state == JobState::Running,
            elapsed_secs: None,
        };
        let source = open_log(&record.log);
        let job = Job { id, path: &path };
        let reply = self
            .engine
            .read(&mut state, job, source.as_ref(), &request)
            .map_err(|e| JobError::Argument("id", e.to_string()))?;
        if !reply.is_error {
            file.store(&self.engine, &state)
                .map_err(|e| JobError::Io(e.to_string()))?;
        }
        // The state the read was made with: a job that ends during the read is said to run,
        // as the reply's partial line says, and the next read sees it ended.
        let status = Status {
            read_to: state.get(id).map(|b| b.settled_end),
            ..before
        };
        Ok(ReadOutcome {
            reply,
            status,
            log: record.log,
        })
    }

    /// The exact engine's bookmarks as the state file holds them now.
    fn bookmarks(&self) -> Result<bgtail::ExactState, JobError> {
        let file = StateFile::lock(&self.state_path()).map_err(|e| JobError::Io(e.to_string()))?;
        Ok(file.load(&self.engine).0)
    }

    fn state_path(&self) -> PathBuf {
        self.dir.join("bookmarks.state")
    }
}
