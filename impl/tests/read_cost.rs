//! What a read of the exact engine reads, in bytes: the byte targets of docs/bench.md as
//! regression tests, and the bytes of every read of eight pinned sequences at small limits (a snapshot: what no
//! reply shows, the line index and the read plan, is checked there). They count bytes, not
//! time, so they cannot be flaky; the times are the bench's
//! (`cargo bench -p bgtail --bench read_cost`).

use bgtail::source::MemoryLog;
use bgtail::{ExactEngine, Limits, ReadKind, Request, Tail};
use std::collections::BTreeMap;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// A log of `size` bytes of numbered lines of about `width` bytes.
fn log_of(size: u64, width: usize) -> MemoryLog {
    let mut log = MemoryLog::new();
    let mut bytes = Vec::with_capacity(size as usize + width + 16);
    let mut i = 0u64;
    while (bytes.len() as u64) < size {
        bytes.extend_from_slice(format!("{i:09} {}\n", "x".repeat(width - 11)).as_bytes());
        i += 1;
    }
    log.append(&bytes);
    log
}

/// Appends whole lines, at least `n` bytes; returns how many.
fn append(log: &mut MemoryLog, n: u64) -> u64 {
    let line = b"appended line of a running job, 48 bytes long..\n";
    let count = n.div_ceil(line.len() as u64);
    for _ in 0..count {
        log.append(line);
    }
    count * line.len() as u64
}

fn tail() -> Tail<ExactEngine> {
    Tail::new(ExactEngine::default(), "cost-1-1", "/cost.log")
}

#[test]
fn a_first_read_of_40_lines_on_a_large_log_reads_its_tail_not_its_view() {
    for width in [30, 450] {
        let log = log_of(64 * MIB, width);
        let mut t = tail();
        let r = t.read(&log.source(), &Request::lines(40)).unwrap();
        assert_eq!(r.counts.selected, 40);
        assert!(r.bytes_read <= MIB, "{} bytes for 40 lines", r.bytes_read);
        assert!(
            r.bytes_read <= 64 * KIB,
            "{} bytes (width {width})",
            r.bytes_read
        );
        assert_eq!(r.counts.total_lines, None, "the view above is not counted");
    }
}

/// A running job's log usually ends in a partial line. When the view holds the `\n` before
/// it, that is where the line starts: nothing is read back for it (it was: a 64 KiB piece
/// before the partial line on every first read).
#[test]
fn a_first_read_of_a_running_job_reads_no_more_for_its_partial_line() {
    for width in [30, 450] {
        let mut log = log_of(64 * MIB, width);
        log.append(b"a partial line");
        let mut t = tail();
        let mut request = Request::lines(40).running(true);
        request.peek = true;
        let r = t.read(&log.source(), &request).unwrap();
        assert!(r.shown.last().is_some_and(|s| s.partial), "{}", r.text);
        assert!(
            r.bytes_read <= 64 * KIB,
            "{} bytes (width {width})",
            r.bytes_read
        );
    }
}

/// A progress line longer than the view, polled as it grows: each poll reads the view and
/// what was appended, not the line back to its start (it did: 16 MiB a poll here).
#[test]
fn polling_a_partial_line_longer_than_the_view_reads_the_view_not_the_line() {
    let mut log = log_of(MIB, 60);
    let mut t = tail();
    let mut request = Request::lines(40).running(true);
    request.peek = true;
    t.read(&log.source(), &request).unwrap();
    log.append(&vec![b'#'; 16 * MIB as usize]);
    let view = bgtail::Limits::default().view_default;
    for poll in 0..5 {
        log.append(&[b'#'; 1024]);
        let r = t.read(&log.source(), &request).unwrap();
        assert!(
            r.bytes_read <= view + 64 * KIB + if poll == 0 { 16 * MIB } else { 0 },
            "poll {poll}: {} bytes",
            r.bytes_read
        );
    }
}

#[test]
fn a_delta_read_reads_at_most_what_was_appended_plus_64_kib() {
    for width in [30, 450] {
        let mut log = log_of(8 * MIB, width);
        let mut t = tail();
        t.read(&log.source(), &Request::lines(40)).unwrap();
        for appended in [1, 100, KIB, 64 * KIB, MIB, 3 * MIB] {
            let appended = append(&mut log, appended);
            let r = t.read(&log.source(), &Request::lines(40)).unwrap();
            assert_eq!(r.kind, ReadKind::Delta);
            assert!(
                r.bytes_read <= appended + 64 * KIB,
                "+{appended}: {} bytes (width {width})",
                r.bytes_read
            );
        }
    }
}

