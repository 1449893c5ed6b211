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
    /// Its process group is alive (attached: its writer lives, or with no writer named, its
    /// log's last line is no exit marker).
    Running,
    /// It ended, and its log's last line is the exit marker.
    Exited,
    /// Its process group (or writer) is gone and no exit marker ends its log: killed by a
    /// signal, or its wrapper was.
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
    // A process that lives decides: a job's output may itself hold a line like the marker.
    // Only a job with no process to watch is told by its log's last line.
    let running = match (record.pid, record.writer) {
        (Some(pid), _) => Some(alive(pid)),
        (None, Some(writer)) => Some(alive(writer)),
        (None, None) => None,
    };
    let state = match (running, exit_code) {
        (Some(true), _) | (None, None) => JobState::Running,
        (_, Some(_)) => JobState::Exited,
        (Some(false), None) => JobState::Ended,
    };
    Status {
        state,
        exit_code: exit_code.filter(|_| state == JobState::Exited),
        log_bytes,
        read_to: bookmark.map(|b| b.settled_end),
    }
}

/// Whether process `pid` lives: a job's wrapper (the leader of its process group) or an
/// attached log's writer. A process that ended but is not yet reaped (a zombie: a wrapper
/// whose server was restarted waits for the system's init to reap it) has ended.
pub(super) fn alive(pid: i32) -> bool {
    pid > 0 && kill(Pid::from_raw(pid), None).is_ok() && !zombie(pid)
}

/// Whether `pid` is a zombie, from `/proc/<pid>/stat`'s state (where there is no `/proc`,
/// none is).
fn zombie(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // `pid (comm) S …`: the state follows the last `)`, since comm may hold one.
    stat.rsplit_once(')')
        .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
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
    let code = last.strip_prefix("__BGRUN_EXIT__=")?;
    code.split(' ').next()?.parse().ok()
}
