//! The engine-under-test protocol's messages: no panic on any bytes; a request or reply it
//! accepts writes back as JSON it reads as the same message.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::protocol_message(data));
