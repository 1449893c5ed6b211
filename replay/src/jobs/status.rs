//! Whether a job runs, how it ended, and how far it has been read — from its record, its
//! log's last line and its process group, never from memory a restarted server lost.

use super::record::JobRecord;
use nix::sys::signal::kill;
use nix::unistd::Pid;
use serde::Serialize;
use std::io::{Read as _, Seek as _, SeekFrom};

/// How a job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Its process group is alive, or (attached) its writer lives, or with no writer named its
    /// log has no exit marker.
    Running,
    /// Its wrapper wrote the exit marker.
    Exited,
    /// Its process group is gone with no exit marker: killed by a signal, or its wrapper was.
    Ended,
}

/// A job's state, its exit code, its log's size and how far its reads have come.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    pub state: JobState,
    /// The code the exit marker gives.
    pub exit_code: Option<i64>,
    /// The log's size in bytes now (`None`: no log at its path).
    pub log_bytes: Option<u64>,
    /// Where the bookmark's complete lines end, in bytes (`None`: never read).
    pub read_to: Option<u64>,
}

/// How many bytes at the end of a log are searched for the exit marker: the marker line and
/// the blank lines that may follow it.
const MARKER_TAIL: u64 = 512;

/// `record`'s status, with the exact engine's bookmark of it if it has one.
pub fn of(record: &JobRecord, bookmark: Option<&bgtail::exact::ExactBookmark>) -> Status {
    let log_bytes = std::fs::metadata(&record.log).ok().map(|m| m.len());
    let exit_code = exit_marker(&record.log);
    let state = match (exit_code, record.pid, record.writer) {
        (Some(_), _, _) => JobState::Exited,
        (None, Some(pid), _) if group_alive(pid) => JobState::Running,
        (None, None, Some(writer)) if alive(writer) => JobState::Running,
        (None, None, None) => JobState::Running,
        (None, _, _) => JobState::Ended,
    };
    Status {
        state,
        exit_code,
        log_bytes,
        read_to: bookmark.map(|b| b.settled_end),
    }
}

/// Whether process group `pid` has a live member. A zombie wrapper counts as alive until it
/// is reaped, but by then it has written its marker.
fn group_alive(pid: i32) -> bool {
    kill(Pid::from_raw(-pid), None).is_ok()
}

/// Whether process `pid` lives (an attached log's writer, which its own parent reaps).
fn alive(pid: i32) -> bool {
    pid > 0 && kill(Pid::from_raw(pid), None).is_ok()
}

/// The code of the exit marker on the log's last non-blank line, if that line is one.
fn exit_marker(log: &std::path::Path) -> Option<i64> {
    let mut file = std::fs::File::open(log).ok()?;
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(MARKER_TAIL)))
        .ok()?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail).ok()?;
    let text = String::from_utf8_lossy(&tail);
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let code = last.trim().strip_prefix("__BGRUN_EXIT__=")?;
    code.split(' ').next()?.parse().ok()
}
