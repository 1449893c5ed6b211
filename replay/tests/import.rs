//! `bgtail import` and `bgtail audit` end to end: pi's, Codex's and Claude Code's captured
//! sessions at hand, and each kind of bad input with the message that names it.

use crate::common::run as bgtail;
use bgtail_tests::inputs::{require, SESSIONS};
use std::path::{Path, PathBuf};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write(dir: &Path, name: &str, body: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn sessions_in(folder: &str) -> Vec<String> {
    let dir = require(&SESSIONS).join(folder);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| p.to_str().unwrap().to_owned())
        .collect();
    files.sort();
    files
}

/// `bgtail import` of `files` into a fresh folder: its output, and the traces written.
fn import(files: &[&str], extra: &[&str]) -> (std::process::Output, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let mut args = vec!["import", "--out", out_dir.to_str().unwrap()];
    args.extend(extra);
    args.extend(files);
    let out = bgtail(&args);
    let mut written: Vec<String> = std::fs::read_dir(&out_dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    written.sort();
    (out, written)
}

const META: &str = r#"{"timestamp":"2026-06-22T00:00:00.000Z","type":"session_meta","payload":{"id":"s","cli_version":"0.141.0","originator":"codex-tui"}}"#;

#[test]
fn pi_sessions_import_with_what_could_not_be_rebuilt_reported() {
    let cell = require(&SESSIONS).join("red-tail-short");
    let files = [cell.join("bgrun-1.jsonl"), cell.join("bgrun-3.jsonl")];
    let files: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let (out, written) = import(&files, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("the log rebuilt exactly from the replies"),
        "{s}"
    );
    assert!(
        s.contains("capped delta; 27 of its 112 new lines were never shown"),
        "{s}"
    );
    assert_eq!(written.len(), 2, "{written:?}");
}

#[test]
fn every_codex_and_claude_code_session_at_hand_imports() {
    let codex = sessions_in("codex");
    let claude = sessions_in("claude-code");
    let files: Vec<&str> = codex.iter().chain(&claude).map(String::as_str).collect();
    let (out, written) = import(&files, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let of = |prefix: &str| written.iter().filter(|w| w.starts_with(prefix)).count();
    // Every background job of the Codex rollouts (116); every task read at least once (11) and
    // the one Monitor task (its folder's README names it).
    assert_eq!((of("codex-"), of("claude-code-")), (116, 12));
    let s = text(&out.stdout);
    assert!(
        s.contains("cut to 172 + 176 of 555 lines; 207 line(s) never shown"),
        "{s}"
    );
    assert!(
        s.contains("cut to 196 + 200 of 1442 lines; 1046 line(s) never shown"),
        "{s}"
    );
    let agree = s
        .matches("equals `aggregated_output`, byte for byte")
        .count();
    assert_eq!(
        agree, 9,
        "the 9 jobs of Codex 0.128's rollout agree with its final output"
    );
    // The Monitor's first event reached the agent; its second was still queued at the end.
    let monitor = s
        .lines()
        .find(|l| l.contains("Monitor task b13uqjuev in JanDeDobbeleer-28-"));
    assert!(
        monitor.is_some_and(|l| l.contains(": 1 event(s) delivered to the agent, 1 still queued")),
        "{s}"
    );
    assert!(
        s.contains("event 2 at line 1223: still queued when the transcript ends"),
        "{s}"
    );
    let stderr = text(&out.stderr);
    // Every line type of the transcripts at hand is one the parsers know.
    assert!(!stderr.contains("unknown line type"), "{stderr}");
}

#[test]
fn the_audit_counts_what_each_harness_showed_and_the_exact_engine_loses_nothing() {
    let codex = sessions_in("codex");
    let claude = sessions_in("claude-code");
    let files: Vec<&str> = codex.iter().chain(&claude).map(String::as_str).collect();
    let mut args = vec!["audit", "--json"];
    args.extend(files);
    let out = bgtail(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let sum = |harness: &str, path: &[&str]| -> u64 {
        rows.iter()
            .filter(|r| r["harness"] == harness)
            .map(|r| {
                path.iter()
                    .fold(&r["audit"], |v, k| &v[k])
                    .as_u64()
                    .unwrap()
            })
            .sum()
    };
    for harness in ["Codex", "Claude Code"] {
        assert_eq!(sum(harness, &["exact_tally", "lines_lost"]), 0, "{harness}");
    }
    // Codex loses exactly the lines its cuts dropped; 11 of its 13 cuts splice two lines into one.
    assert_eq!(sum("Codex", &["unknown_lines"]), 10_560);
    assert_eq!(sum("Codex", &["harness_tally", "lines_lost"]), 10_560);
    assert_eq!(sum("Codex", &["untrue_lines"]), 11);
    // Claude Code's cumulative reads repeat the lines shown before; a Monitor's do not, and
    // the agent's `Read` windows number every line as the file holds it.
    assert_eq!(sum("Claude Code", &["harness_tally", "lines_repeated"]), 10);
    assert_eq!(sum("Claude Code", &["agent_untrue_lines"]), 0);
}

#[test]
fn a_line_that_is_not_json_is_named_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.jsonl", format!("{META}\n").as_bytes());
    let cut = write(
        dir.path(),
        "cut.jsonl",
        format!("{META}\n{{\"timestamp\": \"20").as_bytes(),
    );
    let (out, written) = import(&[good.to_str().unwrap(), cut.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("cut.jsonl:2:"), "{stderr}");
    assert!(stderr.contains("not JSON"), "{stderr}");
    assert!(
        written.is_empty(),
        "an import writes all of its traces or none: {written:?}"
    );
}

#[test]
fn unknown_lines_versions_and_reads_of_unstarted_jobs_are_warned_of_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let body = [
        META.replace("0.141.0", "0.300.0"),
        r#"{"timestamp":"2026-06-22T00:00:01.000Z","type":"telemetry","payload":{}}"#.into(),
        r#"{"timestamp":"2026-06-22T00:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":"{\"session_id\":5}","call_id":"c"}}"#.into(),
        r#"{"timestamp":"2026-06-22T00:00:03.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Process exited with code 0\nOutput:\n"}}"#.into(),
    ]
    .join("\n");
    let file = write(dir.path(), "odd.jsonl", body.as_bytes());
    let (out, written) = import(&[file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    for said in [
        "odd.jsonl:1: warning: Codex \"0.300.0\"",
        "odd.jsonl:2: warning: unknown line type `telemetry`",
        "odd.jsonl:4: warning: a `write_stdin` of session ID 5",
        "odd.jsonl: no background job read by the agent; nothing to import",
    ] {
        assert!(stderr.contains(said), "{said}\n{stderr}");
    }
    assert!(written.is_empty());
}

#[test]
fn two_sessions_in_one_file_invalid_utf8_and_an_unknown_format_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let two = write(
        dir.path(),
        "two.jsonl",
        format!("{META}\n{}\n", META.replace("\"s\"", "\"t\"")).as_bytes(),
    );
    let (out, _) = import(&[two.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("two.jsonl:2: a second session (`t`)"),
        "{}",
        text(&out.stderr)
    );
    let bytes = write(
        dir.path(),
        "bytes.jsonl",
        b"{\"type\":\"session_meta\"}\n\xff\xfe\n",
    );
    let (out, _) = import(&[bytes.to_str().unwrap()], &[]);
    assert!(
        text(&out.stderr).contains("bytes.jsonl: not UTF-8 at byte 24"),
        "{}",
        text(&out.stderr)
    );
    let other = write(dir.path(), "other.jsonl", b"{\"type\":\"event\"}\n");
    let (out, _) = import(&[other.to_str().unwrap()], &[]);
    assert!(
        text(&out.stderr).contains("other.jsonl: line 1: a `event` line opens no session format"),
        "{}",
        text(&out.stderr)
    );
    let (out, _) = import(&[other.to_str().unwrap()], &["--format", "codex"]);
    assert!(
        text(&out.stderr).contains("other.jsonl:1: no `session_meta` line"),
        "{}",
        text(&out.stderr)
    );
}
