//! The `bgtail` command line end to end, bad input included.

use crate::common::repo;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::run as bgtail;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write(dir: &Path, name: &str, body: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

const HEADER: &str = r#"{"bgtail_trace":1,"name":"t","source":"hand-written"}"#;

#[test]
fn every_subcommand_has_help() {
    for sub in [
        "verify", "check", "explore", "replay", "record", "import", "audit", "read",
    ] {
        let out = bgtail(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        assert!(text(&out.stdout).contains("Usage: bgtail"), "{sub}");
    }
}

#[test]
fn replay_prints_replies_and_a_table_and_passes_on_the_issue_28_traces() {
    let out = bgtail(&["replay", repo().join("traces/issue-28").to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("1 earlier line not shown before — log at 13 lines\nline-11"),
        "{s}"
    );
    assert!(s.contains("issue-28-gap-13-lines"));
    assert!(s
        .lines()
        .any(|l| l.starts_with("trace ") && l.contains("fidelity")));
}

#[test]
fn replay_json_is_one_document() {
    let out = bgtail(&[
        "replay",
        "--json",
        "--engine",
        "exact",
        repo()
            .join("traces/issue-28/gap-13-lines.jsonl")
            .to_str()
            .unwrap(),
    ]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["bgtail_replay"], 1);
    assert_eq!(doc["replays"][0]["engine"], "exact");
    assert_eq!(doc["replays"][0]["tally"]["lines_repeated"], 0);
}

#[test]
fn replay_rejects_bad_traces_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "malformed.jsonl",
            format!("{HEADER}\n{{\"event\":\"append\",\n").into_bytes(),
            "malformed.jsonl:2:",
        ),
        (
            "unknown.jsonl",
            format!("{HEADER}\n{{\"event\":\"explode\"}}\n").into_bytes(),
            "unknown variant `explode`",
        ),
        ("empty.jsonl", Vec::new(), "empty trace"),
        (
            "binary.jsonl",
            vec![0xff, 0xfe, 0, 1],
            "not UTF-8 at byte 0",
        ),
        (
            "newer.jsonl",
            br#"{"bgtail_trace":9,"name":"t","source":"recorded"}"#.to_vec(),
            "version 9 is not supported",
        ),
        (
            "both.jsonl",
            format!("{HEADER}\n{{\"event\":\"append\",\"text\":\"a\",\"base64\":\"YQ==\"}}\n")
                .into_bytes(),
            "exactly one of `text` and `base64`",
        ),
    ];
    for (name, body, expected) in cases {
        let p = write(dir.path(), name, &body);
        let out = bgtail(&["replay", p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{name}: {err}");
    }
    let out = bgtail(&["replay", dir.path().join("missing.jsonl").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no such file or directory"));
}

#[test]
fn read_keeps_a_bookmark_between_calls_and_survives_a_corrupt_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = write(dir.path(), "job-1-1.log", b"one\ntwo\nthree\n");
    let state = dir.path().join("state.json");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "read",
            log.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
            "--lines",
            "2",
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |a: Vec<String>| {
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        bgtail(&refs)
    };
    let first = run(args(&[]));
    assert_eq!(
        text(&first.stdout),
        "first read: 2 lines — log at 3 lines\ntwo\nthree\n"
    );
    let second = run(args(&[]));
    assert_eq!(text(&second.stdout), "(no new lines — log at 3 lines; 1 earlier line never shown — lines: 3 reaches the newest)\n");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .unwrap()
        .write_all(b"four\n")
        .unwrap();
    let third = run(args(&["--json"]));
    let doc: serde_json::Value = serde_json::from_slice(&third.stdout).unwrap();
    assert_eq!(doc["text"], "+1 new line — log at 4 lines\nfour");
    assert_eq!(doc["counts"]["new_shown"], 1);

    for (body, warning) in [
        (&b"{not json"[..], "not a state file"),
        (
            br#"{"bgtail_state":99,"engine":"exact","state":{}}"#,
            "state format 99 is not 1",
        ),
        (
            br#"{"bgtail_state":1,"engine":"shipped","state":{"bookmarks":[]}}"#,
            "written by the shipped engine",
        ),
    ] {
        std::fs::write(&state, body).unwrap();
        let out = run(args(&[]));
        assert!(out.status.success());
        assert!(text(&out.stderr).contains(warning), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("first read: 2 lines"),
            "a fresh bookmark"
        );
        let saved: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
        assert_eq!(
            saved["bgtail_state"], 1,
            "the state file is rewritten whole"
        );
    }
}

#[test]
fn read_reports_missing_and_binary_logs_and_hostile_ids() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("s.json");
    let out = bgtail(&[
        "read",
        dir.path().join("gone.log").to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("No log found for job gone at "));
    let bin = write(dir.path(), "bin.log", b"\x00\x01\xff\xfe\n\x7fELF\n");
    let out = bgtail(&[
        "read",
        bin.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("\u{2400}\u{1}\u{FFFD}\u{FFFD}"),
        "{:?}",
        text(&out.stdout)
    );
    let out = bgtail(&[
        "read",
        bin.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "--id",
        "../etc",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("bgtail: invalid job id \"../etc\""));
}

#[test]
fn record_writes_a_trace_of_a_real_command() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("rec.jsonl");
    let out = bgtail(&[
        "record",
        "--out",
        out_path.to_str().unwrap(),
        "--reads",
        "100:5,400:5",
        "--",
        "sh",
        "-c",
        "echo first; printf 'half'; sleep 0.3; echo ' line'; echo err >&2; exit 4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let trace = std::fs::read_to_string(&out_path).unwrap();
    assert!(trace.contains(r#""source":"recorded""#));
    assert!(trace.contains(r#""event":"exit""#) && trace.contains(r#""code":4"#));
    assert!(trace.contains("err\\n"), "stderr goes into the same log");
    let replay = bgtail(&["replay", out_path.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", text(&replay.stdout));
    let out = bgtail(&[
        "record",
        "--out",
        out_path.to_str().unwrap(),
        "--",
        "/no/such/command",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_reports_each_property_and_exports_counterexamples() {
    let dir = tempfile::tempdir().unwrap();
    let out = bgtail(&[
        "check",
        "--engine",
        "both",
        "--bound",
        "gap",
        "--export",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    let s = text(&out.stdout);
    assert!(s.contains("exact engine, bound gap"));
    assert!(s.contains("states/s"));
    assert!(s.contains("repeats bounded") && s.contains("BROKEN in"));
    let exported = dir.path().join("shipped-gap-repeats-bounded.jsonl");
    let replay = bgtail(&["replay", "--quiet", exported.to_str().unwrap()]);
    assert!(replay.status.success());
}

#[test]
fn check_counts_reads_or_takes_any_number_of_them() {
    // Unbounded, the gap world's space is closed under reads: every read sequence over logs
    // of up to 4 short lines, and still #28's repeat in the shipped engine.
    let out = bgtail(&["check", "--bound", "gap", "--max-reads", "any"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("exact engine, bound gap (4 lines, any reads, 0 resets)"),
        "{s}"
    );
    assert!(
        s.contains("repeats bounded") && s.contains("BROKEN in"),
        "{s}"
    );
    let out = bgtail(&["check", "--bound", "gap", "--max-reads", "2"]);
    assert!(
        text(&out.stdout).contains("bound gap (4 lines, 2 reads, 0 resets)"),
        "{}",
        text(&out.stdout)
    );
    let out = bgtail(&[
        "check",
        "--bound",
        "gap",
        "--max-reads",
        "1",
        "--max-resets",
        "1",
    ]);
    assert!(
        text(&out.stdout).contains("bound gap (4 lines, 1 read, 1 reset)"),
        "{}",
        text(&out.stdout)
    );
    let out = bgtail(&["check", "--max-resets", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("\"lots\" is neither `any` nor a count from 0 to 255"),
        "{}",
        text(&out.stderr)
    );
    // An engine in another process may grow its state with every read: refused before it
    // is started.
    for flag in ["--max-reads", "--max-resets"] {
        let out = bgtail(&["check", "--engine", "cmd:/no/such/engine", flag, "any"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
        assert!(
            text(&out.stderr).contains(&format!("{flag} any needs an engine in this process")),
            "{}",
            text(&out.stderr)
        );
    }
    // Reads during a cut race the engine's own reads: refused for one in another process,
    // before it is started.
    let out = bgtail(&[
        "check",
        "--engine",
        "cmd:/no/such/engine",
        "--bound",
        "cut-during-read",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr)
            .contains("--bound cut-during-read cuts the log during an engine's own reads"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn check_induction_proves_the_exact_engine_and_shows_where_the_shipped_one_fails() {
    let out = bgtail(&["check", "--induction", "--max-lines", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("exact engine, inductive check over logs of up to 2 lines: 42796 states"),
        "{s}"
    );
    assert!(s.contains("PROVED"), "{s}");
    let shipped = s.split("shipped engine").nth(1).expect("a shipped report");
    assert!(shipped.contains("FAILS: from the log"), "{s}");
    assert!(!shipped.contains("PROVED"), "{s}");
}

/// `bgtail check --induction --bound job-end --engine exact` with `args`, proved: its output.
fn proved_at_the_jobs_end(args: &[&str]) -> String {
    let head = [
        "check",
        "--induction",
        "--bound",
        "job-end",
        "--engine",
        "exact",
    ];
    let out = bgtail(&[&head[..], args].concat());
    let s = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{s}");
    assert!(s.contains("PROVED"), "{s}");
    s
}

/// `--bound job-end`: the induction over each line rewritten on its own, the grown partial
/// line and the exit marker.
#[test]
fn check_induction_proves_the_jobs_end() {
    let s = proved_at_the_jobs_end(&["--max-lines", "2"]);
    assert!(s.contains("1498524 states of the invariant"), "{s}");
    let mirrored =
        "57186 continuing states with lines in the other variant checked as their mirror";
    assert!(s.contains(mirrored), "{s}");
}

/// `--cross-check-mirrors`: every mirrored state run and compared with its mirror.
#[test]
fn check_induction_compares_the_mirrored_states_with_their_mirrors() {
    let s = proved_at_the_jobs_end(&["--max-lines", "1", "--cross-check-mirrors"]);
    let compared = "1920 continuing states with lines in the other variant run, every action \
                    compared with their mirror's";
    assert!(s.contains(compared), "{s}");
}

#[test]
fn check_induction_refuses_what_it_cannot_do() {
    for (args, says) in [
        (
            &["check", "--induction", "--max-lines", "7"][..],
            "--max-lines 7",
        ),
        (
            &["check", "--induction", "--engine", "cmd:true"][..],
            "--induction needs an engine in this process",
        ),
        (
            &["check", "--induction", "--bound", "gap"][..],
            "or short and styled lines (styled-lines)",
        ),
    ] {
        let out = bgtail(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(says), "{}", text(&out.stderr));
    }
}

#[test]
fn verify_replays_a_corpus_and_ends_with_the_comparison() {
    let out = bgtail(&[
        "verify",
        "--skip-model",
        "--traces",
        repo().join("traces/issue-28").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    let s = text(&out.stdout);
    assert!(s.contains("## Shipped vs exact over the corpus"));
    assert!(s.contains("verify: OK"));
}

/// `bgtail explore` serves stateright's Explorer; its status endpoint answers.
#[test]
fn explore_serves_the_status_endpoint_on_loopback() {
    let explorer = crate::common::Explorer::start(&["--bound", "gap"]);
    let port = explorer.port;
    let deadline = Instant::now() + Duration::from_secs(20);
    let body = loop {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            s.write_all(b"GET /.status HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                .unwrap();
            let mut reply = String::new();
            let _ = s.read_to_string(&mut reply);
            if reply.starts_with("HTTP/1.") {
                break reply;
            }
        }
        assert!(Instant::now() < deadline, "explorer did not answer");
        std::thread::sleep(Duration::from_millis(100));
    };
    drop(explorer);
    assert!(body.contains(" 200 "), "{body}");
    let json = &body[body.find("\r\n\r\n").unwrap() + 4..];
    let status: serde_json::Value = serde_json::from_str(json).unwrap();
    assert!(status.get("unique_state_count").is_some());
    assert!(status["properties"].to_string().contains("repeats bounded"));
}

#[test]
fn read_stores_no_bookmark_when_the_reply_cannot_be_written() {
    // /dev/full refuses every write: the agent never got the lines, so they must come again.
    let dir = tempfile::tempdir().unwrap();
    let log = write(dir.path(), "job.log", b"alpha\nbeta\n");
    let state = dir.path().join("state.json");
    let args = |s: &Path| {
        vec![
            "read".to_owned(),
            log.to_str().unwrap().to_owned(),
            "--state".to_owned(),
            s.to_str().unwrap().to_owned(),
        ]
    };
    let failed = Command::new(env!("CARGO_BIN_EXE_bgtail"))
        .args(args(&state))
        .stdout(Stdio::from(std::fs::File::create("/dev/full").unwrap()))
        .output()
        .unwrap();
    assert!(!failed.status.success());
    assert!(text(&failed.stderr).contains("cannot write the reply, bookmark left as it was"));
    assert!(!state.exists(), "no bookmark for lines the agent never got");
    let args = args(&state);
    let again = bgtail(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        text(&again.stdout).starts_with("first read: 2 lines"),
        "{}",
        text(&again.stdout)
    );
}

/// `check --induction --shard I/N --report DIR` on each shard, then `check --merge`: the
/// proof, from the files alone; a shard left out is named and fails the merge.
#[test]
fn induction_shards_are_reported_and_merged_into_the_proof() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for shard in ["1/2", "2/2"] {
        let (code, text) = crate::common::run_text(&[
            "check",
            "--induction",
            "--engine",
            "exact",
            "--max-lines",
            "1",
            "--shard",
            shard,
            "--report",
            out,
        ]);
        assert_eq!(code, Some(0), "{text}");
        assert!(text.contains(&format!("HOLDS for shard {shard}")), "{text}");
    }
    let report = |i: u8| format!("{out}/exact-ci-1-{i}-of-2.json");
    let (code, text) = crate::common::run_text(&["check", "--merge", &report(1), &report(2)]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("2 shards merged") && text.contains("PROVED"),
        "{text}"
    );
    let (code, text) = crate::common::run_text(&["check", "--merge", &report(1)]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("shards missing: 2/2"), "{text}");
    let (code, text) = crate::common::run_text(&["check", "--merge", &format!("{out}/none.json")]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("none.json"), "{text}");
}

/// `check --split-first-lines N`: the bound's shards by first line merge to the bounded
/// check's own state count; a count past the bound's first lines is refused with them named.
#[test]
fn a_bounded_check_split_by_first_line_merges_to_the_whole() {
    let (code, text) = crate::common::run_text(&[
        "check",
        "--engine",
        "exact",
        "--bound",
        "ci-non-content",
        "--split-first-lines",
        "2",
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("merged: 228806 states (the union), 22606 visits by more than one shard"),
        "{text}"
    );
    assert!(
        text.contains("every always property holds in every shard"),
        "{text}"
    );
    let (code, text) = crate::common::run_text(&[
        "check",
        "--engine",
        "exact",
        "--bound",
        "gap",
        "--split-first-lines",
        "3",
    ]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("so 1 to 1 shards"), "{text}");
}
