//! The one judge of the contract (`docs/contract.md`): every reply of any engine —
//! compiled in, or in another process — judged from its **text** and the log the harness
//! wrote, never from the engine's own books.
//!
//! The model, the replay audit, the contract proptest and the fuzzer all call [`Judge::judge`]
//! once per read. The judge keeps what the agent was really delivered in the current
//! generation (decided by the judge itself: the log no longer continues the bytes the last
//! read saw, or another file sits at the path), matches every body line **exactly** to a line
//! of the window (see `align`), and reads the numbers the header and notes state (see
//! `text`). An engine that reports the byte ranges it showed has them checked against the
//! text; they only choose between lines that print the same.
//!
//! What each guarantee means from the text alone:
//! - **nothing lost**: a condensed read whose window holds lines never delivered carries none
//!   of them and does not say the budget left any out — the agent is told there is nothing
//!   more, so those lines are hidden. (An engine that counts a line as shown without showing
//!   it is caught by the next read of a window holding the line.)
//! - **progress**: a condensed read whose window holds a line never delivered carries the
//!   newest such line (once coverage was forgotten, at least one line).
//! - **repeats bounded**: a condensed read carries no line delivered before in this
//!   generation, unless the engine said it forgot coverage.
//! - **honest counts**: every number the text states is the truth — in the exact engine's
//!   text that includes its condensing notes (escape sequences stripped, runs collapsed,
//!   lines truncated and the cap), where a note left out says 0, and its other statements
//!   (`statements`: "first read", the partial line, the `lines` that reach lines never shown,
//!   the left-out note's budget and `lines`, the view and line-bound notes) — the reset is
//!   reported exactly when a new generation began, every body line is a line of the window or
//!   a documented marker, and the engine's claimed ranges are what the text carries.
//! - **bounded output**: a condensed body fits the budget.
//!
//! Linear in the log and the reply: one scan of the view, one hash of the log, one pass over
//! the body with the window indexed by what each line prints.
//!
//! The judge owes nothing to an engine: its content lines, its window, its line-bound cut and
//! its hash are its own (`truth`), written from the contract. Its one deliberate use of shared
//! upstream semantics is the condenser's rule for what a line prints — ANSI stripped, runs
//! folded, the per-line cap (`crate::upstream::condense`, used by `align` and `text`) — which the
//! contract takes as upstream's: a body line is checked against what the window's line prints.

mod align;
mod literal;
mod statements;
mod text;
mod truth;

use truth::fnv1a;

pub use truth::{content_lines_of, line_bound_start, settled_end};

use crate::upstream::condense::TextFormat;

use crate::interface::api::Request;
use crate::upstream::js::{truncate_utf16, utf16_len};
use crate::upstream::limits::Limits;
use align::{align, Aligned};
use serde::Serialize;
use text::{Claimed, Condensing, Parsed};
use truth::Truth;

/// What the judge holds an engine to: its text format and its limits.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Which text format the engine writes: the markers, header and notes the judge reads.
    pub text_format: TextFormat,
    /// The engine's limits: the budget, the per-line cap, the fold threshold, the default view
    /// and `lines`.
    pub limits: Limits,
}

/// One read, as the harness saw it: the log it wrote, the request, and the reply's text.
#[derive(Clone, Copy, Debug)]
pub struct ReadInput<'a> {
    /// The log's bytes when the read was answered.
    pub log: &'a [u8],
    /// Which file sits at the path: the harness changes it whenever another file (or none)
    /// comes to sit there, or the id resolves to another path.
    pub file: u64,
    /// The agent's request.
    pub request: &'a Request,
    /// The reply's text, exactly as the agent sees it.
    pub text: &'a str,
    /// The `(offset, end)` byte ranges the engine says the text carries, when it says.
    pub shown: Option<&'a [(u64, u64)]>,
}

/// Which guarantee an anomaly breaks, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AnomalyKind {
    /// Lines never delivered are hidden: the reply carries none and says none was left out.
    Lost,
    /// The newest line of the window never delivered did not come.
    Stalled,
    /// A condensed read carried a line delivered before in this generation.
    Repeated,
    /// A number in the header or notes is not the truth.
    DishonestCount,
    /// A body line is neither a line of the window nor a documented marker.
    UntrueLine,
    /// A byte range the engine claims is not what its text carries.
    FalseClaim,
    /// A reset was reported without a new generation, or a new generation went unreported.
    WrongReset,
    /// The condensed body is longer than the budget allows.
    OverBudget,
}

