//! A stateright model of one job's log read by one agent, driving the **real** engines.
//!
//! The state is the log as a few line kinds, what the agent was really delivered (the
//! crate's one judge, [`bgtail::judge::Judge`], which reads each reply's text), the engine's
//! bookmarks, and the verdict's flags on the last reply. Actions append, write and complete a partial line, read
//! (condensed for each configured `lines`, and raw), change the view, truncate, rewrite in
//! place, and finish the job. Each read calls the engine from the `bgtail` crate on the
//! rendered bytes: there is no second copy of the read logic here.
//!
//! The space is bounded by the log's length; reads and resets are counted only where a
//! bound says how many ([`Times`]), so a bound that takes any number of them covers
//! sequences of every length over its logs.
//!
//! The contract's guarantees (`docs/contract.md`) are `always` properties; the
//! paths they need to be meaningful are `sometimes` properties, so a model that never reaches
//! the budget, a reset, a partial line, coverage overflow or a fold fails instead of passing
//! vacuously.

pub mod induction;

use bgtail::judge::{Flags, Judge, ReadInput, Rules};
use bgtail::source::SliceLog;
use bgtail::trace::{self, Event, Trace, Write};
use bgtail::{Engine, ExactEngine, ExactState, Job, Limits, Request, ShippedEngine};
use stateright::{Model, Property};
use std::fmt::Debug;
use std::hash::Hash;

pub use bgtail::judge::Flags as ReplyVerdict;

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

/// What a line of the model's log looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum LineKind {
    /// A short line, unique in the log.
    Short,
    /// A line longer than the per-line cap.
    Long,
    /// The same text every time, so that three in a row fold.
    Repeated,
    /// Whitespace only: not a content line.
    Blank,
    /// A line in the wrapper's `__BGRUN_` namespace: not a content line.
    Wrapper,
    /// A partial line the job has finished: the partial text and `PARTIAL_REST`.
    Completed,
}

/// A step of the model: what the agent or the job does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Action {
    /// The job writes a complete line.
    Append(LineKind),
    /// The job writes the first part of a line, without its newline.
    WritePartial,
    /// The job finishes the partial line — also after it exited (output flushed late).
    CompletePartial,
    /// A condensed read with this `lines` (wider than before is the widening).
    Read(u8),
    /// A raw read with this `lines`.
    RawRead(u8),
    /// The agent passes this `bytes` view from now on (`None`: the default).
    SetView(Option<u16>),
    /// The log is cut to its first half (a new generation).
    Truncate,
    /// The log is rewritten in place with other bytes of the same length.
    Rewrite,
    /// The job exits: its trailing line, if any, is complete from now on.
    Finish,
}

/// How many times a path of the model may read, or reset the log.
///
/// With [`Times::Any`] the state keeps no counter for it. A read changes only the bookmarks,
/// what the judge knows was delivered and the last reply's flags; a reset changes only the
/// log. Each is bounded by the log, which `max_lines` bounds — once the engine's state is
/// taken up to what no reply tells apart ([`TailModel::quotient`]: the exact engine numbers
/// its generations) — so the reachable space stays finite, and a check of it covers
/// sequences of **every** length: a step that changes nothing leads back to a state already
/// visited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Times {
    /// Any number of times.
    Any,
    /// At most this many: the state counts them (random sequences need a horizon; an
    /// engine in another process is slow enough that a few reads is what a check affords).
    AtMost(u8),
}

impl Times {
    /// Whether a path that did it `done` times may do it again.
    pub fn allows_another(self, done: u8) -> bool {
        match self {
            Times::Any => true,
            Times::AtMost(max) => done < max,
        }
    }

    /// Whether `done` is inside the bound.
    pub fn contains(self, done: u8) -> bool {
        match self {
            Times::Any => true,
            Times::AtMost(max) => done <= max,
        }
    }

