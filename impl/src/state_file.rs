//! An engine's bookmarks kept in a file between calls, the way `bgtail read` keeps them, so
//! that a harness in Rust gets the same guarantees without shelling out.
//!
//! - **Turns.** [`StateFile::lock`] takes an exclusive lock on `<path>.lock` (kept beside the
//!   state, never replaced, so every caller locks the same file): concurrent callers take
//!   turns, and no two deliver the same line.
//! - **Whole or not at all.** [`StateFile::store`] writes a temporary file in the same folder
//!   and renames it over the state: a reader killed at any moment leaves the old state or the
//!   new one, never a torn one. Nothing is synced: a power cut may lose the newest state,
//!   which can only send lines again.
//! - **Never hidden.** [`StateFile::load`] turns a file it cannot use (unreadable, not JSON,
//!   another format version, another engine's state) into a fresh state and a
//!   [`Warning`] saying why: lines may be shown again, none are hidden.
//!
//! The file is a versioned envelope: `{"bgtail_state": 1, "engine": "exact", "state": …}`.
//!
//! ```no_run
//! use bgtail::state_file::StateFile;
//! use bgtail::{source::open_log, Engine, ExactEngine, Job, Request};
//!
//! let engine = ExactEngine::default();
//! let file = StateFile::lock("/tmp/build.bookmark".as_ref())?;
//! let (mut state, warning) = file.load(&engine);
//! if let Some(w) = warning {
//!     eprintln!("warning: {w}");
//! }
//! let job = Job { id: "build-1-1", path: "/jobs/build-1-1.log" };
//! let reply = engine.read(&mut state, job, open_log(job.path.as_ref()).as_ref(), &Request::lines(40));
//! println!("{}", reply.map(|r| r.text).unwrap_or_else(|e| e.0));
//! file.store(&engine, &state)?;
//! # Ok::<(), bgtail::state_file::StateFileError>(())
//! ```

use crate::interface::api::Engine;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The envelope's format version.
pub const VERSION: u32 = 1;

