//! The state-file loader: no panic on any bytes, and — the harder half — no panic in either
//! engine reading with whatever state a file that parses hands it (coverage out of order, an
//! index that contradicts itself, offsets past the log): a damaged bookmark may send lines
//! again, never crash the reader.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::state_file_decode(data));
