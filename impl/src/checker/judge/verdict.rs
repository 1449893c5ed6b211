//! What a judgement finds: the anomalies, each naming the guarantee it breaks, and the
//! verdict's flags per property.

use super::truth::Truth;
use crate::upstream::js::truncate_utf16;
use serde::Serialize;

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
    /// A reset's stated reason names something that did not happen to the log: a shrink of a
    /// log that did not shrink, another file where the same one sits, or the reverse.
    UntrueReason,
    /// A field of the reply beside its text (`details`, the read's kind, where its body
    /// lies) says other than the text.
    UntrueField,
    /// The text departs from its format's way of saying things (the `bgtail-exact-1` text:
    /// a count of zero, `+N of N`, an empty part, a first read's lines left uncounted, a
    /// skipped-lines note beside no condensed body), every statement still true.
    OffFormat,
    /// The condensed body is longer than the budget allows.
    OverBudget,
    /// A line no request the reader accepts can ever deliver: a drain read past it without
    /// delivering it whole, or it is longer than the reader's largest view.
    OutOfReach,
    /// A read naming its job by an id was refused where upstream reads the id, answered where
    /// upstream refuses it, or refused with another message than upstream's.
    WrongRefusal,
}

impl AnomalyKind {
    /// The model's property this anomaly breaks.
    pub fn property(self) -> &'static str {
        match self {
            AnomalyKind::Lost | AnomalyKind::OutOfReach => "nothing lost",
            AnomalyKind::Stalled => "progress",
            AnomalyKind::Repeated => "repeats bounded",
            AnomalyKind::DishonestCount
            | AnomalyKind::UntrueLine
            | AnomalyKind::FalseClaim
            | AnomalyKind::UntrueReason
            | AnomalyKind::UntrueField
            | AnomalyKind::OffFormat => "honest counts",
            AnomalyKind::WrongReset => "resets seen",
            AnomalyKind::OverBudget => "bounded output",
            AnomalyKind::WrongRefusal => "ids checked",
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
    pub(super) fn of(truth: &Truth, i: usize) -> LineRef {
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
    pub(super) fn new(
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
    /// "Resets seen": a reset was said with no new generation, or a new generation (the log
    /// no longer continues what the last read saw) went unsaid.
    pub wrong_reset: bool,
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
    /// The log ends with the wrapper's exit marker: the job exited, whatever the caller says.
    pub exit_marker: bool,
    /// The view started inside the partial line, past its first byte.
    pub view_inside_partial: bool,
    /// The view holds, above the window, lines never delivered that are newer than a
    /// delivered one: the lines the skipped-lines note counts (set where that note is judged,
    /// on replies in the exact engine's text format).
    pub skipped_above: bool,
    /// A condensed body carried a line whose escape sequences it stripped.
    pub escapes_stripped: bool,
    /// The request's `bytes` was not a positive finite number (0, below 0, NaN, ±∞): the
    /// view was the default.
    pub view_defaulted: bool,
    /// The request's `bytes` was a positive fraction: the view was its floor.
    pub view_floored: bool,
    /// The request's `bytes` was past the largest view: the view was the largest.
    pub view_capped: bool,
    /// The request's `lines` was NaN: the window was the default.
    pub lines_defaulted: bool,
    /// The request's `lines` was a fraction above 1: the window was its floor.
    pub lines_floored: bool,
    /// The request's `lines` was below 1: the window was 1 line.
    pub lines_raised: bool,
    /// The request's `lines` was past any count of lines (+∞): the window was the whole view.
    pub lines_unbounded: bool,
    /// "Ids checked": a read naming its job by an id was refused or answered against the
    /// contract's id rule ([`judge_id`](super::judge_id)).
    pub wrong_refusal: bool,
    /// A read named its job by an id the contract's id rule refuses.
    pub id_refused: bool,
    /// A read of a job the caller says runs was made without `peek`: the running-job gate
    /// held it back.
    pub gated: bool,
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
    /// Lines a `Lost` anomaly hid, and lines put out of reach (`OutOfReach`).
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

    /// Records `anomaly`, raising the flag of the property it breaks: the four guarantees and
    /// the reset have flags of their own, every other kind is a dishonest statement.
    pub(super) fn push(&mut self, anomaly: Anomaly) {
        let f = &mut self.flags;
        match anomaly.kind {
            AnomalyKind::Lost | AnomalyKind::OutOfReach => f.lost = true,
            AnomalyKind::Stalled => f.stalled = true,
            AnomalyKind::Repeated => f.repeated = true,
            AnomalyKind::OverBudget => f.over_budget = true,
            AnomalyKind::WrongReset => f.wrong_reset = true,
            _ => f.dishonest = true,
        }
        self.anomalies.push(anomaly);
    }
}

/// The reply's text in a few words, for an anomaly's "said".
pub(super) fn summary(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    format!("{:?}", truncate_utf16(first, 100))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anomaly(kind: AnomalyKind) -> Anomaly {
        Anomaly::new(kind, None, "the truth", "a lie")
    }

    #[test]
    fn each_anomaly_raises_the_flag_of_the_property_it_breaks() {
        let flags = |kind| {
            let mut v = Verdict::default();
            v.push(anomaly(kind));
            v.flags
        };
        assert!(flags(AnomalyKind::Lost).lost);
        assert!(flags(AnomalyKind::OutOfReach).lost);
        assert!(flags(AnomalyKind::Stalled).stalled);
        assert!(flags(AnomalyKind::Repeated).repeated);
        assert!(flags(AnomalyKind::OverBudget).over_budget);
        let wrong_reset = flags(AnomalyKind::WrongReset);
        assert!(wrong_reset.wrong_reset && !wrong_reset.dishonest && !wrong_reset.lost);
        assert!(flags(AnomalyKind::FalseClaim).dishonest);
    }

    #[test]
    fn a_report_says_each_anomaly_on_its_own_line() {
        let mut v = Verdict::default();
        v.push(anomaly(AnomalyKind::Lost));
        v.push(anomaly(AnomalyKind::FalseClaim));
        assert_eq!(
            v.report(),
            "Lost: expected the truth; the reply said a lie\n\
             FalseClaim: expected the truth; the reply said a lie"
        );
    }
}
