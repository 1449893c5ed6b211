//! What can go wrong with a job: its own module, so that every part of `jobs` names it
//! without importing the folder's root.

/// What can go wrong with a job, each naming the input and the place.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// No job has this id.
    #[error("no job has the id {0:?} (bgstatus lists the jobs)")]
    UnknownId(String),
    /// The id is not one a job can have.
    #[error("the id {0:?} is not a job id: 1 to 200 of A-Z a-z 0-9 . _ -, not starting with .")]
    InvalidId(String),
    /// A file of the jobs folder could not be read or written.
    #[error("{0}")]
    Io(String),
    /// A record is not what this server writes.
    #[error("a job record is corrupt: {0}")]
    Corrupt(String),
    /// The command could not start.
    #[error("the command could not start: {0}")]
    Spawn(String),
    /// An argument is wrong: its name, and what is wrong with it.
    #[error("`{0}`: {1}")]
    Argument(&'static str, String),
}
