//! Hostile and broken input on real files: a clear error or a documented result, never a panic.

use bgtail::source::file::FileLog;
use bgtail::source::{open_log, LogSource, LogStat, SourceError};
use bgtail::{Engine, ExactEngine, ReadKind, Reply, Request, ResetReason, ShippedEngine, Tail};
use std::io::Write;
use std::path::Path;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn read_with<E: Engine>(engine: E, path: &Path, req: &Request) -> Reply {
    let mut t = Tail::new(engine, "job-1-1", path.to_str().unwrap());
    t.read(open_log(path).as_ref(), req).unwrap()
}

#[test]
fn invalid_utf8_is_replaced_not_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "bad.log", b"ok\n\xff\xfe broken \xc3\n");
    for r in [
        read_with(ShippedEngine::default(), &p, &Request::lines(5)),
        read_with(ExactEngine::default(), &p, &Request::lines(5)),
    ] {
        assert!(
            r.text.contains("\u{FFFD}\u{FFFD} broken \u{FFFD}"),
            "{}",
            r.text
        );
        assert_eq!(r.shown.len(), 2);
    }
}

#[test]
fn nul_bytes_are_kept_by_upstream_and_made_visible_by_exact() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "nul.log", b"a\0b\n");
    assert!(read_with(ShippedEngine::default(), &p, &Request::lines(5))
        .text
        .contains("a\0b"));
    let r = read_with(ExactEngine::default(), &p, &Request::lines(5));
    assert!(r.text.contains("a\u{2400}b") && !r.text.contains('\0'));
}

#[test]
fn a_ten_megabyte_line_is_outside_the_default_view_and_capped_inside_a_larger_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut line = vec![b'x'; 10 * 1024 * 1024];
    line.push(b'\n');
    let p = write(dir.path(), "huge.log", &line);
    // Exact: the line starts before the 2 MiB view, so the view holds no complete line; the
    // log is not empty, and the reply does not say it is.
    let r = read_with(ExactEngine::default(), &p, &Request::lines(5));
    assert_eq!(r.counts.total_lines, Some(0));
    assert!(
        r.text
            .starts_with("first read: (nothing in view — 0 lines in view)"),
        "{}",
        r.text
    );
    assert!(r.text.contains("(view: the last 2 MiB of 10 MiB"));
    assert!(r.bytes_read <= 2 * 1024 * 1024 + 1 + 4096);
    let r = read_with(
        ExactEngine::default(),
        &p,
        &Request::lines(5).bytes(16 << 20),
    );
    assert!(
        r.text.contains(" …[+10483760 chars]"),
        "{}",
        &r.text[r.text.len() - 200..]
    );
    // Upstream shows the cut tail of the line as its first line.
    let r = read_with(ShippedEngine::default(), &p, &Request::lines(5));
    assert!(r.text.contains(" …[+2095151 chars]"));
}

#[test]
fn cr_only_endings_make_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "cr.log", b"10%\r20%\r30%\rdone\n");
    for r in [
        read_with(ShippedEngine::default(), &p, &Request::lines(5)),
        read_with(ExactEngine::default(), &p, &Request::lines(5)),
    ] {
        assert_eq!(r.counts.total_lines, Some(1));
        assert!(r.text.contains("10%\r20%\r30%\rdone"));
    }
}

/// A file that another process truncates right after its size was taken.
struct ShrinksAfterStat<'a> {
    file: FileLog,
    path: &'a Path,
}

impl LogSource for ShrinksAfterStat<'_> {
    fn stat(&self) -> Result<LogStat, SourceError> {
        let s = self.file.stat()?;
        std::fs::OpenOptions::new()
            .write(true)
            .open(self.path)
            .unwrap()
            .set_len(4)
            .unwrap();
        Ok(s)
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError> {
        self.file.read_at(offset, buf)
    }
}

