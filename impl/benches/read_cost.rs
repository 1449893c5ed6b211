//! Read cost of both engines on generated logs, side by side in one run, with GNU `tail -n 40`
//! as the physical anchor for a first read. `cargo bench -p bgtail --bench read_cost`
//! (set `BGTAIL_BENCH_SIZES=1,64,1024` for MiB sizes; the default is 1 and 64).
//!
//! Each figure is the median of several runs (`BGTAIL_BENCH_ROUNDS`, 7 by default); the ratios
//! are exact/shipped and exact/tail.
//! A counting allocator measures each engine's peak heap during one read of a 64 MiB view
//! holding 500,000 short lines, and the exact engine's over a first read and 1,000 polls of
//! each log of short lines.
//!
//! With `BGTAIL_BENCH_JSON=FILE` the exact engine's figures are also written to FILE, one JSON
//! object each, in the shape `packages/bgtail-exact/bench/read_cost.mjs` prints them:
//! `scripts/bench-exact-ts.sh` joins the two into the TypeScript package's ratios.

use bgtail::source::file::FileLog;
use bgtail::{Engine, ExactEngine, Job, Request, ShippedEngine};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Runs per figure, whose median is reported: `BGTAIL_BENCH_ROUNDS`, 7 by default.
fn rounds() -> usize {
    std::env::var("BGTAIL_BENCH_ROUNDS").ok().map_or(7, |v| {
        v.parse().expect("BGTAIL_BENCH_ROUNDS: a number of runs")
    })
}

/// The system allocator, counting the bytes live now and at most since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn generate(path: &Path, mib: u64, long: bool) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let target = mib << 20;
    let mut written = 0u64;
    let mut i = 0u64;
    while written < target {
        let line = if long {
            format!(
                "{{\"seq\":{i},\"payload\":\"{}\"}}\n",
                "x".repeat(400 + (i % 300) as usize)
            )
        } else {
            format!("{i:09} ok test case {}\n", i % 977)
        };
        f.write_all(line.as_bytes()).unwrap();
        written += line.len() as u64;
        i += 1;
    }
    f.flush().unwrap();
}

struct Figure {
    time: Duration,
    bytes: u64,
}

/// Times one read on a fresh bookmark, `rounds()` times. Before each, the log is cut back to
/// its `base` length (appends only ever added to it); with `primed = Some(n)` a first read of 40 lines is made and `n` bytes appended,
/// so that the timed read is a delta (or, for `n = 0`, a widening).
fn measure<E: Engine>(
    engine: &E,
    path: &Path,
    base: u64,
    primed: Option<u64>,
    request: &Request,
) -> Figure {
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..rounds() {
        restore(path, base);
        let mut state = E::State::default();
        if let Some(n) = primed {
            read_once(engine, &mut state, path, &Request::lines(40));
            append_bytes(path, n);
        }
        let log = FileLog::open(path).unwrap();
        let job = Job {
            id: "bench-1-1",
            path: path.to_str().unwrap(),
        };
        let started = Instant::now();
        let reply = engine.read(&mut state, job, &log, request).unwrap();
        times.push(started.elapsed());
        bytes = reply.bytes_read;
    }
    restore(path, base);
    Figure {
        time: median(times),
        bytes,
    }
}

fn read_once<E: Engine>(engine: &E, state: &mut E::State, path: &Path, request: &Request) {
    let log = FileLog::open(path).unwrap();
    let job = Job {
        id: "bench-1-1",
        path: path.to_str().unwrap(),
    };
    engine.read(state, job, &log, request).unwrap();
}

/// The median wall time of running a command on `path`.
fn process_time(command: &[&str], path: &Path) -> Option<Duration> {
    let mut times = Vec::new();
    for _ in 0..rounds() {
        let started = Instant::now();
        let out = std::process::Command::new(command[0])
            .args(&command[1..])
            .arg(path)
            .output()
            .ok()?;
        times.push(started.elapsed());
        if !out.status.success() {
            return None;
        }
    }
    Some(median(times))
}

/// `bgtail read --lines 40` on a fresh state file each time, when the release binary is built.
fn bgtail_first_read(path: &Path) -> Option<Duration> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/bgtail");
    if !bin.exists() {
        return None;
    }
    let mut times = Vec::new();
    for round in 0..rounds() {
        let state = path.with_extension(format!("state{round}"));
        let started = Instant::now();
        let out = std::process::Command::new(&bin)
            .arg("read")
            .arg(path)
            .arg("--state")
            .arg(&state)
            .args(["--lines", "40"])
            .output()
            .ok()?;
        times.push(started.elapsed());
        let _ = std::fs::remove_file(&state);
        if !out.status.success() {
            return None;
        }
    }
    Some(median(times))
}