impl AnomalyKind {
    /// The model's property this anomaly breaks.
    pub fn property(self) -> &'static str {
        match self {
            AnomalyKind::Lost => "nothing lost",
            AnomalyKind::Stalled => "progress",
            AnomalyKind::Repeated => "repeats bounded",
            AnomalyKind::DishonestCount
            | AnomalyKind::UntrueLine
            | AnomalyKind::FalseClaim
            | AnomalyKind::WrongReset => "honest counts",
            AnomalyKind::OverBudget => "bounded output",
        }
    }
}

/// A line of the log an anomaly is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineRef {
    /// Its 1-based number among the view's content lines.
    pub number: u64,
    /// Where it starts and ends in the log.
    pub offset: u64,
    /// One past its last byte (past the `
    /// `).
    pub end: u64,
    /// Its text (at most 80 UTF-16 units), when it lies in the window.
    pub text: Option<String>,
}

impl LineRef {
    fn of(truth: &Truth, i: usize) -> LineRef {
        let (offset, end) = truth.spans[i];
        LineRef {
            number: i as u64 + 1,
            offset,
            end,
            text: (i >= truth.window_start).then(|| truncate_utf16(truth.text(i), 80)),
        }
    }
}

/// One thing wrong with a reply: the guarantee, the line, what was expected, what was said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Anomaly {
    /// Which guarantee it breaks.
    pub kind: AnomalyKind,
    /// The line it is about, when there is one.
    pub line: Option<LineRef>,
    /// What the reply should have carried or said.
    pub expected: String,
    /// What it carried or said instead.
    pub said: String,
}

impl Anomaly {
    fn new(
        kind: AnomalyKind,
        line: Option<LineRef>,
        expected: impl Into<String>,
        said: impl Into<String>,
    ) -> Self {
        Anomaly {
            kind,
            line,
            expected: expected.into(),
            said: said.into(),
        }
    }
}

impl std::fmt::Display for Anomaly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.kind)?;
        if let Some(l) = &self.line {
            write!(f, " at line {} (bytes {}..{}", l.number, l.offset, l.end)?;
            match &l.text {
                Some(t) => write!(f, ", {t:?})")?,
                None => write!(f, ")")?,
            }
        }
        write!(
            f,
            ": expected {}; the reply said {}",
            self.expected, self.said
        )
    }
}

/// The verdict's flags: which guarantee broke, and which interesting paths the reply took (so
/// that a model can ask that they are reached). Small and `Copy`, for a model's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Flags {
    /// "Nothing lost": a never-delivered line was hidden (neither carried nor said left out).
    pub lost: bool,
    /// "Progress": a condensed read did not carry the newest never-delivered window line.
    pub stalled: bool,
    /// "Repeats bounded": a condensed read carried a line still delivered in this generation.
    pub repeated: bool,
    /// "Honest counts": a number, a reset's reason, a line or a claim of the reply is untrue.
    pub dishonest: bool,
    /// A condensed body was longer than the budget.
    pub over_budget: bool,
    /// A continuing read carried a line that was in the log at the last read, never delivered.
    pub earlier_returned: bool,
    /// A condensed read left a never-delivered window line out.
    pub left_out: bool,
    /// The reply says the bookmark started over.
    pub reset_reported: bool,
    /// A line whose partial beginning was delivered came complete.
    pub partial_completed: bool,
    /// The reply says coverage was forgotten.
    pub forgot: bool,
    /// A body line stood for a folded run.
    pub folded: bool,
    /// Upstream's line bound cut the view: its oldest lines were not scanned.
    pub bound_cut: bool,
}

/// The judge's verdict on one reply.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Which guarantees broke and which paths the reply took.
    pub flags: Flags,
    /// What is wrong with the reply, each with its line; empty when nothing is.
    pub anomalies: Vec<Anomaly>,
    /// The complete lines the reply carried, `(offset, end)`, in log order.
    pub delivered: Vec<(u64, u64)>,
    /// Of those, the ones a condensed read delivered again (not counting after a forget).
    pub repeated: Vec<(u64, u64)>,
    /// Lines a `Lost` anomaly hid.
    pub hidden: Vec<(u64, u64)>,
    /// Whether this read found a new generation.
    pub new_generation: bool,
}

