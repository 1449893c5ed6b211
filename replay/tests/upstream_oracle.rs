//! The shipped engine against pi-bgrun 0.7.1's own code, run under node as an oracle.
//!
//! Random traces (`bgtail::generate`, fixed seeds) go through `adapters/pi-bgrun/main.mjs
//! --oracle`, which fills every read's `expect` with the reply of upstream's real `bgtail`;
//! then each trace is replayed through the shipped engine twice — in memory, and through
//! `bgtail read` on a real file with a state file — and every read must match: text,
//! `details` with their key order, and error or not.
//!
//! Needs node 20 and `npm ci` at the repository's root (`cargo xtask test` does both); without them the
//! test fails and says so, it never skips. The large run is `--ignored` (docs/fidelity.md).

use crate::common::repo;

use bgtail::generate::{trace, Profile};
use bgtail::replay::replay;
use bgtail::trace::{Event, Expected, Read, Trace};
use bgtail::ShippedEngine;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn checkout() -> PathBuf {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::PI_BGRUN)
}

/// Writes `count` generated traces from `seed` on, fills them through the oracle, and returns
/// the filled traces.
fn oracle_traces(dir: &Path, seed: u64, count: u64, profile: &Profile) -> Vec<Trace> {
    let (raw, filled) = (dir.join("generated"), dir.join("filled"));
    std::fs::create_dir_all(&raw).unwrap();
    for s in seed..seed + count {
        let t = trace(s, profile);
        std::fs::write(raw.join(format!("{}.jsonl", t.header.name)), t.to_jsonl()).unwrap();
    }
    let adapter = repo().join("adapters/pi-bgrun");
    assert!(
        repo().join("node_modules/esbuild").exists(),
        "the adapters' packages are missing: run `npm ci` at the repository's root (`cargo xtask test` does)"
    );
    let out = Command::new("node")
        .arg(adapter.join("main.mjs"))
        .arg(checkout())
        .args(["--oracle", "--out"])
        .arg(&filled)
        .arg(&raw)
        .output()
        .expect("node must be on PATH (node 20): the oracle is upstream's own code under node");
    assert!(
        out.status.success(),
        "the oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut traces: Vec<Trace> = std::fs::read_dir(&filled)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            Trace::parse(&path.display().to_string(), &text).unwrap()
        })
        .collect();
    traces.sort_by(|a, b| a.header.name.cmp(&b.header.name));
    assert_eq!(traces.len() as u64, count);
    traces
}

/// One read that did not match upstream.
struct Mismatch {
    trace: String,
    event: usize,
    path: &'static str,
    expected: String,
    got: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = self
            .expected
            .chars()
            .zip(self.got.chars())
            .take_while(|(a, b)| a == b)
            .count();
        let from = at.saturating_sub(60);
        let cut = |s: &str| s.chars().skip(from).take(160).collect::<String>();
        write!(
            f,
            "{} event {} ({}), first difference at char {at}:\n  upstream: {:?}\n  shipped:  {:?}",
            self.trace,
            self.event,
            self.path,
            cut(&self.expected),
            cut(&self.got)
        )
    }
}

/// The reply as one comparable text: the text, then the details in their key order, then
/// whether it was an error (`None` details: upstream threw).
fn as_compared(text: &str, details: Option<&Value>, is_error: bool) -> String {
    let details = details.map_or("(thrown)".to_owned(), Value::to_string);
    format!("{text}\n-- details {details}\n-- error {is_error}")
}

fn expected(e: &Expected) -> String {
    as_compared(
        &e.text,
        e.details.clone().map(Value::Object).as_ref(),
        e.is_error,
    )
}

