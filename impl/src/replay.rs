//! Replaying a trace through an engine, and auditing every reply against the engine's claims.
//!
//! The audit keeps the log's bytes itself and decides itself when a new generation began (the
//! log no longer continues the bytes the last read saw, or another file sits at the path). It
//! starts from what the engine claims it showed (`Reply::shown`) and what it believes shown
//! (`Engine::believed_shown`): it checks that every claimed line stands in the reply's body
//! (as a substring), and counts deliveries, repeats and losses from the claims. It does not
//! parse the body, so a line the body carries but the engine does not claim goes uncounted.

use crate::api::{Engine, Job, Reply};
use crate::js::utf16_len;
use crate::source::MemoryLog;
use crate::trace::{Event, Trace};
use crate::view::View;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashSet;

/// One read of the replay.
#[derive(Clone, Debug, Serialize)]
pub struct ReadRecord {
    /// Index of the read's event in the trace.
    pub event: usize,
    pub request: crate::api::Request,
    /// The reply, or the refusal's text.
    pub text: String,
    #[serde(skip)]
    pub reply: Option<Reply>,
    /// Whether the reply equals the recorded one (`None`: nothing recorded).
    pub matches_recording: Option<bool>,
    /// Complete lines this reply delivered that were delivered before in this generation.
    pub repeated: u64,
    /// Problems the audit found with this reply.
    pub problems: Vec<String>,
}

/// What a replay of one trace through one engine came to.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Tally {
    pub reads: u64,
    /// UTF-16 units of every reply text.
    pub chars_delivered: u64,
    /// Complete content lines delivered (each delivery counted).
    pub lines_delivered: u64,
    /// Deliveries by condensed reads of a line already delivered in its generation.
    pub lines_repeated: u64,
    pub chars_repeated: u64,
    /// Lines the engine counted as shown but no reply ever carried.
    pub lines_lost: u64,
    /// Content lines of the final log never delivered.
    pub lines_never_shown: u64,
    /// Reads with a recorded reply, and how many the engine reproduced.
    pub recorded: u64,
    pub reproduced: u64,
    /// Replies whose claims did not match their text.
    pub claim_errors: u64,
    /// Events kept in the trace but not replayed (other tools).
    pub not_replayed: u64,
}

impl Tally {
    /// Whether the exact engine's contract held: nothing lost, no unexplained repeat, every
    /// claim true.
    pub fn contract_held(&self) -> bool {
        self.lines_lost == 0 && self.lines_repeated == 0 && self.claim_errors == 0
    }

    /// Whether every recorded reply was reproduced.
    pub fn faithful(&self) -> bool {
        self.recorded == self.reproduced
    }
}

/// A replay: the reads and the tally.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    pub engine: String,
    pub reads: Vec<ReadRecord>,
    pub tally: Tally,
    /// Whether the reads were audited for lost and repeated lines. An engine in another
    /// process is compared with the recorded replies only: its deliveries, repeats and
    /// losses are not counted (and are zero in the tally).
    pub audited: bool,
}

/// Whether a reply equals upstream's recorded one: the same text, the same `details` with
/// the same key order, and error or not. `details: None` is a refusal (upstream throws: an
/// error with a message and no details).
pub fn matches_expected(
    expect: &crate::trace::Expected,
    text: &str,
    details: Option<&serde_json::Map<String, Value>>,
    is_error: bool,
) -> bool {
    let as_json = |d: &serde_json::Map<String, Value>| serde_json::to_string(d).ok();
    let details_match = match (&expect.details, details) {
        (None, None) => true,
        (Some(e), Some(d)) => as_json(e) == as_json(d),
        // A recording without details (older imports) is compared on its text alone.
        (None, Some(_)) => true,
        (Some(_), None) => false,
    };
    expect.text == text && details_match && expect.is_error == is_error
}

type LineKey = (u64, u64, u64);

