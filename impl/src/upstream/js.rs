//! JavaScript string semantics that upstream's output depends on.
//!
//! pi-bgrun is TypeScript: its lengths are UTF-16 code units, its `trim()` uses ECMAScript's
//! white-space set (not Unicode's `White_Space`), and its numbers are IEEE doubles. A faithful
//! shipped engine must measure and cut text the same way, so these helpers are the only place
//! where the difference from Rust's native semantics is spelled out.

use serde::{Deserialize, Serialize};

/// Length of `s` in UTF-16 code units (JavaScript's `String.prototype.length`).
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// ECMAScript `WhiteSpace` ∪ `LineTerminator`, the set `String.prototype.trim` removes.
///
/// Differs from [`char::is_whitespace`]: U+FEFF counts, U+0085 (NEL) does not.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `s.trim()` in JavaScript.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `s.slice(0, units)` in JavaScript, measured in UTF-16 code units.
///
/// When the cut falls inside a surrogate pair, JavaScript keeps a lone high surrogate, which
/// Rust strings cannot hold; it becomes U+FFFD, which is also what Node writes when such a
/// string is encoded as UTF-8. The result is then `units` long in UTF-16 terms either way.
pub fn truncate_utf16(s: &str, units: usize) -> String {
    let mut out = String::with_capacity(s.len().min(units * 3));
    let mut used = 0;
    for c in s.chars() {
        let w = c.len_utf16();
        if used + w > units {
            if used < units {
                out.push('\u{FFFD}');
            }
            break;
        }
        out.push(c);
        used += w;
    }
    out
}

/// `s.slice(0, units)` in JavaScript as a value to compare, not to print: two prefixes are
/// equal exactly when JavaScript's are, code unit for code unit.
///
/// [`truncate_utf16`] writes a cut surrogate pair as U+FFFD, so `…😀` and `…𝒳` cut inside the
/// pair would print alike; JavaScript keeps the lone high surrogate, and those two differ
/// (U+D83D against U+D835). The lone half is kept here as a number beside the text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Utf16Prefix {
    /// The whole characters of the prefix.
    pub text: String,
    /// The high surrogate the cut left alone at the end, if it fell inside a pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lone_high: Option<u16>,
}

impl Utf16Prefix {
    /// The first `units` UTF-16 code units of `s`.
    pub fn of(s: &str, units: usize) -> Self {
        let mut used = 0;
        for (at, c) in s.char_indices() {
            let w = c.len_utf16();
            if used + w > units {
                let mut pair = [0u16; 2];
                c.encode_utf16(&mut pair);
                return Utf16Prefix {
                    text: s[..at].to_owned(),
                    lone_high: (used < units).then_some(pair[0]),
                };
            }
            used += w;
        }
        Utf16Prefix {
            text: s.to_owned(),
            lone_high: None,
        }
    }
}

/// `JSON.stringify(s)` for a string, as used in upstream's error texts.
pub fn json_quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serialises")
}

/// Whether `s` contains a character in U+0000–U+001F or U+007F–U+009F.
pub fn has_control_char(s: &str) -> bool {
    s.chars()
        .any(|c| matches!(c, '\u{0000}'..='\u{001F}' | '\u{007F}'..='\u{009F}'))
}

/// Formats a byte count the way upstream's notes do: `2 MiB`, `2.6 MiB`, `900 bytes`.
///
/// Upstream's `formatBytes` on a JavaScript number, step for step: `Math.round(n / unit * 10)
/// / 10` in double arithmetic, printed as JavaScript prints numbers. So a cap read from an exit
/// marker past 2^53 or 10^21 prints as upstream prints it (`95367431640625 MiB`,
/// `9.5367431640625e+22 MiB`, `Infinity MiB`).
pub fn format_bytes(n: f64) -> String {
    const KIB: f64 = 1024.0;
    const MIB: f64 = 1024.0 * 1024.0;
    let scaled = |unit: f64| number_to_string(math_round((n / unit) * 10.0) / 10.0);
    if n >= MIB {
        format!("{} MiB", scaled(MIB))
    } else if n >= KIB {
        format!("{} KiB", scaled(KIB))
    } else {
        format!("{} bytes", number_to_string(n))
    }
}

