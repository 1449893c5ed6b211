//! A number of bytes as a note says it (`900 bytes`, `2.6 MiB`): upstream's `formatBytes`, the
//! way the contract takes it — a count below 1 KiB in bytes, else in KiB or MiB rounded to a
//! tenth, printed as JavaScript prints numbers.
//!
//! The judge's own reading, not the engines' (`upstream::js::format_bytes`, held equal to it
//! by a proptest below), so that an engine whose notes print a size wrong shows as a note the
//! judge does not expect.

const KIB: f64 = 1024.0;
const MIB: f64 = KIB * KIB;

/// `n` bytes as the view note and the cap's note say it. `n` is a size or a cap read from an
/// exit marker: never below 0, possibly past 2^53 or infinite.
pub(crate) fn size_said(n: f64) -> String {
    // A tenth of the unit, rounded half up: for the non-negative numbers here Rust's `round`
    // (half away from zero) is JavaScript's `Math.round` (half toward +∞).
    let tenths = |unit: f64| ((n / unit) * 10.0).round() / 10.0;
    if n >= MIB {
        format!("{} MiB", js_printed(tenths(MIB)))
    } else if n >= KIB {
        format!("{} KiB", js_printed(tenths(KIB)))
    } else {
        format!("{} bytes", js_printed(n))
    }
}

/// A non-negative number as JavaScript's `String(x)` prints it, for the numbers a size note
/// holds (whole numbers, tenths, and what lies past 2^53) and the cap `details` carries (which
/// `JSON.stringify` writes with the same digits): Rust prints the same shortest
/// digits that round-trip, plainly below 10^21; from there JavaScript writes an exponent with
/// its sign, and `Infinity` for ∞.
pub(crate) fn js_printed(x: f64) -> String {
    if x.is_infinite() {
        "Infinity".to_owned()
    } else if x >= 1e21 {
        format!("{x:e}").replacen('e', "e+", 1)
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::{js_printed, size_said};
    use crate::upstream::js::{format_bytes, number_to_string};
    use proptest::prelude::*;

    #[test]
    fn sizes_are_said_in_bytes_kib_or_mib_to_a_tenth() {
        assert_eq!(size_said(0.0), "0 bytes");
        assert_eq!(size_said(900.0), "900 bytes");
        assert_eq!(size_said(1024.0), "1 KiB");
        assert_eq!(size_said(2_726_298.0), "2.6 MiB");
        assert_eq!(size_said(1e20), "95367431640625 MiB");
        assert_eq!(size_said(1e29), "9.5367431640625e+22 MiB");
        assert_eq!(size_said(f64::INFINITY), "Infinity MiB");
    }

    proptest! {
        /// The judge's reading and upstream's `formatBytes` agree on sizes of every magnitude:
        /// two readings of one rule, written apart.
        #[test]
        fn the_judge_says_a_size_as_upstream_does(
            n in prop_oneof![
                (0u64..5_000_000).prop_map(|n| n as f64),
                any::<u64>().prop_map(|n| n as f64),
                (0.0f64..1e300),
                prop::sample::select(vec![1023.0, 1024.0, 1_048_575.0, 1_048_576.0, 9.007_199_254_740_993e15, 1e21 * 1_048_576.0, f64::INFINITY]),
            ]
        ) {
            prop_assert_eq!(size_said(n), format_bytes(n));
        }

        /// The judge's printing of a number and upstream's `Number.prototype.toString` agree
        /// on every number a note or a cap holds: none below 0, whole or not, any magnitude.
        #[test]
        fn the_judge_prints_a_number_as_javascript_does(
            x in prop_oneof![
                any::<u64>().prop_map(|n| n as f64),
                (0.0f64..1e300),
                (0.0f64..f64::MAX),
                prop::sample::select(vec![0.0, 1e20, 1e21, 1e29, 9.007_199_254_740_992e15, f64::MAX, f64::INFINITY]),
            ]
        ) {
            prop_assert_eq!(js_printed(x), number_to_string(x));
        }
    }
}
