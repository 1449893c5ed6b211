//! Codex's reader of a background job: every poll drains what the process wrote since the
//! previous one.
//!
//! The harness's appends are the process's output. Codex pushes each chunk into the process's
//! shared `HeadTailBuffer` as it arrives; a poll (`collect_output_until_deadline`,
//! process_manager.rs:1332) takes that buffer whole with `std::mem::take`, leaving it empty,
//! and pushes it into the poll's own buffer with `push_buffer`. The harness changes the log only
//! between reads, so everything a poll will see has arrived when it starts: one take, then the
//! deadline. What the buffer keeps depends only on the bytes pushed, not on how they were cut
//! into chunks, so the driver pushes the log's new bytes as one chunk.

use crate::envelope::PollOutput;
use crate::policy::TruncationPolicy;
use crate::unified_exec::head_tail_buffer::HeadTailBuffer;
use crate::unified_exec::{DEFAULT_MAX_OUTPUT_TOKENS, UNIFIED_EXEC_OUTPUT_MAX_BYTES};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::num::NonZeroUsize;

/// The first session id handed out; each job gets the next. Codex draws them at random (its
/// tests make them deterministic): the judge's dialect reads none.
const FIRST_SESSION_ID: i32 = 1000;

/// Codex's head-tail buffer cap: 1 MiB.
pub const UPSTREAM_CAP: usize = UNIFIED_EXEC_OUTPUT_MAX_BYTES;

/// The model's cap: a head and a tail of 5 bytes, so that four of the model's short lines
/// (3 bytes each) overflow it and the middle is dropped.
pub const SCALED_CAP: usize = 10;

/// The model's budget: 2 tokens (8 bytes), below the cap as Codex's 40,000 bytes are below its
/// 1 MiB, so that three short lines are cut inline with nothing dropped, and a partial line's
/// rest (`-done`) comes whole.
pub const SCALED_TOKENS: usize = 2;

/// The sizes one reader runs with: the head-tail buffer's cap (a const generic upstream, so a
/// type parameter here) and the token budget.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// The turn's token budget and the agent's `max_output_tokens`.
    pub tokens: usize,
    /// Whether the output is cut again to fit 1.2× the budget with the header (see
    /// [`PollOutput::budget_loop`]).
    pub budget_loop: bool,
}

impl Scale {
    /// Codex's own: 10,000 tokens, with the 1.2× loop.
    pub fn upstream() -> Scale {
        Scale {
            tokens: DEFAULT_MAX_OUTPUT_TOKENS,
            budget_loop: true,
        }
    }

    /// The model's: [`SCALED_TOKENS`], without the 1.2× loop.
    pub fn scaled() -> Scale {
        Scale {
            tokens: SCALED_TOKENS,
            budget_loop: false,
        }
    }
}

/// One job as Codex's process manager holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// The session id the envelope names.
    pub session: i32,
    /// How many of the log's bytes the process has written into Codex's buffers so far: every
    /// poll drains up to here.
    pub drained: u64,
    /// Whether a poll has said the process exited: Codex then forgets the session, and a later
    /// poll of it fails.
    pub released: bool,
}

/// Every job the reader has polled: its whole state (the buffers are empty between polls).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// By job id.
    pub jobs: BTreeMap<String, Job>,
}

/// Why a poll gave no output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PollError {
    /// The session was released after it said the process exited: what the agent sees.
    UnknownSession(String),
    /// The log is shorter than what the process already wrote: a process's output stream can
    /// only grow, so this reader cannot be shown a log cut or replaced.
    Shrank {
        /// The bytes the process had written when the last poll drained.
        drained: u64,
        /// The log's length now.
        len: u64,
    },
}

