//! The captured-pi-session parser: no panic on any text, and none in what the importer asks of
//! a parsed session (its bgtail calls, the job records before them, the verbatim check of
//! each recorded reply).
#![no_main]
use bgtail::pi_session::{recorded_read, PiSession};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(session) = PiSession::parse("fuzz.jsonl", text) else {
        return;
    };
    for call in session.calls_to("bgtail") {
        if let Some(result) = &call.result {
            let _ = recorded_read(&result.text, &result.details);
        }
        let id = call
            .arguments
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or("");
        let _ = session.exit_before(id, call.line);
    }
});