/// JavaScript's `Math.round`: the nearest integer, halves toward +∞.
pub fn math_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let floor = x.floor();
    // `x - floor` is exact: both lie within one binade of each other.
    if x - floor >= 0.5 {
        floor + 1.0
    } else {
        floor
    }
}

/// JavaScript's `Number.prototype.toString()` (ECMA-262 Number::toString, radix 10): the
/// shortest digits that round-trip, in plain notation from 1e-6 up to 1e21 and in exponent
/// notation (`1e+21`, `1.5e-7`) outside it.
pub fn number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if x < 0.0 {
        return format!("-{}", number_to_string(-x));
    }
    // An integer below 2^53 is exact, and no decimal with fewer significant digits than its own
    // lies within half a unit of it: its digits are the shortest round-trip form. The byte
    // counts of every reply take this path (and skip `{:e}`'s string and its reshaping).
    if x.fract() == 0.0 && x < EXACT_INTEGERS {
        return (x as u64).to_string();
    }
    shortest_round_trip(x)
}

/// 2^53: below it every integer is a double.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// [`number_to_string`] for a positive finite `x`, from its shortest round-trip digits.
fn shortest_round_trip(x: f64) -> String {
    // Rust's `{:e}` gives the same shortest round-trip digits: `d.ddde±x`.
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` always has an exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i64;
    let n = exp.parse::<i64>().expect("an integer exponent") + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        format!("{first}{dot}{rest}e{sign}{}", (n - 1).abs())
    }
}

/// A JavaScript number as `JSON.stringify` writes it, read back as JSON: what a consumer of
/// upstream's `details` holds. Integers print in full up to 10^21 (`4500829355926733300`,
/// not the double's exact `…312`), larger ones in exponent form, and a non-finite number is
/// `null`.
pub fn json_number(x: f64) -> serde_json::Value {
    if !x.is_finite() {
        return serde_json::Value::Null;
    }
    serde_json::from_str(&number_to_string(x)).expect("a finite JavaScript number is valid JSON")
}

/// Formats an integer with en-US digit grouping (`500,000`), as `toLocaleString()` does.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `n === 1 ? one : many`.
pub fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Writes a number as `JSON.stringify` does ([`json_number`]): `40`, not `40.0`, and 2^53 as
/// `9007199254740992`.
pub(crate) fn js_number<S: serde::Serializer>(n: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(v) => serde::Serialize::serialize(&json_number(*v), s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_utf16_units() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("—"), 1);
        assert_eq!(utf16_len("😀"), 2);
    }

    #[test]
    fn trim_uses_the_ecmascript_set() {
        assert_eq!(js_trim("\u{FEFF} a \u{3000}"), "a");
        assert_eq!(js_trim("\u{0085}a"), "\u{0085}a");
        assert!(js_trim(" \t\r ").is_empty());
    }

    #[test]
    fn truncation_counts_units_and_marks_a_split_pair() {
        assert_eq!(truncate_utf16("abcdef", 3), "abc");
        assert_eq!(truncate_utf16("a😀b", 2), "a\u{FFFD}");
        assert_eq!(truncate_utf16("a😀b", 3), "a😀");
        assert_eq!(truncate_utf16("ab", 10), "ab");
    }

    #[test]
    fn prefixes_compare_by_code_unit() {
        let a = Utf16Prefix::of("ab😀", 3);
        assert_eq!((a.text.as_str(), a.lone_high), ("ab", Some(0xD83D)));
        // Same high surrogate: equal, as in JavaScript; another one: not equal.
        assert_eq!(a, Utf16Prefix::of("ab😁", 3));
        assert_ne!(a, Utf16Prefix::of("ab𝒳", 3));
        assert_eq!(Utf16Prefix::of("ab😀", 4).lone_high, None);
        assert_eq!(Utf16Prefix::of("ab", 9).text, "ab");
    }

    #[test]
    fn a_prefix_of_plain_text_holds_exactly_its_units() {
        for units in 0..5 {
            let p = Utf16Prefix::of("abcd", units);
            assert_eq!(
                (p.text.as_str(), p.lone_high),
                (&"abcd"[..units.min(4)], None)
            );
        }
    }

    #[test]
    fn bytes_format_like_upstream() {
        assert_eq!(format_bytes(900.0), "900 bytes");
        assert_eq!(format_bytes(1000.0), "1000 bytes");
        assert_eq!(format_bytes(2.0 * 1024.0 * 1024.0), "2 MiB");
        assert_eq!(format_bytes(67_108_864.0), "64 MiB");
        assert_eq!(format_bytes(67_112_960.0), "64 MiB");
        assert_eq!(format_bytes(2_726_297.0), "2.6 MiB");
        // 2.25 MiB is exact in binary: Math.round takes the half up.
        assert_eq!(format_bytes(2_359_296.0), "2.3 MiB");
        assert_eq!(format_bytes(1536.0), "1.5 KiB");
        // Caps past 2^53 and 10^21, as upstream prints them (from its own code under node).
        assert_eq!(format_bytes(1e20), "95367431640625 MiB");
        assert_eq!(format_bytes(1e250), "9.5367431640625e+243 MiB");
        assert_eq!(format_bytes(f64::INFINITY), "Infinity MiB");
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (x, js) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (2.6, "2.6"),
            (0.1 + 0.2, "0.30000000000000004"),
            (9_007_199_254_740_993.0, "9007199254740992"),
            (4_500_829_355_926_733_300.0, "4500829355926733300"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e22, "1.5e+22"),
            (1e-6, "0.000001"),
            (1.5e-7, "1.5e-7"),
            (-2.5, "-2.5"),
            (f64::INFINITY, "Infinity"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(number_to_string(x), js, "{x:e}");
        }
        assert_eq!(json_number(1e20), serde_json::json!(1e20));
        assert_eq!(
            json_number(9_007_199_254_740_992.0).to_string(),
            "9007199254740992"
        );
        assert_eq!(json_number(f64::INFINITY), serde_json::Value::Null);
        // The integer path stops below 2^53; from there the general one prints.
        assert_eq!(
            number_to_string(9_007_199_254_740_991.0),
            "9007199254740991"
        );
        assert_eq!(
            shortest_round_trip(9_007_199_254_740_991.0),
            "9007199254740991"
        );
        assert_eq!(math_round(2.5), 3.0);
        assert_eq!(math_round(-2.5), -2.0);
    }

    proptest::proptest! {
        #![proptest_config(bgtail_tests::seeds::config(256))]
        #[test]
        fn integers_print_as_their_shortest_round_trip_digits(n in 1u64..(1 << 53)) {
            proptest::prop_assert_eq!(number_to_string(n as f64), shortest_round_trip(n as f64));
        }
    }

    #[test]
    fn grouping_and_quoting() {
        assert_eq!(group_thousands(500_000), "500,000");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1_000), "1,000");
        assert_eq!(json_quote("a\"b\u{1}"), "\"a\\\"b\\u0001\"");
        assert!(has_control_char("a\u{9b}"));
        assert!(!has_control_char("a-b"));
    }

    /// A request's `lines` and `bytes` as written for an engine in another process or a trace:
    /// as `JSON.stringify` writes them.
    #[test]
    fn numbers_are_written_as_json_stringify_writes_them() {
        #[derive(Serialize)]
        struct Field(#[serde(serialize_with = "js_number")] Option<f64>);
        let written = |n: Option<f64>| serde_json::to_string(&Field(n)).unwrap();
        assert_eq!(written(Some(40.0)), "40");
        assert_eq!(written(Some(-3.0)), "-3");
        assert_eq!(written(Some(1.5)), "1.5");
        assert_eq!(written(Some(0.5)), "0.5");
        assert_eq!(written(Some(9_007_199_254_740_992.0)), "9007199254740992");
        assert_eq!(
            written(Some(4_500_829_355_926_733_312.0)),
            "4500829355926733300"
        );
        assert_eq!(written(Some(f64::NAN)), "null");
        assert_eq!(written(None), "null");
    }
}
