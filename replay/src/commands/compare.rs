//! `bgtail compare`: the differential harness. Every read of every trace goes to an engine in
//! another process (`--engine "cmd:…"`) and to the in-crate exact engine, over the same log
//! file, and the two replies must be equal: the text, `details` with its keys in order, error
//! or not, a refusal's words, and the shown byte ranges. A port of the exact engine is proven
//! equal to it by this command (docs/differential.md).

use crate::engine_arg::ServedLimits;
use crate::eut::{HarnessError, ProcessEngine};
use anyhow::{bail, Context as _};
use bgtail::generate::{trace as generated, Profile};
use bgtail::protocol::{ErrorCode, FromEngine, ReadRequest, ToEngine};
use bgtail::source::open_log;
use bgtail::trace::{Event, Trace};
use bgtail::{Engine, ExactEngine, ExactState, Job, Limits};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The engine compared with the in-crate exact engine: `cmd:COMMAND`, speaking the
    /// engine-under-test protocol (docs/engine-protocol.md).
    #[arg(long)]
    pub engine: String,
    /// The in-crate engine's limits: upstream's, or the model checker's tiny ones (pass the
    /// same to the other engine, for instance `serve.mjs --limits model`).
    #[arg(long, value_enum, default_value = "default")]
    pub limits: ServedLimits,
    /// Generated traces (`bgtail generate`'s), this many of each profile.
    #[arg(long, default_value_t = 0)]
    pub generated: u64,
    /// The first seed of the generated traces.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Which generated profiles: every one, or only the default (no big logs, no line bound).
    #[arg(long, value_enum, default_value = "all")]
    pub profiles: Profiles,
    /// Trace files or folders compared too (traces with limits of their own are skipped).
    pub paths: Vec<PathBuf>,
    /// Seconds to await each reply.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Compare the text, `is_error` and `shown` only: for an engine whose transport carries no
    /// `details` (an MCP tool's result, through `adapters/mcp/`).
    #[arg(long)]
    pub without_details: bool,
}

/// The generated profiles a comparison takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Profiles {
    /// The default profile, logs past the default view, logs past the line bound.
    All,
    /// The default profile only.
    Default,
}

/// What a comparison came to.
#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub traces: u64,
    /// Traces not compared (limits of their own), with why.
    pub skipped: Vec<String>,
    pub reads: u64,
    pub mismatching_reads: u64,
    /// The first mismatches, each naming the trace, the event and what differs.
    pub mismatches: Vec<Mismatch>,
    /// `details` left out of the comparison (`--without-details`).
    #[serde(skip)]
    pub without_details: bool,
}

/// One read whose replies differ.
#[derive(Debug, Serialize)]
pub struct Mismatch {
    pub trace: String,
    /// 1-based, as the harness's errors count events.
    pub event: usize,
    /// What differs: `text`, `details`, `details key order`, `is_error`, `shown`, `refusal`.
    pub what: String,
    pub reference: Value,
    pub other: Value,
}