impl Verdict {
    /// Every anomaly, one per line (empty when the reply kept the contract).
    pub fn report(&self) -> String {
        self.anomalies
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn push(&mut self, anomaly: Anomaly) {
        let f = &mut self.flags;
        match anomaly.kind {
            AnomalyKind::Lost => f.lost = true,
            AnomalyKind::Stalled => f.stalled = true,
            AnomalyKind::Repeated => f.repeated = true,
            AnomalyKind::OverBudget => f.over_budget = true,
            _ => f.dishonest = true,
        }
        self.anomalies.push(anomaly);
    }
}

/// One read's facts, as the guarantees' checks share them.
#[derive(Clone, Copy)]
struct Read<'a> {
    truth: &'a Truth,
    claimed: &'a Claimed,
    aligned: &'a Aligned,
    /// The window's lines never delivered in this generation before this reply.
    undelivered: &'a [usize],
}

/// What the last read saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct LastRead {
    len: u64,
    /// FNV-1a of the log's bytes.
    hash: u64,
    file: u64,
    /// Where its complete lines ended: lines starting here or later are new.
    settled: u64,
}

/// What the agent was delivered: the judge's whole state, small enough for a model's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Judge {
    /// None before the first read that looked at the log.
    last: Option<LastRead>,
    /// Complete lines `(offset, end)` delivered in the current generation, sorted.
    delivered: Vec<(u64, u64)>,
    /// Start offsets of partial lines delivered in the current generation, sorted.
    partial_delivered: Vec<u64>,
    /// Whether the engine said it forgot coverage in this generation (repeats allowed after).
    forgot: bool,
}

/// The reply's text in a few words, for an anomaly's "said".
fn summary(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    format!("{:?}", truncate_utf16(first, 100))
}

/// `item` into the sorted `list`, once.
fn insert_sorted<T: Ord + Copy>(list: &mut Vec<T>, item: T) {
    if let Err(at) = list.binary_search(&item) {
        list.insert(at, item);
    }
}

impl Judge {
    /// The complete lines `(offset, end)` delivered in the current generation, sorted.
    pub fn delivered(&self) -> &[(u64, u64)] {
        &self.delivered
    }

    /// Whether `log` (with `file` at the path) continues the bytes the last read saw.
    pub fn continues(&self, log: &[u8], file: u64) -> bool {
        self.last.is_some() && !self.begins_generation(log, file)
    }

    /// A judge that last saw `log` (the file numbered `file`, its job running or not) and
    /// was delivered the complete lines `delivered` of this generation, having been told
    /// coverage was forgotten if `forgot`. Paths reach only some such judges; an inductive
    /// check starts from every one its invariant allows.
    pub fn after_read(
        log: &[u8],
        file: u64,
        running: bool,
        mut delivered: Vec<(u64, u64)>,
        forgot: bool,
    ) -> Judge {
        delivered.sort_unstable();
        delivered.dedup();
        Judge {
            last: Some(LastRead {
                len: log.len() as u64,
                hash: fnv1a(log),
                file,
                settled: settled_end(log, running),
            }),
            delivered,
            partial_delivered: Vec::new(),
            forgot,
        }
    }

    /// Whether the last read this judge saw was of `log`, at the file numbered `file`, with
    /// the job running or not (which decides where its complete lines ended); `None`: no read.
    pub fn last_saw(&self, log: &[u8], file: u64, running: bool) -> Option<bool> {
        self.last.map(|l| {
            l == LastRead {
                len: log.len() as u64,
                hash: fnv1a(log),
                file,
                settled: settled_end(log, running),
            }
        })
    }

    /// Whether the engine said, in this generation, that it forgot coverage (from then on
    /// lines may be delivered again).
    pub fn forgot(&self) -> bool {
        self.forgot
    }

    /// Whether line `span` was delivered in this generation before.
    fn was_delivered(&self, span: (u64, u64)) -> bool {
        self.delivered.binary_search(&span).is_ok()
    }

