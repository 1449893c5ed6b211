//! The model itself: its actions, the model over an engine and its quotient, and the
//! transitions — every read through the real engine, judged by the one judge.

use crate::config::{ModelConfig, Times, MAX_LINES};
use crate::requests::{self, Elapsed, OtherId};
use crate::scope;
use crate::state::{Action, InPlace, LineKind, SeenBytes, TailState};
use bgtail::judge::{
    judge_gated, judge_id, refusal, Anomaly, AnomalyKind, Fields, Flags, ReadInput, Rules,
};
use bgtail::source::{LogSource, SliceLog};
use bgtail::{Engine, ExactEngine, ExactState, Job, Request, ShippedEngine};
use stateright::{Model, Property};
use std::fmt::Debug;

/// One step of an explained path.
#[derive(Clone, Debug)]
pub struct Explained {
    pub action: Action,
    /// The reply's text, for a read.
    pub text: Option<String>,
    /// What the judge found wrong with it.
    pub anomalies: Vec<bgtail::judge::Anomaly>,
}

/// The id and path every read uses.
pub const JOB_ID: &str = "model-1-1";
pub const JOB_PATH: &str = "/model/job.log";

/// The model: an engine, and the bound.
pub struct TailModel<E: Engine> {
    pub engine: E,
    pub config: ModelConfig,
    /// Makes the engine's state after a read the one representative of the states no reply
    /// tells apart, so that a count the engine keeps beyond what it reads (the exact engine
    /// numbers its generations) does not make an unbounded number of resets an unbounded
    /// space. Taken after every read when resets are not counted ([`Times::Any`]), and only
    /// then. `None` where the engine's state is not known (an engine in another process):
    /// resets must then be counted. Held to what it claims by
    /// `model/tests/long_sequences.rs` (every reply of long random paths is the same with
    /// and without it).
    pub quotient: Option<fn(&mut E::State)>,
}

impl<E: Engine> TailModel<E> {
    /// The model over `engine`.
    ///
    /// # Panics
    /// When `config.max_lines` is over [`MAX_LINES`].
    pub fn new(engine: E, config: ModelConfig) -> Self {
        assert!(
            config.max_lines <= MAX_LINES,
            "max_lines {} is over {MAX_LINES}",
            config.max_lines
        );
        TailModel {
            engine,
            config,
            quotient: None,
        }
    }
}

impl TailModel<ExactEngine> {
    /// The model over the exact engine at `config`'s limits.
    pub fn exact(config: ModelConfig) -> Self {
        TailModel {
            quotient: Some(renumber_generations),
            ..TailModel::new(ExactEngine::new(config.limits.clone()), config)
        }
    }
}

/// The exact engine's quotient: every bookmark's generation number made 1. The engine only
/// carries the number forward (the next generation is the last one's plus one) and writes
/// it into the reply's claims (`ShownLine::generation`); it appears in no text, no count and
/// no check of the judge, which tells generations apart by the log itself. So states that
/// differ only in it have the same replies forever after.
pub fn renumber_generations(state: &mut ExactState) {
    for (_, bookmark) in &mut state.bookmarks {
        bookmark.generation = 1;
    }
}

impl TailModel<ShippedEngine> {
    /// The model over the shipped engine at `config`'s limits. Its bookmark holds nothing
    /// but what it read (line counts, sizes, the view's first line): its quotient is the
    /// identity.
    pub fn shipped(config: ModelConfig) -> Self {
        TailModel {
            quotient: Some(|_| {}),
            ..TailModel::new(ShippedEngine::new(config.limits.clone()), config)
        }
    }
}

