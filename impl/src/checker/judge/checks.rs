//! The checks of one reply, one guarantee or one kind of statement at a time.

use super::align::{align, Aligned};
use super::drain::{self, Drained};
use super::result_object::ResultObject;
use super::text::{Claimed, Condensing, Parsed};
use super::truth::{Truth, ViewAsked, WindowAsked};
use super::verdict::{summary, Anomaly, AnomalyKind, Flags, LineRef, Verdict};
use super::{fields, filled, format, resets, statements, Judge, Opening, ReadInput, Rules};
use crate::formats::codex_reply::{self as codex, CodexReply};
use crate::upstream::condense::TextFormat;
use crate::upstream::js::utf16_len;
use crate::upstream::limits::Limits;

/// One read's facts, as the guarantees' checks share them.
#[derive(Clone, Copy)]
struct Read<'a> {
    truth: &'a Truth,
    claimed: &'a Claimed,
    aligned: &'a Aligned,
    /// The window's lines never delivered in this generation before this reply.
    undelivered: &'a [usize],
}

impl Judge {
    /// Judges one reply to a read that looked at the log (not a refusal, an error, or a read
    /// the running-job gate held back), and records what it delivered.
    pub fn judge(&mut self, rules: &Rules, input: &ReadInput<'_>) -> Verdict {
        let truth = Truth::of(input.log, &windowed(rules, input.request), &rules.limits);
        let mut v = Verdict::default();
        let object = (rules.text_format == TextFormat::Mux).then(|| ResultObject::of(input.text));
        let enveloped = rules.codex_envelope.then(|| codex::parse(input.text));
        let text = match (&object, &enveloped) {
            (_, Some(c)) => c.display,
            (Some(Ok(o)), _) => o.output.as_str(),
            (Some(Err(why)), _) => {
                v.push(Anomaly::new(
                    AnomalyKind::UntrueLine,
                    None,
                    "a bash_output result object",
                    format!("{why}: {}", summary(input.text)),
                ));
                ""
            }
            (None, None) => input.text,
        };
        let opening = self.opening(input.log, input.file);
        let first = opening == Opening::First;
        v.new_generation = matches!(opening, Opening::NewGeneration { .. });
        if v.new_generation {
            // What the reply owes of a new generation depends on the old one only through
            // `opening`: the judge forgets the rest before it reads the reply.
            *self = Judge::default();
        }
        let raw = input.request.raw;
        let (parsed, mut claimed, codex) = parse(rules, text, raw);
        if let Some(Ok(o)) = &object {
            claimed.running = o.running;
        }
        if let Some(c) = &enveloped {
            claimed.running = c.running;
            super::reach::check_codex(c, input.log, self.last.map_or(0, |l| l.len), &mut v);
        }
        let claims = self.claims(&truth, input, &mut v);
        let drained = codex
            .as_ref()
            .map(|c| self.drain(rules, &truth, input, c, &mut v));
        let open = drained.as_ref().and_then(|d| d.open);
        let aligned = match drained {
            Some(d) => d.aligned,
            None => align(&truth, &parsed.body, rules, raw, &claims, &mut v.anomalies),
        };
        check_claims(&truth, &claims, &aligned, &mut v);
        v.delivered = aligned.complete.iter().map(|&i| truth.spans[i]).collect();
        // A reader with no line window is asked every line by the judge, not by the agent.
        let window_asked = rules.line_window.then_some(truth.window_asked);
        path_flags(&truth, window_asked, &aligned, &claimed, &mut v.flags);
        resets::check_reset(opening, input, &claimed, &mut v);
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
        check_plain_claims(&claimed, input, &mut v);
        if rules.text_format == TextFormat::Exact {
            self.judge_statements(rules, &read, &parsed, input, first, &mut v);
        }
        if rules.text_format == TextFormat::Exact && !rules.codex_envelope {
            let said = fields::Said {
                truth: &truth,
                parsed: &parsed,
                claimed: &claimed,
                aligned: &aligned,
            };
            fields::check(input, &said, &mut v);
            format::check(&parsed, &claimed, &aligned, raw, &mut v);
            if !raw && !self.forgot && !claimed.forgot {
                let kept = filled::Kept::of(&truth, &aligned, &undelivered, &parsed.body);
                filled::check(&kept, &rules.limits, &mut v);
            }
        }
        self.check_reach(rules, &truth, input, &aligned.complete, &mut v);
        v.flags.partial_completed = self.completes_partial(&v.delivered);
        self.record(&truth, &aligned, &claimed, input);
        self.open = open;
        // Anomalies found while matching set their flags too.
        let found: Vec<Anomaly> = v.anomalies.drain(..).collect();
        for a in found {
            v.push(a);
        }
        v
    }