/// One poll of job `id` whose log now holds `log`, with the process `running` or exited.
pub fn poll<const CAP: usize>(
    state: &mut State,
    scale: Scale,
    id: &str,
    log: &[u8],
    running: bool,
) -> Result<String, PollError> {
    let next_session = FIRST_SESSION_ID + state.jobs.len() as i32;
    let job = state.jobs.entry(id.to_string()).or_insert_with(|| Job {
        session: next_session,
        ..Job::default()
    });
    if job.released {
        return Err(PollError::UnknownSession(format!(
            "write_stdin failed: Unknown process id {}",
            job.session
        )));
    }
    let len = log.len() as u64;
    let Some(new) = log.get(job.drained as usize..) else {
        return Err(PollError::Shrank {
            drained: job.drained,
            len,
        });
    };
    let collected = drain::<CAP>(new);
    job.drained = len;
    job.released = !running;
    Ok(output(&collected, scale, job.session, running).response_text())
}

/// The process's writes land in its shared buffer; the poll takes that buffer and pushes it
/// into its own (process_manager.rs:1346–1414, one wake-up).
fn drain<const CAP: usize>(new: &[u8]) -> HeadTailBuffer<CAP> {
    let mut shared = HeadTailBuffer::<CAP>::default();
    shared.push_chunk(new);
    let mut collected = HeadTailBuffer::<CAP>::default();
    collected.push_buffer(std::mem::take(&mut shared));
    collected
}

/// The poll's `ExecCommandToolOutput` (process_manager.rs:839–915): the token count of
/// everything drained, the retained bytes with the omission marker, the session id while the
/// process runs and its exit code after. The harness's `running: false` carries no exit code;
/// the process is taken to exit 0.
fn output<const CAP: usize>(
    collected: &HeadTailBuffer<CAP>,
    scale: Scale,
    session: i32,
    running: bool,
) -> PollOutput {
    let total = collected.total_bytes();
    PollOutput {
        chunk_id: "000000".to_string(),
        wall_time_secs: 0.0,
        raw_output: collected.to_bytes_with_omission_marker(),
        truncation_policy: TruncationPolicy::Tokens(scale.tokens),
        max_output_tokens: Some(scale.tokens),
        process_id: running.then_some(session),
        exit_code: (!running).then_some(0),
        original_token_count: Some(total.div_ceil(4)),
        output_omitted_bytes: NonZeroUsize::new(collected.omitted_bytes()),
        budget_loop: scale.budget_loop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Scale = Scale {
        tokens: 2,
        budget_loop: false,
    };

    fn output_of(text: &str) -> &str {
        text.split_once("Output:\n").unwrap().1
    }

    #[test]
    fn each_poll_drains_what_arrived_since_the_last_one() {
        let mut state = State::default();
        let first = poll::<12>(&mut state, SMALL, "j", b"s0\n", true).unwrap();
        assert_eq!(output_of(&first), "s0\n");
        let second = poll::<12>(&mut state, SMALL, "j", b"s0\ns1\n", true).unwrap();
        assert_eq!(output_of(&second), "s1\n");
        let empty = poll::<12>(&mut state, SMALL, "j", b"s0\ns1\n", true).unwrap();
        assert_eq!(output_of(&empty), "");
        assert!(empty.contains("Process running with session ID 1000\n"));
    }

    #[test]
    fn past_the_cap_the_middle_is_dropped_and_named() {
        let mut state = State::default();
        let text = poll::<8>(
            &mut state,
            Scale::upstream(),
            "j",
            b"s0\ns1\ns2\ns3\n",
            true,
        );
        assert_eq!(
            output_of(&text.unwrap()),
            "s0\ns\n... 4 bytes omitted ...\n\ns3\n"
        );
    }

    #[test]
    fn after_the_exit_is_said_the_session_is_gone() {
        let mut state = State::default();
        let last = poll::<12>(&mut state, SMALL, "j", b"s0\n", false).unwrap();
        assert!(last.contains("Process exited with code 0\n"), "{last}");
        assert!(matches!(
            poll::<12>(&mut state, SMALL, "j", b"s0\n", false),
            Err(PollError::UnknownSession(_))
        ));
    }

    #[test]
    fn a_log_shorter_than_what_was_drained_is_refused() {
        let mut state = State::default();
        poll::<12>(&mut state, SMALL, "j", b"s0\ns1\n", true).unwrap();
        assert_eq!(
            poll::<12>(&mut state, SMALL, "j", b"s0\n", true),
            Err(PollError::Shrank { drained: 6, len: 3 })
        );
    }
}