#[test]
fn polling_a_growing_log_costs_what_is_appended() {
    let mut log = log_of(4 * MIB, 120);
    let mut t = tail();
    t.read(&log.source(), &Request::lines(40)).unwrap();
    let mut total = 0;
    for _ in 0..300 {
        let appended = append(&mut log, KIB);
        let r = t.read(&log.source(), &Request::lines(40)).unwrap();
        assert!(r.bytes_read <= appended + 64 * KIB, "{}", r.bytes_read);
        total += r.bytes_read;
    }
    // Far below re-reading the 2 MiB view each time (600 MiB).
    assert!(total < 300 * 64 * KIB, "{total}");
}

#[test]
fn nothing_new_counts_the_view_once_and_then_only_what_slides_in() {
    let mut log = log_of(16 * MIB, 60);
    let mut t = tail();
    t.read(&log.source(), &Request::lines(40)).unwrap();
    // Nothing new: the reply states the view's line count, so it counts the whole view once.
    let r = t.read(&log.source(), &Request::lines(40)).unwrap();
    assert_eq!(r.kind, ReadKind::NothingNew);
    let lines_in_view = r.counts.total_lines.expect("counted");
    assert!(r.bytes_read <= 2 * MIB + 128 * KIB, "{}", r.bytes_read);
    assert!(r.text.contains(&format!("{lines_in_view} lines in view")));
    // The index keeps the count: the next polls read little, even as the view slides.
    for _ in 0..20 {
        let r = t.read(&log.source(), &Request::lines(40)).unwrap();
        assert!(r.bytes_read <= 64 * KIB, "{}", r.bytes_read);
        assert!(r.counts.total_lines.is_some());
        let appended = append(&mut log, 4 * KIB);
        let r = t.read(&log.source(), &Request::lines(40)).unwrap();
        assert!(r.bytes_read <= appended + 64 * KIB, "{}", r.bytes_read);
        assert!(r.counts.total_lines.is_some(), "{}", r.text);
    }
}

/// A log of `size` bytes of fixed-width numbered lines, made up on demand: a log of any size
/// without the memory or the disk.
struct Synthetic {
    size: u64,
    width: u64,
}

impl bgtail::source::LogSource for Synthetic {
    fn stat(&self) -> Result<bgtail::source::LogStat, bgtail::source::SourceError> {
        Ok(bgtail::source::LogStat {
            size: self.size,
            identity: None,
        })
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, bgtail::source::SourceError> {
        let n = buf.len().min(self.size.saturating_sub(offset) as usize);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            let at = offset + i as u64;
            let (line, col) = (at / self.width, at % self.width);
            let digits = format!("{line:012}");
            *b = match col {
                c if c == self.width - 1 => b'\n',
                c if c < 12 => digits.as_bytes()[c as usize],
                _ => b'x',
            };
        }
        Ok(n)
    }
}

#[test]
fn a_first_read_of_40_lines_on_a_1_gib_log_reads_at_most_1_mib() {
    for width in [32, 450] {
        let log = Synthetic {
            size: 1 << 30,
            width,
        };
        let mut t = tail();
        let r = t.read(&log, &Request::lines(40)).unwrap();
        assert_eq!(r.counts.selected, 40);
        assert!(r
            .text
            .contains(&format!("{:012}", (1u64 << 30) / width - 1)));
        assert!(
            r.bytes_read <= MIB,
            "{} bytes (width {width})",
            r.bytes_read
        );
    }
}

/// One pinned sequence of reads at small limits: how the log starts, how it is read first,
/// whether the job is still running (each append then ends in a partial line).
struct Plan {
    name: &'static str,
    count_whole_view: bool,
    first_lines: u64,
    start_lines: usize,
    running: bool,
    /// Whether the job writes one line longer than the view (a progress bar): appends grow a
    /// partial line that only every fourth one ends.
    long_line: bool,
}

/// The plan the others vary: a log of 3,000 lines, a first read of 5 lines, a finished job
/// whose view slides as the log grows, counted whole on every read.
const SLIDING: Plan = Plan {
    name: "a sliding view, counted whole",
    count_whole_view: true,
    first_lines: 5,
    start_lines: 3000,
    running: false,
    long_line: false,
};

