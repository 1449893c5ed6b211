//! Replaying a trace through an engine, every reply judged by the one judge
//! ([`crate::checker::judge`]) from its text: the audit tallies what the judge says was delivered,
//! delivered again and hidden. [`Audit`] knows nothing of engines, so a replay of an engine in
//! another process (the CLI's `cmd:` engines) is audited by the same code.

use crate::formats::trace::{Event, Trace};
use crate::interface::api::{Engine, Job, Reply};
use crate::source::MemoryLog;
use crate::upstream::details::Details;
use crate::upstream::js::utf16_len;
use serde::Serialize;
use std::collections::HashSet;

/// One read of the replay.
#[derive(Clone, Debug, Serialize)]
pub struct ReadRecord {
    /// Index of the read's event in the trace.
    pub event: usize,
    /// The read's request.
    pub request: crate::interface::api::Request,
    /// The reply, or the refusal's text.
    pub text: String,
    /// The engine's reply (`None` when the read was refused).
    #[serde(skip)]
    pub reply: Option<Reply>,
    /// Whether the reply equals the recorded one (`None`: nothing recorded).
    pub matches_recording: Option<bool>,
    /// Complete lines this reply delivered that were delivered before in this generation.
    pub repeated: u64,
    /// What the judge found wrong with this reply.
    pub anomalies: Vec<crate::checker::judge::Anomaly>,
    /// What went wrong around the reply (an engine in another process that failed).
    pub problems: Vec<String>,
}

/// What a replay of one trace through one engine came to.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Tally {
    /// Reads replayed.
    pub reads: u64,
    /// UTF-16 units of every reply text.
    pub chars_delivered: u64,
    /// Complete content lines delivered (each delivery counted).
    pub lines_delivered: u64,
    /// Deliveries by condensed reads of a line already delivered in its generation.
    pub lines_repeated: u64,
    /// UTF-16 units of the repeated lines.
    pub chars_repeated: u64,
    /// Lines a reply hid (its window held them, never delivered, and it carried none of them
    /// nor said the budget left them out) that no later reply of their generation carried.
    pub lines_lost: u64,
    /// Content lines of the final log never delivered.
    pub lines_never_shown: u64,
    /// Reads with a recorded reply, and how many the engine reproduced.
    pub recorded: u64,
    /// Of `recorded`, the replies the engine reproduced byte for byte.
    pub reproduced: u64,
    /// Replies with an honest-counts or resets-seen anomaly (a number, a reset, a line or a
    /// claim untrue).
    pub dishonest_replies: u64,
    /// Condensed reads that did not carry the newest window line never delivered.
    pub stalled_reads: u64,
    /// Condensed reads whose body was over the budget.
    pub over_budget_reads: u64,
    /// Events kept in the trace but not replayed (other tools).
    pub not_replayed: u64,
}

impl Tally {
    /// Whether the exact engine's contract held: the judge found nothing wrong with any reply.
    pub fn contract_held(&self) -> bool {
        self.lines_lost == 0
            && self.lines_repeated == 0
            && self.dishonest_replies == 0
            && self.stalled_reads == 0
            && self.over_budget_reads == 0
    }

    /// Whether every recorded reply was reproduced.
    pub fn faithful(&self) -> bool {
        self.recorded == self.reproduced
    }

    /// Adds `other`'s counts to these (the tally of several traces).
    pub fn add(&mut self, other: &Tally) {
        let pairs = [
            (&mut self.reads, other.reads),
            (&mut self.chars_delivered, other.chars_delivered),
            (&mut self.lines_delivered, other.lines_delivered),
            (&mut self.lines_repeated, other.lines_repeated),
            (&mut self.chars_repeated, other.chars_repeated),
            (&mut self.lines_lost, other.lines_lost),
            (&mut self.lines_never_shown, other.lines_never_shown),
            (&mut self.recorded, other.recorded),
            (&mut self.reproduced, other.reproduced),
            (&mut self.dishonest_replies, other.dishonest_replies),
            (&mut self.stalled_reads, other.stalled_reads),
            (&mut self.over_budget_reads, other.over_budget_reads),
            (&mut self.not_replayed, other.not_replayed),
        ];
        for (mine, theirs) in pairs {
            *mine += theirs;
        }
    }
}

/// A replay: the reads and the tally.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// The engine's name.
    pub engine: String,
    /// Every read, in trace order.
    pub reads: Vec<ReadRecord>,
    /// What the reads came to.
    pub tally: Tally,
    /// Whether the reads were judged (false when none could be: the trace's limits are not
    /// the engine's).
    pub audited: bool,
}