    /// Counts one more into `done`, where the bound counts: under [`Times::Any`] the counter
    /// stays 0, so that states differing only in how they were reached are one.
    pub fn count(self, done: &mut u8) {
        if let Times::AtMost(_) = self {
            *done = done.saturating_add(1);
        }
    }
}

impl std::fmt::Display for Times {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Times::Any => f.write_str("any"),
            Times::AtMost(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for Times {
    type Err = String;

    /// `any`, or a count from 0 to 255.
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "any" {
            return Ok(Times::Any);
        }
        s.parse()
            .map(Times::AtMost)
            .map_err(|_| format!("{s:?} is neither `any` nor a count from 0 to 255"))
    }
}

/// Which engine the model drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    Exact,
    Shipped,
}

/// The bound and the action families of one model.
#[derive(Clone, Debug)]
pub struct ModelConfig {
    /// The engine's limits, scaled down so that a few short lines reach every path.
    pub limits: Limits,
    /// At most this many lines (complete or partial) in the log.
    pub max_lines: u8,
    /// How many reads (condensed and raw) a path may make.
    pub max_reads: Times,
    /// How many truncations and rewrites together a path may make.
    pub max_resets: Times,
    /// The `lines` of condensed reads.
    pub read_lines: Vec<u8>,
    /// The `lines` of raw reads (empty: no raw reads).
    pub raw_lines: Vec<u8>,
    /// The `bytes` views the agent may switch to (empty: never changes the view).
    pub views: Vec<u16>,
    /// The kinds of complete lines the job appends.
    pub kinds: Vec<LineKind>,
    pub partial_lines: bool,
    pub truncate: bool,
    pub rewrite: bool,
    pub finish: bool,
}

impl ModelConfig {
    /// Limits small enough that two long lines overflow the budget and two disjoint covered
    /// runs overflow the coverage (one range kept).
    pub fn tiny_limits() -> Limits {
        let mut limits = Limits::default();
        limits.text_budget = 40;
        limits.line_cap = 8;
        limits.coverage_ranges_max = 1;
        limits.view_default = 4096;
        limits.view_max = 4096;
        limits.scan_lines_max = 64;
        // A few bytes, so that reads see only the log's tail and count the rest from the
        // bookmark's line index: the model checks that path, not only the whole-view one.
        limits.tail_chunk = 4;
        limits.mark_spacing = 8;
        // Small views counted lazily too, or the index path would never be taken.
        limits.count_views_up_to = 0;
        limits
    }

    /// The configuration CI checks the exact engine on: every action family, content lines
    /// of three kinds, up to 4 lines and 1 reset, any number of reads.
    pub fn ci() -> Self {
        ModelConfig {
            limits: Self::tiny_limits(),
            max_lines: 4,
            max_reads: Times::Any,
            max_resets: Times::AtMost(1),
            read_lines: vec![1, 2, 4],
            raw_lines: vec![1],
            views: vec![12],
            kinds: vec![LineKind::Short, LineKind::Long, LineKind::Repeated],
            partial_lines: true,
            truncate: true,
            rewrite: true,
            finish: true,
        }
    }

    /// The second CI configuration: blank and wrapper lines among content lines, up to 3 lines
    /// and 1 reset, any number of reads.
    pub fn ci_non_content() -> Self {
        ModelConfig {
            max_lines: 3,
            kinds: vec![
                LineKind::Short,
                LineKind::Blank,
                LineKind::Wrapper,
                LineKind::Repeated,
            ],
            ..Self::ci()
        }
    }

    /// Upstream's line bound within reach: CI's second configuration with a bound of 2 `\n`
    /// bytes, so that a view holding two or more is cut to the lines after its second-to-last.
    /// Blank and wrapper lines make the `\n` bytes the bound counts differ from the content
    /// lines a reply counts. (At the CI limits' bound of 64 no read of a model's log is cut, so
    /// the other bounds leave the engine's handling of the line bound unchecked.)
    pub fn line_bound() -> Self {
        let mut limits = Self::tiny_limits();
        limits.scan_lines_max = 2;
        ModelConfig {
            limits,
            ..Self::ci_non_content()
        }
    }

