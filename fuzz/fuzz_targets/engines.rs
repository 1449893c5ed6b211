//! Both engines driven by a byte-coded sequence of operations on a log in memory: appends of
//! arbitrary bytes, truncation, rewrites, replacement, deletion, and reads with arbitrary
//! `lines`, `bytes` and `raw`. No panic, and what every reply must be whatever the engine:
//! its body range lies inside its text, and every line it claims lies inside the log, in
//! order. (The contract itself is judged by the model and the proptest oracle; the one text
//! judge of the engine-protocol issue is to judge it here too.)
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::engines(data));
