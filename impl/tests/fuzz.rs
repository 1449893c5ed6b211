//! Long randomised runs (fuzzing without a nightly toolchain, which cargo-fuzz needs): the log
//! reader, the condenser and both engines on arbitrary bytes, and the trace and session
//! parsers on mangled input. Ignored by default; run them with fresh seeds as
//! `PROPTEST_RNG_SEED=random PROPTEST_CASES=200000 cargo test --release -p bgtail --test suite fuzz:: -- --ignored`.

use bgtail::pi_session::PiSession;
use bgtail::replay::replay;
use bgtail::trace::{Event, Header, Read, Source, Trace, Truncate, Write};
use bgtail::{ExactEngine, Limits, ShippedEngine};
use proptest::prelude::*;

fn chunk() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => "[a-z ]{1,12}".prop_map(String::into_bytes),
        4 => Just(b"\n".to_vec()),
        1 => Just(b"\r".to_vec()),
        1 => Just(b"\r\n".to_vec()),
        1 => Just(b"\x1b[31m".to_vec()),
        1 => Just(b"\x1b]8;;u\x07".to_vec()),
        1 => Just(vec![0]),
        1 => Just(vec![0xff, 0xc3]),
        1 => Just(b"__BGRUN_EXIT__=1 truncated=7\n".to_vec()),
        1 => Just(b"same\nsame\nsame\n".to_vec()),
        1 => "[x]{50,300}".prop_map(String::into_bytes),
        1 => Just("é😀\u{2028}".as_bytes().to_vec()),
    ];
    prop::collection::vec(piece, 1..8).prop_map(|v| v.concat())
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        8 => chunk().prop_map(|b| Event::Append(Write::new(None, &b))),
        1 => (0u64..400).prop_map(|len| Event::Truncate(Truncate { t: None, len })),
        1 => chunk().prop_map(|b| Event::Rewrite(Write::new(None, &b))),
        1 => chunk().prop_map(|b| Event::Replace(Write::new(None, &b))),
        6 => (prop::option::of(-3.0f64..60.0), prop::bool::weighted(0.15), prop::option::weighted(0.3, 1.0f64..500.0), any::<bool>())
            .prop_map(|(lines, raw, bytes, peek)| Event::Read(Read { lines: lines.map(Into::into), raw, bytes, peek, ..Read::default() })),
    ]
}

fn trace_of(events: Vec<Event>, gate: bool) -> Trace {
    Trace {
        header: Header {
            bgtail_trace: 1,
            name: "fuzz".into(),
            source: Source::HandWritten,
            description: String::new(),
            command: None,
            machine: None,
            job_id: "fuzz-1-1".into(),
            log_path: "/fuzz.log".into(),
            limits: Some({
                let mut limits = Limits::default();
                limits.text_budget = 120;
                limits.line_cap = 30;
                limits.coverage_ranges_max = 3;
                limits.view_max = 4096;
                limits.view_default = 4096;
                limits.scan_lines_max = 50;
                // Reads see a few bytes of tail and count the rest from the line index.
                limits.tail_chunk = 8;
                limits.count_views_up_to = 0;
                limits.mark_spacing = 32;
                limits
            }),
            running_gate: gate,
            harness: None,
        },
        events,
    }
}

proptest! {
    #![proptest_config(bgtail_tests::seeds::config(256))]
    #[test]
    #[ignore = "a long randomised run; see the file's doc"]
    fn fuzz_both_engines_on_arbitrary_bytes(events in prop::collection::vec(event(), 1..80), gate in any::<bool>()) {
        let trace = trace_of(events, gate);
        let limits = trace.limits();
        let _ = replay(&ShippedEngine::new(limits.clone()), &trace);
        let exact = replay(&ExactEngine::new(limits), &trace);
        prop_assert!(exact.tally.contract_held(), "{:?}\n{:?}", exact.tally,
            exact.reads.iter().flat_map(|r| r.problems.clone()).collect::<Vec<_>>());
        // The trace survives its own format.
        let text = trace.to_jsonl();
        prop_assert_eq!(Trace::parse("again", &text).map(|t| t.events.len()).ok(), Some(trace.events.len()));
    }

    #[test]
    #[ignore = "a long randomised run; see the file's doc"]
    fn fuzz_the_parsers_on_mangled_input(events in prop::collection::vec(event(), 1..10), cut in any::<prop::sample::Index>(), junk in "[\\[\\]{}\":,a-z0-9\\\\ \n]{0,40}") {
        let text = trace_of(events, false).to_jsonl();
        let at = cut.index(text.len() + 1);
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let mangled = format!("{}{}{}", &text[..at], junk, &text[at..]);
        let _ = Trace::parse("mangled", &mangled);
        let _ = PiSession::parse("mangled", &mangled);
    }
}
