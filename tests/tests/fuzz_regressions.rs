//! Every input a fuzzer crashed on (`fuzz/regressions/<target>/`), through the same checks the
//! fuzz target runs (`fuzz/checks.rs`), in the normal suite, since CI cannot run the fuzzer.

#[path = "../../fuzz/checks.rs"]
mod checks;

use std::path::Path;

#[test]
fn every_input_a_fuzzer_crashed_on_passes_its_targets_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    type Check = fn(&[u8]);
    let targets: [(&str, Check); 5] = [
        ("trace_parse", checks::trace_parse),
        ("pi_session_parse", checks::pi_session_parse),
        ("protocol_message", checks::protocol_message),
        ("state_file_decode", checks::state_file_decode),
        ("engines", checks::engines),
    ];
    let mut inputs = 0;
    for (target, check) in targets {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for entry in dir {
            let path = entry.unwrap().path();
            check(&std::fs::read(&path).unwrap());
            inputs += 1;
        }
    }
    assert!(inputs >= 2, "the regressions are there: {inputs}");
}

/// The two crashes, spelled out: a number past 2^53 (a trace's `lines`) and one with 32 digits
/// (a protocol reply's `details`) read back as other doubles than were written, because
/// serde_json's fast float parsing is not correctly rounded. With `float_roundtrip` it is, as
/// JavaScript's is, so a number means the same double to bgtail and to upstream.
#[test]
fn numbers_read_back_as_the_doubles_javascript_reads() {
    for (text, double) in [
        ("9.007199254740995e16", 90_071_992_547_409_950.0),
        ("20000000000000101402025423767407", 2.00000000000001e31),
        ("2.0000000000000105e31", 2.0000000000000105e31),
    ] {
        let parsed: f64 = serde_json::from_str(text).unwrap();
        assert_eq!(parsed, double, "{text}");
        let again: f64 = serde_json::from_str(&serde_json::to_string(&parsed).unwrap()).unwrap();
        assert_eq!(again.to_bits(), parsed.to_bits(), "{text}");
    }
}
