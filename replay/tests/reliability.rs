//! `bgtail read` under concurrent callers and killed processes: nothing lost, nothing twice, and
//! the state file always whole.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const READERS: usize = 8;
const LINES: usize = 4_000;

use crate::common::bgtail;

/// `bgtail read LOG --state STATE --lines N`.
fn read_command(log: &Path, state: &Path, lines: &str) -> Command {
    let mut c = bgtail();
    c.arg("read")
        .arg(log)
        .arg("--state")
        .arg(state)
        .args(["--lines", lines]);
    c
}

fn line(i: usize) -> String {
    format!("L{i:06} payload-{}", "p".repeat(i % 23))
}

/// Eight processes read one log through one state file while a writer appends to it; then one
/// drains what is left. Every line must be delivered exactly once across all replies.
#[test]
fn concurrent_readers_deliver_every_line_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1-1.log");
    let state = dir.path().join("state.json");
    std::fs::write(&log, b"").unwrap();
    let stop = dir.path().join("stop");
    let script = format!(
        "while [ ! -e '{stop}' ]; do '{bin}' read '{log}' --state '{state}' --lines 100000 --running || exit 1; done",
        stop = stop.display(),
        bin = env!("CARGO_BIN_EXE_bgtail"),
        log = log.display(),
        state = state.display()
    );
    let readers: Vec<_> = (0..READERS)
        .map(|_| {
            Command::new("sh")
                .args(["-c", &script])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // The writer: one write(2) per line, so no reader ever sees half a line.
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let started = Instant::now();
    for i in 0..LINES {
        f.write_all(format!("{}\n", line(i)).as_bytes()).unwrap();
        if i % 10 == 0 {
            std::thread::sleep(Duration::from_millis(3));
        }
    }
    std::thread::sleep(Duration::from_millis(200));
    std::fs::write(&stop, b"").unwrap();
    let concurrent: Vec<String> = readers
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "a reader failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).unwrap()
        })
        .collect();
    // The readers ran at the same time as one another and the writer: what they delivered,
    // not only the drain below, is what the lock is tested by.
    let delivering = concurrent
        .iter()
        .filter(|out| out.lines().any(|l| l.starts_with('L')))
        .count();
    assert!(
        delivering >= 2,
        "only {delivering} of the {READERS} concurrent readers delivered lines"
    );
    let mut outputs = concurrent;
    // Drain: the job has finished writing; read until nothing is new.
    for _ in 0..100 {
        let out = read_command(&log, &state, "100000").output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let done = text.starts_with("(no new lines");
        outputs.push(text);
        if done {
            break;
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut replies = 0;
    for out in &outputs {
        for l in out.lines().filter(|l| l.starts_with('L')) {
            *seen.entry(l).or_default() += 1;
        }
        replies += out.matches(" — log at ").count();
    }
    let expected: Vec<String> = (0..LINES).map(line).collect();
    let missing: Vec<&String> = expected
        .iter()
        .filter(|l| !seen.contains_key(l.as_str()))
        .collect();
    let twice: Vec<(&&str, &usize)> = seen.iter().filter(|(_, &n)| n != 1).collect();
    assert!(
        missing.is_empty(),
        "{} lines never delivered, first {:?}",
        missing.len(),
        missing.first()
    );
    assert!(
        twice.is_empty(),
        "lines delivered more than once: {:?}",
        &twice[..twice.len().min(5)]
    );
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(saved["bgtail_state"], 1);
    eprintln!(
        "{READERS} readers, {LINES} lines appended in {:.1} s, {replies} replies: every line exactly once",
        started.elapsed().as_secs_f64()
    );
}

fn state_is_whole(state: &Path) -> bool {
    match std::fs::read(state) {
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        Ok(bytes) => serde_json::from_slice::<serde_json::Value>(&bytes)
            .is_ok_and(|v| v["bgtail_state"] == 1),
    }
}

/// Readers killed with SIGKILL at varying moments leave the old or the new bookmark.
#[test]
fn killed_readers_never_leave_a_broken_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1-1.log");
    let state = dir.path().join("state.json");
    let body: String = (0..20_000).map(|i| format!("{}\n", line(i))).collect();
    std::fs::write(&log, body).unwrap();
    // Kills are spread over the process's life; how many land before a reader exits depends
    // on the machine's speed, so the test goes on until 20 have landed (or 2,000 rounds) and
    // holds every round to a whole state file, asserting nothing about speed.
    let (mut killed, mut rounds) = (0, 0);
    for round in 0..2_000u64 {
        if killed >= 20 {
            break;
        }
        rounds += 1;
        let mut child = read_command(&log, &state, "40")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Spread the kills over the process's life: start-up, reading, writing the state.
        std::thread::sleep(Duration::from_micros((round * 97) % 6_000));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            killed += 1;
        }
        child.wait().unwrap();
        assert!(
            state_is_whole(&state),
            "round {round}: the state file is broken"
        );
        if round % 10 == 0 {
            std::fs::OpenOptions::new()
                .append(true)
                .open(&log)
                .unwrap()
                .write_all(format!("{}\n", line(30_000 + round as usize)).as_bytes())
                .unwrap();
        }
    }
    // Whatever survived is a usable bookmark.
    let out = read_command(&log, &state, "40").output().unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
    eprintln!("{rounds} readers, {killed} killed mid-run: the state file was whole every time");
}

/// A truncated state file (as a crash of another tool might leave) is a warning and a fresh
/// bookmark.
#[test]
fn a_truncated_state_file_is_a_warning_and_a_fresh_bookmark() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1-1.log");
    let state = dir.path().join("state.json");
    std::fs::write(&log, "a\nb\n").unwrap();
    let read = || {
        bgtail()
            .args([
                "read",
                log.to_str().unwrap(),
                "--state",
                state.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    read();
    let whole = std::fs::read(&state).unwrap();
    std::fs::write(&state, &whole[..whole.len() / 2]).unwrap();
    let out = read();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a state file"));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "first read: 2 lines — log at 2 lines\na\nb\n"
    );
}
