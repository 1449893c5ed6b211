//! pi-bgrun 0.7.1's tool rules that both engines follow, apart from the reply types they fill:
//! its `lines` normalisation, its view clamp, its id checks, the cap's note and 0.8.0's
//! running-job line (docs/pi-bgrun-0.7.1.md §2.2, §6, §4.1).

use super::js::{format_bytes, has_control_char, json_quote, utf16_len};
use super::limits::Limits;

/// Upstream's `lines` normalisation: `max(1, floor(lines))`, 40 when absent. NaN stays NaN
/// (JavaScript's `Math.max(1, NaN)`), +Infinity stays infinite.
pub(crate) fn normalize_lines(lines: Option<f64>, limits: &Limits) -> f64 {
    match lines {
        None => limits.default_lines as f64,
        Some(n) if n.is_nan() => f64::NAN,
        Some(n) => n.floor().max(1.0),
    }
}

/// The note upstream appends when the log was capped at `cap` bytes (the exit marker's
/// ` truncated=` label, a JavaScript number: see [`View::truncated_at`](super::view::View::truncated_at)).
pub(crate) fn cap_note(cap: f64) -> String {
    format!(
        "\n\n(log truncated at {} — lines past the cap were never written, so this is not the run's real end)",
        format_bytes(cap)
    )
}

/// Upstream's `clampReadWindow`: the default for anything not a positive finite number, else
/// `min(floor(bytes), view_max)` (so a value in (0, 1) gives an empty view).
pub(crate) fn clamp_window(bytes: Option<f64>, limits: &Limits) -> u64 {
    match bytes {
        Some(b) if b.is_finite() && b > 0.0 => {
            let floored = b.floor();
            if floored >= limits.view_max as f64 {
                limits.view_max
            } else {
                floored as u64
            }
        }
        _ => limits.view_default,
    }
}

/// Upstream's id checks, in its order: required, then valid; `Err` holds upstream's message.
pub(crate) fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("bgtail: id is required".into());
    }
    if utf16_len(id) > 200
        || id.contains('/')
        || id.contains('\\')
        || id.contains("..")
        || has_control_char(id)
    {
        return Err(format!("bgtail: invalid job id {}", json_quote(id)));
    }
    Ok(())
}

/// The state line of a running job (0.8.0). Upstream pins only the pattern
/// `⏳ still running — [\d.]+s elapsed, no exit code yet` and two phrases; the sentence that
/// joins them is **not known** and is our reconstruction.
pub(crate) fn running_state_line(elapsed_secs: Option<f64>) -> String {
    let secs = elapsed_secs
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(0.0);
    format!(
        "⏳ still running — {secs:.1}s elapsed, no exit code yet. Launching was the task; the wake is your next input — pass peek: true only if you need the live log now."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_normalise_like_javascript() {
        let l = Limits::default();
        assert_eq!(normalize_lines(None, &l), 40.0);
        assert_eq!(normalize_lines(Some(0.0), &l), 1.0);
        assert_eq!(normalize_lines(Some(-5.0), &l), 1.0);
        assert_eq!(normalize_lines(Some(3.9), &l), 3.0);
        assert!(normalize_lines(Some(f64::NAN), &l).is_nan());
        assert_eq!(normalize_lines(Some(f64::INFINITY), &l), f64::INFINITY);
    }

    #[test]
    fn window_clamps_like_upstream() {
        let l = Limits::default();
        for bad in [
            None,
            Some(0.0),
            Some(-1.0),
            Some(f64::NAN),
            Some(f64::INFINITY),
        ] {
            assert_eq!(clamp_window(bad, &l), 2_097_152);
        }
        assert_eq!(clamp_window(Some(65536.0), &l), 65536);
        assert_eq!(clamp_window(Some(65536.7), &l), 65536);
        assert_eq!(clamp_window(Some(1e12), &l), l.view_max);
        assert_eq!(clamp_window(Some(0.5), &l), 0);
    }

    #[test]
    fn the_running_line_says_zero_for_an_elapsed_time_not_finite_or_below_zero() {
        let said = |secs| {
            let line = running_state_line(secs);
            line["⏳ still running — ".len()..line.find("s elapsed").expect("the pattern")]
                .to_owned()
        };
        assert_eq!(said(Some(12.04)), "12.0");
        assert_eq!(said(Some(0.0)), "0.0");
        for odd in [None, Some(-3.0), Some(f64::INFINITY), Some(f64::NAN)] {
            assert_eq!(said(odd), "0.0", "{odd:?}");
        }
    }

    #[test]
    fn ids_are_checked_in_upstreams_order() {
        assert_eq!(check_id("").unwrap_err(), "bgtail: id is required");
        assert_eq!(
            check_id("a/b").unwrap_err(),
            "bgtail: invalid job id \"a/b\""
        );
        assert_eq!(
            check_id("x\u{7}y").unwrap_err(),
            "bgtail: invalid job id \"x\\u0007y\""
        );
        assert!(check_id("..").is_err());
        assert!(check_id("a\\b").is_err());
        assert!(check_id(&"a".repeat(201)).is_err());
        assert!(check_id(&"a".repeat(200)).is_ok());
        assert!(check_id("job-1790602752-11625").is_ok());
    }
}