/// Limits at which a few kilobytes of log reach every part of a read's plan: tail pieces of
/// 64 bytes, a mark every 128 bytes or so, a view of 4 KiB that slides as the log grows,
/// three coverage ranges, a 64-byte head.
fn small_limits(count_whole_view: bool) -> Limits {
    let mut limits = Limits::default();
    limits.tail_chunk = 64;
    limits.mark_spacing = 128;
    limits.head_probe_bytes = 64;
    limits.coverage_ranges_max = 3;
    limits.view_default = 4096;
    limits.view_max = 8192;
    limits.count_whole_view = count_whole_view;
    limits.count_views_up_to = 0;
    limits
}

/// Appends `count` lines of 13 to 32 bytes (and a partial line when the job runs); returns
/// the bytes appended.
fn append_lines(log: &mut MemoryLog, counter: &mut usize, count: usize, running: bool) -> u64 {
    let before = log.bytes().len();
    for _ in 0..count {
        *counter += 1;
        let n = *counter;
        log.append(format!("line {n:06} {}\n", "y".repeat(n % 20)).as_bytes());
    }
    if running {
        log.append(b"part");
    }
    (log.bytes().len() - before) as u64
}

/// Appends `count` × 700 bytes to a partial line, and ends it on every fourth call.
fn append_to_long_line(log: &mut MemoryLog, counter: &mut usize, count: usize) -> u64 {
    *counter += 1;
    let mut bytes = "z".repeat(count * 700);
    if counter.is_multiple_of(4) {
        bytes.push('\n');
    }
    log.append(bytes.as_bytes());
    bytes.len() as u64
}

/// Each read of `plan`, one line apiece: what was appended before it, the lines asked for,
/// what kind of reply came back and how many bytes the read read.
fn bytes_per_read(plan: &Plan) -> Vec<String> {
    let limits = small_limits(plan.count_whole_view);
    let mut t = Tail::new(ExactEngine::new(limits), "cost-1-1", "/cost.log");
    let mut log = MemoryLog::new();
    let mut counter = 0;
    let mut appended = append_lines(&mut log, &mut counter, plan.start_lines, plan.running);
    let mut lines = plan.first_lines;
    let mut out = Vec::new();
    for i in 0..40 {
        let mut request = Request::lines(lines).running(plan.running);
        request.peek = true;
        let r = t.read(&log.source(), &request).unwrap();
        out.push(format!(
            "+{appended} B, lines {lines}: {:?}, read {} B",
            r.kind, r.bytes_read
        ));
        // Two reads in three follow an append of 1 to 7 lines; the lines asked for cycle.
        appended = match i % 3 {
            2 => 0,
            _ if plan.long_line => append_to_long_line(&mut log, &mut counter, i % 7 + 1),
            _ => append_lines(&mut log, &mut counter, i % 7 + 1, plan.running),
        };
        lines = [5, 1, 40, 3][i % 4];
    }
    out
}

/// What each read reads, pinned: the line index, the tail pieces and the read-back of a
/// partial line are caches and plans that no reply shows, so a change that makes them read
/// more (a mark no longer placed, a piece read twice) shows here and nowhere else. A change
/// to this snapshot is a change in cost, to be reviewed as one.
#[test]
fn the_bytes_each_read_reads_at_small_limits_are_pinned() {
    let plans = [
        SLIDING,
        Plan {
            name: "a sliding view, counted lazily",
            count_whole_view: false,
            ..SLIDING
        },
        Plan {
            name: "a small log read whole first, then grown past the view",
            first_lines: 1000,
            start_lines: 100,
            ..SLIDING
        },
        Plan {
            name: "a running job, counted whole",
            running: true,
            ..SLIDING
        },
        Plan {
            name: "a running job, counted lazily",
            count_whole_view: false,
            running: true,
            ..SLIDING
        },
        Plan {
            name: "a running job's small log read whole first",
            first_lines: 1000,
            start_lines: 100,
            running: true,
            ..SLIDING
        },
        Plan {
            name: "a running job's line longer than the view",
            running: true,
            long_line: true,
            ..SLIDING
        },
        Plan {
            name: "a running job's line longer than the view, counted lazily",
            count_whole_view: false,
            running: true,
            long_line: true,
            ..SLIDING
        },
    ];
    let table: BTreeMap<&str, Vec<String>> =
        plans.iter().map(|p| (p.name, bytes_per_read(p))).collect();
    insta::assert_yaml_snapshot!(table);
}
