//! Random traces for differential testing: one seed, one trace, the same on every machine.
//!
//! The traces aim at the places where a reimplementation of upstream's `bgtail` goes wrong:
//! lines around the per-line cap and the budget, ANSI and OSC sequences, runs that fold, blank,
//! whitespace-only and wrapper lines, exit markers with `truncated=` labels of every size
//! JavaScript can read, CRLF and CR-only endings, astral-plane and zero-width characters,
//! invalid UTF-8 and NUL bytes, partial last lines, views from one byte to past the 2 MiB
//! default, truncation, rewrites in place of the same size, replacement by another file, a
//! first line that changes; reads with `lines` from 0 through fractions to 10^6 (and `null`),
//! raw reads, and `bytes` of every size.
//!
//! Pure: a seed in, a [`Trace`] out. The random numbers are SplitMix64, written here rather
//! than taken from a crate so that a seed names the same trace for as long as this file is
//! unchanged (random-number crates do not promise stable streams across versions).

use crate::formats::trace::{
    Event, Exit, Header, JsNumber, Read, Remove, Source, Trace, Truncate, Write, VERSION,
};
use crate::source::MemoryLog;

/// SplitMix64: small, fast, and every seed gives a full-period stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A stream for `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// What the generated traces may contain.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Profile {
    /// Events per trace, at most.
    pub max_events: u64,
    /// Percent of traces that grow a log past the 2 MiB default view.
    pub big_log_percent: u64,
    /// Percent of traces that write more lines than upstream's 500,000-line scan bound.
    pub line_bound_percent: u64,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            max_events: 24,
            big_log_percent: 2,
            line_bound_percent: 0,
        }
    }
}

/// The trace for `seed`.
pub fn trace(seed: u64, profile: &Profile) -> Trace {
    let mut rng = Rng::new(seed);
    let mut log = MemoryLog::new();
    let mut events = Vec::new();
    let count = rng.range(2, profile.max_events.max(2));
    if rng.chance(profile.big_log_percent) {
        events.push(append(&mut log, big_log(&mut rng)));
    }
    if rng.chance(profile.line_bound_percent) {
        events.push(append(&mut log, many_short_lines(&mut rng)));
    }
    for _ in 0..count {
        events.push(event(&mut rng, &mut log));
    }
    // Every trace ends with a read, so that the last change is seen.
    events.push(Event::Read(read(&mut rng)));
    let job_id = if rng.chance(3) {
        // Ids upstream refuses (empty, too long, a path, control characters), and odd ones it
        // takes.
        let long = "j".repeat(201);
        let ids = [
            "",
            "a/b",
            "..",
            "x\\y",
            "tab\tid",
            "del\u{7f}",
            "c1\u{85}",
            &long,
            "ünï-😀-1",
        ];
        rng.pick(&ids).to_string()
    } else {
        "job-1-1".to_string()
    };
    Trace {
        header: Header {
            bgtail_trace: VERSION,
            name: format!("generated-{seed}"),
            source: Source::Generated,
            description: format!("bgtail::generate::trace({seed}), the default profile"),
            command: None,
            machine: None,
            log_path: format!("/jobs/{job_id}.log"),
            job_id,
            limits: None,
            running_gate: false,
            harness: None,
        },
        events,
    }
}

/// One event, applied to `log` as the replay will apply it.
fn event(rng: &mut Rng, log: &mut MemoryLog) -> Event {
    let event = match rng.below(100) {
        0..=39 => Event::Read(read(rng)),
        40..=79 => {
            let mut bytes = Vec::new();
            if log.bytes().is_empty() && rng.chance(20) {
                // A first line whose 200-unit fingerprint ends inside a surrogate pair.
                bytes = astral_around(rng, 200);
                bytes.push(b'\n');
            }
            bytes.extend(lines(rng));
            Event::Append(Write::new(None, &bytes))
        }
        80..=83 => Event::Append(Write::new(None, exit_marker(rng).as_bytes())),
        84..=86 => Event::Truncate(Truncate {
            t: None,
            len: truncation_point(rng, log.bytes()),
        }),
        87..=90 => Event::Rewrite(Write::new(None, &same_size_rewrite(rng, log.bytes()))),
        91..=93 => {
            let bytes = if rng.chance(50) {
                same_size_rewrite(rng, log.bytes())
            } else {
                lines(rng)
            };
            Event::Replace(Write::new(None, &bytes))
        }
        94 => Event::Remove(Remove::default()),
        _ => Event::Exit(Exit {
            t: None,
            code: rng.pick(&[0, 1, 2, -1, 127, 255]),
            marker: rng.chance(85),
        }),
    };
    event.apply_to(log);
    event
}

fn append(log: &mut MemoryLog, bytes: Vec<u8>) -> Event {
    let event = Event::Append(Write::new(None, &bytes));
    event.apply_to(log);
    event
}

