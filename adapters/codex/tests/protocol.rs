//! `bgtail-codex` over the engine-under-test protocol: its handshake in each mode, a poll of a
//! real file, and every bad input answered with an error naming it, the process going on.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The binary, running, spoken to one request at a time.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bgtail-codex"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("bgtail-codex starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, request: &str) -> Value {
        writeln!(self.stdin, "{request}").unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).expect("every reply is JSON")
    }

    /// Closes its stdin: it exits, and successfully.
    fn finish(self) {
        let Session {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        assert!(child.wait().unwrap().success());
    }
}

/// Runs the binary with `args`, sends `requests` one a line, and returns its replies.
fn exchange(args: &[&str], requests: &[String]) -> Vec<Value> {
    let mut session = Session::start(args);
    let replies = requests.iter().map(|r| session.send(r)).collect();
    session.finish();
    replies
}

fn init() -> String {
    json!({"type": "init", "msg_id": 0, "protocol": "bgtail-eut", "versions": [1]}).to_string()
}

fn read(msg_id: u64, path: &std::path::Path, running: bool) -> String {
    json!({"type": "read", "msg_id": msg_id, "job_id": "job-1", "log_path": path, "running": running})
        .to_string()
}

#[test]
fn each_mode_says_what_it_is_in_its_handshake() {
    let codex = &exchange(&["--scaled"], &[init()])[0];
    assert_eq!(codex["text_format"], "codex-343074d4");
    assert_eq!(codex["engine"]["name"], "codex");
    assert_eq!(codex["limits"]["text_budget"], 8);
    let caps = &codex["capabilities"];
    for cap in [
        "drain",
        "appends_only",
        "no_window",
        "exit_by_running",
        "snapshot",
    ] {
        assert_eq!(caps[cap], true, "{cap}: {codex}");
    }
    let upstream = &exchange(&[], &[init()])[0];
    assert_eq!(upstream["limits"]["text_budget"], 40_000);
    let exact = &exchange(&["--exact"], &[init()])[0];
    assert_eq!(exact["text_format"], "bgtail-exact-1-in-codex");
    assert_eq!(exact["capabilities"]["shown"], true);
    assert_eq!(exact["capabilities"].get("drain"), None);
}

#[test]
fn a_poll_drains_the_file_and_the_session_ends_with_the_exit() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1.log");
    std::fs::write(&log, "s0\ns1\n").unwrap();
    let replies = exchange(&[], &[init(), read(1, &log, false), read(2, &log, false)]);
    let text = replies[1]["text"].as_str().unwrap();
    assert!(
        text.ends_with("Process exited with code 0\nOriginal token count: 2\nOutput:\ns0\ns1\n"),
        "{text}"
    );
    assert_eq!(replies[2]["type"], "error");
    assert_eq!(replies[2]["code"], "rejected");
    assert_eq!(
        replies[2]["text"],
        "write_stdin failed: Unknown process id 1000"
    );
}

#[test]
fn bad_input_gets_an_error_that_names_it_and_the_reader_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1.log");
    std::fs::write(&log, "s0\ns1\n").unwrap();
    let missing = dir.path().join("gone.log");
    let requests = [
        "{\"type\": \"read\", \"msg_id\": 7,".to_string(),
        json!({"type": "init", "msg_id": 1, "protocol": "bgtail-eut", "versions": [9]}).to_string(),
        json!({"type": "restore", "msg_id": 2, "state": {"jobs": 3}}).to_string(),
        read(3, &missing, true),
        read(4, &log, true),
    ];
    let replies = exchange(&["--scaled"], &requests);
    let error = |i: usize, code: &str, words: &str| {
        let r = &replies[i];
        assert_eq!(
            (r["type"].as_str(), r["code"].as_str()),
            (Some("error"), Some(code)),
            "{r}"
        );
        assert!(r["text"].as_str().unwrap().contains(words), "{r}");
    };
    error(0, "malformed", "request line 1");
    error(1, "not_supported", "versions [9]");
    error(2, "malformed", "not a state of this reader");
    error(3, "internal", &missing.display().to_string());
    assert_eq!(replies[4]["type"], "read_ok");
}

#[test]
fn a_log_shorter_than_what_the_process_wrote_is_not_supported() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1.log");
    std::fs::write(&log, "s0\ns1\n").unwrap();
    let mut session = Session::start(&[]);
    session.send(&init());
    session.send(&read(1, &log, true));
    std::fs::write(&log, "s0\n").unwrap();
    let reply = session.send(&read(2, &log, true));
    assert_eq!(reply["code"], "not_supported", "{reply}");
    assert!(
        reply["text"]
            .as_str()
            .unwrap()
            .contains("3 bytes, fewer than the 6"),
        "{reply}"
    );
    session.finish();
}

#[test]
fn an_unknown_argument_is_refused_with_the_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_bgtail-codex"))
        .arg("--scale")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("unknown argument \"--scale\"") && err.contains("usage"),
        "{err}"
    );
}
