//! Resets seen: a reset said exactly when a new generation began, and its reason true of what
//! happened to the log.

use super::text::Claimed;
use super::verdict::{summary, Anomaly, AnomalyKind, Verdict};
use super::{Opening, ReadInput};

/// Resets seen: a reset is reported exactly when a new generation began (the first read
/// excepted), and the reason it gives is true.
pub(super) fn check_reset(
    opening: Opening,
    input: &ReadInput<'_>,
    claimed: &Claimed,
    v: &mut Verdict,
) {
    check_reset_reason(opening, input, claimed, v);
    if opening != Opening::First && claimed.reset != v.new_generation {
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
}

/// A reset's stated reason against what happened to the log: another file at the path is
/// named exactly when another file sits there, and at the same file "the log shrank" exactly
/// when it is shorter than the last read saw. A reason that names what did not happen is an
/// untrue reason. (A rewrite and a cut that grew back leave the same bytes, so the judge
/// cannot tell them apart: the exact engine's words for them name both.)
fn check_reset_reason(opening: Opening, input: &ReadInput<'_>, claimed: &Claimed, v: &mut Verdict) {
    let Opening::NewGeneration { shrank } = opening else {
        return;
    };
    // What happened, as the judge sees it: another file at the path (`shrank` is `None`), or
    // the same file, shorter than the last read saw or not.
    let other_file = shrank.is_none();
    let untrue =
        |truth: &str| Anomaly::new(AnomalyKind::UntrueReason, None, truth, summary(input.text));
    if let Some(said) = claimed.other_file.filter(|&said| said != other_file) {
        v.push(untrue(if said {
            "a reason of the same file (it still sits at the path)"
        } else {
            "another file at the path as the reason (the last read saw another file)"
        }));
    }
    if let (Some(shrank), Some(said)) = (shrank, claimed.shrank) {
        if said != shrank {
            v.push(untrue(if shrank {
                "a reset for the shrink (the log is shorter than the last read saw)"
            } else {
                "a reason other than a shrink (the log is not shorter than the last read saw)"
            }));
        }
    }
}
