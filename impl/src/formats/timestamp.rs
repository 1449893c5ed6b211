//! RFC 3339 timestamps as captured sessions write them (`2026-06-22T01:33:58.227Z`, or with an
//! offset), to milliseconds since the Unix epoch: the importers time each read from them.

/// Milliseconds since 1970-01-01T00:00:00Z, or `None` when `stamp` is not RFC 3339.
pub fn millis(stamp: &str) -> Option<u64> {
    let (date, time) = stamp.split_once(['T', 't', ' '])?;
    let mut d = date.splitn(3, '-');
    let (y, m, day) = (num(d.next()?)?, num(d.next()?)?, num(d.next()?)?);
    let (clock, offset_min) = split_offset(time)?;
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, ""));
    let mut c = hms.splitn(3, ':');
    let (h, min, s) = (num(c.next()?)?, num(c.next()?)?, num(c.next()?)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) || h > 23 || min > 59 || s > 60 {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms = frac
        .bytes()
        .chain(*b"000")
        .take(3)
        .fold(0, |a, b| a * 10 + u64::from(b - b'0'));
    let days = days_from_civil(y, m, day)?;
    let secs = days * 86_400 + (h * 3600 + min * 60 + s) - offset_min * 60;
    u64::try_from(secs).ok().map(|s| s * 1000 + ms)
}

fn num(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// The clock and its offset from UTC in minutes (`Z`, `+02:00`, `-0500`).
fn split_offset(time: &str) -> Option<(&str, i64)> {
    if let Some(clock) = time.strip_suffix(['Z', 'z']) {
        return Some((clock, 0));
    }
    let at = time.rfind(['+', '-'])?;
    let (clock, off) = time.split_at(at);
    let sign = if off.starts_with('-') { -1 } else { 1 };
    let digits: String = off[1..].chars().filter(|c| *c != ':').collect();
    if digits.len() != 4 {
        return None;
    }
    Some((clock, sign * (num(&digits[..2])? * 60 + num(&digits[2..])?)))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> Option<i64> {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

#[cfg(test)]
mod tests {
    use super::millis;

    #[test]
    fn stamps_become_milliseconds_since_the_epoch() {
        assert_eq!(millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(millis("2026-06-22T01:33:58.227Z"), Some(1_782_092_038_227));
        assert_eq!(
            millis("2026-06-22T03:33:58.227+02:00"),
            Some(1_782_092_038_227)
        );
        assert_eq!(millis("2026-06-22T01:33:58.2Z"), Some(1_782_092_038_200));
    }

    #[test]
    fn what_is_not_a_stamp_is_none() {
        for bad in [
            "",
            "2026-06-22",
            "2026-13-01T00:00:00Z",
            "2026-06-22T01:33:58.x7Z",
            "noon",
        ] {
            assert_eq!(millis(bad), None, "{bad}");
        }
    }
}