    /// Issue #28's world: appends and condensed reads of two widths, nothing else. The
    /// shipped engine's gap symptom needs only this.
    pub fn issue_28_gap() -> Self {
        ModelConfig {
            limits: Self::tiny_limits(),
            max_lines: 4,
            max_reads: Times::AtMost(3),
            max_resets: Times::AtMost(0),
            read_lines: vec![1, 3],
            raw_lines: vec![],
            views: vec![],
            kinds: vec![LineKind::Short],
            partial_lines: false,
            truncate: false,
            rewrite: false,
            finish: false,
        }
    }

    /// Issue #28's cap symptom: long lines that overflow the budget, condensed reads.
    pub fn issue_28_cap() -> Self {
        ModelConfig {
            kinds: vec![LineKind::Short, LineKind::Long],
            read_lines: vec![1, 2],
            ..Self::issue_28_gap()
        }
    }

    /// The budget's edge: long, repeated and completed lines, read four at a time, so that a
    /// body can fill the budget to the unit (with the tiny limits, a long line's emission
    /// costs 21, a completed one 8, a repeated one 6: 21 + 8 + 6 + 6 = 41, one over).
    pub fn budget_edge() -> Self {
        ModelConfig {
            limits: Self::tiny_limits(),
            max_lines: 4,
            max_reads: Times::AtMost(2),
            max_resets: Times::AtMost(0),
            read_lines: vec![4],
            raw_lines: vec![],
            views: vec![],
            kinds: vec![LineKind::Long, LineKind::Repeated],
            partial_lines: true,
            truncate: false,
            rewrite: false,
            finish: false,
        }
    }

    /// Upstream's real limits and a long horizon, for random sequences far beyond what the
    /// checker can enumerate.
    pub fn long_random() -> Self {
        ModelConfig {
            limits: Limits::default(),
            max_lines: 60,
            max_reads: Times::AtMost(80),
            max_resets: Times::AtMost(4),
            read_lines: vec![1, 2, 3, 5, 10, 40, 144],
            raw_lines: vec![2, 40],
            views: vec![300, 1200],
            kinds: vec![
                LineKind::Short,
                LineKind::Long,
                LineKind::Repeated,
                LineKind::Blank,
                LineKind::Wrapper,
            ],
            partial_lines: true,
            truncate: true,
            rewrite: true,
            finish: true,
        }
    }

    /// This bound for an engine with other limits (an engine in another process declares
    /// its own): long lines are longer than its per-line cap, and the widest condensed read is
    /// widened, with the line bound, until that many long lines overflow its budget. The
    /// identity for the limits the bound was made for.
    pub fn for_limits(mut self, limits: Limits) -> Self {
        // A long line's capped emission, `s<i>xx… …[+<n> chars]`, costs the cap plus 13 units
        // (with its newline) for a one-digit index.
        let overflow = limits.text_budget / (limits.line_cap + 13) + 1;
        let overflow = u8::try_from(overflow).unwrap_or(u8::MAX).min(MAX_LINES);
        let widest = self.read_lines.iter().copied().max().unwrap_or(1);
        if self.kinds.contains(&LineKind::Long) && widest >= 2 && widest < overflow {
            for w in &mut self.read_lines {
                if *w >= 2 {
                    *w = (*w).max(overflow);
                }
            }
            self.read_lines.dedup();
            self.max_lines = self.max_lines.max(overflow);
        }
        self.limits = limits;
        self
    }

    /// The inductive check's model: CI's families and kinds, logs of up to `max_lines`
    /// lines, and every action enabled in every state (reads are not counted, and one reset
    /// is allowed, as the reset counter starts at zero in every state the check enumerates).
    pub fn induction(max_lines: u8) -> Self {
        ModelConfig {
            max_lines,
            max_reads: Times::Any,
            max_resets: Times::AtMost(1),
            ..Self::ci()
        }
    }

