//! `bgtail mcp` driven by the official Rust SDK's client (`rmcp`, the protocol authors'), over
//! the server's stdio as an agent's harness would: the tool list and its schemas, a real job
//! polled to its end with every line arriving once, the same across a server restart, and
//! every bad input a named tool error.

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt as _, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// A `bgtail mcp` server on `dir`, and a client connected to it.
struct Mcp {
    runtime: tokio::runtime::Runtime,
    client: Option<RunningService<RoleClient, ()>>,
}

impl Mcp {
    fn start(dir: &Path) -> Mcp {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let dir = dir.to_owned();
        let client = runtime.block_on(async move {
            let command =
                tokio::process::Command::new(env!("CARGO_BIN_EXE_bgtail")).configure(|c| {
                    c.arg("mcp").arg("--jobs-dir").arg(&dir);
                });
            ().serve(TokioChildProcess::new(command).unwrap())
                .await
                .expect("the MCP handshake")
        });
        Mcp {
            runtime,
            client: Some(client),
        }
    }

    fn tools(&self) -> Vec<Tool> {
        let client = self.client.as_ref().unwrap();
        self.runtime.block_on(client.list_all_tools()).unwrap()
    }

    fn call(&self, tool: &'static str, arguments: Value) -> CallToolResult {
        let client = self.client.as_ref().unwrap();
        let Value::Object(arguments) = arguments else {
            panic!("arguments are an object")
        };
        let params = CallToolRequestParams::new(tool).with_arguments(arguments);
        self.runtime.block_on(client.call_tool(params)).unwrap()
    }

    /// Ends the server as an agent's harness does when it quits: its stdin closes.
    fn stop(mut self) {
        let client = self.client.take().unwrap();
        self.runtime.block_on(client.cancel()).unwrap();
    }
}

fn text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn structured(r: &CallToolResult) -> &Value {
    r.structured_content.as_ref().expect("structuredContent")
}

/// The job's complete content lines in its final log, as `(offset, end)`: every line but
/// blank ones and the wrapper's.
fn content_lines(log: &[u8]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in log.iter().enumerate() {
        if b == b'\n' {
            let line = &log[start..i];
            let blank = line.iter().all(u8::is_ascii_whitespace);
            if !blank && !line.starts_with(b"__BGRUN_") {
                out.push((start as u64, i as u64 + 1));
            }
            start = i + 1;
        }
    }
    out
}

/// Adds the complete lines a `bgtail` result's `structuredContent` shows to `seen`: each span
/// of adjacent lines split at its newlines in the job's log (which these jobs only append to).
fn collect_shown(structured: &Value, seen: &mut Vec<(u64, u64)>) {
    let log = std::fs::read(server_log(structured)).unwrap_or_default();
    for span in structured["shown"].as_array().unwrap() {
        if span["partial"] == true {
            continue;
        }
        let (offset, end) = (
            span["offset"].as_u64().unwrap(),
            span["end"].as_u64().unwrap(),
        );
        let (mut start, mut lines) = (offset, 0);
        for (i, &b) in log[offset as usize..end as usize].iter().enumerate() {
            if b == b'\n' {
                let stop = offset + i as u64 + 1;
                seen.push((start, stop));
                (start, lines) = (stop, lines + 1);
            }
        }
        // An exited job's last line may end the log without a newline.
        if start < end {
            seen.push((start, end));
            lines += 1;
        }
        assert_eq!(span["lines"], lines, "a span's count is its lines");
    }
}

/// The log a `bgtail` result's job writes (its structured content names it).
fn server_log(structured: &Value) -> std::path::PathBuf {
    std::path::PathBuf::from(structured["log"].as_str().expect("the job's log"))
}

/// Whether a `bgtail` result says lines wait: left out by the budget, or above its window.
fn owed(structured: &Value) -> bool {
    let c = &structured["counts"];
    c["left_out"].as_u64() > Some(0) || c["unseen_above"].as_u64() > Some(0)
}

