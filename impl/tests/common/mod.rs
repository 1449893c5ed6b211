//! Helpers the engines' test files share. Each test file is its own crate and uses only some
//! of them, hence the `dead_code` allowance.
#![allow(dead_code)]

use bgtail::source::MemoryLog;
use bgtail::{Engine, Reply, Request, Tail};

/// `line-FROM\n` … `line-TO\n`.
pub fn numbered(from: usize, to: usize) -> String {
    (from..=to).map(|i| format!("line-{i}\n")).collect()
}

/// A log in memory holding `text`.
pub fn log_of(text: &str) -> MemoryLog {
    let mut log = MemoryLog::new();
    log.append(text.as_bytes());
    log
}

/// One read that the engine must not refuse.
pub fn read<E: Engine>(t: &mut Tail<E>, log: &MemoryLog, req: Request) -> Reply {
    t.read(&log.source(), &req).unwrap()
}
