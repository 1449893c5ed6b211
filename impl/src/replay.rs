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

/// The audit's own account of a replay, kept apart from the engine's books.
#[derive(Default)]
struct Audit {
    /// Bumped whenever a read finds the log no longer continuing what the last read saw.
    generation: u64,
    /// Bumped whenever another file (or none) comes to sit at the path.
    files: u64,
    /// The log's bytes and file number at the last read that looked at the log.
    last_read: Option<(Vec<u8>, u64)>,
    /// Complete lines `(offset, end)` delivered in the current generation.
    delivered: HashSet<(u64, u64)>,
    /// Whether the engine said it forgot coverage in this generation (repeats allowed after).
    forgot: bool,
    /// Lines the engine counts as shown that no reply of their generation carried (yet).
    lost: HashSet<LineKey>,
    tally: Tally,
}

impl Audit {
    /// Whether `bytes` (of file number `files`) continue what the last read saw.
    fn continues(&self, bytes: &[u8]) -> bool {
        self.last_read
            .as_ref()
            .is_some_and(|(b, f)| *f == self.files && bytes.starts_with(b))
    }

    /// A read that looked at the log: a new generation begins when the log does not continue.
    fn looked_at(&mut self, bytes: &[u8]) {
        if !self.continues(bytes) {
            self.generation += 1;
            self.delivered.clear();
            self.forgot = false;
        }
        self.last_read = Some((bytes.to_vec(), self.files));
    }

    /// Compares a reply with the recorded one, if the engine is held to recordings.
    fn compare<E: Engine>(
        &mut self,
        engine: &E,
        read: &crate::trace::Read,
        record: &mut ReadRecord,
        reply: (&str, Option<&serde_json::Map<String, Value>>, bool),
    ) {
        // Recorded replies are upstream's: only the shipped engine is held to them.
        if let Some(expect) = read.expect.as_ref().filter(|_| engine.name() == "shipped") {
            self.tally.recorded += 1;
            let same = matches_expected(expect, reply.0, reply.1, reply.2);
            self.tally.reproduced += u64::from(same);
            record.matches_recording = Some(same);
        }
    }

    /// Checks each line the reply claims against its body, and counts deliveries and repeats.
    fn check_claims<E: Engine>(
        &mut self,
        engine: &E,
        reply: &Reply,
        bytes: &[u8],
        record: &mut ReadRecord,
    ) {
        let view = View::scan(0, bytes.len() as u64, bytes.to_vec(), usize::MAX);
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
                engine.style().line_prefix(&text, engine.limits())
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
            if !shown.partial {
                self.delivered_line((shown.offset, shown.end), reply.kind, &expected, record);
            }
        }
        if reply.counts.forgotten_ranges > 0 {
            self.forgot = true;
        }
        self.tally.claim_errors += u64::from(!record.problems.is_empty());
    }

    /// One complete line delivered; a condensed read delivering it again is a repeat.
    fn delivered_line(
        &mut self,
        key: (u64, u64),
        kind: crate::api::ReadKind,
        text: &str,
        record: &mut ReadRecord,
    ) {
        self.tally.lines_delivered += 1;
        if !self.delivered.insert(key) && kind != crate::api::ReadKind::Raw && !self.forgot {
            record.repeated += 1;
            self.tally.lines_repeated += 1;
            self.tally.chars_repeated += utf16_len(text) as u64 + 1;
        }
    }

    /// Lines the engine believes shown that were never delivered are lost, until a later
    /// reply of their generation carries them.
    fn count_losses(&mut self, believed: Vec<(u64, u64)>) {
        for (start, end) in believed {
            if !self.delivered.contains(&(start, end)) {
                self.lost.insert((self.generation, start, end));
            }
        }
        let (generation, delivered) = (self.generation, &self.delivered);
        self.lost
            .retain(|&(g, s, e)| g != generation || !delivered.contains(&(s, e)));
    }

    /// The tally once the trace has ended with the log at `bytes`.
    fn finish(mut self, bytes: &[u8]) -> Tally {
        self.tally.lines_lost = self.lost.len() as u64;
        let final_view = View::scan(0, bytes.len() as u64, bytes.to_vec(), usize::MAX);
        let continues = self.continues(bytes);
        self.tally.lines_never_shown = final_view
            .extents()
            .filter(|k| !continues || !self.delivered.contains(k))
            .count() as u64;
        self.tally
    }
}

/// Replays `trace` through `engine`.
pub fn replay<E: Engine>(engine: &E, trace: &Trace) -> Replay {
    let mut log = MemoryLog::new();
    let mut state = E::State::default();
    let mut running = true;
    let mut audit = Audit::default();
    let mut reads = Vec::new();
    for (index, event) in trace.events.iter().enumerate() {
        event.apply_to(&mut log);
        audit.files += u64::from(event.changes_file());
        match event {
            Event::Exit(_) => running = false,
            Event::OtherTool(_) => audit.tally.not_replayed += 1,
            Event::Read(read) => {
                let request = read.request(running, trace.header.running_gate);
                reads.push(read_once(
                    engine, trace, &mut state, &log, &mut audit, index, read, request,
                ));
            }
            Event::Append(_)
            | Event::Truncate(_)
            | Event::Rewrite(_)
            | Event::Replace(_)
            | Event::Remove(_) => {}
        }
    }
    Replay {
        engine: engine.name().to_owned(),
        reads,
        tally: audit.finish(log.bytes()),
        audited: true,
    }
}

/// One read of the replay: the engine's reply, audited.
#[allow(clippy::too_many_arguments)]
fn read_once<E: Engine>(
    engine: &E,
    trace: &Trace,
    state: &mut E::State,
    log: &MemoryLog,
    audit: &mut Audit,
    index: usize,
    read: &crate::trace::Read,
    request: crate::api::Request,
) -> ReadRecord {
    let job = Job {
        id: &trace.header.job_id,
        path: &trace.header.log_path,
    };
    audit.tally.reads += 1;
    let outcome = engine.read(state, job, &log.source(), &request);
    // A read that looked at the log (not a refusal, not a gated read) is where the audit's
    // own notion of a generation advances.
    if matches!(&outcome, Ok(r) if r.kind != crate::api::ReadKind::Gated) {
        audit.looked_at(log.bytes());
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
            audit.compare(engine, read, &mut record, (&rejected.0, None, true));
            record.text = rejected.0;
            return record;
        }
    };
    audit.tally.chars_delivered += utf16_len(&reply.text) as u64;
    let details = Some(&reply.details);
    audit.compare(
        engine,
        read,
        &mut record,
        (&reply.text, details, reply.is_error),
    );
    audit.check_claims(engine, &reply, log.bytes(), &mut record);
    audit.count_losses(engine.believed_shown(state, job, &log.source()));
    record.text = reply.text.clone();
    record.reply = Some(reply);
    record
}
