//! A model path exported as a trace replays the same log, read by read.

use bgtail::source::MemoryLog;
use bgtail::trace::Event;
use bgtail_model::{Action::*, Bytes, LineKind::*, Lines, ModelConfig, TailModel, Times};
use stateright::Model;

#[test]
fn an_exported_path_replays_the_same_bytes_at_every_read() {
    let model = TailModel::exact(ModelConfig {
        max_lines: 8,
        max_reads: Times::Any,
        max_resets: Times::Any,
        ..ModelConfig::ci()
    });
    let path = vec![
        WritePartial,
        Read(2),
        CompletePartial,
        Append(Long),
        Append(Repeated),
        Append(Repeated),
        Append(Repeated),
        SetView(Some(Bytes::Whole(12))),
        Read(1),
        SetView(None),
        RawRead(1),
        ReadOddly(Lines::OneAndAHalf),
        Read(4),
        Truncate,
        Append(Short),
        Read(2),
        Rewrite,
        Read(4),
        Finish,
        Read(4),
    ];
    // The model's log at each read.
    let limits = &model.config.limits;
    let mut state = model.init_states().remove(0);
    let mut expected = Vec::new();
    for action in &path {
        if action.own_read().is_some() {
            expected.push((
                state.render(limits).bytes,
                state.view.map(Bytes::value),
                state.running,
            ));
        }
        state = model.next_state(&state, action.clone()).unwrap();
    }
    // The trace's log at each read.
    let trace = model.to_trace(&path, "export", "every action once");
    let mut log = MemoryLog::new();
    let mut running = true;
    let mut seen = Vec::new();
    for event in &trace.events {
        event.apply_to(&mut log);
        match event {
            Event::Exit(e) => {
                assert!(!e.marker, "the model's job ends without a marker");
                running = false;
            }
            Event::Read(r) => seen.push((log.bytes().to_vec(), r.bytes, running)),
            Event::OtherTool(_) | Event::Remove(_) => unreachable!(),
            _ => {}
        }
    }
    assert_eq!(seen, expected);
    // And it parses back from its own text.
    let text = trace.to_jsonl();
    assert_eq!(bgtail::trace::Trace::parse("export", &text).unwrap(), trace);
}