    /// Every sequence of any length over small logs: CI's families and kinds, logs of up to
    /// 3 lines, any number of reads and of resets. With the engine's quotient the reachable
    /// space is finite, so the check covers every path — a proof by reachability of what the
    /// inductive check proves from its invariant.
    pub fn any_length() -> Self {
        ModelConfig {
            max_lines: 3,
            max_resets: Times::Any,
            ..Self::ci()
        }
    }

    /// A deeper bound for the command line: CI's families and kinds, up to 5 lines, any
    /// number of reads.
    pub fn deep() -> Self {
        ModelConfig {
            max_lines: 5,
            ..Self::ci()
        }
    }
}

/// The model's state: the log, what the judge knows was delivered, the engine's bookmarks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TailState<S> {
    /// Complete lines, oldest first.
    pub lines: Vec<LineKind>,
    /// Whether a partial line (the start of line `lines.len()`) ends the log.
    pub partial: bool,
    /// Flipped by a rewrite: every line's text changes, its length does not.
    pub variant: bool,
    pub running: bool,
    /// The `bytes` the agent passes.
    pub view: Option<u16>,
    /// Reads made so far; always 0 under [`Times::Any`], where nothing counts them.
    pub reads: u8,
    /// Truncations and rewrites made so far; likewise.
    pub resets: u8,
    /// The engine's bookmarks.
    pub engine: S,
    /// What the agent was delivered, as the judge read it from the replies.
    pub judge: Judge,
    /// The verdict's flags on the last reply (cleared by every other action).
    pub last: Flags,
}

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

/// The most lines a model's log may hold: line texts are numbered by index, and a bound this
/// size is already far past what a check can enumerate.
pub const MAX_LINES: u8 = 64;

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

/// The bytes of the log a state describes, and where each line starts.
pub struct Rendered {
    pub bytes: Vec<u8>,
    /// Start offset of every line (complete ones, then the partial one), by index.
    pub starts: Vec<u64>,
}

/// A line's text. Unique per index for short and long lines; a rewrite (`variant`) changes
/// one character and keeps the length.
pub fn line_text(index: usize, kind: LineKind, variant: bool, limits: &Limits) -> String {
    let mut text = Vec::new();
    push_line_text(&mut text, index, kind, variant, limits);
    String::from_utf8(text).expect("line texts are ASCII")
}

/// Appends [`line_text`] to `bytes`: the log is rebuilt on every transition, so without a
/// `String` for each line.
pub fn push_line_text(
    bytes: &mut Vec<u8>,
    index: usize,
    kind: LineKind,
    variant: bool,
    limits: &Limits,
) {
    let c = if variant { b't' } else { b's' };
    match kind {
        LineKind::Short => push_name(bytes, c, index),
        LineKind::Long => {
            push_name(bytes, c, index);
            bytes.resize(bytes.len() + limits.line_cap + 2, b'x');
        }
        LineKind::Repeated => bytes.extend_from_slice(if variant { b"Again" } else { b"again" }),
        LineKind::Blank => bytes.extend_from_slice(b"  "),
        LineKind::Wrapper => {
            bytes.extend_from_slice(if variant { b"__BGRUN_Y" } else { b"__BGRUN_X" })
        }
        LineKind::Completed => {
            push_partial_text(bytes, index, variant);
            bytes.extend_from_slice(PARTIAL_REST.as_bytes());
        }
    }
}

/// The first part of the partial line at `index`; completing it appends `PARTIAL_REST`.
pub fn partial_text(index: usize, variant: bool) -> String {
    let mut text = Vec::new();
    push_partial_text(&mut text, index, variant);
    String::from_utf8(text).expect("partial texts are ASCII")
}

/// Appends [`partial_text`] to `bytes`.
fn push_partial_text(bytes: &mut Vec<u8>, index: usize, variant: bool) {
    push_name(bytes, if variant { b'q' } else { b'p' }, index);
}