/// What could not be done with a state file, and where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StateFileError {
    /// The lock file could not be created or locked.
    #[error("{path}: cannot lock: {source}")]
    Lock {
        /// The lock file's path.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The state could not be written or renamed into place; the old state is untouched.
    #[error("{path}: cannot write the state: {source}")]
    Write {
        /// The state file's path.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// Why a state file was not used, so that a fresh state was: lines may be shown again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// The file exists but could not be read.
    Unreadable {
        /// The state file's path.
        path: PathBuf,
        /// The operating system's reason.
        why: String,
    },
    /// The file is not JSON, or not this envelope.
    NotAStateFile {
        /// The state file's path.
        path: PathBuf,
        /// What the parser found wrong.
        why: String,
    },
    /// The envelope is of another format version (`None`: it names none).
    Version {
        /// The state file's path.
        path: PathBuf,
        /// The version it names.
        found: Option<u64>,
    },
    /// The state was written by another engine.
    OtherEngine {
        /// The state file's path.
        path: PathBuf,
        /// The engine it names.
        engine: String,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Unreadable { path, why } => write!(
                f,
                "{}: {why}; starting a fresh bookmark",
                path.display()
            ),
            Warning::NotAStateFile { path, why } => write!(
                f,
                "{}: not a state file ({why}); starting a fresh bookmark (lines may be shown again)",
                path.display()
            ),
            Warning::Version { path, found } => write!(
                f,
                "{}: state format {} is not {VERSION}; starting a fresh bookmark",
                path.display(),
                found.map_or("unknown".into(), |v| v.to_string())
            ),
            Warning::OtherEngine { path, engine } => write!(
                f,
                "{}: written by the {engine} engine; starting a fresh bookmark",
                path.display()
            ),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Envelope<S> {
    bgtail_state: u32,
    engine: String,
    state: S,
}

/// A state file, locked for one caller's turn (the lock is released when this is dropped).
#[derive(Debug)]
pub struct StateFile {
    path: PathBuf,
    /// Holds the exclusive lock on `<path>.lock` for as long as this value lives.
    _lock: File,
}

impl StateFile {
    /// Waits for the exclusive lock on `<path>.lock` (created if missing) and returns the
    /// state file at `path`, ours until dropped.
    pub fn lock(path: &Path) -> Result<StateFile, StateFileError> {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        let lock_path = PathBuf::from(name);
        let err = |source| StateFileError::Lock {
            path: lock_path.clone(),
            source,
        };
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        // Like the state itself (a temporary file, mode 0600), the lock is its user's only.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&lock_path).map_err(err)?;
        file.lock().map_err(err)?;
        Ok(StateFile {
            path: path.to_owned(),
            _lock: file,
        })
    }

    /// The state file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The state `engine` stored here, or a fresh one: none stored yet (no warning), or a file
    /// that cannot be used (a warning that says why).
    pub fn load<E: Engine>(&self, engine: &E) -> (E::State, Option<Warning>) {
        match self.try_load(engine) {
            Ok(state) => (state.unwrap_or_default(), None),
            Err(warning) => (E::State::default(), Some(warning)),
        }
    }

    /// `Ok(None)`: no file yet.
    fn try_load<E: Engine>(&self, engine: &E) -> Result<Option<E::State>, Warning> {
        match std::fs::read(&self.path) {
            Ok(bytes) => decode(engine, &self.path, &bytes).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Warning::Unreadable {
                path: self.path.clone(),
                why: e.to_string(),
            }),
        }
    }

    /// Replaces the state file with `state`, whole: a temporary file in the same folder,
    /// renamed over it. No fsync (see the module docs).
    pub fn store<E: Engine>(&self, engine: &E, state: &E::State) -> Result<(), StateFileError> {
        let err = |source| StateFileError::Write {
            path: self.path.clone(),
            source,
        };
        let body = serde_json::to_vec(&Envelope {
            bgtail_state: VERSION,
            engine: engine.name().to_owned(),
            state,
        })
        .map_err(|e| err(e.into()))?;
        let dir = self
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
        tmp.write_all(&body).map_err(err)?;
        tmp.persist(&self.path).map_err(|e| err(e.error))?;
        Ok(())
    }
}

/// A state file's bytes as `engine`'s state, or why they are not one (`path` names the file
/// in the warning). The parsing step of [`StateFile::load`], for callers that keep the bytes
/// elsewhere (and for the fuzzer).
pub fn decode<E: Engine>(engine: &E, path: &Path, bytes: &[u8]) -> Result<E::State, Warning> {
    let not_ours = |e: serde_json::Error| Warning::NotAStateFile {
        path: path.to_owned(),
        why: e.to_string(),
    };
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(not_ours)?;
    let found = value
        .get("bgtail_state")
        .and_then(serde_json::Value::as_u64);
    if found != Some(u64::from(VERSION)) {
        return Err(Warning::Version {
            path: path.to_owned(),
            found,
        });
    }
    // The engine first: another engine's state would not parse as this one's.
    let envelope: Envelope<serde_json::Value> = serde_json::from_value(value).map_err(not_ours)?;
    if envelope.engine != engine.name() {
        return Err(Warning::OtherEngine {
            path: path.to_owned(),
            engine: envelope.engine,
        });
    }
    serde_json::from_value(envelope.state).map_err(not_ours)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExactEngine, ShippedEngine};

    #[test]
    fn a_state_round_trips_and_bad_files_are_fresh_states_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let engine = ShippedEngine::default();
        let file = StateFile::lock(&path).unwrap();
        assert_eq!(file.load(&engine), (Default::default(), None));
        let mut state = crate::ShippedState::default();
        let log = crate::source::SliceLog {
            bytes: b"a\nb\n",
            file_number: 0,
            missing: false,
        };
        let job = crate::Job {
            id: "j",
            path: "/j",
        };
        engine
            .read(&mut state, job, &log, &crate::Request::lines(1))
            .unwrap();
        file.store(&engine, &state).unwrap();
        assert_eq!(file.load(&engine), (state, None));
        let (_, w) = file.load(&ExactEngine::default());
        assert!(matches!(w, Some(Warning::OtherEngine { .. })), "{w:?}");
        for (body, says) in [
            (&b"{not json"[..], "not a state file"),
            (br#"{"bgtail_state":99}"#, "state format 99 is not 1"),
            (br#"{"engine":"shipped"}"#, "state format unknown is not 1"),
            (
                br#"{"bgtail_state":1,"engine":"shipped","state":7}"#,
                "not a state file",
            ),
        ] {
            std::fs::write(&path, body).unwrap();
            let (fresh, w) = file.load(&engine);
            assert_eq!(fresh, Default::default());
            assert!(w.unwrap().to_string().contains(says), "{says}");
        }
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let (_, w) = file.load(&engine);
        assert!(matches!(w, Some(Warning::Unreadable { .. })), "{w:?}");
        let e = file.store(&engine, &Default::default()).unwrap_err();
        assert!(e.to_string().contains("cannot write the state"), "{e}");
    }
}
