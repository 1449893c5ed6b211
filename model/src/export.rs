//! A path of the model as a replayable trace.

use crate::model::{TailModel, JOB_ID, JOB_PATH};
use crate::requests::Bytes;
use crate::state::Action;
use crate::state::TailState;
use bgtail::trace::{self, Event, Trace, Write};
use bgtail::{Engine, Limits};

impl<E: Engine> TailModel<E> {
    /// A path of the model as a replayable trace: the same bytes, the same reads, the
    /// model's limits in the header.
    pub fn to_trace(&self, actions: &[Action], name: &str, description: &str) -> Trace {
        let limits = &self.config.limits;
        let mut events = Vec::new();
        let mut state = TailState::empty(());
        for action in actions {
            if let Some((lines, raw)) = action.own_read() {
                events.push(read_event(&state, lines, raw));
                continue;
            }
            match action {
                // A trace's reads name its one job: a read of another id, which changes no
                // bookmark of that job, is left out.
                Action::ReadAs(_) => {}
                // A trace's read carries no elapsed time, and the gate's reply changes nothing a
                // later read sees: left out.
                Action::GatedRead(_) => {}
                Action::Finish => {
                    state.apply_to_log(action);
                    events.push(Event::Exit(trace::Exit {
                        t: None,
                        code: 0,
                        marker: false,
                    }));
                }
                // A trace has no race: a read during a cut is written as the cut, then the
                // read, which the contract answers alike (`model/src/race.rs`).
                Action::ReadDuringCut(lines) => {
                    events.extend(change_event(&mut state, action, limits));
                    events.push(read_event(&state, f64::from(*lines), false));
                }
                _ => events.extend(change_event(&mut state, action, limits)),
            }
        }
        Trace {
            header: trace::Header {
                bgtail_trace: trace::VERSION,
                name: name.to_owned(),
                source: trace::Source::Counterexample,
                description: description.to_owned(),
                command: None,
                machine: None,
                job_id: JOB_ID.to_owned(),
                log_path: JOB_PATH.to_owned(),
                limits: Some(limits.clone()),
                running_gate: false,
                harness: None,
            },
            events,
        }
    }
}

/// A read of `lines` from `state`, in the agent's view.
fn read_event(state: &TailState<()>, lines: f64, raw: bool) -> Event {
    // A `lines` JSON cannot carry (NaN, +Infinity), which only a JavaScript caller passes, is
    // held as it is in the trace; its JSON text writes `null`, which the trace format reads as
    // JSON's `null` (0, then 1 line).
    Event::Read(trace::Read {
        lines: Some(lines.into()),
        raw,
        bytes: state.view.map(Bytes::value),
        ..trace::Read::default()
    })
}

/// The same change the model makes, written as the bytes it changed: an append, a cut, or
/// the log written anew; nothing where the bytes stay (a change of view).
fn change_event(state: &mut TailState<()>, action: &Action, limits: &Limits) -> Option<Event> {
    let before = state.render(limits).bytes;
    state.apply_to_log(action);
    let after = state.render(limits).bytes;
    if after.starts_with(&before) {
        (after.len() > before.len())
            .then(|| Event::Append(Write::new(None, &after[before.len()..])))
    } else if before.starts_with(&after) {
        Some(Event::Truncate(trace::Truncate {
            t: None,
            len: after.len() as u64,
        }))
    } else {
        Some(Event::Rewrite(Write::new(None, &after)))
    }
}