/// Replays `trace` through `engine`.
pub fn replay<E: Engine>(engine: &E, trace: &Trace) -> Replay {
    let mut log = MemoryLog::new();
    let mut state = E::State::default();
    let mut running = true;
    let job = Job {
        id: &trace.header.job_id,
        path: &trace.header.log_path,
    };
    let mut generation = 0u64;
    let mut files = 0u64;
    let mut last_read: Option<(Vec<u8>, u64)> = None;
    let mut delivered: HashSet<(u64, u64)> = HashSet::new();
    let mut forgot = false;
    let mut lost: HashSet<LineKey> = HashSet::new();
    let mut tally = Tally::default();
    let mut reads = Vec::new();
    let limits = engine.limits().clone();

    for (index, event) in trace.events.iter().enumerate() {
        event.apply_to(&mut log);
        files += u64::from(event.changes_file());
        match event {
            Event::Exit(_) => running = false,
            Event::Append(_)
            | Event::Truncate(_)
            | Event::Rewrite(_)
            | Event::Replace(_)
            | Event::Remove(_) => {}
            Event::OtherTool(_) => tally.not_replayed += 1,
            Event::Read(read) => {
                tally.reads += 1;
                let request = read.request(running, trace.header.running_gate);
                let bytes = log.bytes().to_vec();
                let outcome = engine.read(&mut state, job, &log.source(), &request);
                // A read that looked at the log (not a refusal, not a gated read) is where the
                // audit's own notion of a generation advances.
                let looked = matches!(&outcome, Ok(r) if r.kind != crate::api::ReadKind::Gated);
                if looked {
                    let continues = last_read
                        .as_ref()
                        .is_some_and(|(b, f)| *f == files && bytes.starts_with(b));
                    if !continues {
                        generation += 1;
                        delivered.clear();
                        forgot = false;
                    }
                    last_read = Some((bytes.clone(), files));
                }
                let mut record = ReadRecord {
                    event: index,
                    request,
                    text: String::new(),
                    reply: None,
                    matches_recording: None,
                    repeated: 0,
                    problems: Vec::new(),
                };
                let reply = match outcome {
                    Ok(reply) => reply,
                    Err(rejected) => {
                        record.text = rejected.0.clone();
                        if let Some(expect) =
                            read.expect.as_ref().filter(|_| engine.name() == "shipped")
                        {
                            tally.recorded += 1;
                            let same = matches_expected(expect, &rejected.0, None, true);
                            tally.reproduced += u64::from(same);
                            record.matches_recording = Some(same);
                        }
                        reads.push(record);
                        continue;
                    }
                };
                tally.chars_delivered += utf16_len(&reply.text) as u64;
                // Recorded replies are upstream's: only the shipped engine is held to them.
                if let Some(expect) = read.expect.as_ref().filter(|_| engine.name() == "shipped") {
                    tally.recorded += 1;
                    let same =
                        matches_expected(expect, &reply.text, Some(&reply.details), reply.is_error);
                    tally.reproduced += u64::from(same);
                    record.matches_recording = Some(same);
                }

                // The claims against the body.
                let view = View::scan(0, bytes.len() as u64, bytes.clone(), usize::MAX);
                let body = &reply.text[reply.body.clone()];
                // Claims come in log order, as their lines stand in the body: each search starts
                // where the last claim was found (not past it: a fold carries several claims), so
                // a whole-view read is checked in one pass. The whole body is searched only when
                // that fails, so the verdict is the same as a plain `contains`.
                let mut cursor = 0;
                for shown in &reply.shown {
                    let line = view
                        .lines
                        .binary_search_by_key(&shown.offset, |l| view.offset(l))
                        .ok()
                        .map(|i| &view.lines[i]);
                    let Some(line) = line else {
                        record.problems.push(format!(
                            "claims a line at byte {} that is not a content line",
                            shown.offset
                        ));
                        continue;
                    };
                    let text = view.text(line);
                    let expected = if reply.kind == crate::api::ReadKind::Raw {
                        text.into_owned()
                    } else {
                        engine.style().line_prefix(&text, &limits)
                    };
                    let found = body[cursor..]
                        .find(expected.as_str())
                        .map(|at| cursor + at)
                        .or_else(|| body.find(expected.as_str()));
                    if let Some(at) = found {
                        cursor = at;
                    } else {
                        record.problems.push(format!(
                            "claims line {:?} but its body does not carry it",
                            expected
                        ));
                    }
                    if shown.partial {
                        continue;
                    }
                    let key = (shown.offset, shown.end);
                    tally.lines_delivered += 1;
                    if !delivered.insert(key) && reply.kind != crate::api::ReadKind::Raw && !forgot
                    {
                        record.repeated += 1;
                        tally.lines_repeated += 1;
                        tally.chars_repeated += utf16_len(&expected) as u64 + 1;
                    }
                }
                if reply.counts.forgotten_ranges > 0 {
                    forgot = true;
                }
                tally.claim_errors += u64::from(!record.problems.is_empty());
                for (start, end) in engine.believed_shown(&state, job, &log.source()) {
                    if !delivered.contains(&(start, end)) {
                        lost.insert((generation, start, end));
                    }
                }
                // A line counted as lost is found again if a later reply of its generation
                // carries it.
                lost.retain(|&(g, s, e)| g != generation || !delivered.contains(&(s, e)));
                record.text = reply.text.clone();
                record.reply = Some(reply);
                reads.push(record);
            }
        }
    }
    tally.lines_lost = lost.len() as u64;
    let final_view = View::scan(
        0,
        log.bytes().len() as u64,
        log.bytes().to_vec(),
        usize::MAX,
    );
    let continues = last_read
        .as_ref()
        .is_some_and(|(b, f)| *f == files && log.bytes().starts_with(b));
    tally.lines_never_shown = final_view
        .extents()
        .filter(|k| !continues || !delivered.contains(k))
        .count() as u64;
    Replay {
        engine: engine.name().to_owned(),
        reads,
        tally,
        audited: true,
    }
}
