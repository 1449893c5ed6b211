//! The captured-pi-session parser: no panic on any text, and none in what the importer asks of
//! a parsed session (its bgtail calls, the job records before them, the verbatim check of
//! each recorded reply).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::pi_session_parse(data));