/// Appends a letter and `index` in decimal (`s12`), without the formatting machinery: the
/// model writes every line of its log on every transition.
fn push_name(bytes: &mut Vec<u8>, letter: u8, index: usize) {
    bytes.push(letter);
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    bytes.extend_from_slice(&digits[at..]);
}
pub const PARTIAL_REST: &str = "-done";

impl<S> TailState<S> {
    /// An empty log of a running job, read by nobody yet.
    pub fn empty(engine: S) -> Self {
        TailState {
            lines: Vec::new(),
            partial: false,
            variant: false,
            running: true,
            view: None,
            reads: 0,
            resets: 0,
            engine,
            judge: Judge::default(),
            last: Flags::default(),
        }
    }

    /// What an action does to the log and to the agent's settings: everything but a read.
    pub fn apply_to_log(&mut self, action: &Action) {
        match action {
            Action::Append(kind) => self.lines.push(*kind),
            Action::WritePartial => self.partial = true,
            Action::CompletePartial => {
                // The completed line keeps the partial line's start; its text grows.
                self.partial = false;
                self.lines.push(LineKind::Completed);
            }
            Action::SetView(v) => self.view = *v,
            Action::Truncate => {
                self.lines.truncate(self.lines.len() / 2);
                self.partial = false;
            }
            Action::Rewrite => self.variant = !self.variant,
            Action::Finish => self.running = false,
            Action::Read(_) | Action::RawRead(_) => {}
        }
    }

    pub fn render(&self, limits: &Limits) -> Rendered {
        let mut bytes = Vec::new();
        let mut starts = Vec::with_capacity(self.lines.len() + 1);
        for (i, &kind) in self.lines.iter().enumerate() {
            starts.push(bytes.len() as u64);
            push_line_text(&mut bytes, i, kind, self.variant, limits);
            bytes.push(b'\n');
        }
        if self.partial {
            starts.push(bytes.len() as u64);
            push_partial_text(&mut bytes, self.lines.len(), self.variant);
        }
        Rendered { bytes, starts }
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
        let room = state.lines.len() + usize::from(state.partial) < c.max_lines as usize;
        if state.running && !state.partial && room {
            actions.extend(c.kinds.iter().map(|&k| Action::Append(k)));
            if c.partial_lines {
                actions.push(Action::WritePartial);
            }
        }
        // Also after the job exited: its last output can be flushed after a read saw the
        // exit, the one way a line grows after a read took it as complete.
        if state.partial {
            actions.push(Action::CompletePartial);
        }
        if c.max_reads.allows_another(state.reads) {
            actions.extend(c.read_lines.iter().map(|&n| Action::Read(n)));
            actions.extend(c.raw_lines.iter().map(|&n| Action::RawRead(n)));
        }
        for &v in &c.views {
            let next = if state.view == Some(v) { None } else { Some(v) };
            actions.push(Action::SetView(next));
        }
        let has_bytes = !state.lines.is_empty() || state.partial;
        if c.max_resets.allows_another(state.resets) && has_bytes {
            if c.truncate {
                actions.push(Action::Truncate);
            }
            if c.rewrite {
                actions.push(Action::Rewrite);
            }
        }
        if c.finish && state.running {
            actions.push(Action::Finish);
        }
    }