/// Runs `read` on `one\ntwo\nthree\n`, cut to `one\n` right after its size is taken; the
/// log's path is passed for reads after the race.
fn read_while_it_shrinks<R>(read: impl FnOnce(&dyn LogSource, bgtail::Job<'_>, &Path) -> R) -> R {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "shrink.log", b"one\ntwo\nthree\n");
    let src = ShrinksAfterStat {
        file: FileLog::open(&p).unwrap(),
        path: &p,
    };
    let job = bgtail::Job {
        id: "job-1-1",
        path: p.to_str().unwrap(),
    };
    read(&src, job, &p)
}

#[test]
fn a_log_that_shrinks_between_size_and_read_is_read_by_upstream_as_far_as_it_goes() {
    let r = read_while_it_shrinks(|src, job, _| {
        ShippedEngine::default()
            .read(&mut Default::default(), job, src, &Request::lines(5))
            .unwrap()
    });
    assert!(!r.is_error);
    // Only what the file still held.
    assert_eq!(r.bytes_read, 4);
    assert_eq!(r.text, "one");
}

/// The exact engine's read finds the head shorter than the size it measured, and reads the
/// log once more from a fresh look: the reply and the bookmark are of the log as it now is,
/// so the next read continues it.
#[test]
fn a_log_that_shrinks_between_size_and_read_is_read_again_as_it_now_is() {
    read_while_it_shrinks(|src, job, p| {
        let e = ExactEngine::default();
        let mut s = Default::default();
        let r = e.read(&mut s, job, src, &Request::lines(5)).unwrap();
        assert_eq!(r.text, "first read: 1 line — log at 1 line\none");
        // The answering read's own bytes: the head, then the line.
        assert_eq!(r.bytes_read, 8);
        let again = e
            .read(&mut s, job, open_log(p).as_ref(), &Request::lines(5))
            .unwrap();
        assert_eq!(again.reset, None);
        assert_eq!(again.text, "(no new lines — log at 1 line)");
    });
}

/// A log whose size says more than it holds at every look (it shrinks during each read) is an
/// error reply naming the log, after one more try, and leaves the bookmark as it was.
#[test]
fn a_log_that_shrinks_during_every_read_is_an_error_that_keeps_the_bookmark() {
    struct ClaimsMore(&'static [u8]);
    impl LogSource for ClaimsMore {
        fn stat(&self) -> Result<LogStat, SourceError> {
            Ok(LogStat {
                size: self.0.len() as u64 + 10,
                identity: None,
            })
        }
        fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError> {
            let rest = self.0.get(offset as usize..).unwrap_or_default();
            let n = rest.len().min(buf.len());
            buf[..n].copy_from_slice(&rest[..n]);
            Ok(n)
        }
    }
    let e = ExactEngine::default();
    let job = bgtail::Job {
        id: "job-1-1",
        path: "/logs/job.log",
    };
    let mut s = Default::default();
    let log = bgtail::source::SliceLog {
        bytes: b"one\n",
        file_number: 0,
        missing: false,
    };
    e.read(&mut s, job, &log, &Request::lines(5)).unwrap();
    let before = s.clone();
    let r = e
        .read(&mut s, job, &ClaimsMore(b"one\ntwo\n"), &Request::lines(5))
        .unwrap();
    assert!(r.is_error);
    assert_eq!(
        r.text,
        "Log for job job-1-1 at /logs/job.log exists but could not be read (file may be too large or unreadable)"
    );
    assert_eq!(s, before);
}

/// The same race when the tail is read in pieces: the first piece coming back short must not
/// be taken for the whole view, which starts before it.
#[test]
fn a_log_that_shrinks_while_its_tail_is_read_in_pieces_keeps_what_it_still_holds() {
    let mut limits = bgtail::Limits::default();
    // Pieces of 4 bytes: the first one asked for, bytes 10..14, is past the file's new end.
    limits.tail_chunk = 4;
    let r = read_while_it_shrinks(|src, job, _| {
        ExactEngine::new(limits)
            .read(&mut Default::default(), job, src, &Request::lines(5))
            .unwrap()
    });
    assert_eq!(r.text, "first read: 1 line — log at 1 line\none");
    assert_eq!(r.counts.total_lines, Some(1));
}

#[test]
fn missing_and_unreadable_logs_are_error_replies() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.log");
    for r in [
        read_with(ShippedEngine::default(), &missing, &Request::default()),
        read_with(ExactEngine::default(), &missing, &Request::default()),
    ] {
        assert!(r.is_error && r.kind == ReadKind::Error);
        assert!(r.text.starts_with("No log found for job job-1-1 at "));
        assert_eq!(r.details["notFound"], true);
    }
    // A directory at the log path cannot be read as a log (as root, permissions do not stop us).
    for r in [
        read_with(ShippedEngine::default(), dir.path(), &Request::default()),
        read_with(ExactEngine::default(), dir.path(), &Request::default()),
    ] {
        assert!(r.is_error);
        assert!(r
            .text
            .ends_with("exists but could not be read (file may be too large or unreadable)"));
        assert_eq!(r.details["notFound"], false);
    }
}

#[test]
fn a_log_deleted_after_it_was_opened_is_still_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "gone.log", b"a\nb\n");
    let log = FileLog::open(&p).unwrap();
    std::fs::remove_file(&p).unwrap();
    let mut t = Tail::new(ExactEngine::default(), "job-1-1", p.to_str().unwrap());
    let r = t.read(&log, &Request::lines(5)).unwrap();
    assert_eq!(r.text, "first read: 2 lines — log at 2 lines\na\nb");
}

#[test]
fn a_file_replaced_by_rename_is_a_new_generation() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "rot.log", b"a\nb\n");
    let mut t = Tail::new(ExactEngine::default(), "job-1-1", p.to_str().unwrap());
    t.read(open_log(&p).as_ref(), &Request::lines(5)).unwrap();
    let tmp = write(dir.path(), "rot.log.new", b"a\nb\nc\n");
    std::fs::rename(&tmp, &p).unwrap();
    let r = t.read(open_log(&p).as_ref(), &Request::lines(5)).unwrap();
    assert_eq!(r.reset, Some(ResetReason::FileReplaced));
    assert_eq!(r.shown.len(), 3);
}

#[test]
fn hostile_ids_are_refused_by_both_engines() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "x.log", b"a\n");
    for id in [
        "../../etc/passwd",
        "a\nb",
        "\u{9b}31m",
        "",
        &"z".repeat(300),
    ] {
        let job = bgtail::Job {
            id,
            path: p.to_str().unwrap(),
        };
        let src = open_log(&p);
        assert!(ShippedEngine::default()
            .read(
                &mut Default::default(),
                job,
                src.as_ref(),
                &Request::default()
            )
            .is_err());
        assert!(ExactEngine::default()
            .read(
                &mut Default::default(),
                job,
                src.as_ref(),
                &Request::default()
            )
            .is_err());
    }
}

#[test]
fn a_growing_file_is_read_by_positioned_reads_of_the_new_bytes_only_in_range() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "grow.log", b"");
    let mut t = Tail::new(ExactEngine::default(), "job-1-1", p.to_str().unwrap());
    let r = t.read(open_log(&p).as_ref(), &Request::lines(5)).unwrap();
    assert_eq!(r.text, "first read: (empty log — log at 0 lines)");
    let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
    f.write_all(b"hello\n").unwrap();
    let r = t.read(open_log(&p).as_ref(), &Request::lines(5)).unwrap();
    assert_eq!(r.text, "+1 new line — log at 1 line\nhello");
}
