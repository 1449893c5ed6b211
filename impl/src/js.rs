//! JavaScript string semantics that upstream's output depends on.
//!
//! pi-bgrun is TypeScript: its lengths are UTF-16 code units, its `trim()` uses ECMAScript's
//! white-space set (not Unicode's `White_Space`), and its numbers are IEEE doubles. A faithful
//! shipped engine must measure and cut text the same way, so these helpers are the only place
//! where the difference from Rust's native semantics is spelled out.

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
/// One decimal, rounded half up (JavaScript's `toFixed(1)` on an exactly representable
/// quotient), and a trailing `.0` dropped.
pub fn format_bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    let scaled = |unit: u64, name: &str| {
        let tenths = ((n as u128) * 20 + unit as u128) / (2 * unit as u128);
        let (whole, frac) = (tenths / 10, tenths % 10);
        if frac == 0 {
            format!("{whole} {name}")
        } else {
            format!("{whole}.{frac} {name}")
        }
    };
    if n >= MIB {
        scaled(MIB, "MiB")
    } else if n >= KIB {
        scaled(KIB, "KiB")
    } else {
        format!("{n} bytes")
    }
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
    fn bytes_format_like_upstream() {
        assert_eq!(format_bytes(900), "900 bytes");
        assert_eq!(format_bytes(1000), "1000 bytes");
        assert_eq!(format_bytes(2 * 1024 * 1024), "2 MiB");
        assert_eq!(format_bytes(67_108_864), "64 MiB");
        assert_eq!(format_bytes(67_112_960), "64 MiB");
        assert_eq!(format_bytes(2_726_297), "2.6 MiB");
        // 2.25 MiB is exact in binary: half rounds up, as toFixed does.
        assert_eq!(format_bytes(2_359_296), "2.3 MiB");
        assert_eq!(format_bytes(1536), "1.5 KiB");
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
}
