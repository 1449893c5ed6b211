//! The state-file loader: no panic on any bytes, and — the harder half — no panic in either
//! engine reading with whatever state a file that parses hands it (coverage out of order, an
//! index that contradicts itself, offsets past the log): a damaged bookmark may send lines
//! again, never crash the reader.
#![no_main]
use bgtail::source::SliceLog;
use bgtail::state_file::decode;
use bgtail::{Engine, ExactEngine, Job, Request, ShippedEngine};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const LOG: &[u8] = b"line-1\nline-2\n\x1b[31mred\x1b[0m\nline-4\nline-4\nline-4\npartial";

fn read_with<E: Engine>(engine: &E, bytes: &[u8]) {
    let Ok(mut state) = decode(engine, Path::new("fuzz.state"), bytes) else {
        return;
    };
    let job = Job {
        id: "job-1-1",
        path: "/jobs/job-1-1.log",
    };
    for (len, lines) in [(LOG.len(), 2), (20, 40), (LOG.len(), 40)] {
        let log = SliceLog {
            bytes: &LOG[..len],
            file_number: 0,
            missing: false,
        };
        let _ = engine.read(&mut state, job, &log, &Request::lines(lines));
    }
}

fuzz_target!(|data: &[u8]| {
    read_with(&ExactEngine::default(), data);
    read_with(&ShippedEngine::default(), data);
});
