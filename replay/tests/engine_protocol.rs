//! `bgtail replay --engine "cmd:…"`: the engine-under-test protocol's harness against engines
//! that crash, hang, write garbage, answer twice or answer the wrong request (scripts in
//! tests/engines/), and against the in-crate engines served over the protocol.

use crate::common::{bgtail, pi_bgrun_engine, repo};

use std::process::{Command, Output};

/// `bgtail replay --quiet` with a 2-second timeout for the engine that hangs (so that the test
/// is quick) and the default 10 for every other (so that a loaded machine does not fail it).
fn replay(engine: &str, traces: &[&str]) -> Output {
    let timeout = if engine.ends_with(" hang") { "2" } else { "10" };
    Command::new(env!("CARGO_BIN_EXE_bgtail"))
        .current_dir(repo())
        .args([
            "replay",
            "--quiet",
            "--timeout",
            timeout,
            "--engine",
            engine,
        ])
        .args(traces)
        .output()
        .unwrap()
}

fn misbehaving(mode: &str) -> String {
    format!("cmd:node tests/engines/misbehaving.mjs {mode}")
}

const GAP: &str = "traces/issue-28/gap-13-lines.jsonl";

/// One trace that crashes the engine costs that trace only: the engine starts again, the
/// other traces are judged, and the run ends non-zero naming the one that failed.
#[test]
fn a_crash_on_one_trace_is_named_and_the_others_are_judged() {
    let crash = misbehaving("crash-on=contract-1790000100-1");
    let traces = [
        "traces/contract/coverage-closed-at-an-unshown-line.jsonl",
        "traces/contract/line-grows-after-it-was-shown.jsonl",
        "traces/contract/partial-line-shown-then-completed-with-coverage.jsonl",
    ];
    let out = bgtail()
        .args([
            "replay",
            "--quiet",
            "--require",
            "contract",
            "--engine",
            &crash,
        ])
        .args(traces)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{stdout}"))
            .to_owned()
    };
    // The others were replayed through a fresh engine and judged (their "ok" is untrue).
    for judged in [
        "line-grows-after-it-was-shown",
        "partial-line-shown-then-completed-with-cove",
    ] {
        let row = row(judged);
        assert!(!row.contains("ENGINE FAILED"), "{stdout}");
        // trace, engine, reads: the trace's name holds no space.
        let reads: u32 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(reads >= 4, "{row}");
    }
    assert!(
        row("coverage-closed-at-an-unshown-line").contains(
            "ENGINE FAILED: coverage-closed-at-an-unshown-line: event 2: the engine exited \
             (exit status: 3) before answering read (msg 1)"
        ),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "bgtail replay: 0 of 3 traces passed; failing: line-grows-after-it-was-shown, \
             partial-line-shown-then-completed-with-coverage, coverage-closed-at-an-unshown-line"
        ),
        "{stderr}"
    );
}

#[test]
fn each_misbehaviour_is_a_named_harness_error_not_a_hang() {
    for (mode, says) in [
        (
            "crash",
            "the engine exited (exit status: 3) before answering read (msg 1)",
        ),
        (
            "hang",
            "the engine did not answer read (msg 1) within 2.0 s (killed)",
        ),
        (
            "malformed",
            "the engine's answer to read (msg 1) is not a bgtail-eut reply",
        ),
        (
            "duplicate",
            "the engine wrote a second reply after answering read (msg 1)",
        ),
        (
            "wrong-id",
            "the engine answered msg 101 while read (msg 1) was awaited",
        ),
        ("version", "handshake failed: the engine chose version 2"),
    ] {
        let started = std::time::Instant::now();
        let out = replay(&misbehaving(mode), &[GAP]);
        // A failure after the handshake is the trace's: named in its row and in the
        // summary, exit 1; an engine that cannot shake hands ends the run, exit 2.
        let stderr = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if mode == "version" {
            assert_eq!(out.status.code(), Some(2), "{mode}: {stderr}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{mode}: {stderr}");
            assert!(
                stderr.contains("0 of 1 traces passed; failing: issue-28-gap-13-lines"),
                "{mode}: {stderr}"
            );
        }
        assert!(
            stderr.contains(says),
            "{mode}: wanted {says:?} in {stderr:?}"
        );
        assert!(
            stderr.contains("gap-13-lines") || mode == "version",
            "{mode}: the trace is named: {stderr}"
        );
        assert!(started.elapsed().as_secs() < 20, "{mode} took too long");
    }
}

#[test]
fn an_engines_stderr_is_passed_through_prefixed() {
    let out = replay(&misbehaving("noisy"), &[GAP]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[engine] reading repro-1790000000-28"),
        "{stderr}"
    );
    // It answers "ok" to everything: no harness error, but the judge finds a line the log
    // does not hold, so the replay fails (1), not the harness (2).
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_bgtail"))
        .current_dir(repo())
        .args(["replay", "--engine", &misbehaving("noisy")])
        .arg(GAP)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("!! honest counts: UntrueLine") && stdout.contains("the reply said \"ok\""),
        "{stdout}"
    );
}