/// Whether a reply equals upstream's recorded one: the same text, the same `details` with
/// the same key order, and error or not. `details: None` is a refusal (upstream throws: an
/// error with a message and no details).
pub(crate) fn matches_expected(
    expect: &crate::formats::trace::Expected,
    text: &str,
    details: Option<&Details>,
    is_error: bool,
) -> bool {
    let details_match = match (&expect.details, details) {
        (None, None) => true,
        // As JSON text: the same keys in the same order, each value the same.
        (Some(e), Some(d)) => serde_json::to_string(e).ok() == serde_json::to_string(d).ok(),
        // A recording without details (older imports) is compared on its text alone.
        (None, Some(_)) => true,
        (Some(_), None) => false,
    };
    expect.text == text && details_match && expect.is_error == is_error
}

type LineKey = (u64, u64, u64);

/// What the audit is told about one reply.
#[derive(Clone, Copy, Debug)]
pub struct Observed<'a> {
    /// The reply's text (for a refusal, its message).
    pub text: &'a str,
    /// Upstream's `isError`, or a refusal.
    pub is_error: bool,
    /// The byte ranges the engine says the text carries, when it says.
    pub shown: Option<&'a [(u64, u64)]>,
    /// What the reply says beside its text, when the reader reports it.
    pub fields: Option<crate::checker::judge::Fields<'a>>,
}

/// The audit of one replay: the one judge over every reply, and the tally of what the agent
/// was delivered, delivered again, and never delivered. It knows nothing of engines: the
/// in-process replay and the replay of an engine in another process feed it the same way.
pub struct Audit {
    rules: crate::checker::judge::Rules,
    judge: crate::checker::judge::Judge,
    /// Which file sits at the path: bumped whenever another file (or none) comes to sit there.
    files: u64,
    /// Bumped whenever the judge finds a new generation.
    generation: u64,
    /// Lines a reply hid, keyed by generation, until a later reply of theirs carries them.
    hidden: HashSet<LineKey>,
    tally: Tally,
}

impl Audit {
    /// An audit holding replies to `rules`.
    pub fn new(rules: crate::checker::judge::Rules) -> Self {
        Audit {
            rules,
            judge: crate::checker::judge::Judge::default(),
            files: 0,
            generation: 0,
            hidden: HashSet::new(),
            tally: Tally::default(),
        }
    }

    /// A trace event happened: it may change which file sits at the path.
    pub fn event(&mut self, event: &Event) {
        self.files += u64::from(event.changes_file());
        if matches!(event, Event::OtherTool(_)) {
            self.tally.not_replayed += 1;
        }
    }

    /// Judges one reply to `request` on the log `log`, fills `record`'s verdict, and counts.
    /// A refusal, an error and a read the running-job gate held back are counted, not judged.
    pub fn reply(
        &mut self,
        log: &[u8],
        request: &crate::interface::api::Request,
        reply: Observed<'_>,
        record: &mut ReadRecord,
    ) {
        self.tally.reads += 1;
        self.tally.chars_delivered += utf16_len(reply.text) as u64;
        let gated = request.running && !request.peek;
        if reply.is_error || gated {
            return;
        }
        let verdict = self.judge.judge(
            &self.rules,
            &crate::checker::judge::ReadInput {
                log,
                file: self.files,
                request,
                text: reply.text,
                shown: reply.shown,
                fields: reply.fields,
            },
        );
        self.count(log, &verdict);
        record.repeated = verdict.repeated.len() as u64;
        record.anomalies = verdict.anomalies;
    }

    /// Adds one verdict to the tally.
    fn count(&mut self, log: &[u8], v: &crate::checker::judge::Verdict) {
        self.generation += u64::from(v.new_generation);
        let t = &mut self.tally;
        t.lines_delivered += v.delivered.len() as u64;
        t.lines_repeated += v.repeated.len() as u64;
        t.chars_repeated += v
            .repeated
            .iter()
            .map(|&(s, e)| utf16_len(&String::from_utf8_lossy(&log[s as usize..e as usize])) as u64)
            .sum::<u64>();
        let f = v.flags;
        t.dishonest_replies += u64::from(f.dishonest || f.wrong_reset);
        t.stalled_reads += u64::from(f.stalled);
        t.over_budget_reads += u64::from(f.over_budget);
        let g = self.generation;
        self.hidden.extend(v.hidden.iter().map(|&(s, e)| (g, s, e)));
        for &(s, e) in &v.delivered {
            self.hidden.remove(&(g, s, e));
        }
    }

    /// Compares a reply with the trace's recorded one.
    pub fn compare(
        &mut self,
        expect: &crate::formats::trace::Expected,
        reply: (&str, Option<&Details>, bool),
        record: &mut ReadRecord,
    ) {
        self.tally.recorded += 1;
        let same = matches_expected(expect, reply.0, reply.1, reply.2);
        self.tally.reproduced += u64::from(same);
        record.matches_recording = Some(same);
    }

    /// The tally once the trace has ended with the log at `bytes`.
    pub fn finish(mut self, bytes: &[u8]) -> Tally {
        self.tally.lines_lost = self.hidden.len() as u64;
        let continues = self.judge.continues(bytes, self.files);
        self.tally.lines_never_shown = crate::checker::judge::content_lines_of(bytes)
            .into_iter()
            .filter(|k| !continues || self.judge.delivered().binary_search(k).is_err())
            .count() as u64;
        self.tally
    }
}