/// Polls job `id` until it has exited and a read has nothing new, widening `lines` whenever a
/// reply says lines were left out or lie above its window; the complete lines each read
/// showed, in order, and the last reply.
fn poll_to_the_end(mcp: &Mcp, id: &str, seen: &mut Vec<(u64, u64)>) -> CallToolResult {
    let mut lines = 50;
    for _ in 0..2_000 {
        let r = mcp.call("bgtail", json!({"id": id, "lines": lines}));
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        let s = structured(&r);
        collect_shown(s, seen);
        let counts = &s["counts"];
        let owed =
            counts["left_out"].as_u64() > Some(0) || counts["unseen_above"].as_u64() > Some(0);
        lines = if owed { 1_000_000 } else { 50 };
        if s["state"] == "exited"
            && counts["shown"] == 0
            && counts["partial_shown"] == false
            && !owed
        {
            return r;
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    panic!("job {id} never ended");
}

/// Bursts of short lines, a 70 KB line, and a partial last line the exit completes.
const JOB: &str = "for b in 1 2 3 4 5; do for i in $(seq 1 400); do echo \"burst $b line $i\"; \
                   done; sleep 0.05; done; head -c 70000 /dev/zero | tr '\\0' x; echo; \
                   printf 'the end, partial'; sleep 0.2";

fn assert_each_line_once(log: &Path, seen: &[(u64, u64)]) {
    let bytes = std::fs::read(log).unwrap();
    let expected = content_lines(&bytes);
    let mut counted: BTreeMap<(u64, u64), usize> = BTreeMap::new();
    for &s in seen {
        *counted.entry(s).or_default() += 1;
    }
    let repeated: Vec<_> = counted.iter().filter(|(_, &n)| n > 1).collect();
    assert!(repeated.is_empty(), "repeated: {repeated:?}");
    let lost: Vec<_> = expected
        .iter()
        .filter(|l| !counted.contains_key(l))
        .collect();
    assert!(
        lost.is_empty(),
        "{} lost, first {:?}",
        lost.len(),
        lost.first()
    );
    assert_eq!(
        counted.len(),
        expected.len(),
        "only the log's lines were shown"
    );
    assert_eq!(expected.len(), 5 * 400 + 2);
}

#[test]
fn the_tools_are_listed_with_schemas_and_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Mcp::start(dir.path());
    let tools = mcp.tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["bgattach", "bgkill", "bgrun", "bgstatus", "bgtail"]);
    for t in &tools {
        let schema = Value::Object((*t.input_schema).clone());
        assert_eq!(schema["type"], "object", "{}", t.name);
        let required = &schema["required"];
        match t.name.as_ref() {
            "bgrun" => assert_eq!(required, &json!(["command"])),
            "bgtail" | "bgkill" => assert_eq!(required, &json!(["id"])),
            "bgattach" => assert_eq!(required, &json!(["path"])),
            _ => assert!(required.is_null() || required == &json!([]), "{schema}"),
        }
        let a = t.annotations.as_ref().expect("annotations");
        let reads = matches!(t.name.as_ref(), "bgtail" | "bgstatus");
        assert_eq!(a.read_only_hint, reads.then_some(true), "{}", t.name);
        assert_eq!(
            a.destructive_hint == Some(true),
            t.name == "bgkill",
            "{}",
            t.name
        );
        assert!(
            t.description.as_ref().is_some_and(|d| d.len() > 80),
            "{}",
            t.name
        );
    }
    mcp.stop();
}

#[test]
fn a_real_job_is_read_to_its_end_with_every_line_once_and_its_exit_code_said() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Mcp::start(dir.path());
    let started = mcp.call("bgrun", json!({"command": JOB}));
    let s = structured(&started).clone();
    let id = s["id"].as_str().unwrap().to_owned();
    let mut seen = Vec::new();
    let last = poll_to_the_end(&mcp, &id, &mut seen);
    assert_eq!(structured(&last)["exit_code"], 0, "{}", text(&last));
    assert_each_line_once(Path::new(s["log"].as_str().unwrap()), &seen);
    let status = mcp.call("bgstatus", json!({"id": id}));
    assert!(
        text(&status).contains("exited with code 0"),
        "{}",
        text(&status)
    );
    mcp.stop();
}

