//! The trace parser: no panic on any text; an error names a line; a trace it accepts writes
//! back as text it reads as the same trace.
#![no_main]
use bgtail::trace::Trace;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Trace::parse("fuzz.jsonl", text) {
        Ok(trace) => {
            let again = Trace::parse("again.jsonl", &trace.to_jsonl())
                .expect("a trace bgtail wrote parses");
            assert_eq!(again, trace, "a trace round-trips");
        }
        Err(e) => assert!(e.line >= 1, "{e}"),
    }
});