/// A read with upstream's parameters, each drawn from values around its edges.
fn read(rng: &mut Rng) -> Read {
    Read {
        lines: lines_param(rng),
        raw: rng.chance(10),
        bytes: bytes_param(rng),
        ..Read::default()
    }
}

fn lines_param(rng: &mut Rng) -> Option<JsNumber> {
    let n = match rng.below(20) {
        0..=3 => return None,
        // Which JavaScript floors to 0: one line.
        4 => return Some(JsNumber::Null),
        5 => 0.0,
        6 => rng.pick(&[0.5, 0.999, 1.5, 2.25, 39.9, -3.0]),
        7 => rng.range(100, 1_000_000) as f64,
        8 => 1e6,
        9 => rng.range(40, 400) as f64,
        _ => rng.range(1, 12) as f64,
    };
    Some(JsNumber::Value(n))
}

fn bytes_param(rng: &mut Rng) -> Option<f64> {
    match rng.below(20) {
        0..=11 => None,
        12 => Some(rng.pick(&[0.0, -1.0, 0.5, 1.0, 2.0, 1e12, 67_112_961.0])),
        13 => Some(rng.range(1, 64) as f64),
        14 => Some(rng.range(64, 4096) as f64 + 0.5),
        15 => Some(rng.range(1, 4096) as f64),
        16 => Some(rng.pick(&[2_097_152.0, 2_097_151.0, 8_388_608.0, 67_112_960.0])),
        _ => Some(rng.range(4096, 300_000) as f64),
    }
}

/// Several lines, each ended the same way, the last one sometimes left partial.
fn lines(rng: &mut Rng) -> Vec<u8> {
    let ending: &[u8] = rng.pick(&[&b"\n"[..], b"\n", b"\n", b"\r\n", b"\r"]);
    let n = rng.range(1, 14);
    let mut out = Vec::new();
    let mut last = line(rng);
    for i in 0..n {
        // Repeats make runs that fold (three or more) and pairs that do not.
        if i == 0 || !rng.chance(30) {
            last = line(rng);
        }
        out.extend_from_slice(&last);
        if i + 1 < n || !rng.chance(15) {
            out.extend_from_slice(ending);
        }
    }
    out
}

/// One line's text, without its ending.
fn line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(24) {
        0..=6 => format!("line-{}", rng.below(1000)).into_bytes(),
        7 => {
            let len = rng.pick(&[1990, 1999, 2000, 2001, 2010, 2020]);
            long_text(rng, len)
        }
        8 => {
            let len = rng.range(300, 7_990);
            long_text(rng, len)
        }
        9 => {
            let at = rng.pick(&[199, 200, 1999, 2000]);
            astral_around(rng, at)
        }
        10 => ansi_line(rng),
        11 => osc_line(rng),
        12 => rng
            .pick(&[
                "", " ", "\t", "\u{3000}", "\u{FEFF}", " \u{A0} ", "\u{85}", "\u{200B}",
            ])
            .as_bytes()
            .to_vec(),
        13 => rng
            .pick(&[
                "__BGRUN_TRUNC__ output truncated: kept the first 1000 bytes",
                "__BGRUN_NOCAP__ log ceiling unavailable",
                "__BGRUN_other",
                " __BGRUN_EXIT__=0",
            ])
            .as_bytes()
            .to_vec(),
        14 => exit_marker(rng).trim().as_bytes().to_vec(),
        15 => rng
            .pick(&["a\u{200D}b", "e\u{301}", "😀 done", "𝒳𝒴", "ok\u{200B}"])
            .as_bytes()
            .to_vec(),
        16 => rng
            .pick(&[
                &b"bad \xff\xfe utf8"[..],
                b"nul \0 byte",
                b"\xe2\x82",
                b"cut \xf0\x9f\x98",
            ])
            .to_vec(),
        17 => b"x\ry".to_vec(),
        _ => format!(
            "{} {}",
            rng.pick(&["ok", "wait", "PASS", "error:"]),
            rng.below(5)
        )
        .into_bytes(),
    }
}

/// `len` units of ASCII, sometimes with an astral character on the way.
fn long_text(rng: &mut Rng, len: u64) -> Vec<u8> {
    let c = rng.pick(b"xy-");
    let mut out = vec![c; len as usize];
    if rng.chance(30) && len > 4 {
        let at = rng.below(len - 4) as usize;
        out.splice(at..at + 4, "😀".bytes());
    }
    out
}

/// An astral character whose UTF-16 pair straddles unit `at` (the 200-unit fingerprint, the
/// 2000-unit cap), so that a cut by code unit falls inside it.
fn astral_around(rng: &mut Rng, at: u64) -> Vec<u8> {
    let mut out = vec![b'a'; (at - 1) as usize];
    out.extend_from_slice(rng.pick(&["😀", "😁", "🙂", "𝒳"]).as_bytes());
    out.extend_from_slice(b"tail");
    out
}