impl<E> Model for TailModel<E>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    type State = TailState<E::State>;
    type Action = Action;

    fn init_states(&self) -> Vec<Self::State> {
        vec![TailState::empty(E::State::default())]
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        let c = &self.config;
        let used = state.lines.len() + usize::from(state.partial);
        let room = used < c.max_lines as usize;
        if state.job_writes() && !state.partial && room {
            actions.extend(c.kinds.iter().map(|&k| Action::Append(k)));
            if c.partial_lines {
                actions.push(Action::WritePartial);
            }
        }
        // Also after the job exited: its last output can be flushed after a read saw the
        // exit, the one way a line grows after a read took it as complete.
        if state.partial {
            actions.push(Action::CompletePartial);
            if c.grow_partial && state.job_writes() && !state.grew(state.lines.len()) {
                actions.push(Action::GrowPartial);
            }
        }
        if c.max_reads.allows_another(state.reads) {
            actions.extend(c.read_lines.iter().map(|&n| Action::Read(n)));
            actions.extend(c.raw_lines.iter().map(|&n| Action::RawRead(n)));
            actions.extend(c.odd_lines.iter().map(|&l| Action::ReadOddly(l)));
            actions.extend(c.other_ids.iter().map(|&id| Action::ReadAs(id)));
            if state.running {
                actions.extend(c.gated_elapsed.iter().map(|&e| Action::GatedRead(e)));
            }
        }
        for &v in &c.views {
            let next = if state.view == Some(v) { None } else { Some(v) };
            actions.push(Action::SetView(next));
        }
        let has_bytes = !state.lines.is_empty() || state.partial;
        let may_reset = c.max_resets.allows_another(state.resets) && has_bytes;
        if may_reset && c.max_reads.allows_another(state.reads) {
            actions.extend(c.cut_during_read.iter().map(|&n| Action::ReadDuringCut(n)));
        }
        if may_reset {
            if c.truncate {
                actions.push(Action::Truncate);
            }
            if c.rewrite {
                actions.push(Action::Rewrite);
            }
        }
        if c.rewrite_in_place && c.max_resets.allows_another(state.resets) && state.job_writes() {
            if !state.lines.is_empty() {
                actions.push(Action::RewriteLast);
            }
            if state.partial {
                actions.push(Action::RewritePartial);
            }
        }
        if c.finish && state.running {
            actions.push(Action::Finish);
        }
        // The marker ends a partial line in its place, or adds an empty line: then two lines.
        let marker_room = used + 1 + usize::from(!state.partial) <= c.max_lines as usize;
        if c.exit_marker && state.job_writes() && marker_room {
            actions.push(Action::WriteExitMarker);
        }
        scope::retain_in_scope(state, actions, &c.limits);
    }

    fn next_state(&self, last: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut s = last.clone();
        s.last = Flags::default();
        s.race = None;
        if let Some((lines, raw)) = action.own_read() {
            self.read(&mut s, lines, raw);
            return Some(s);
        }
        match action {
            Action::ReadAs(id) => {
                self.read_as(&mut s, id);
            }
            Action::GatedRead(elapsed) => {
                self.gated_read(&mut s, elapsed);
            }
            Action::ReadDuringCut(lines) => {
                self.config.max_resets.count(&mut s.resets);
                self.read_during_cut(&mut s, lines);
            }
            other => {
                if other.is_reset() {
                    self.config.max_resets.count(&mut s.resets);
                }
                if let Some(regime) = scope::rewrite_behind_head(&s, &other, &self.config.limits) {
                    s.unread_rewrite = Some(regime);
                }
                s.apply_to_log(&other);
            }
        }
        Some(s)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        let mut properties = vec![
            Property::always("nothing lost", |_, s: &Self::State| !s.last.lost),
            Property::always("progress", |_, s: &Self::State| !s.last.stalled),
            Property::always("repeats bounded", |_, s: &Self::State| !s.last.repeated),
            Property::always("honest counts", |_, s: &Self::State| !s.last.dishonest),
            Property::always("resets seen", |_, s: &Self::State| !s.last.wrong_reset),
            Property::always("bounded output", |_, s: &Self::State| !s.last.over_budget),
        ];
        if !self.config.other_ids.is_empty() {
            properties.push(Property::always("ids checked", |_, s: &Self::State| {
                !s.last.wrong_refusal
            }));
        }
        properties.extend([
            Property::sometimes("a widening returned earlier lines", |_, s: &Self::State| {
                s.last.earlier_returned
            }),
            Property::sometimes("the budget left lines out", |_, s: &Self::State| {
                s.last.left_out
            }),
            Property::sometimes("a reset was reported", |_, s: &Self::State| {
                s.last.reset_reported
            }),
            Property::sometimes("a partial line was completed", |_, s: &Self::State| {
                s.last.partial_completed
            }),
            Property::sometimes("coverage overflow forgot a range", |_, s: &Self::State| {
                s.last.forgot
            }),
            Property::sometimes("a fold was emitted", |_, s: &Self::State| s.last.folded),
        ]);
        if self.config.reaches_fold_pairs() {
            properties.push(Property::sometimes(
                "a fold beside the budget's overflow",
                |_, s: &Self::State| s.last.folded && s.last.left_out,
            ));
            properties.push(Property::sometimes(
                "a fold beside coverage overflow",
                |_, s: &Self::State| s.last.folded && s.last.forgot,
            ));
        }
        properties.extend(self.end_and_rewrite_properties());
        if self.config.reaches_view_inside_partial() {
            properties.push(Property::sometimes(
                "a read's view started inside its partial line",
                |_, s: &Self::State| s.last.view_inside_partial,
            ));
        }
        if self.config.grow_partial && self.config.reaches_view_inside_partial() {
            properties.push(Property::sometimes(
                "a read's view started inside a partial line that grew",
                |_, s: &Self::State| s.last.view_inside_partial && s.grew(s.lines.len()),
            ));
        }
        if self.config.reaches_skipped_in_cut_view() {
            properties.push(Property::sometimes(
                "a view the line bound cut held lines skipped above the window",
                |_, s: &Self::State| s.last.bound_cut && s.last.skipped_above,
            ));
        }
        if self.config.kinds.contains(&LineKind::Styled) {
            properties.push(Property::sometimes(
                "a condensed read stripped a line's escape sequences",
                |_, s: &Self::State| s.last.escapes_stripped,
            ));
        }
        properties.extend(self.request_properties());
        properties.extend(self.race_properties());
        // Only where a log can hold as many `\n` bytes as the bound (`a\nb\n` is cut at a
        // bound of 2): elsewhere no read can reach it, and a `sometimes` that cannot be
        // reached would fail every check.
        if usize::from(self.config.max_lines) >= self.config.limits.scan_lines_max {
            properties.push(Property::sometimes(
                "upstream's line bound cut the view",
                |_, s: &Self::State| s.last.bound_cut,
            ));
        }
        properties
    }

    fn within_boundary(&self, s: &Self::State) -> bool {
        let c = &self.config;
        s.lines.len() + usize::from(s.partial) <= c.max_lines as usize
            && c.max_reads.contains(s.reads)
            && c.max_resets.contains(s.resets)
    }
}