/// How many mismatches a report keeps in full.
const KEPT: usize = 20;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(command) = args.engine.strip_prefix("cmd:") else {
        bail!("--engine takes cmd:COMMAND (the in-crate exact engine is the reference)");
    };
    let limits = args.limits.limits();
    let files = crate::corpus::trace_files(&args.paths)?;
    if args.generated == 0 && files.is_empty() {
        bail!("nothing to compare: pass --generated N or trace paths");
    }
    let timeout = crate::corpus::timeout(args.timeout)?;
    if args.json {
        crate::progress::silence();
    }
    let mut engine = ProcessEngine::spawn(command, timeout)?;
    crate::profile::announce(command, &engine);
    let work = scratch()?;
    let mut report = Report {
        without_details: args.without_details,
        ..Report::default()
    };
    // One trace at a time, generated or loaded when its turn comes: the big profiles' logs run
    // to megabytes, and thousands of them held at once would take gigabytes.
    let bar = crate::progress::traces(generated_count(&args) + files.len(), "compare");
    for trace in generated_traces(&args) {
        compare_trace(&mut engine, &limits, &trace, &work, &mut report)?;
        bar.inc(1);
    }
    for path in &files {
        let trace = crate::corpus::load(path)?;
        compare_trace(&mut engine, &limits, &trace, &work, &mut report)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    engine.finish()?;
    let _ = std::fs::remove_dir_all(&work);
    print(&report, args.json);
    Ok(if report.mismatching_reads == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// How many traces [`generated_traces`] makes.
fn generated_count(args: &Args) -> usize {
    let bigger = if args.profiles == Profiles::All {
        2 * args.generated.div_ceil(10)
    } else {
        0
    };
    usize::try_from(args.generated + bigger).unwrap_or(usize::MAX)
}

/// `count` traces of each profile asked for, from consecutive seeds, each made when it is
/// taken.
fn generated_traces(args: &Args) -> impl Iterator<Item = Trace> + '_ {
    let mut profiles = vec![Profile::default()];
    if args.profiles == Profiles::All {
        let mut big = Profile::default();
        big.big_log_percent = 100;
        let mut bound = Profile::default();
        bound.line_bound_percent = 100;
        profiles.extend([big, bound]);
    }
    profiles
        .into_iter()
        .enumerate()
        .flat_map(move |(k, profile)| {
            // The bigger profiles write megabytes per trace: a tenth as many, rounded up.
            let count = if k == 0 {
                args.generated
            } else {
                args.generated.div_ceil(10)
            };
            (0..count).map(move |i| generated(args.seed + i, &profile))
        })
}

fn scratch() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("bgtail-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
    Ok(dir)
}

/// One trace through both engines, each read compared. The log is one real file that both
/// read, so that they see the same bytes and the same file identity.
fn compare_trace(
    engine: &mut ProcessEngine,
    limits: &Limits,
    trace: &Trace,
    work: &Path,
    report: &mut Report,
) -> anyhow::Result<()> {
    let name = &trace.header.name;
    if trace.header.limits.as_ref().is_some_and(|l| l != limits) {
        report
            .skipped
            .push(format!("{name}: the trace's limits are its own"));
        return Ok(());
    }
    report.traces += 1;
    let reset = engine.fresh_id();
    match engine.request(ToEngine::Reset { msg_id: reset }) {
        Ok(FromEngine::ResetOk { .. }) => {}
        Ok(other) => bail!("{name}: reset answered with {other:?}"),
        Err(e) => return Err(at(name, 0, e)),
    }
    let reference = ExactEngine::new(limits.clone());
    let mut state = ExactState::default();
    let log = crate::replay_eut::log_file(work, &trace.header.job_id);
    std::fs::write(&log, b"").with_context(|| log.display().to_string())?;
    let mut running = true;
    for (index, event) in trace.events.iter().enumerate() {
        event
            .apply_to_file(&log)
            .with_context(|| format!("{name}: event {}: {}", index + 1, log.display()))?;
        match event {
            Event::Exit(_) => running = false,
            Event::Read(read) => {
                let step = Step {
                    trace,
                    log: &log,
                    read,
                    running,
                };
                let ours = reference_reply(&reference, &mut state, &step);
                let theirs = other_reply(engine, &step).map_err(|e| at(name, index, e))?;
                report.reads += 1;
                let found = differences(name, index, &ours, &theirs, !report.without_details);
                if !found.is_empty() {
                    report.mismatching_reads += 1;
                    let room = KEPT.saturating_sub(report.mismatches.len());
                    report.mismatches.extend(found.into_iter().take(room));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn at(name: &str, index: usize, e: HarnessError) -> anyhow::Error {
    anyhow::Error::new(e).context(format!("{name}: event {}", index + 1))
}

/// One read of a trace, and where its log is.
struct Step<'a> {
    trace: &'a Trace,
    log: &'a Path,
    read: &'a bgtail::trace::Read,
    running: bool,
}

impl Step<'_> {
    fn request(&self) -> bgtail::Request {
        let mut request = self
            .read
            .request(self.running, self.trace.header.running_gate);
        request.elapsed_secs = self.read.t.map(|ms| ms as f64 / 1000.0);
        request
    }
}

/// A reply as the protocol carries it: a read's, or a refusal's words.
#[derive(Debug, PartialEq)]
enum Answer {
    Read {
        text: String,
        details: serde_json::Map<String, Value>,
        is_error: bool,
        shown: Vec<(u64, u64)>,
    },
    Refused(String),
}

fn reference_reply(engine: &ExactEngine, state: &mut ExactState, step: &Step<'_>) -> Answer {
    let path = step.log.display().to_string();
    let job = Job {
        id: &step.trace.header.job_id,
        path: &path,
    };
    let log = open_log(step.log);
    match engine.read(state, job, log.as_ref(), &step.request()) {
        Ok(reply) => Answer::Read {
            shown: reply.shown_ranges(),
            text: reply.text,
            details: reply.details.into(),
            is_error: reply.is_error,
        },
        Err(rejected) => Answer::Refused(rejected.0),
    }
}

fn other_reply(engine: &mut ProcessEngine, step: &Step<'_>) -> Result<Answer, HarnessError> {
    let request = step.request();
    let msg_id = engine.fresh_id();
    let reply = engine.request(ToEngine::Read(ReadRequest {
        msg_id,
        job_id: step.trace.header.job_id.clone(),
        log_path: step.log.display().to_string(),
        lines: step.read.lines,
        raw: step.read.raw,
        bytes: step.read.bytes,
        peek: request.peek,
        running: step.running,
        now_ms: step.read.t,
    }))?;
    Ok(match reply {
        FromEngine::ReadOk(r) => Answer::Read {
            text: r.text,
            details: r.details,
            is_error: r.is_error,
            shown: r
                .shown
                .unwrap_or_default()
                .iter()
                .map(|s| (s.offset, s.end))
                .collect(),
        },
        FromEngine::Error {
            code: ErrorCode::Rejected,
            text,
            ..
        } => Answer::Refused(text),
        FromEngine::Error { code, text, .. } => {
            Answer::Refused(format!("(the engine failed: {code:?}: {text})"))
        }
        other => {
            return Err(HarnessError::Malformed {
                request: format!("read (msg {msg_id})"),
                line: format!("{other:?}"),
                why: "not a reply to a read".into(),
            })
        }
    })
}

/// What differs between the reference's answer and the other's, field by field (`details`
/// only when `with_details`).
fn differences(
    trace: &str,
    index: usize,
    ours: &Answer,
    theirs: &Answer,
    with_details: bool,
) -> Vec<Mismatch> {
    let mismatch = |what: &str, reference: Value, other: Value| Mismatch {
        trace: trace.to_owned(),
        event: index + 1,
        what: what.to_owned(),
        reference,
        other,
    };
    let (a, b) = match (ours, theirs) {
        (Answer::Refused(a), Answer::Refused(b)) if a == b => return Vec::new(),
        (
            Answer::Read {
                text,
                details,
                is_error,
                shown,
            },
            Answer::Read {
                text: t2,
                details: d2,
                is_error: e2,
                shown: s2,
            },
        ) => ((text, details, is_error, shown), (t2, d2, e2, s2)),
        _ => return vec![mismatch("refusal", answer_json(ours), answer_json(theirs))],
    };
    let mut out = Vec::new();
    if a.0 != b.0 {
        out.push(mismatch("text", a.0.as_str().into(), b.0.as_str().into()));
    }
    if !with_details {
    } else if a.1 != b.1 {
        out.push(mismatch("details", a.1.clone().into(), b.1.clone().into()));
    } else if !a.1.keys().eq(b.1.keys()) {
        let keys =
            |m: &serde_json::Map<String, Value>| Value::from(m.keys().cloned().collect::<Vec<_>>());
        out.push(mismatch("details key order", keys(a.1), keys(b.1)));
    }
    if a.2 != b.2 {
        out.push(mismatch("is_error", (*a.2).into(), (*b.2).into()));
    }
    if a.3 != b.3 {
        out.push(mismatch(
            "shown",
            serde_json::to_value(a.3).unwrap_or_default(),
            serde_json::to_value(b.3).unwrap_or_default(),
        ));
    }
    out
}

fn answer_json(answer: &Answer) -> Value {
    match answer {
        Answer::Refused(text) => serde_json::json!({ "refused": text }),
        Answer::Read { text, is_error, .. } => {
            serde_json::json!({ "text": text, "is_error": is_error })
        }
    }
}

fn print(report: &Report, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(report).expect("a report serialises")
        );
        return;
    }
    for m in &report.mismatches {
        println!("{}: event {}: {} differs", m.trace, m.event, m.what);
        println!("  exact (in-crate): {}", m.reference);
        println!("  other:            {}", m.other);
    }
    for s in &report.skipped {
        println!("skipped {s}");
    }
    println!(
        "{} traces, {} reads, {} mismatching reads",
        report.traces, report.reads, report.mismatching_reads
    );
}