#[test]
fn a_server_restarted_mid_job_continues_its_reads_with_nothing_lost_or_repeated() {
    let dir = tempfile::tempdir().unwrap();
    let first = Mcp::start(dir.path());
    let s = structured(&first.call("bgrun", json!({"command": JOB}))).clone();
    let id = s["id"].as_str().unwrap().to_owned();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let r = first.call("bgtail", json!({"id": id, "lines": 30}));
        collect_shown(structured(&r), &mut seen);
    }
    first.stop();
    // The job outlived its server; a new one on the same folder takes over.
    let second = Mcp::start(dir.path());
    let last = poll_to_the_end(&second, &id, &mut seen);
    assert_eq!(structured(&last)["exit_code"], 0, "{}", text(&last));
    assert_each_line_once(Path::new(s["log"].as_str().unwrap()), &seen);
    second.stop();
}

#[test]
fn each_bad_input_is_a_tool_error_naming_the_argument() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Mcp::start(dir.path());
    let job = structured(&mcp.call("bgrun", json!({"command": "echo hi; sleep 5"}))).clone();
    let id = job["id"].as_str().unwrap();
    for (tool, args, says) in [
        (
            "bgtail",
            json!({"id": "nope-1-1"}),
            "no job has the id \"nope-1-1\"",
        ),
        (
            "bgtail",
            json!({"id": "../../etc/passwd"}),
            "the id \"../../etc/passwd\" is not a job id",
        ),
        (
            "bgtail",
            json!({"id": id, "lines": "ten"}),
            "`lines`: must be a number, got \"ten\"",
        ),
        (
            "bgtail",
            json!({"id": id, "bytes": -4}),
            "`bytes`: must be 0 or more, got -4",
        ),
        (
            "bgtail",
            json!({"id": id, "lnes": 3}),
            "did you mean `lines`?",
        ),
        ("bgtail", json!({}), "`id`: is required"),
        (
            "bgrun",
            json!({"command": "true", "cwd": "/no/such/folder"}),
            "`cwd`: \"/no/such/folder\" is not a folder",
        ),
        ("bgrun", json!({"command": "  "}), "`command`: is empty"),
        (
            "bgkill",
            json!({"id": id, "signal": "STOP"}),
            "`signal`: \"STOP\" is not one of TERM, INT, HUP, KILL",
        ),
        (
            "bgattach",
            json!({"path": "/no/such/log"}),
            "`path`: \"/no/such/log\": neither it nor its folder exists",
        ),
    ] {
        let r = mcp.call(tool, args.clone());
        assert_eq!(r.is_error, Some(true), "{tool} {args}: {}", text(&r));
        assert!(
            text(&r).contains(says),
            "{tool} {args}: wanted {says:?} in {:?}",
            text(&r)
        );
    }
    // A log deleted under a running job: the read says so, and the server goes on.
    std::fs::remove_file(job["log"].as_str().unwrap()).unwrap();
    let r = mcp.call("bgtail", json!({"id": id}));
    assert!(
        text(&r).contains("not found") || r.is_error == Some(true),
        "{}",
        text(&r)
    );
    let killed = mcp.call("bgkill", json!({"id": id}));
    assert!(
        text(&killed).contains("ended by SIGTERM"),
        "{}",
        text(&killed)
    );
    assert!(mcp.tools().len() == 5, "the server still answers");
    mcp.stop();
}