    /// A drain's reply: its text placed on the bytes gained since the last read, its counts,
    /// and its body against the budget (the log's text it shows, markers left out).
    fn drain(
        &self,
        rules: &Rules,
        truth: &Truth,
        input: &ReadInput<'_>,
        reply: &CodexReply<'_>,
        v: &mut Verdict,
    ) -> Drained {
        let from = self.last.map_or(0, |l| l.len);
        super::reach::check_codex(reply, input.log, from, v);
        let d = drain::read(
            truth,
            input.log,
            from,
            self.open,
            reply.display,
            &mut v.anomalies,
        );
        if d.units > rules.limits.text_budget {
            v.push(Anomaly::new(
                AnomalyKind::OverBudget,
                None,
                format!(
                    "at most {} units of the log's text",
                    rules.limits.text_budget
                ),
                format!("{} units", d.units),
            ));
        }
        d
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
        self.check_lost_and_progress(read, input, v);
        self.check_repeats(read.truth, v);
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

    /// Nothing lost: the window's never-delivered lines are carried, or said to be left out.
    /// Progress: the newest of them is carried (after a forget, at least one line is).
    fn check_lost_and_progress(&self, read: &Read<'_>, input: &ReadInput<'_>, v: &mut Verdict) {
        let Read {
            truth,
            claimed,
            aligned,
            undelivered,
        } = *read;
        let carried = |i: usize| aligned.complete.binary_search(&i).is_ok();
        v.flags.left_out = undelivered.iter().any(|&i| !carried(i));
        let Some(&newest) = undelivered.last() else {
            return;
        };
        let none_carried = !undelivered.iter().any(|&i| carried(i));
        if none_carried && claimed.left_out.unwrap_or(0) == 0 && !claimed.says_cut {
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

    /// Repeats bounded: no line delivered before in this generation comes again, unless the
    /// engine said it forgot coverage (and then not the newest delivered).
    fn check_repeats(&self, truth: &Truth, v: &mut Verdict) {
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
    }

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
        // A reply carries only window lines: the lines above were delivered before it, if at all.
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
}

/// The body and the statements of a reply's text, read by its format; a Codex reply's
/// envelope too.
fn parse<'a>(
    rules: &Rules,
    text: &'a str,
    raw: bool,
) -> (Parsed<'a>, Claimed, Option<CodexReply<'a>>) {
    match rules.text_format {
        TextFormat::Plain => {
            let (parsed, claimed) = super::plain::parse(text, &rules.plain);
            (parsed, claimed, None)
        }
        TextFormat::Codex => {
            let reply = codex::parse(text);
            let claimed = Claimed {
                running: reply.running,
                says_cut: reply.says_cut,
                ..Claimed::default()
            };
            (Parsed::default(), claimed, Some(reply))
        }
        format => {
            let parsed = Parsed::of(text, format, raw);
            let claimed = Claimed::of(&parsed, format);
            (parsed, claimed, None)
        }
    }
}

/// The flags of the paths a reply took, which a model asks to be reached; `window_asked` is
/// how the agent's `lines` asked for the window, where the reader has one.
fn path_flags(
    truth: &Truth,
    window_asked: Option<WindowAsked>,
    aligned: &Aligned,
    claimed: &Claimed,
    flags: &mut Flags,
) {
    flags.folded = aligned.folded;
    flags.escapes_stripped = aligned.condensing.escapes > 0;
    flags.bound_cut = truth.bound_hit;
    flags.exit_marker = truth.exit.is_some();
    flags.view_inside_partial = truth.view_inside_partial;
    flags.view_defaulted = truth.view_asked == ViewAsked::Defaulted;
    flags.view_floored = truth.view_asked == ViewAsked::Floored;
    flags.view_capped = truth.view_asked == ViewAsked::Capped;
    flags.lines_defaulted = window_asked == Some(WindowAsked::Defaulted);
    flags.lines_floored = window_asked == Some(WindowAsked::Floored);
    flags.lines_raised = window_asked == Some(WindowAsked::Raised);
    flags.lines_unbounded = window_asked == Some(WindowAsked::Unbounded);
    flags.reset_reported = claimed.reset;
    flags.forgot = claimed.forgot;
}

/// The request as the judge cuts the window by: a reader with no line window owes every line
/// of its view, whatever `lines` says.
fn windowed(
    rules: &Rules,
    request: &crate::interface::api::Request,
) -> crate::interface::api::Request {
    let mut request = request.clone();
    if !rules.line_window {
        request.lines = Some(f64::INFINITY);
    }
    request
}

/// What the other harnesses' readers state: the whole log's line count (Gemini CLI's, every
/// line counted as its reader splits them: at each `\n`, and an unfinished last one), and
/// whether the job runs (mux's `status`).
fn check_plain_claims(claimed: &Claimed, input: &ReadInput<'_>, v: &mut Verdict) {
    if let Some((lo, hi)) = claimed.every_line {
        let log = input.log;
        let newlines = memchr::memchr_iter(b'\n', log).count() as u64;
        let every = newlines + u64::from(log.last().is_some_and(|&b| b != b'\n'));
        if !(lo..=hi).contains(&every) {
            let said = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} or {hi}")
            };
            v.push(Anomaly::new(
                AnomalyKind::DishonestCount,
                None,
                format!("the log's lines, every one counted: {every}"),
                said,
            ));
        }
    }
    if let Some(running) = claimed.running.filter(|&r| r != input.request.running) {
        v.push(Anomaly::new(
            AnomalyKind::DishonestCount,
            None,
            if input.request.running {
                "the job's state: running"
            } else {
                "the job's state: exited"
            },
            if running { "running" } else { "not running" },
        ));
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