/// Replays every trace through the shipped engine in memory; returns the mismatches and the
/// number of reads compared.
fn in_memory(traces: &[Trace]) -> (Vec<Mismatch>, u64) {
    let (mut mismatches, mut reads) = (Vec::new(), 0);
    for t in traces {
        let r = replay(&ShippedEngine::default(), t);
        for rec in &r.reads {
            let Event::Read(read) = &t.events[rec.event] else {
                unreachable!("a replay's reads are the trace's read events")
            };
            let expect = read.expect.as_ref().expect("the oracle filled every read");
            reads += 1;
            if rec.matches_recording != Some(true) {
                let got = match &rec.reply {
                    Some(reply) => as_compared(
                        &reply.text,
                        Some(&Value::Object(reply.details.to_map())),
                        reply.is_error,
                    ),
                    None => as_compared(&rec.text, None, true),
                };
                mismatches.push(Mismatch {
                    trace: t.header.name.clone(),
                    event: rec.event,
                    path: "in memory",
                    expected: expected(expect),
                    got,
                });
            }
        }
    }
    (mismatches, reads)
}

/// `bgtail read --engine shipped --json` for one read event, as a comparable text with the
/// real log path written as the trace's.
fn read_through_cli(read: &Read, log: &Path, state: &Path, t: &Trace) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bgtail"));
    cmd.arg("read")
        .arg(log)
        .arg("--state")
        .arg(state)
        .arg(format!("--id={}", t.header.job_id))
        .args(["--engine", "shipped", "--json"]);
    if let Some(lines) = read.lines {
        // The command line has no `null`: it passes what JavaScript makes of one (0).
        cmd.arg(format!("--lines={}", lines.to_f64()));
    }
    if read.raw {
        cmd.arg("--raw");
    }
    if let Some(bytes) = read.bytes {
        cmd.arg(format!("--bytes={bytes}"));
    }
    let out = cmd.output().unwrap();
    let real = log.display().to_string();
    let stdout = String::from_utf8(out.stdout).expect("replies are UTF-8");
    if stdout.is_empty() {
        // A refusal: upstream throws, bgtail prints `bgtail: <message>` and exits 2.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        let message = stderr
            .trim_end()
            .strip_prefix("bgtail: ")
            .unwrap_or(&stderr);
        return as_compared(message, None, true);
    }
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let text = doc["text"]
        .as_str()
        .unwrap()
        .replace(&real, &t.header.log_path);
    let mut details = doc["details"].clone();
    if details.get("logPath").and_then(Value::as_str) == Some(real.as_str()) {
        details["logPath"] = t.header.log_path.clone().into();
    }
    as_compared(&text, Some(&details), doc["is_error"].as_bool().unwrap())
}

/// Replays every trace on real files through `bgtail read`; returns the mismatches.
fn through_cli(traces: &[Trace], dir: &Path) -> Vec<Mismatch> {
    let mut mismatches = Vec::new();
    for t in traces {
        let work = dir.join("cli").join(&t.header.name);
        std::fs::create_dir_all(&work).unwrap();
        let (log, state) = (work.join("job.log"), work.join("state.json"));
        std::fs::write(&log, b"").unwrap();
        for (index, event) in t.events.iter().enumerate() {
            event.apply_to_file(&log).unwrap();
            let Event::Read(read) = event else { continue };
            let expected = expected(read.expect.as_ref().unwrap());
            let got = read_through_cli(read, &log, &state, t);
            if got != expected {
                mismatches.push(Mismatch {
                    trace: t.header.name.clone(),
                    event: index,
                    path: "bgtail read",
                    expected,
                    got,
                });
            }
        }
    }
    mismatches
}

/// Runs the whole comparison and fails with the first mismatches, if any.
fn campaign(seed: u64, count: u64, profile: &Profile) {
    let dir = tempfile::tempdir().unwrap();
    let traces = oracle_traces(dir.path(), seed, count, profile);
    let (mut mismatches, reads) = in_memory(&traces);
    mismatches.extend(through_cli(&traces, dir.path()));
    eprintln!(
        "upstream oracle: {count} traces (seeds {seed}..{}), {reads} reads, each in memory and \
         through `bgtail read`: {} mismatching",
        seed + count,
        mismatches.len()
    );
    let shown: Vec<String> = mismatches.iter().take(8).map(|m| m.to_string()).collect();
    assert!(
        mismatches.is_empty(),
        "{} of {} reads differ from upstream:\n{}",
        mismatches.len(),
        2 * reads,
        shown.join("\n")
    );
    assert!(
        reads >= 5 * count,
        "too few reads to mean anything: {reads}"
    );
}

