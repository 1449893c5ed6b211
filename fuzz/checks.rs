//! What each fuzz target checks, as plain functions: the targets in `fuzz_targets/` call them on
//! libFuzzer's inputs, and `tests/tests/fuzz_regressions.rs` (in the normal suite, which CI
//! runs) calls them on every input a fuzzer ever crashed on, kept under `fuzz/regressions/`.
//! One file, included by both with `#[path]`, so that the two cannot check different things.

// Each includer calls some of these.
#![allow(dead_code)]

use bgtail::condense::TextFormat;
use bgtail::judge::{Fields, Judge, ReadInput, Rules};
use bgtail::pi_session::{recorded_read, PiSession};
use bgtail::protocol::{FromEngine as ProtocolReply, ToEngine as ProtocolRequest};
use bgtail::source::{MemoryLog, SliceLog};
use bgtail::state_file::decode;
use bgtail::trace::Trace;
use bgtail::{Engine, ExactEngine, Job, Limits, Reply, Request, ShippedEngine};
use std::path::Path;

const JOB: Job<'static> = Job {
    id: "job-1-1",
    path: "/jobs/job-1-1.log",
};

/// The trace parser: no panic; an error names a line; an accepted trace round-trips.
pub fn trace_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Trace::parse("fuzz.jsonl", text) {
        Ok(trace) => {
            let again = Trace::parse("again.jsonl", &trace.to_jsonl())
                .expect("a trace bgtail wrote parses");
            assert_eq!(again, trace, "a trace round-trips");
        }
        Err(e) => assert!(e.line >= 1, "{e}"),
    }
}

/// The pi-session parser, and what `bgtail import` asks of a parsed session: no panic.
pub fn pi_session_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(session) = PiSession::parse("fuzz.jsonl", text) else {
        return;
    };
    for call in session.calls_to("bgtail") {
        if let Some(result) = &call.result {
            let _ = recorded_read(&result.text, &result.details);
        }
        let id = call
            .arguments
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or("");
        let _ = session.exit_before(id, call.line);
    }
}

/// The protocol's messages: no panic; accepted requests and replies round-trip.
pub fn protocol_message(data: &[u8]) {
    if let Ok(request) = serde_json::from_slice::<ProtocolRequest>(data) {
        let text = serde_json::to_string(&request).expect("a request serialises");
        let again: ProtocolRequest = serde_json::from_str(&text).expect("a written request parses");
        assert_eq!(again, request);
    }
    if let Ok(reply) = serde_json::from_slice::<ProtocolReply>(data) {
        let text = serde_json::to_string(&reply).expect("a reply serialises");
        let again: ProtocolReply = serde_json::from_str(&text).expect("a written reply parses");
        assert_eq!(again, reply);
    }
}

const SMALL_LOG: &[u8] = b"line-1\nline-2\n\x1b[31mred\x1b[0m\nline-4\nline-4\nline-4\npartial";

/// The state-file loader: no panic, and none in either engine reading with whatever state a
/// file that parses hands it.
pub fn state_file_decode(data: &[u8]) {
    fn read_with<E: Engine>(engine: &E, bytes: &[u8]) {
        let Ok(mut state) = decode(engine, Path::new("fuzz.state"), bytes) else {
            return;
        };
        for (len, lines) in [(SMALL_LOG.len(), 2), (20, 40), (SMALL_LOG.len(), 40)] {
            let log = SliceLog {
                bytes: &SMALL_LOG[..len],
                file_number: 0,
                missing: false,
            };
            let _ = engine.read(&mut state, JOB, &log, &Request::lines(lines));
        }
    }
    read_with(&ExactEngine::default(), data);
    read_with(&ShippedEngine::default(), data);
}

/// Small pieces and marks, so that short inputs reach the exact engine's line index.
fn small_limits() -> Limits {
    let mut limits = Limits::default();
    limits.tail_chunk = 8;
    limits.count_views_up_to = 0;
    limits.mark_spacing = 32;
    limits.text_budget = 200;
    limits.line_cap = 20;
    limits.view_default = 4096;
    limits
}

