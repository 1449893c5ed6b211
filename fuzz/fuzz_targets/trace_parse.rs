//! The trace parser: no panic on any text; an error names a line; a trace it accepts writes
//! back as text it reads as the same trace.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::trace_parse(data));