fn ansi_line(rng: &mut Rng) -> Vec<u8> {
    let seqs = [
        "\x1b[31m",
        "\x1b[0m",
        "\x1b[1;32m",
        "\x1b[2K",
        "\x1b[0K",
        "\x1b(B",
        "\x1b[?25l",
        "\u{9b}31m",
        "\x1b[38;5;196m",
        "\x1b[12345m",
        "\x1bc",
    ];
    let mut out = String::new();
    for _ in 0..rng.range(1, 4) {
        out.push_str(rng.pick(&seqs));
        out.push_str(rng.pick(&["OK", "green", "", "wait"]));
    }
    out.into_bytes()
}

fn osc_line(rng: &mut Rng) -> Vec<u8> {
    rng.pick(&[
        "\x1b]0;title\x07after",
        "\x1b]8;;https://example.invalid\x1b\\link\x1b]8;;\x1b\\",
        "\x1b]2;t\x07\x1b[1mbold\x1b[0m",
    ])
    .as_bytes()
    .to_vec()
}

/// The wrapper's exit line, with a `truncated=` label of any size JavaScript can read (past
/// 2^53 it rounds, past 2^64 it does not saturate, past ~10^308 it is Infinity).
fn exit_marker(rng: &mut Rng) -> String {
    let code = rng.pick(&["0", "1", "-1", "137"]);
    let label = match rng.below(12) {
        0..=2 => String::new(),
        3 => " nocap=1".into(),
        4 => format!(" truncated={}", rng.range(0, 5_000_000)),
        5 => " truncated=9007199254740993".into(),
        6 => format!(" truncated={}", rng.next_u64()),
        7 => " truncated=99999999999999999999".into(),
        8 => format!(" truncated={}", "9".repeat(rng.range(20, 400) as usize)),
        9 => " truncated=x truncated=7".into(),
        10 => " truncated=".into(),
        _ => format!(" truncated=0{} nocap=1", rng.below(99)),
    };
    format!("\n{}{code}{label}\n", crate::upstream::view::EXIT_MARKER)
}

/// Where to cut the log: anywhere, or past its end.
fn truncation_point(rng: &mut Rng, bytes: &[u8]) -> u64 {
    let size = bytes.len() as u64;
    match rng.below(4) {
        0 => 0,
        1 => size + rng.below(10),
        _ => rng.range(0, size),
    }
}

/// Other bytes of the same length: an astral character swapped for another, the first line
/// changed, or one byte anywhere.
fn same_size_rewrite(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if out.is_empty() {
        return lines(rng);
    }
    // Four-byte UTF-8 is a surrogate pair in UTF-16: a swap changes its high half or not.
    if let Some(at) = out
        .iter()
        .position(|&b| b >= 0xF0)
        .filter(|_| rng.chance(40))
    {
        if at + 4 <= out.len() {
            let astral = rng.pick(&["😀", "😁", "🙂", "𝒳", "𝒴", "🦀"]);
            out[at..at + 4].copy_from_slice(astral.as_bytes());
            return out;
        }
    }
    let at = if rng.chance(60) {
        out.iter()
            .position(|b| b.is_ascii_alphanumeric())
            .unwrap_or(0)
    } else {
        rng.below(out.len() as u64) as usize
    };
    out[at] = match out[at] {
        b'\n' => b'\n',
        b'z' => b'a',
        b if b.is_ascii_alphanumeric() => b + 1,
        _ => b'q',
    };
    out
}

/// A log past the 2 MiB default view, of lines of one length.
fn big_log(rng: &mut Rng) -> Vec<u8> {
    let width = rng.pick(&[20usize, 100, 1500]);
    let target = rng.range(2_097_152, 3_200_000) as usize;
    let mut out = Vec::with_capacity(target + width);
    let mut i = 0u64;
    while out.len() < target {
        let text = format!("{i:0>w$}", w = width);
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
        i += 1;
    }
    out
}

/// More lines than upstream's 500,000-line scan bound, mostly one repeated line.
fn many_short_lines(rng: &mut Rng) -> Vec<u8> {
    let n = rng.range(500_000, 520_000);
    let mut out = Vec::with_capacity(n as usize * 2);
    for i in 0..n {
        out.extend_from_slice(if i % 1000 == 0 { b"k\n" } else { b"y\n" });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_names_one_trace() {
        let p = Profile::default();
        assert_eq!(trace(7, &p), trace(7, &p));
        assert_ne!(trace(7, &p), trace(8, &p));
    }

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs for seed 1234567, from the published reference implementation.
        let mut r = Rng::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
    }

    #[test]
    fn generated_traces_round_trip_and_end_with_a_read() {
        for seed in 0..200 {
            let t = trace(seed, &Profile::default());
            let text = t.to_jsonl();
            assert_eq!(Trace::parse("gen", &text).unwrap(), t, "seed {seed}");
            assert!(matches!(t.events.last(), Some(Event::Read(_))));
        }
    }
}