    fn next_state(&self, last: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut s = last.clone();
        s.last = Flags::default();
        match action {
            Action::Read(n) => {
                self.read(&mut s, n, false);
            }
            Action::RawRead(n) => {
                self.read(&mut s, n, true);
            }
            other => {
                if matches!(other, Action::Truncate | Action::Rewrite) {
                    self.config.max_resets.count(&mut s.resets);
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
            Property::always("bounded output", |_, s: &Self::State| !s.last.over_budget),
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
        ];
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

impl<E: Engine> TailModel<E> {
    /// One read through the real engine, judged by the one judge from its text: the reply's
    /// text and the verdict (none when an engine in another process failed).
    fn read(
        &self,
        s: &mut TailState<E::State>,
        lines: u8,
        raw: bool,
    ) -> Option<(String, bgtail::judge::Verdict)> {
        self.config.max_reads.count(&mut s.reads);
        let limits = &self.config.limits;
        let rendered = s.render(limits);
        let log = SliceLog {
            bytes: &rendered.bytes,
            file_number: 0,
            missing: false,
        };
        let request = Request {
            lines: Some(f64::from(lines)),
            raw,
            bytes: s.view.map(f64::from),
            peek: true,
            running: s.running,
            elapsed_secs: None,
        };
        let job = Job {
            id: JOB_ID,
            path: JOB_PATH,
        };
        // The model's id is valid, so only an engine in another process that failed refuses
        // a read: nothing to judge, and the caller reports the failure when the check ends.
        let reply = self.engine.read(&mut s.engine, job, &log, &request).ok()?;
        // Only where resets are not counted: a counted bound is finite as it is, and there the
        // states stay the engine's own, comparable with an engine in another process.
        if let (Times::Any, Some(quotient)) = (self.config.max_resets, self.quotient) {
            quotient(&mut s.engine);
        }
        let shown = reply.shown_ranges();
        let verdict = s.judge.judge(
            &self.rules(),
            &ReadInput {
                log: &rendered.bytes,
                file: 0,
                request: &request,
                text: &reply.text,
                shown: self.engine.reports_shown().then_some(&shown[..]),
            },
        );
        s.last = verdict.flags;
        Some((reply.text, verdict))
    }

    /// A path replayed step by step: each read's reply and what the judge found in it, so
    /// that a counterexample names its anomaly, line, expectation and reply.
    pub fn explain(&self, path: &[Action]) -> Vec<Explained> {
        let mut s = TailState::empty(E::State::default());
        path.iter()
            .map(|action| {
                s.last = Flags::default();
                let read = match action {
                    Action::Read(n) => self.read(&mut s, *n, false),
                    Action::RawRead(n) => self.read(&mut s, *n, true),
                    other => {
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

/// The shortest action sequences (breadth first, actions in the model's order) that make
/// `property` fail — or, for a `sometimes` property, hold. Single-threaded and deterministic,
/// unlike a parallel checker's discovery, so a test can pin its length. (stateright's own BFS,
/// even on one thread, returns longer paths for the pinned counterexamples: it is not used.)
///
/// An `always` property fails at its first false state. An `eventually` property fails on a
/// path that ends — a state without successors inside the boundary — without its condition
/// having held anywhere on it, which is stateright's semantics; so a search state is a model
/// state together with whether the condition has held on the way to it.
pub fn shortest_discovery<M>(model: &M, property: &'static str) -> Option<Vec<M::Action>>
where
    M: Model,
    M::State: Hash + Eq + Clone,
    M::Action: Clone,
{
    use stateright::Expectation;
    let prop = model.property(property);
    let holds = |s: &M::State| (prop.condition)(model, s);
    let mut seen = std::collections::HashSet::new();
    let mut frontier: Vec<(M::State, bool, Vec<M::Action>)> = model
        .init_states()
        .into_iter()
        .map(|s| {
            let held = holds(&s);
            (s, held, Vec::new())
        })
        .collect();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (state, held, path) in frontier {
            let steps: Vec<_> = model
                .next_steps(&state)
                .into_iter()
                .filter(|(_, s)| model.within_boundary(s))
                .collect();
            let found = match prop.expectation {
                Expectation::Always => !holds(&state),
                Expectation::Sometimes => holds(&state),
                Expectation::Eventually => !held && steps.is_empty(),
            };
            if found {
                return Some(path);
            }
            for (action, successor) in steps {
                let held = held || holds(&successor);
                if seen.insert((successor.clone(), held)) {
                    let mut p = path.clone();
                    p.push(action);
                    next.push((successor, held, p));
                }
            }
        }
        frontier = next;
    }
    None
}

impl<E: Engine> TailModel<E> {
    /// A path of the model as a replayable trace: the same bytes, the same reads, the
    /// model's limits in the header.
    pub fn to_trace(&self, actions: &[Action], name: &str, description: &str) -> Trace {
        let limits = &self.config.limits;
        let mut events = Vec::new();
        let mut state = TailState::empty(());
        for action in actions {
            match action {
                Action::Read(n) | Action::RawRead(n) => events.push(Event::Read(trace::Read {
                    lines: Some(f64::from(*n).into()),
                    raw: matches!(action, Action::RawRead(_)),
                    bytes: state.view.map(f64::from),
                    ..trace::Read::default()
                })),
                Action::Finish => {
                    state.apply_to_log(action);
                    events.push(Event::Exit(trace::Exit {
                        t: None,
                        code: 0,
                        marker: false,
                    }));
                }
                _ => {
                    // The same change the model makes, written as the bytes it changed.
                    let before = state.render(limits).bytes;
                    state.apply_to_log(action);
                    let after = state.render(limits).bytes;
                    if after.starts_with(&before) {
                        if after.len() > before.len() {
                            events.push(Event::Append(Write::new(None, &after[before.len()..])));
                        }
                    } else if before.starts_with(&after) {
                        events.push(Event::Truncate(trace::Truncate {
                            t: None,
                            len: after.len() as u64,
                        }));
                    } else {
                        events.push(Event::Rewrite(Write::new(None, &after)));
                    }
                }
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
            },
            events,
        }
    }
}

#[cfg(test)]
mod shortest_discovery_tests {
    use super::shortest_discovery;
    use stateright::{Model, Property};

    /// From 0, `a` adds 1 up to 2; `b` jumps to 10, where nothing more happens.
    struct Counter;

    impl Model for Counter {
        type State = u8;
        type Action = char;
        fn init_states(&self) -> Vec<u8> {
            vec![0]
        }
        fn actions(&self, s: &u8, actions: &mut Vec<char>) {
            if *s < 2 {
                actions.extend(['a', 'b']);
            }
        }
        fn next_state(&self, s: &u8, a: char) -> Option<u8> {
            Some(if a == 'a' { s + 1 } else { 10 })
        }
        fn properties(&self) -> Vec<Property<Self>> {
            vec![
                Property::eventually("reaches 2", |_, s| *s == 2),
                Property::always("below 10", |_, s| *s < 10),
                Property::sometimes("at 1", |_, s| *s == 1),
            ]
        }
    }

    #[test]
    fn an_eventually_property_fails_on_a_path_that_ends_without_it() {
        // Not at the first state where the condition is false (the initial one): on the
        // shortest path that ends, at 10, without having reached 2.
        assert_eq!(shortest_discovery(&Counter, "reaches 2"), Some(vec!['b']));
        assert_eq!(shortest_discovery(&Counter, "below 10"), Some(vec!['b']));
        assert_eq!(shortest_discovery(&Counter, "at 1"), Some(vec!['a']));
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

#[cfg(test)]
mod line_text_tests {
    use super::*;

    #[test]
    fn lines_are_named_by_their_kind_variant_and_index() {
        let limits = Limits::default();
        assert_eq!(line_text(0, LineKind::Short, false, &limits), "s0");
        assert_eq!(line_text(12, LineKind::Short, true, &limits), "t12");
        assert_eq!(
            line_text(usize::MAX, LineKind::Short, false, &limits),
            format!("s{}", usize::MAX)
        );
        let long = line_text(7, LineKind::Long, false, &limits);
        assert_eq!(long, format!("s7{}", "x".repeat(limits.line_cap + 2)));
        assert_eq!(partial_text(30, false), "p30");
        assert_eq!(partial_text(4, true), "q4");
    }
}