#[test]
fn a_command_that_cannot_start_or_an_empty_one_is_refused() {
    let out = replay("cmd:", &[GAP]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`cmd:` needs a command"));
    let out = replay("cmd:/nonexistent/engine", &[GAP]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the engine exited"));
}

/// The protocol's own cross-check: the shipped engine served over it reproduces every
/// recorded reply of the corpus, as it does in process.
#[test]
fn the_shipped_engine_served_over_the_protocol_reproduces_the_corpus() {
    let engine = format!(
        "cmd:{} serve --engine shipped",
        env!("CARGO_BIN_EXE_bgtail")
    );
    let out = replay(
        &engine,
        &[
            "--require",
            "recordings",
            "traces/imported",
            "traces/upstream-diff",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("10/10") && stdout.contains("7/7"),
        "{stdout}"
    );
}

/// pi-bgrun's own code through its adapter reproduces every recorded reply of the imported
/// sessions (34) and of the pinned upstream-diff traces (13).
#[test]
fn pi_bgrun_through_its_adapter_reproduces_the_recorded_replies() {
    let engine = pi_bgrun_engine();
    let out = Command::new(env!("CARGO_BIN_EXE_bgtail"))
        .current_dir(repo())
        .args([
            "replay",
            "--json",
            "--require",
            "recordings",
            "--engine",
            &engine,
        ])
        .args(["traces/imported", "traces/upstream-diff"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (recorded, reproduced) =
        doc["replays"]
            .as_array()
            .unwrap()
            .iter()
            .fold((0, 0), |(r, p), t| {
                (
                    r + t["tally"]["recorded"].as_u64().unwrap(),
                    p + t["tally"]["reproduced"].as_u64().unwrap(),
                )
            });
    assert_eq!((recorded, reproduced), (47, 47));
}

/// The page's example session is what `bgtail serve --engine shipped` really says: each request
/// of the page is sent (its folder moved to a temporary one; `line-4` appended after the first
/// read, as the page says), and each reply must be the page's.
#[test]
fn the_protocol_pages_example_session_is_true() {
    use std::io::{BufRead, BufReader, Write};
    let page = std::fs::read_to_string(repo().join("docs/engine-protocol.md")).unwrap();
    let session = page
        .split("```text\n")
        .map(|b| b.split("\n```").next().unwrap())
        .find(|b| b.starts_with("→ "))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().display().to_string();
    let log = dir.path().join("build-1-1.log");
    std::fs::write(&log, "line-1\nline-2\nline-3\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgtail"))
        .args(["serve", "--engine", "shipped"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut replies = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut reads = 0;
    for line in session.lines() {
        let text = line[line.find(' ').unwrap() + 1..].replace("/tmp/w", &folder);
        if line.starts_with('→') {
            writeln!(stdin, "{text}").unwrap();
            continue;
        }
        let got: serde_json::Value =
            serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
        let want: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(got, want);
        if want["type"] == "read_ok" {
            reads += 1;
            if reads == 1 {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(&log)
                    .unwrap()
                    .write_all(b"line-4\n")
                    .unwrap();
            }
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert_eq!(reads, 3);
}

/// An engine that never flushes its stdout (Python's print to a pipe) times out at `init`,
/// and the error says what to do.
#[test]
fn an_engine_that_does_not_flush_is_told_so_at_init() {
    let engine = "cmd:python3 -c 'import sys, json\nfor line in sys.stdin:\n    \
                  print(json.dumps({\"type\": \"init_ok\", \"in_reply_to\": 0, \"version\": 1, \
                  \"engine\": {\"name\": \"unflushed\", \"version\": \"1\"}, \
                  \"capabilities\": {}}))'";
    let out = bgtail()
        .args(["replay", "--timeout", "1", "--engine", engine, GAP])
        // Python buffers a pipe unless told not to.
        .env_remove("PYTHONUNBUFFERED")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "the engine did not answer init (msg 0) within 1.0 s (killed); an engine must flush \
             its stdout after every reply (Python: `print(..., flush=True)` or \
             `sys.stdout.flush()`)"
        ),
        "{stderr}"
    );
}

/// A plain reader's declaration is held to its schema at the handshake: a misspelled key is
/// named with the one meant, a pattern that does not compile names its field, and a `plain`
/// object under another format is refused.
#[test]
fn a_plain_declaration_that_is_wrong_fails_the_handshake_naming_the_field() {
    for (extra, says) in [
        (
            r#""text_format": "plain-1", "plain": {"blanks": "hide"}"#,
            "unknown field `blanks`",
        ),
        (
            r#""text_format": "plain-1", "plain": {"blanks": "hide"}"#,
            "did you mean `blank`?",
        ),
        (
            r#""text_format": "plain-1", "plain": {"notes": "(unclosed"}"#,
            "handshake failed: plain.notes: regex parse error",
        ),
        (
            r#""text_format": "gemini-cli-0.56", "plain": {}"#,
            "handshake failed: `plain` declares a plain reader's lines, but text_format is \"gemini-cli-0.56\"",
        ),
    ] {
        let init_ok = format!(
            r#"{{"type": "init_ok", "in_reply_to": 0, "version": 1, "engine": {{"name": "p", "version": "1"}}, "capabilities": {{}}, {extra}}}"#
        );
        let engine = format!(
            "cmd:python3 -c 'import sys\nfor line in sys.stdin:\n    print({init_ok:?}, flush=True)'"
        );
        let out = replay(&engine, &[GAP]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra}: {stderr}");
        assert!(stderr.contains(says), "{extra}: wanted {says:?} in {stderr}");
    }
}