/// The CI-sized run: a fixed seed, a few hundred traces.
#[test]
fn shipped_engine_matches_upstreams_own_code() {
    campaign(1_000_000, 300, &Profile::default());
}

/// The large run (docs/fidelity.md): `BGTAIL_ORACLE_TRACES` traces (default 9,000, about 55,000 reads).
#[test]
#[ignore = "minutes: the large differential run against upstream's code"]
fn shipped_engine_matches_upstreams_own_code_at_scale() {
    let count = std::env::var("BGTAIL_ORACLE_TRACES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(9_000);
    let seed = std::env::var("BGTAIL_ORACLE_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut profile = Profile::default();
    // A few past the 500,000-line scan bound too: slow in both, so only in the large run.
    profile.line_bound_percent = 1;
    campaign(seed, count, &profile);
}

/// Runs the adapter in oracle mode on one trace text; returns (exit code, stderr).
fn oracle_on(checkout: &Path, trace_text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.jsonl");
    std::fs::write(&input, trace_text).unwrap();
    let out = Command::new("node")
        .arg(repo().join("adapters/pi-bgrun/main.mjs"))
        .arg(checkout)
        .args(["--oracle", "--out"])
        .arg(dir.path().join("out"))
        .arg(&input)
        .output()
        .expect("node must be on PATH");
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&input.display().to_string(), "T");
    (out.status.code(), stderr)
}

#[test]
fn the_oracle_names_the_input_and_the_place_of_bad_input() {
    let head = r#"{"bgtail_trace":1,"name":"t","source":"hand-written"}"#;
    for (text, says) in [
        (format!("{head}\n{{\"event\":\"read\"\n"), "T:2: not JSON"),
        (
            format!("{head}\n{{\"event\":\"dance\"}}\n"),
            "T:2: unknown event \"dance\"",
        ),
        (
            format!("{head}\n{{\"event\":\"append\",\"text\":\"a\",\"base64\":\"YQ==\"}}\n"),
            "T:2: give exactly one of `text` and `base64`",
        ),
        (
            r#"{"bgtail_trace":1,"name":"t","source":"hand-written","limits":{}}"#.to_owned(),
            "T:1: the trace sets its own limits",
        ),
        (
            r#"{"bgtail_trace":2,"name":"t","source":"hand-written"}"#.to_owned(),
            "T:1: trace format version 2 is not supported",
        ),
        (String::new(), "T:1: empty trace"),
    ] {
        let (code, stderr) = oracle_on(&checkout(), &text);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(says), "wanted {says:?} in {stderr:?}");
    }
    let (code, stderr) = oracle_on(Path::new("/nonexistent/pi-bgrun"), head);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("/nonexistent/pi-bgrun: not a pi-bgrun checkout (no extension/index.ts)"),
        "{stderr}"
    );
}

#[test]
fn the_oracle_refuses_a_checkout_it_cannot_run() {
    let head = r#"{"bgtail_trace":1,"name":"t","source":"hand-written"}"#;
    let trace = format!("{head}\n{{\"event\":\"read\"}}\n");
    let dir = tempfile::tempdir().unwrap();
    for (source, says) in [
        (
            "export default function (pi: any {",
            "extension/index.ts:1:",
        ),
        (
            "export const x = 1;",
            "its default export is not an extension factory",
        ),
        (
            "export default function (pi: any) {}",
            "the extension registered no bgtail tool",
        ),
    ] {
        std::fs::create_dir_all(dir.path().join("extension")).unwrap();
        std::fs::write(dir.path().join("extension/index.ts"), source).unwrap();
        let (code, stderr) = oracle_on(dir.path(), &trace);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(says), "wanted {says:?} in {stderr:?}");
    }
}