#[test]
fn an_attached_log_is_read_like_a_job() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.out");
    std::fs::write(&log, "listening on :3000\nGET /\n").unwrap();
    let jobs = dir.path().join("jobs");
    let mcp = Mcp::start(&jobs);
    let a = mcp.call("bgattach", json!({"path": log}));
    let id = structured(&a)["id"].as_str().unwrap().to_owned();
    let again = mcp.call("bgattach", json!({"path": log}));
    assert_eq!(
        structured(&again)["id"],
        id.as_str(),
        "the same log keeps its id"
    );
    let first = mcp.call("bgtail", json!({"id": id}));
    assert!(
        text(&first).contains("listening on :3000\nGET /"),
        "{}",
        text(&first)
    );
    std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"GET /health\n"))
        .unwrap();
    let next = mcp.call("bgtail", json!({"id": id}));
    assert!(text(&next).ends_with("GET /health"), "{}", text(&next));
    assert!(!text(&next).contains("listening"), "{}", text(&next));
    mcp.stop();
}

/// Eight jobs of 3,000 lines each, polled at once through one server: each poll of all eight
/// is sent together, and every job's every line arrives once.
#[test]
fn eight_jobs_polled_at_once_through_one_server_lose_and_repeat_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Mcp::start(dir.path());
    let job = "for i in $(seq 1 3000); do echo \"line $i of this job\"; \
               [ $((i % 500)) -eq 0 ] && sleep 0.05; done";
    let started: Vec<Value> = (0..8)
        .map(|_| structured(&mcp.call("bgrun", json!({"command": job}))).clone())
        .collect();
    let ids: Vec<String> = started
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_owned())
        .collect();
    let mut seen: Vec<Vec<(u64, u64)>> = vec![Vec::new(); 8];
    let mut lines = vec![50u64; 8];
    let mut finished = [false; 8];
    let client = mcp.client.as_ref().unwrap();
    for _ in 0..2_000 {
        if finished.iter().all(|&f| f) {
            break;
        }
        let calls = ids.iter().zip(&lines).map(|(id, &n)| {
            let Value::Object(args) = json!({"id": id, "lines": n}) else {
                unreachable!()
            };
            client.call_tool(CallToolRequestParams::new("bgtail").with_arguments(args))
        });
        let replies = mcp.runtime.block_on(futures::future::join_all(calls));
        for (k, r) in replies.into_iter().enumerate() {
            let r = r.unwrap();
            let s = structured(&r);
            collect_shown(s, &mut seen[k]);
            let c = &s["counts"];
            let owed = owed(s);
            lines[k] = if owed { 1_000_000 } else { 50 };
            finished[k] =
                s["state"] == "exited" && c["shown"] == 0 && c["partial_shown"] == false && !owed;
        }
    }
    assert!(
        finished.iter().all(|&f| f),
        "every job ended and was drained"
    );
    for (k, s) in started.iter().enumerate() {
        let bytes = std::fs::read(s["log"].as_str().unwrap()).unwrap();
        let expected = content_lines(&bytes);
        assert_eq!(expected.len(), 3_000);
        let mut got = seen[k].clone();
        got.sort_unstable();
        let before = got.len();
        got.dedup();
        assert_eq!(before, got.len(), "job {k}: a line repeated");
        assert_eq!(got, expected, "job {k}: every line once");
    }
    mcp.stop();
}

/// `bgtail mcp` model-checked end to end over real JSON-RPC, through `adapters/mcp/` (the
/// official TypeScript SDK as the client): the verdicts and unique state counts of the exact
/// engine served over the protocol at the same (upstream's) limits, at every protocol bound.
#[test]
fn the_model_checks_bgtail_mcp_over_json_rpc_with_the_served_engines_counts() {
    use crate::common::{check_outcome, run_text, PROTOCOL_BOUNDS};
    let bin = env!("CARGO_BIN_EXE_bgtail");
    let through_mcp = format!("cmd:node adapters/mcp/main.mjs -- {bin} mcp");
    let served = format!("cmd:{bin} serve --engine exact");
    for bound in PROTOCOL_BOUNDS {
        let (code, mcp) = run_text(&[&["check", "--engine", &through_mcp][..], bound].concat());
        assert_eq!(code, Some(0), "{bound:?}\n{mcp}");
        assert!(mcp.contains("states rebuilt by snapshot/restore"), "{mcp}");
        let (_, reference) = run_text(&[&["check", "--engine", &served][..], bound].concat());
        assert_eq!(
            check_outcome(&mcp),
            check_outcome(&reference),
            "{bound:?}\n{mcp}"
        );
    }
}