/// What every reply must be, whatever the engine: its body range inside its text, and every
/// line it claims inside the log, in order.
fn well_formed(reply: &Reply, log: &[u8]) {
    assert!(reply.body.start <= reply.body.end && reply.body.end <= reply.text.len());
    assert!(reply.text.is_char_boundary(reply.body.start));
    assert!(reply.text.is_char_boundary(reply.body.end));
    let mut last = 0;
    for s in &reply.shown {
        assert!(
            s.offset <= s.end && s.end <= log.len() as u64,
            "{s:?} in {}",
            log.len()
        );
        assert!(s.offset >= last, "claims in log order");
        last = s.offset;
    }
}

/// The one judge over the exact engine's replies, while the sequence stays where the contract
/// promises everything: the log within the head probe (so that every rewrite is detectable),
/// and a finished job never running again.
struct Judged {
    judge: Judge,
    rules: Rules,
    /// Off for good once the sequence leaves the contract's ground.
    on: bool,
    finished: bool,
}

impl Judged {
    fn read(&mut self, log: &MemoryLog, request: &Request, reply: &Reply) {
        let source = log.source();
        self.finished |= !request.running;
        if log.bytes().len() as u64 > self.rules.limits.head_probe_bytes
            || (self.finished && request.running)
        {
            self.on = false;
        }
        let gated = request.running && !request.peek;
        if !self.on || gated || reply.is_error {
            return;
        }
        let shown = reply.shown_ranges();
        let verdict = self.judge.judge(
            &self.rules,
            &ReadInput {
                log: log.bytes(),
                file: source.file_number,
                request,
                text: &reply.text,
                shown: Some(&shown),
                fields: Some(Fields::of_reply(reply)),
            },
        );
        assert!(
            verdict.anomalies.is_empty(),
            "{}\nrequest {request:?}\nreply:\n{}\nlog: {:?}",
            verdict.report(),
            reply.text,
            String::from_utf8_lossy(log.bytes())
        );
    }
}

/// Both engines through a byte-coded sequence of log changes and reads: no panic, every reply
/// [`well_formed`], and every exact reply without an anomaly by the one judge ([`Judged`]).
/// Each operation is a byte: its low 3 bits the kind, the rest how many following bytes are
/// its argument.
pub fn engines(data: &[u8]) {
    let (exact, shipped) = (
        ExactEngine::new(small_limits()),
        ShippedEngine::new(small_limits()),
    );
    let (mut es, mut ss) = Default::default();
    let mut judged = Judged {
        judge: Judge::default(),
        rules: Rules::new(TextFormat::Exact, small_limits()),
        on: true,
        finished: false,
    };
    let mut log = MemoryLog::new();
    let mut rest = data;
    while let Some((&op, tail)) = rest.split_first() {
        let n = usize::from(op >> 3).min(tail.len());
        let (arg, tail) = tail.split_at(n);
        rest = tail;
        match op & 7 {
            0 | 1 => log.append(arg),
            2 => log.truncate(arg.first().map_or(0, |&b| usize::from(b))),
            3 => log.rewrite(arg),
            4 => log.replace(arg),
            5 => log.remove(),
            _ => {
                let byte = |i: usize| arg.get(i).copied().unwrap_or(0);
                let request = Request {
                    lines: (byte(0) != 255).then(|| f64::from(byte(0)) / 4.0 - 1.0),
                    raw: byte(1) & 1 == 1,
                    bytes: (byte(2) != 0)
                        .then(|| f64::from(u16::from_le_bytes([byte(2), byte(3)]))),
                    peek: byte(1) & 2 == 2,
                    running: byte(1) & 4 == 4,
                    elapsed_secs: None,
                };
                if let Ok(reply) = exact.read(&mut es, JOB, &log.source(), &request) {
                    well_formed(&reply, log.bytes());
                    judged.read(&log, &request, &reply);
                }
                if let Ok(reply) = shipped.read(&mut ss, JOB, &log.source(), &request) {
                    well_formed(&reply, log.bytes());
                }
            }
        }
    }
}
