//! What the tools say to the model: their descriptions, the server's instructions, and a
//! job's status in a line.

use crate::jobs::{JobRecord, JobState, Status};

pub const INSTRUCTIONS: &str = "Run long commands (tests, builds, dev servers) in the \
background with bgrun, then read their logs with bgtail: each read shows what is new since the \
last one, condensed to fit, and never hides or repeats a line without saying so. bgstatus lists \
the jobs, bgkill stops one, bgattach follows a log you did not start.";

pub const BGRUN: &str = "Start a shell command in the background, in its own process group, \
its stdout and stderr appended to a log. Returns the job's id at once; read the output with \
bgtail. The job keeps running if this server restarts, and its exit code is written to its log.";

pub const BGTAIL: &str = "Read what is new in a background job's log, through a cursor that \
keeps its guarantees: nothing is lost (a line is counted as shown only if a reply carried it), \
nothing shown is sent again, and every number is true. The header says what the reply holds: \
'+K of N new lines' (K shown now; the rest are named in a note and come on the next read), \
'E earlier lines not shown before' (older lines a larger `lines` reached), 'log at T lines'. \
'… N lines already shown …' stands for lines you have seen. A last line still being written \
is shown and said to be partial; it comes again once complete. A reply that opens by saying \
the log was reset (shrank, rewritten, replaced) starts over: earlier lines may come again. \
Calling bgtail again drains the log: when nothing is new it says so in one line. Pass `lines` \
to see more of the newest lines, `raw: true` for the window verbatim (nothing recorded as read).";

pub const BGSTATUS: &str = "List the background jobs (or one): command, whether it runs or its \
exit code, its log's size, and how far it has been read.";

pub const BGKILL: &str = "Send a signal (TERM by default; INT, HUP or KILL) to a background \
job's whole process group, and report how it ended.";

pub const BGATTACH: &str = "Follow a log file you did not start (a dev server's log in another \
terminal): it gets an id and is read with bgtail like any job. Give the pid of the process that \
writes it, and the job counts as running exactly while that process lives.";

/// One job in a line: `<id>: running — <command> (log 1234 bytes, read to 1000)`.
pub fn status(record: &JobRecord, s: &Status) -> String {
    let state = match (s.state, s.exit_code, &record.signalled) {
        (JobState::Running, _, _) if record.pid.is_none() => "followed".to_owned(),
        (JobState::Running, _, Some(sig)) => format!("running (sent {sig})"),
        (JobState::Running, _, None) => "running".to_owned(),
        (JobState::Exited, Some(code), _) => format!("exited with code {code}"),
        (JobState::Exited, None, _) => "exited".to_owned(),
        (JobState::Ended, _, Some(sig)) => format!("ended by {sig} (no exit code)"),
        (JobState::Ended, _, None) => "ended without an exit code".to_owned(),
    };
    let what = record
        .command
        .clone()
        .unwrap_or_else(|| record.log.display().to_string());
    let log = s
        .log_bytes
        .map_or("no log".to_owned(), |b| format!("log {b} bytes"));
    let read = s
        .read_to
        .map_or("never read".to_owned(), |r| format!("read to byte {r}"));
    format!("{}: {state} — {what} ({log}, {read})", record.id)
}
