//! The mismatch classes that the differential run against pi-bgrun's own code found in the
//! shipped engine, each pinned as a minimised trace under `traces/upstream-diff/` whose `expect`
//! is upstream's real reply (filled by `adapters/pi-bgrun/main.mjs --oracle`). Each failed
//! before its fix; the comment on each test names the fix.

use bgtail::replay::replay;
use bgtail::trace::{Event, Trace};
use bgtail::ShippedEngine;
use std::path::Path;

fn pinned(name: &str) -> Trace {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces/upstream-diff")
        .join(format!("{name}.jsonl"));
    Trace::parse(name, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Replays the pinned trace and checks that every read is upstream's reply; returns
/// upstream's texts, so that a test can say what it pins.
fn reproduces_upstream(name: &str) -> Vec<String> {
    let trace = pinned(name);
    let r = replay(&ShippedEngine::default(), &trace);
    for rec in &r.reads {
        let Event::Read(read) = &trace.events[rec.event] else {
            unreachable!()
        };
        let expect = read
            .expect
            .as_ref()
            .expect("pinned reads carry upstream's reply");
        assert_eq!(
            rec.matches_recording,
            Some(true),
            "{name} event {}:\n upstream: {:?}\n shipped:  {:?}",
            rec.event,
            expect.text,
            rec.text
        );
    }
    assert!(!r.reads.is_empty());
    r.reads.iter().map(|rec| rec.text.clone()).collect()
}

/// Fix: `View::truncated_at` reads the label as a double (was a u64 that saturated).
#[test]
fn a_truncated_label_past_2_64_is_not_saturated() {
    let texts = reproduces_upstream("truncated-label-past-2-64");
    assert!(texts[0].contains("(log truncated at 10083878159824.2 MiB"));
}

/// Fix: the first ` truncated=` followed by digits, `Math.round` and JavaScript's number
/// printing in `js::format_bytes`, `js::json_number` for `details.truncatedAtBytes`.
#[test]
fn a_truncated_label_of_any_size_reads_as_javascript_reads_it() {
    let texts = reproduces_upstream("truncated-label-every-size");
    for (i, label) in [
        "8589934592 MiB",
        "95367431640625 MiB",
        "953674316406250 MiB",
        "Infinity MiB",
        "7 bytes",
    ]
    .iter()
    .enumerate()
    {
        assert!(texts[i].contains(label), "read {i}: {}", texts[i]);
    }
    assert!(
        !texts[5].contains("log truncated at"),
        "an empty label is none"
    );
    assert!(texts[6].contains("log truncated at 7 bytes"));
}

/// Fix: `ShippedBookmark::first` is a `js::Utf16Prefix`, compared by code unit (was the
/// prefix with U+FFFD for a cut pair, which called two different first lines equal).
#[test]
fn the_first_line_fingerprint_compares_by_code_unit() {
    let texts = reproduces_upstream("first-line-cut-inside-a-surrogate-pair");
    assert!(texts[1].starts_with("log was replaced since last read"));
    assert!(texts[2].starts_with("(no new lines since last read"));
}

/// Fix: the trace keeps `lines: null` apart from absent (`trace::JsNumber`); the engines get
/// what JavaScript makes of it, 0, so one line.
#[test]
fn lines_null_shows_one_line() {
    let texts = reproduces_upstream("lines-null-shows-one-line");
    assert_eq!(texts[0], "line-3");
}