impl<E> TailModel<E>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    /// The `sometimes` of the job's own rewrites in place behind the head and of its end (the
    /// wrapper's exit marker), where the bound makes them.
    fn end_and_rewrite_properties(&self) -> Vec<Property<Self>> {
        let mut properties = Vec::new();
        if self.config.rewrite_in_place {
            properties.push(Property::sometimes(
                "a seen last line rewritten behind the head",
                |_, s: &TailState<E::State>| s.unread_rewrite == Some(InPlace::LastLine),
            ));
            properties.push(Property::sometimes(
                "a seen partial line redrawn behind the head",
                |_, s: &TailState<E::State>| s.unread_rewrite == Some(InPlace::PartialLine),
            ));
        }
        if self.config.exit_marker {
            properties.push(Property::sometimes(
                "a read found the exit marker while the caller said the job runs",
                |_, s: &TailState<E::State>| s.last.exit_marker && s.running,
            ));
            properties.push(Property::sometimes(
                "the exit marker's newline completed a shown partial line",
                |_, s: &TailState<E::State>| {
                    // Nothing follows the marker, so the completed line is the one it ended.
                    s.last.partial_completed
                        && s.lines.ends_with(&[LineKind::Ended, LineKind::ExitMarker])
                },
            ));
        }
        properties
    }

    /// The `sometimes` of the requests a bound makes beyond plain reads
    /// ([`crate::requests`]): each way it asks for a view, reads by ids upstream refuses, reads
    /// the running-job gate holds back.
    fn request_properties(&self) -> Vec<Property<Self>> {
        let mut properties = Vec::new();
        let refuses = |id: &OtherId| refusal(&id.text()).is_some();
        if self.config.other_ids.iter().any(refuses) {
            properties.push(Property::sometimes(
                "a read named the job by an id upstream refuses",
                |_, s: &TailState<E::State>| s.last.id_refused,
            ));
        }
        if !self.config.gated_elapsed.is_empty() {
            properties.push(Property::sometimes(
                "the running-job gate held a read back",
                |_, s: &TailState<E::State>| s.last.gated,
            ));
        }
        let c = &self.config;
        let [defaulted, floored, capped] = requests::asks_views_oddly(&c.views, c.limits.view_max);
        if defaulted {
            properties.push(Property::sometimes(
                "a read asked for a view by a number not positive and finite",
                |_, s: &TailState<E::State>| s.last.view_defaulted,
            ));
        }
        if floored {
            properties.push(Property::sometimes(
                "a read asked for a view by a fraction",
                |_, s: &TailState<E::State>| s.last.view_floored,
            ));
        }
        if capped {
            properties.push(Property::sometimes(
                "a read asked for a view past the largest",
                |_, s: &TailState<E::State>| s.last.view_capped,
            ));
        }
        let [nan, fraction, below_one, infinite] = requests::asks_windows_oddly(&c.odd_lines);
        type Reached<E> = fn(&TailModel<E>, &TailState<<E as Engine>::State>) -> bool;
        let windows: [(bool, &'static str, Reached<E>); 4] = [
            (nan, "a read asked for a window by NaN", |_, s| {
                s.last.lines_defaulted
            }),
            (
                fraction,
                "a read asked for a window by a fraction",
                |_, s| s.last.lines_floored,
            ),
            (
                below_one,
                "a read asked for a window below 1 line",
                |_, s| s.last.lines_raised,
            ),
            (
                infinite,
                "a read asked for a window past every line",
                |_, s| s.last.lines_unbounded,
            ),
        ];
        for (asked, name, reached) in windows {
            if asked {
                properties.push(Property::sometimes(name, reached));
            }
        }
        properties
    }
}

