//! What a read of the exact engine reads, in bytes: issue 5's targets as regression tests. They
//! count bytes, not time, so they cannot be flaky; the times are the bench's
//! (`cargo bench -p bgtail --bench read_cost`).

use bgtail::source::MemoryLog;
use bgtail::{ExactEngine, ReadKind, Request, Tail};

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