    /// Judges one reply to a read that looked at the log (not a refusal, an error, or a read
    /// the running-job gate held back), and records what it delivered.
    pub fn judge(&mut self, rules: &Rules, input: &ReadInput<'_>) -> Verdict {
        let truth = Truth::of(input.log, input.request, &rules.limits);
        let mut v = Verdict::default();
        let first = self.last.is_none();
        v.new_generation = self.begins_generation(input.log, input.file);
        if v.new_generation {
            *self = Judge {
                last: self.last,
                ..Judge::default()
            };
        }
        let raw = input.request.raw;
        let parsed = Parsed::of(input.text, rules.text_format, raw);
        let claimed = Claimed::of(&parsed, rules.text_format);
        let claims = self.claims(&truth, input, &mut v);
        let aligned = align(
            &truth,
            &parsed.body,
            rules.text_format,
            &rules.limits,
            raw,
            &claims,
            &mut v.anomalies,
        );
        check_claims(&truth, &claims, &aligned, &mut v);
        v.delivered = aligned.complete.iter().map(|&i| truth.spans[i]).collect();
        v.flags.folded = aligned.folded;
        v.flags.bound_cut = truth.bound_hit;
        v.flags.reset_reported = claimed.reset;
        v.flags.forgot = claimed.forgot;
        self.check_reset_reason(input, &claimed, &mut v);
        if !first && claimed.reset != v.new_generation {
            v.push(Anomaly::new(
                AnomalyKind::WrongReset,
                None,
                if v.new_generation {
                    "a reset reported (the log no longer continues what the last read saw)"
                } else {
                    "no reset (the log continues what the last read saw)"
                },
                summary(input.text),
            ));
        }
        // The window's lines never delivered in this generation before this reply.
        let undelivered: Vec<usize> = (truth.window_start..truth.complete)
            .filter(|&i| !self.was_delivered(truth.spans[i]))
            .collect();
        let read = Read {
            truth: &truth,
            claimed: &claimed,
            aligned: &aligned,
            undelivered: &undelivered,
        };
        if !raw {
            self.judge_condensed(rules, &read, &parsed, input, &mut v);
        }
        self.judge_counts(&read, &rules.limits, first || v.new_generation, &mut v);
        if rules.text_format == TextFormat::Exact {
            self.judge_statements(rules, &read, &parsed, input, first, &mut v);
        }
        v.flags.partial_completed = self.completes_partial(&v.delivered);
        self.record(&truth, &aligned, &claimed, input);
        // Anomalies found while matching set their flags too.
        let found: Vec<Anomaly> = v.anomalies.drain(..).collect();
        for a in found {
            v.push(a);
        }
        v
    }

    /// A reset's stated reason against the log: at the same file, "the log shrank" exactly
    /// when it is shorter than the last read saw (another reason for a shrink, or a shrink
    /// named for a log that grew, is a wrong reset).
    fn check_reset_reason(&self, input: &ReadInput<'_>, claimed: &Claimed, v: &mut Verdict) {
        let (Some(last), Some(said)) = (self.last, claimed.shrank) else {
            return;
        };
        let shrank = (input.log.len() as u64) < last.len;
        if last.file == input.file && said != shrank {
            v.push(Anomaly::new(
                AnomalyKind::WrongReset,
                None,
                if shrank {
                    "a reset for the shrink (the log is shorter than the last read saw)"
                } else {
                    "a reason other than a shrink (the log is not shorter than the last read saw)"
                },
                summary(input.text),
            ));
        }
    }

    /// Whether the log no longer continues the bytes the last read saw.
    fn begins_generation(&self, log: &[u8], file: u64) -> bool {
        self.last.is_some_and(|l| {
            l.file != file || (log.len() as u64) < l.len || fnv1a(&log[..l.len as usize]) != l.hash
        })
    }

    /// The engine's claimed ranges as a flag per line of `truth` (empty: no claims).
    fn claims(&self, truth: &Truth, input: &ReadInput<'_>, v: &mut Verdict) -> Vec<bool> {
        let Some(shown) = input.shown else {
            return Vec::new();
        };
        let mut claims = vec![false; truth.spans.len()];
        for &(offset, end) in shown {
            match truth.find(offset, end) {
                Some(i) => claims[i] = true,
                None => v.anomalies.push(Anomaly::new(
                    AnomalyKind::FalseClaim,
                    None,
                    "every claimed range a content line of the window",
                    format!("bytes {offset}..{end}"),
                )),
            }
        }
        claims
    }
}

/// The engine's claims against what its text carries: both ways.
fn check_claims(truth: &Truth, claims: &[bool], aligned: &Aligned, v: &mut Verdict) {
    if claims.is_empty() {
        return;
    }
    let mut carried = vec![false; truth.spans.len()];
    for &i in &aligned.complete {
        carried[i] = true;
    }
    if let Some(p) = truth.partial() {
        carried[p] = aligned.partial;
    }
    for (i, (&claim, &carry)) in claims.iter().zip(&carried).enumerate() {
        if claim != carry {
            v.anomalies.push(Anomaly::new(
                AnomalyKind::FalseClaim,
                Some(LineRef::of(truth, i)),
                if carry {
                    "a claim for every line the text carries"
                } else {
                    "every claimed line carried by the text"
                },
                if carry {
                    "the line, without claiming it"
                } else {
                    "a claim for it, without the line"
                },
            ));
        }
    }
}