/// The exact engine's figures as JSON lines, when `BGTAIL_BENCH_JSON` names a file.
struct JsonRows(Option<std::fs::File>);

impl JsonRows {
    fn from_env() -> Self {
        JsonRows(
            std::env::var_os("BGTAIL_BENCH_JSON")
                .map(|p| std::fs::File::create(&p).expect("BGTAIL_BENCH_JSON: cannot create")),
        )
    }

    /// One figure of a log: `measured` is `("ms", time)` and `("bytes", n)`, or `("kib", n)`.
    fn emit(
        &mut self,
        mib: u64,
        kind: &str,
        path: &Path,
        scenario: &str,
        measured: &[(&str, f64)],
    ) {
        let Some(file) = &mut self.0 else { return };
        let mut row = serde_json::json!({
            "engine": "rust",
            "mib": mib,
            "lines": kind,
            "size": std::fs::metadata(path).unwrap().len(),
            "scenario": scenario,
        });
        for (key, value) in measured {
            row[key] = serde_json::json!(value);
        }
        writeln!(file, "{row}").unwrap();
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

fn main() {
    let sizes: Vec<u64> = std::env::var("BGTAIL_BENCH_SIZES")
        .unwrap_or_else(|_| "1,64".into())
        .split(',')
        .map(|s| s.trim().parse().expect("sizes in MiB"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let shipped = ShippedEngine::default();
    let exact = ExactEngine::default();
    let mut json = JsonRows::from_env();
    println!("| log | lines | scenario | shipped ms | exact ms | exact/shipped | shipped bytes read | exact bytes read |");
    println!("|---|---|---|---|---|---|---|---|");
    if std::env::var("BGTAIL_BENCH_PEAK").map_or(true, |v| v != "0") {
        peak_memory(dir.path());
    }
    for &mib in &sizes {
        for long in [false, true] {
            let path = dir.path().join(format!("log-{mib}-{long}.log"));
            generate(&path, mib, long);
            let kind = if long { "long" } else { "short" };
            let scenarios: Vec<(&str, Request, Option<u64>)> = vec![
                ("first read, lines 40", Request::lines(40), None),
                ("first read, lines 400", Request::lines(400), None),
                ("delta after +1 KiB", Request::lines(40), Some(1 << 10)),
                ("delta after +1 MiB", Request::lines(40), Some(1 << 20)),
                ("widening 40 → 400", Request::lines(400), Some(0)),
                ("raw, lines 40", Request::lines(40).raw(), None),
            ];
            for (name, request, append) in scenarios {
                let base = std::fs::metadata(&path).unwrap().len();
                let s = measure(&shipped, &path, base, append, &request);
                let e = measure(&exact, &path, base, append, &request);
                println!(
                    "| {mib} MiB | {kind} | {name} | {} | {} | {:.2} | {} | {} |",
                    ms(s.time),
                    ms(e.time),
                    e.time.as_secs_f64() / s.time.as_secs_f64(),
                    s.bytes,
                    e.bytes
                );
                let measured = [
                    ("ms", e.time.as_secs_f64() * 1e3),
                    ("bytes", e.bytes as f64),
                ];
                json.emit(mib, kind, &path, name, &measured);
            }
            // A polling agent: 1,000 appends of 1 KiB, a read after each, on one bookmark.
            let poll = |exact_engine: bool| -> (Duration, u64) {
                let base = std::fs::metadata(&path).unwrap().len();
                let mut total = Duration::ZERO;
                let mut bytes = 0;
                let mut s_state = Default::default();
                let mut e_state = Default::default();
                for _ in 0..1_000 {
                    append_bytes(&path, 1 << 10);
                    let log = FileLog::open(&path).unwrap();
                    let job = Job {
                        id: "bench-1-1",
                        path: path.to_str().unwrap(),
                    };
                    let started = Instant::now();
                    let reply = if exact_engine {
                        exact
                            .read(&mut e_state, job, &log, &Request::lines(40))
                            .unwrap()
                    } else {
                        shipped
                            .read(&mut s_state, job, &log, &Request::lines(40))
                            .unwrap()
                    };
                    total += started.elapsed();
                    bytes += reply.bytes_read;
                }
                restore(&path, base);
                (total, bytes)
            };
            let (st, sb) = poll(false);
            let (et, eb) = poll(true);
            println!(
                "| {mib} MiB | {kind} | polling: 1,000 × (+1 KiB, read) total | {} | {} | {:.2} | {sb} | {eb} |",
                ms(st),
                ms(et),
                et.as_secs_f64() / st.as_secs_f64()
            );
            let polling = "polling: 1,000 × (+1 KiB, read) total";
            let measured = [("ms", et.as_secs_f64() * 1e3), ("bytes", eb as f64)];
            json.emit(mib, kind, &path, polling, &measured);
            if !long {
                let kib = poll_peak(&exact, &path) as f64 / 1024.0;
                println!(
                    "| {mib} MiB | {kind} | peak heap of a first read and 1,000 × (+1 KiB, read) | — | {kib:.0} KiB | — | — | — |"
                );
                let scenario = "peak memory: a first read and 1,000 × (+1 KiB, read)";
                json.emit(mib, kind, &path, scenario, &[("kib", kib.round())]);
            }
            // First read as a process, measured the same way as GNU tail.
            if let (Some(tail), Some(bg)) = (
                process_time(&["tail", "-n", "40"], &path),
                bgtail_first_read(&path),
            ) {
                println!(
                    "| {mib} MiB | {kind} | first read as a process: `tail -n 40` {} ms, `bgtail read --lines 40` {} ms | — | — | exact/tail {:.2} | — | — |",
                    ms(tail),
                    ms(bg),
                    bg.as_secs_f64() / tail.as_secs_f64()
                );
            }
        }
    }
}

/// The exact engine's peak heap over a first read of 40 lines and 1,000 × (append 1 KiB, read),
/// on one bookmark; the log is cut back afterwards.
fn poll_peak(engine: &ExactEngine, path: &Path) -> usize {
    let base = std::fs::metadata(path).unwrap().len();
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut state = Default::default();
    read_once(engine, &mut state, path, &Request::lines(40));
    for _ in 0..1_000 {
        append_bytes(path, 1 << 10);
        read_once(engine, &mut state, path, &Request::lines(40));
    }
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(state);
    restore(path, base);
    peak
}

fn restore(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len)
        .unwrap();
}

/// Peak heap of one first read over a 64 MiB view of 500,000 short lines, for each engine.
fn peak_memory(dir: &Path) {
    let path = dir.join("peak.log");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for i in 0..500_000u64 {
            // 134 bytes a line: 500,000 lines fill 63.9 MiB.
            writeln!(f, "{i:09} {}", "p".repeat(123)).unwrap();
        }
    }
    let size = std::fs::metadata(&path).unwrap().len();
    let request = Request {
        bytes: Some(64.0 * 1024.0 * 1024.0),
        ..Request::lines(40)
    };
    // Three reads: the shipped engine's; the exact engine's first read, which reads its tail;
    // and an exact read that counts the whole view, as a "nothing new" reply must.
    let peak = |engine: u8| {
        let log = FileLog::open(&path).unwrap();
        let job = Job {
            id: "bench-1-1",
            path: path.to_str().unwrap(),
        };
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let reply = match engine {
            0 => ShippedEngine::default()
                .read(&mut Default::default(), job, &log, &request)
                .unwrap(),
            1 => exact_read(&log, job, &request, false),
            _ => exact_read(&log, job, &request, true),
        };
        let peak = PEAK.load(Ordering::Relaxed) - before;
        drop(reply);
        peak
    };
    let (s, first, whole) = (peak(0), peak(1), peak(2));
    let kib = |n: usize| format!("{:.0} KiB", n as f64 / 1024.0);
    println!(
        "| {:.1} MiB, 500,000 lines | short | peak heap of a first read, `bytes` 64 MiB | {} | {} | {:.3} | — | — |",
        size as f64 / 1048576.0,
        kib(s),
        kib(first),
        first as f64 / s as f64
    );
    println!(
        "| {:.1} MiB, 500,000 lines | short | peak heap of a read counting the whole 64 MiB view | {} | {} | {:.3} | — | — |",
        size as f64 / 1048576.0,
        kib(s),
        kib(whole),
        whole as f64 / s as f64
    );
}

fn exact_read(log: &FileLog, job: Job<'_>, request: &Request, whole: bool) -> bgtail::Reply {
    let limits = {
        let mut limits = bgtail::Limits::default();
        limits.count_whole_view = whole;
        limits
    };
    ExactEngine::new(limits)
        .read(&mut Default::default(), job, log, request)
        .unwrap()
}

fn append_bytes(path: &Path, n: u64) {
    if n == 0 {
        return;
    }
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    let line = "appended line of a running job, 48 bytes long..\n";
    let mut left = n;
    while left > 0 {
        let chunk = &line.as_bytes()[..(left as usize).min(line.len())];
        f.write_all(chunk).unwrap();
        left -= chunk.len() as u64;
    }
}