impl<E: Engine> TailModel<E> {
    /// One read through the real engine, judged by the one judge from its text: the reply's
    /// text and the verdict (none when an engine in another process failed).
    pub(crate) fn read(
        &self,
        s: &mut TailState<E::State>,
        lines: f64,
        raw: bool,
    ) -> Option<(String, bgtail::judge::Verdict)> {
        let log = s.render(&self.config.limits).bytes;
        self.read_from(s, &log, &Self::log_of(&log), lines, raw)
    }

    /// [`Self::read`] of the state's log `log` (its bytes, rendered), the engine reading it
    /// through `source` (a read during a cut measures it longer first: `model/src/race.rs`).
    pub(crate) fn read_from(
        &self,
        s: &mut TailState<E::State>,
        log: &[u8],
        source: &dyn LogSource,
        lines: f64,
        raw: bool,
    ) -> Option<(String, bgtail::judge::Verdict)> {
        self.config.max_reads.count(&mut s.reads);
        s.unread_rewrite = None;
        let request = s.request(lines, raw);
        // The model's id is valid, so only an engine in another process that failed refuses
        // a read: nothing to judge, and the caller reports the failure when the check ends.
        let job = Job {
            id: JOB_ID,
            path: JOB_PATH,
        };
        let reply = self
            .engine
            .read(&mut s.engine, job, source, &request)
            .ok()?;
        // Only where resets are not counted: a counted bound is finite as it is, and there the
        // states stay the engine's own, comparable with an engine in another process.
        if let (Times::Any, Some(quotient)) = (self.config.max_resets, self.quotient) {
            quotient(&mut s.engine);
        }
        let shown = reply.shown_ranges();
        let verdict = s.judge.judge(
            &self.rules(),
            &ReadInput {
                log,
                file: 0,
                request: &request,
                text: &reply.text,
                shown: self.engine.reports_shown().then_some(&shown[..]),
                fields: Some(if self.engine.reports_fields() {
                    Fields::of_reply(&reply)
                } else {
                    Fields::of_details(Some(&reply.details))
                }),
            },
        );
        s.last = verdict.flags;
        // A flag no property of this bound reads would only split states: kept where one does.
        s.last.skipped_above &= self.config.reaches_skipped_in_cut_view();
        s.seen = SeenBytes(log.to_vec());
        Some((reply.text, verdict))
    }