impl Judge {
    /// The guarantees only condensed reads give: nothing lost, progress, repeats bounded,
    /// bounded output; and the paths they took.
    fn judge_condensed(
        &self,
        rules: &Rules,
        read: &Read<'_>,
        parsed: &Parsed<'_>,
        input: &ReadInput<'_>,
        v: &mut Verdict,
    ) {
        let Read {
            truth,
            claimed,
            aligned,
            undelivered,
        } = *read;
        let carried = |i: usize| aligned.complete.binary_search(&i).is_ok();
        v.flags.left_out = undelivered.iter().any(|&i| !carried(i));
        if let Some(&newest) = undelivered.last() {
            let none_carried = !undelivered.iter().any(|&i| carried(i));
            if none_carried && claimed.left_out.unwrap_or(0) == 0 {
                v.hidden = undelivered.iter().map(|&i| truth.spans[i]).collect();
                v.push(Anomaly::new(
                    AnomalyKind::Lost,
                    Some(LineRef::of(truth, newest)),
                    format!(
                        "{} never-delivered window lines carried, or said to be left out",
                        undelivered.len()
                    ),
                    summary(input.text),
                ));
            }
            let stalled = if self.forgot {
                aligned.complete.is_empty()
            } else {
                !carried(newest)
            };
            if stalled {
                v.push(Anomaly::new(
                    AnomalyKind::Stalled,
                    Some(LineRef::of(truth, newest)),
                    "the newest never-delivered window line carried",
                    summary(input.text),
                ));
            }
        }
        // Coverage forgets its oldest (lowest) ranges first, so the newest line delivered in
        // the generation stays covered even after a forget: only older lines may come again.
        let newest = self.delivered.last().copied();
        let may_repeat = |s: (u64, u64)| self.forgot && Some(s) != newest;
        v.repeated = v
            .delivered
            .iter()
            .copied()
            .filter(|&s| self.was_delivered(s) && !may_repeat(s))
            .collect();
        if let Some(&(offset, _)) = v.repeated.first() {
            let i = truth.spans.binary_search_by_key(&offset, |s| s.0).ok();
            v.push(Anomaly::new(
                AnomalyKind::Repeated,
                i.map(|i| LineRef::of(truth, i)),
                if self.forgot {
                    "no line delivered before in this generation but older ones forgotten (coverage forgets its oldest ranges)"
                } else {
                    "no line delivered before in this generation"
                },
                format!("{} such lines", v.repeated.len()),
            ));
        }
        let body_units = utf16_len(&parsed.body.join("\n"));
        if !parsed.body.is_empty() && body_units + 1 > rules.limits.text_budget {
            v.push(Anomaly::new(
                AnomalyKind::OverBudget,
                None,
                format!("a body of at most {} units", rules.limits.text_budget - 1),
                format!("{body_units} units"),
            ));
        }
        let settled = self.last.map_or(0, |l| l.settled);
        v.flags.earlier_returned = !v.new_generation
            && self.last.is_some()
            && v.delivered
                .iter()
                .any(|&s| s.0 < settled && !self.was_delivered(s));
    }
}

/// Honest counts in the condensing notes: escape sequences stripped, runs folded and lines cut
/// by the cap, each against what the body's lines went through (a note left out says 0), and
/// the cap the note names against the limits.
fn check_condensing(said: Condensing, truth: Condensing, limits: &Limits, v: &mut Verdict) {
    let checks = [
        (
            "ANSI escape sequences stripped",
            said.escapes,
            truth.escapes,
        ),
        ("repeated-line runs collapsed", said.folds, truth.folds),
        ("long lines truncated", said.capped, truth.capped),
    ];
    for (what, said_n, truth_n) in checks {
        if said_n != truth_n {
            v.push(Anomaly::new(
                AnomalyKind::DishonestCount,
                None,
                format!("{what}: {truth_n}"),
                format!("{said_n}"),
            ));
        }
    }
    if let Some(cap) = said.cap.filter(|&c| c != limits.line_cap as u64) {
        v.push(Anomaly::new(
            AnomalyKind::DishonestCount,
            None,
            format!("lines truncated to {} chars", limits.line_cap),
            format!("{cap}"),
        ));
    }
}

