//! Both engines driven by a byte-coded sequence of operations on a log in memory: appends of
//! arbitrary bytes, truncation, rewrites, replacement, deletion, and reads with arbitrary
//! `lines`, `bytes` and `raw`. No panic; what every reply must be whatever the engine (its body
//! range inside its text, every claimed line inside the log, in order); and every reply of the
//! exact engine judged by the one judge (`bgtail::judge`): an anomaly is a crash.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::engines(data));
