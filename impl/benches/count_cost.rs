//! What counting a whole small view costs the exact engine's first read, for choosing
//! [`bgtail::limits::COUNT_VIEWS_UP_TO`]: one first read (`lines: 40`) of the log at
//! `BGTAIL_COUNT_LOG`, counted lazily or whole (`BGTAIL_COUNT_MODE`).
//! Run it under `valgrind --tool=callgrind`, as `scripts/bench-count-threshold.sh` does for
//! several sizes beside `bgtail --version`: instructions, not seconds, are repeatable here.

use bgtail::source::file::FileLog;
use bgtail::{Engine, ExactEngine, Job, Limits, Request};

fn main() {
    let path = std::env::var_os("BGTAIL_COUNT_LOG").map(std::path::PathBuf::from);
    let whole = match std::env::var("BGTAIL_COUNT_MODE").as_deref() {
        Ok("whole") => true,
        Ok("lazy") | Err(_) => false,
        Ok(other) => panic!("BGTAIL_COUNT_MODE: lazy or whole, not {other}"),
    };
    // Without a log named (as under `cargo bench`) it writes a 256 KiB one itself; the script
    // names logs it wrote beforehand, so that callgrind counts the read and not the writing.
    let dir = tempfile::tempdir().unwrap();
    let path = path.unwrap_or_else(|| {
        let path = dir.path().join("job-1-1.log");
        let line = b"a line of a build's log, forty-eight bytes long\n";
        std::fs::write(&path, line.repeat((256 << 10) / line.len())).unwrap();
        path
    });
    let mut limits = Limits::default();
    limits.count_views_up_to = if whole { u64::MAX } else { 0 };
    let engine = ExactEngine::new(limits);
    let log = FileLog::open(&path).unwrap();
    let job = Job {
        id: "job-1-1",
        path: path.to_str().unwrap(),
    };
    let reply = engine
        .read(&mut Default::default(), job, &log, &Request::lines(40))
        .unwrap();
    let header = reply.text.lines().next().unwrap_or("");
    println!(
        "{} {}: {header} ({} bytes read)",
        path.display(),
        if whole { "whole" } else { "lazy" },
        reply.bytes_read
    );
}