impl Judge {
    /// Honest counts: each number the text states against the truth. `fresh` says the read
    /// began a generation (or was the first), where nothing is new or earlier.
    fn judge_counts(&self, read: &Read<'_>, limits: &Limits, fresh: bool, v: &mut Verdict) {
        let Read {
            truth,
            claimed,
            aligned,
            undelivered,
        } = *read;
        let settled = self.last.map_or(0, |l| l.settled);
        let is_new = |i: usize| truth.spans[i].0 >= settled;
        let shown = aligned.complete.len() as u64;
        let new_shown = aligned.complete.iter().filter(|&&i| is_new(i)).count() as u64;
        let new_lines = (0..truth.complete).filter(|&i| is_new(i)).count() as u64;
        let undelivered_left = undelivered
            .iter()
            .filter(|i| aligned.complete.binary_search(i).is_err())
            .count() as u64;
        // A reply carries only window lines, so the lines above were delivered, if at all,
        // before it.
        let unseen_above = (0..truth.window_start)
            .filter(|&i| !self.was_delivered(truth.spans[i]))
            .count() as u64;
        let trusted = !self.forgot && !claimed.forgot;
        let mut checks: Vec<(&str, Option<u64>, u64, bool)> = vec![
            (
                "the log's line count",
                claimed.total,
                truth.complete as u64,
                true,
            ),
            ("lines shown", claimed.shown, shown, true),
            ("new lines", claimed.new_lines, new_lines, !fresh),
            ("new lines shown", claimed.new_shown, new_shown, !fresh),
            (
                "earlier lines shown",
                claimed.earlier_shown,
                shown - new_shown,
                !fresh,
            ),
            (
                "lines left out",
                claimed.left_out,
                undelivered_left,
                trusted,
            ),
            (
                "lines above never shown",
                claimed.unseen_above,
                unseen_above,
                trusted,
            ),
        ];
        checks.retain(|c| c.3);
        for (what, said, truth_n, _) in checks {
            if let Some(said) = said.filter(|&s| s != truth_n) {
                v.push(Anomaly::new(
                    AnomalyKind::DishonestCount,
                    None,
                    format!("{what}: {truth_n}"),
                    format!("{said}"),
                ));
            }
        }
        if let Some(said) = claimed.condensing {
            check_condensing(said, aligned.condensing, limits, v);
        }
        if claimed.shown == Some(0) && claimed.total.is_none() {
            v.push(Anomaly::new(
                AnomalyKind::DishonestCount,
                None,
                format!(
                    "the log's line count ({}) on a reply with nothing new",
                    truth.complete
                ),
                "none",
            ));
        }
    }

    /// The exact engine's statements beyond its counts (see `statements`).
    fn judge_statements(
        &self,
        rules: &Rules,
        read: &Read<'_>,
        parsed: &Parsed<'_>,
        input: &ReadInput<'_>,
        first: bool,
        v: &mut Verdict,
    ) {
        let Read {
            truth,
            claimed,
            aligned,
            ..
        } = *read;
        let form = if input.request.raw {
            statements::Form::Raw
        } else if parsed.status.is_some() {
            statements::Form::Status
        } else if parsed.header.is_some() {
            statements::Form::Header
        } else {
            statements::Form::Bare
        };
        let delivered: Vec<bool> = (0..truth.complete)
            .map(|i| {
                self.was_delivered(truth.spans[i]) || aligned.complete.binary_search(&i).is_ok()
            })
            .collect();
        let facts = statements::Facts {
            truth,
            request: input.request,
            limits: &rules.limits,
            form,
            first,
            partial_carried: aligned.partial,
            delivered: &delivered,
            trusted: !self.forgot && !claimed.forgot,
        };
        statements::check(claimed, &facts, v);
    }

    /// Records what the reply delivered and what the log was.
    fn record(
        &mut self,
        truth: &Truth,
        aligned: &Aligned,
        claimed: &Claimed,
        input: &ReadInput<'_>,
    ) {
        for &i in &aligned.complete {
            insert_sorted(&mut self.delivered, truth.spans[i]);
        }
        if let (true, Some(p)) = (aligned.partial, truth.partial()) {
            insert_sorted(&mut self.partial_delivered, truth.spans[p].0);
        }
        self.forgot |= claimed.forgot;
        self.last = Some(LastRead {
            len: truth.len,
            hash: fnv1a(input.log),
            file: input.file,
            settled: truth.settled,
        });
    }

    /// Whether the reply completed a line whose partial beginning was delivered before.
    fn completes_partial(&self, delivered: &[(u64, u64)]) -> bool {
        delivered
            .iter()
            .any(|s| self.partial_delivered.binary_search(&s.0).is_ok())
    }
}