/// The same through `bgtail compare`: every read of the contract's and issue #28's traces
/// through MCP equals the in-crate exact engine's, text, error flag and shown ranges (an MCP
/// result carries no `details`).
#[test]
fn bgtail_mcp_equals_the_in_crate_engine_read_for_read_over_the_corpus() {
    use crate::common::{compare_figures, run_text};
    let through_mcp = format!(
        "cmd:node adapters/mcp/main.mjs -- {} mcp",
        env!("CARGO_BIN_EXE_bgtail")
    );
    let (code, out) = run_text(&[
        "compare",
        "--without-details",
        "--engine",
        &through_mcp,
        "traces/contract",
        "traces/issue-28",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let (traces, reads, mismatching) = compare_figures(&out);
    assert!(traces >= 5 && reads >= 27, "{out}");
    assert_eq!(mismatching, 0, "{out}");
}

/// Two servers on one jobs folder take turns on its state file: reads of one job alternating
/// between them deliver every line once. Everything the folder holds is its user's only.
#[test]
fn two_servers_on_one_folder_share_it_and_its_files_are_the_users_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let jobs = dir.path().join("jobs");
    let (a, b) = (Mcp::start(&jobs), Mcp::start(&jobs));
    let s = structured(&a.call("bgrun", json!({"command": JOB}))).clone();
    let id = s["id"].as_str().unwrap().to_owned();
    let mut seen = Vec::new();
    let mut lines = 50;
    for turn in 0..4_000 {
        let server = if turn % 2 == 0 { &a } else { &b };
        let r = server.call("bgtail", json!({"id": id, "lines": lines}));
        let st = structured(&r);
        collect_shown(st, &mut seen);
        let c = &st["counts"];
        let owed = owed(st);
        lines = if owed { 1_000_000 } else { 50 };
        if st["state"] == "exited" && c["shown"] == 0 && c["partial_shown"] == false && !owed {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_each_line_once(Path::new(s["log"].as_str().unwrap()), &seen);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&jobs), 0o700);
    for entry in std::fs::read_dir(&jobs).unwrap() {
        let path = entry.unwrap().path();
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }
    a.stop();
    b.stop();
}

/// A jobs folder that cannot be made ends the server at once, naming it.
#[test]
fn a_jobs_folder_that_cannot_be_made_is_named() {
    let (code, out) = crate::common::run_text(&["mcp", "--jobs-dir", "/proc/bgtail-jobs"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("/proc/bgtail-jobs: cannot make the jobs folder"),
        "{out}"
    );
}

/// Malformed requests over the raw stdio: JSON that is no message gets `-32600`, an unknown
/// method `-32601`, a line that is not JSON is skipped, and the server answers what follows.
#[test]
fn malformed_requests_get_the_protocols_errors_and_the_server_goes_on() {
    use std::io::{BufRead as _, Write as _};
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bgtail"))
        .args(["mcp", "--jobs-dir"])
        .arg(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "this is not json",
        r#"{"id":"x","hello":1}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let replies: Vec<Value> = std::io::BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    child.wait().unwrap();
    let codes: Vec<&Value> = replies.iter().map(|r| &r["error"]["code"]).collect();
    assert_eq!(replies.len(), 4, "{replies:?}");
    assert_eq!(replies[0]["id"], 1);
    assert_eq!(codes[1..3], [&json!(-32600), &json!(-32601)], "{replies:?}");
    assert_eq!(replies[3]["id"], 3);
    assert_eq!(replies[3]["result"]["tools"].as_array().unwrap().len(), 5);
}