impl ReadRecord {
    /// The record of a read that was not sent, and why.
    pub fn not_replayed(event: usize, request: crate::interface::api::Request, why: &str) -> Self {
        ReadRecord {
            text: format!("(not replayed: {why})"),
            ..ReadRecord::new(event, request)
        }
    }

    /// The record of the read at trace event `event`, before its reply.
    pub fn new(event: usize, request: crate::interface::api::Request) -> Self {
        ReadRecord {
            event,
            request,
            text: String::new(),
            reply: None,
            matches_recording: None,
            repeated: 0,
            anomalies: Vec::new(),
            problems: Vec::new(),
        }
    }
}

/// The rules an engine is judged by: its text format, its limits, its line window, whether it
/// drains, and its largest view.
pub fn rules_of<E: Engine>(engine: &E) -> crate::checker::judge::Rules {
    let mut rules =
        crate::checker::judge::Rules::new(engine.text_format(), engine.limits().clone());
    rules.line_window = engine.line_window();
    rules.drain = engine.drains();
    rules.largest_view = engine.largest_view();
    if let Some(plain) = engine.plain() {
        rules.plain = plain.clone();
    }
    rules
}

/// A replay of `trace` through the engine named `engine` that sent no read, each reported as
/// not replayed with `why` (the trace's limits are another reader's, which the engine cannot
/// keep).
pub fn not_replayed(engine: &str, trace: &Trace, why: &str) -> Replay {
    let mut running = true;
    let mut reads = Vec::new();
    for (index, event) in trace.events.iter().enumerate() {
        match event {
            Event::Exit(_) => running = false,
            Event::Read(read) => {
                let request = read.request(running, trace.header.running_gate);
                reads.push(ReadRecord::not_replayed(index, request, why));
            }
            _ => {}
        }
    }
    Replay {
        engine: engine.to_owned(),
        reads,
        tally: Tally::default(),
        audited: false,
    }
}

/// Replays `trace` through `engine`, every reply judged by the one judge.
pub fn replay<E: Engine>(engine: &E, trace: &Trace) -> Replay {
    let mut log = MemoryLog::new();
    let mut state = E::State::default();
    let mut running = true;
    let mut audit = Audit::new(rules_of(engine));
    let mut reads = Vec::new();
    for (index, event) in trace.events.iter().enumerate() {
        event.apply_to(&mut log);
        audit.event(event);
        match event {
            Event::Exit(_) => running = false,
            Event::Read(read) => {
                let request = read.request(running, trace.header.running_gate);
                let mut record = ReadRecord::new(index, request);
                read_once(
                    engine,
                    trace,
                    &mut state,
                    &log,
                    &mut audit,
                    read,
                    &mut record,
                );
                reads.push(record);
            }
            _ => {}
        }
    }
    Replay {
        engine: engine.name().to_owned(),
        reads,
        tally: audit.finish(log.bytes()),
        audited: true,
    }
}

/// One read of the replay: the engine's reply, compared with the recording and judged.
fn read_once<E: Engine>(
    engine: &E,
    trace: &Trace,
    state: &mut E::State,
    log: &MemoryLog,
    audit: &mut Audit,
    read: &crate::formats::trace::Read,
    record: &mut ReadRecord,
) {
    let job = Job {
        id: &trace.header.job_id,
        path: &trace.header.log_path,
    };
    let outcome = engine.read(state, job, &log.source(), &record.request);
    // Recorded replies are upstream's: an engine is held to them when it writes upstream's
    // text format (the shipped engine does; the exact engine writes its own). A trace imported
    // from another harness records that harness's replies, which no engine here writes.
    let upstream = rules_of(engine).text_format == crate::upstream::condense::TextFormat::Upstream
        && trace.header.harness.is_none();
    let expect = read.expect.as_ref().filter(|_| upstream);
    let reply = match outcome {
        Ok(reply) => reply,
        Err(rejected) => {
            if let Some(expect) = expect {
                audit.compare(expect, (&rejected.0, None, true), record);
            }
            let observed = Observed {
                text: &rejected.0,
                is_error: true,
                shown: None,
                fields: None,
            };
            audit.reply(log.bytes(), &record.request.clone(), observed, record);
            record.text = rejected.0;
            return;
        }
    };
    if let Some(expect) = expect {
        audit.compare(
            expect,
            (&reply.text, Some(&reply.details), reply.is_error),
            record,
        );
    }
    let shown = reply.shown_ranges();
    let observed = Observed {
        text: &reply.text,
        // A gated read is judged by the request; an error reply carries no lines.
        is_error: reply.is_error || reply.kind == crate::interface::api::ReadKind::Error,
        shown: Some(&shown),
        fields: Some(crate::checker::judge::Fields::of_reply(&reply)),
    };
    audit.reply(log.bytes(), &record.request.clone(), observed, record);
    record.text = reply.text.clone();
    record.reply = Some(reply);
}
