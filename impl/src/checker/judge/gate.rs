//! The contract's rule for a read the running-job gate holds back (pi-bgrun 0.8.0): a read of
//! a job the caller says runs, without `peek`, says the job's state in one line and nothing of
//! its log, and leaves the bookmark alone.
//!
//! The state line is upstream's pinned pattern, `⏳ still running — <N>s elapsed, no exit code
//! yet`, with its two pinned phrases (docs/pi-bgrun-0.7.1.md §4.1); N is the caller's elapsed
//! seconds to a tenth, 0.0 where it gives none, or one not finite or below 0. The judge's
//! own reading of N, not the engines' (`upstream::tool::running_state_line`, held equal to it
//! by a proptest below).

use super::verdict::{Anomaly, AnomalyKind};

/// The phrases upstream's gated reply carries beside its state line.
const PHRASES: [&str; 2] = [
    "Launching was the task; the wake is your next input",
    "pass peek: true only if you need the live log now",
];

/// The state line's number: `elapsed_secs` to a tenth where it is a finite number of 0 or
/// more, else 0.0.
fn elapsed_said(elapsed_secs: Option<f64>) -> String {
    let secs = match elapsed_secs {
        Some(s) if (0.0..f64::INFINITY).contains(&s) => s,
        _ => 0.0,
    };
    format!("{secs:.1}")
}

/// Holds a gated read's reply `text` to the rule; `changed` says whether the read changed the
/// engine's bookmarks (a harness that cannot see them passes `false`). Each statement that
/// breaks it: a state line that says another number or none (`DishonestCount`), a phrase left
/// out (`OffFormat`), a line beside the state line (`UntrueLine`), a bookmark changed by a
/// read that showed nothing (`Lost`: its lines would count as shown).
pub fn judge_gated(elapsed_secs: Option<f64>, text: &str, changed: bool) -> Vec<Anomaly> {
    let mut found = Vec::new();
    let first = text.lines().next().unwrap_or("");
    let state = format!(
        "⏳ still running — {}s elapsed, no exit code yet",
        elapsed_said(elapsed_secs)
    );
    if !first.starts_with(&state) {
        found.push(Anomaly::new(
            AnomalyKind::DishonestCount,
            None,
            format!("the state line {state:?}"),
            format!("{first:?}"),
        ));
    }
    for phrase in PHRASES.into_iter().filter(|p| !first.contains(p)) {
        found.push(Anomaly::new(
            AnomalyKind::OffFormat,
            None,
            format!("the state line's phrase {phrase:?}"),
            format!("{first:?}"),
        ));
    }
    if let Some(more) = text.lines().nth(1) {
        found.push(Anomaly::new(
            AnomalyKind::UntrueLine,
            None,
            "the state line alone, nothing of the log",
            format!("{more:?} after it"),
        ));
    }
    if changed {
        found.push(Anomaly::new(
            AnomalyKind::Lost,
            None,
            "a gated read that leaves the bookmark alone",
            "a gated read that changed the engine's bookmarks",
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{elapsed_said, judge_gated};
    use crate::checker::judge::AnomalyKind;
    use crate::upstream::tool::running_state_line;
    use proptest::prelude::*;

    fn kinds(elapsed: Option<f64>, text: &str, changed: bool) -> Vec<AnomalyKind> {
        judge_gated(elapsed, text, changed)
            .into_iter()
            .map(|a| a.kind)
            .collect()
    }

    #[test]
    fn the_state_line_says_the_elapsed_seconds_and_nothing_else() {
        let line = running_state_line(Some(12.04));
        assert_eq!(kinds(Some(12.04), &line, false), []);
        assert_eq!(
            kinds(Some(12.4), &line, false),
            [AnomalyKind::DishonestCount]
        );
        assert_eq!(kinds(Some(12.04), &line, true), [AnomalyKind::Lost]);
        let with_log = format!("{line}\nline-1");
        assert_eq!(
            kinds(Some(12.04), &with_log, false),
            [AnomalyKind::UntrueLine]
        );
        let bare = "⏳ still running — 12.0s elapsed, no exit code yet.";
        assert_eq!(kinds(Some(12.04), bare, false), [AnomalyKind::OffFormat; 2]);
        assert_eq!(
            kinds(None, "", false),
            [
                AnomalyKind::DishonestCount,
                AnomalyKind::OffFormat,
                AnomalyKind::OffFormat
            ]
        );
        for odd in [None, Some(-3.0), Some(f64::INFINITY), Some(f64::NAN)] {
            assert_eq!(elapsed_said(odd), "0.0", "{odd:?}");
        }
    }

    proptest! {
        /// The judge's number and upstream's state line agree on every elapsed time: two
        /// readings of one rule, written apart.
        #[test]
        fn the_judge_reads_the_elapsed_time_as_upstreams_state_line_does(
            elapsed in prop_oneof![
                Just(None),
                any::<f64>().prop_map(Some),
                (-10.0f64..1e7).prop_map(Some),
                prop::sample::select(vec![0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY])
                    .prop_map(Some),
            ]
        ) {
            prop_assert_eq!(judge_gated(elapsed, &running_state_line(elapsed), false), []);
        }
    }
}