    /// The model's log as an engine reads it: `bytes` at the model's path, always the same
    /// file (a rewrite changes it in place).
    pub(crate) fn log_of(bytes: &[u8]) -> SliceLog<'_> {
        SliceLog {
            bytes,
            file_number: 0,
            missing: false,
        }
    }

    /// One call of the engine on `log`, the job named `id` at the model's path.
    fn call(
        &self,
        engine: &mut E::State,
        log: &[u8],
        id: &str,
        request: &Request,
    ) -> Result<bgtail::Reply, bgtail::Rejected> {
        let job = Job { id, path: JOB_PATH };
        self.engine.read(engine, job, &Self::log_of(log), request)
    }

    /// A read naming the job by `id`, held to the contract's id rule alone
    /// ([`bgtail::judge::judge_id`]): a refusal has no text to judge, and an answer is a read
    /// of another job. Made on a copy of the engine's bookmarks, so that the model's job keeps
    /// its own; a refusal that changed the copy changed a bookmark, which the rule forbids.
    /// What the judge found wrong, if anything.
    pub(crate) fn read_as(&self, s: &mut TailState<E::State>, id: OtherId) -> Option<Anomaly> {
        self.config.max_reads.count(&mut s.reads);
        let rendered = s.render(&self.config.limits);
        let text = id.text();
        let mut engine = s.engine.clone();
        let outcome = self.call(&mut engine, &rendered.bytes, &text, &s.request(1.0, false));
        let refused = outcome.as_ref().err().map(|r| r.0.as_str());
        let anomaly = judge_id(&text, refused, engine != s.engine);
        s.last.wrong_refusal = anomaly.is_some();
        s.last.id_refused = refusal(&text).is_some();
        anomaly
    }

    /// A read without `peek` while the caller says the job runs, passing `elapsed`: the gate
    /// holds it back, and its reply is held to the gate's rule alone
    /// ([`bgtail::judge::judge_gated`]), bookmarks included: the read is made on the model's
    /// own, which must come back as they were. What the judge found wrong.
    pub(crate) fn gated_read(&self, s: &mut TailState<E::State>, elapsed: Elapsed) -> Vec<Anomaly> {
        self.config.max_reads.count(&mut s.reads);
        let rendered = s.render(&self.config.limits);
        let request = Request {
            peek: false,
            elapsed_secs: elapsed.value(),
            ..s.request(1.0, false)
        };
        let before = s.engine.clone();
        // As in `read`: only an engine in another process that failed refuses the model's id.
        let Ok(reply) = self.call(&mut s.engine, &rendered.bytes, JOB_ID, &request) else {
            return Vec::new();
        };
        let found = judge_gated(request.elapsed_secs, &reply.text, s.engine != before);
        for anomaly in &found {
            match anomaly.kind {
                AnomalyKind::Lost => s.last.lost = true,
                _ => s.last.dishonest = true,
            }
        }
        s.last.gated = true;
        found
    }

    /// A path replayed step by step: each read's reply and what the judge found in it, so
    /// that a counterexample names its anomaly, line, expectation and reply.
    pub fn explain(&self, path: &[Action]) -> Vec<Explained> {
        let mut s = TailState::empty(E::State::default());
        path.iter()
            .map(|action| {
                s.last = Flags::default();
                s.race = None;
                let read = match (action.own_read(), action) {
                    (Some((lines, raw)), _) => self.read(&mut s, lines, raw),
                    (None, Action::ReadAs(id)) => {
                        let anomaly = self.read_as(&mut s, *id);
                        return Explained {
                            action: action.clone(),
                            text: None,
                            anomalies: anomaly.into_iter().collect(),
                        };
                    }
                    (None, Action::ReadDuringCut(lines)) => self.read_during_cut(&mut s, *lines),
                    (None, Action::GatedRead(elapsed)) => {
                        return Explained {
                            action: action.clone(),
                            text: None,
                            anomalies: self.gated_read(&mut s, *elapsed),
                        };
                    }
                    (None, other) => {
                        s.apply_to_log(other);
                        None
                    }
                };
                Explained {
                    action: action.clone(),
                    text: read.as_ref().map(|r| r.0.clone()),
                    anomalies: read.map(|r| r.1.anomalies).unwrap_or_default(),
                }
            })
            .collect()
    }

    /// What the judge holds this model's engine to: its text format and its limits.
    pub fn rules(&self) -> Rules {
        bgtail::replay::rules_of(&self.engine)
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[test]
    #[should_panic(expected = "max_lines 65 is over 64")]
    fn a_bound_past_64_lines_is_refused() {
        let mut config = ModelConfig::issue_28_gap();
        config.max_lines = 65;
        TailModel::exact(config);
    }
}
