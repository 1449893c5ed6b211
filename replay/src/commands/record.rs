//! `bgtail record`: run a command the way bgrun does (stdout and stderr into one log, the exit
//! marker appended) and write a trace of every chunk it wrote and of a polling agent's reads.

use anyhow::Context as _;
use bgtail::trace::{self, Event, Header, Source, Trace, Write};
use std::io::Read as _;
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Where to write the trace.
    #[arg(long)]
    pub out: PathBuf,
    /// Also keep the log itself here.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// The trace's name (default: the output file's stem).
    #[arg(long)]
    pub name: Option<String>,
    /// What the trace shows, in a sentence (the header's `description`).
    #[arg(long, default_value = "")]
    pub description: String,
    /// A polling agent: read every MS milliseconds while the job runs, and once after.
    #[arg(long, default_value_t = 1000)]
    pub poll: u64,
    /// The `lines` of the polling reads.
    #[arg(long, default_value_t = 40)]
    pub lines: u64,
    /// Instead of polling: reads at set times, `MS:LINES[:raw]` separated by commas (for
    /// example `500:40,2000:400,2500:50:raw`); a read after the exit is always added.
    #[arg(long)]
    pub reads: Option<String>,
    /// Record a log file the command writes itself (its truncations and replacements
    /// included) instead of its stdout and stderr.
    #[arg(long)]
    pub watch: Option<PathBuf>,
    /// The command and its arguments.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

/// A log file watched by polling: what changed since the last look, as trace events.
struct Watched {
    path: PathBuf,
    size: u64,
    inode: Option<u64>,
}

impl Watched {
    fn poll(&mut self, t: u64, log: &mut Vec<u8>, events: &mut Vec<Event>) {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = std::fs::metadata(&self.path) else {
            return;
        };
        let Ok(bytes) = std::fs::read(&self.path) else {
            return;
        };
        let inode = Some(meta.ino());
        if self.inode.is_some() && inode != self.inode {
            events.push(Event::Replace(Write::new(Some(t), &bytes)));
            *log = bytes;
        } else if log.starts_with(&bytes) && bytes.len() < log.len() {
            // Cut to a prefix of what it held.
            events.push(Event::Truncate(trace::Truncate {
                t: Some(t),
                len: bytes.len() as u64,
            }));
            *log = bytes;
        } else if !bytes.starts_with(log) {
            // Truncated and written anew between two looks: how far it was cut is unknown,
            // so it is recorded as cut to nothing and written again.
            events.push(Event::Truncate(trace::Truncate { t: Some(t), len: 0 }));
            if !bytes.is_empty() {
                events.push(Event::Append(Write::new(Some(t), &bytes)));
            }
            *log = bytes;
        } else if bytes.len() > log.len() {
            events.push(Event::Append(Write::new(Some(t), &bytes[log.len()..])));
            *log = bytes;
        }
        self.inode = inode;
        self.size = log.len() as u64;
    }
}

struct PlannedRead {
    at: u64,
    lines: u64,
    raw: bool,
}

fn plan(spec: &str) -> anyhow::Result<Vec<PlannedRead>> {
    spec.split(',')
        .map(|item| {
            let parts: Vec<&str> = item.trim().split(':').collect();
            let bad = || anyhow::anyhow!("--reads: {item:?} is not MS:LINES[:raw]");
            match parts.as_slice() {
                [at, lines] | [at, lines, "raw"] => Ok(PlannedRead {
                    at: at.parse().map_err(|_| bad())?,
                    lines: lines.parse().map_err(|_| bad())?,
                    raw: parts.len() == 3,
                }),
                _ => Err(bad()),
            }
        })
        .collect()
}

fn read_event(at: u64, lines: u64, raw: bool) -> Event {
    Event::Read(trace::Read {
        t: Some(at),
        lines: Some((lines as f64).into()),
        raw,
        ..trace::Read::default()
    })
}

fn machine() -> String {
    let uname = Command::new("uname").arg("-srm").output().ok();
    uname
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let planned = match &args.reads {
        Some(spec) => Some(plan(spec)?),
        None => None,
    };
    let mut watched = args.watch.as_ref().map(|path| Watched {
        path: path.clone(),
        size: 0,
        inode: None,
    });
    let (mut child, output, pump) = spawn(&args, watched.is_some())?;
    let mut rec = Recording {
        started: Instant::now(),
        log: Vec::new(),
        events: Vec::new(),
        planned,
        next_poll: args.poll,
        last_progress: Instant::now(),
    };
    rec.record(&args, &mut child, &output, watched.as_mut())?;
    let _ = pump.join();
    let status = child.wait().with_context(|| args.command[0].clone())?;
    let code = status.code().unwrap_or(128 + 9);
    rec.finish(code, args.lines);
    if let Some(path) = &args.log {
        rec.log
            .extend_from_slice(bgtail::trace::exit_marker(i64::from(code)).as_bytes());
        std::fs::write(path, &rec.log).with_context(|| path.display().to_string())?;
    }
    write_trace(&args, rec.events)?;
    Ok(ExitCode::SUCCESS)
}

/// The running command, its output's chunks, and the thread that reads them.
type Started = (Child, mpsc::Receiver<Vec<u8>>, std::thread::JoinHandle<()>);

/// Starts the command the way bgrun does: stdout and stderr into one pipe (read by a thread
/// into the channel), or, when a file is watched, nowhere.
fn spawn(args: &Args, watching: bool) -> anyhow::Result<Started> {
    let (reader, writer) = std::io::pipe().context("pipe")?;
    let writer2 = writer.try_clone().context("pipe")?;
    let mut command = Command::new(&args.command[0]);
    command.args(&args.command[1..]).stdin(Stdio::null());
    if watching {
        command.stdout(Stdio::null()).stderr(Stdio::null());
        drop((writer, writer2));
    } else {
        command.stdout(writer).stderr(writer2);
    }
    let child = command.spawn().with_context(|| args.command[0].clone())?;
    drop(command);
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let pump = std::thread::spawn(move || {
        let mut reader = reader;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Ok((child, rx, pump))
}

/// A recording in progress: the log so far and the trace's events.
struct Recording {
    started: Instant,
    log: Vec<u8>,
    events: Vec<Event>,
    /// `--reads`: the reads still to come, earliest first (`None`: poll every `--poll` ms).
    planned: Option<Vec<PlannedRead>>,
    next_poll: u64,
    last_progress: Instant,
}

impl Recording {
    fn ms(&self, i: Instant) -> u64 {
        i.duration_since(self.started).as_millis() as u64
    }

    /// Records until the command's output ends (or, watching a file, until it exits): each
    /// chunk as an append, each due read as a read.
    fn record(
        &mut self,
        args: &Args,
        child: &mut Child,
        output: &mpsc::Receiver<Vec<u8>>,
        mut watched: Option<&mut Watched>,
    ) -> anyhow::Result<()> {
        loop {
            let now = self.ms(Instant::now());
            let next_read = match &self.planned {
                Some(p) => p.first().map(|r| r.at),
                None => Some(self.next_poll),
            };
            let mut wait = next_read.map_or(Duration::from_millis(100), |at| {
                Duration::from_millis(at.saturating_sub(now))
            });
            if let Some(w) = watched.as_deref_mut() {
                // Watching a file: look at it often, and stop once the command has exited.
                w.poll(self.ms(Instant::now()), &mut self.log, &mut self.events);
                wait = wait.min(Duration::from_millis(20));
                if child.try_wait()?.is_some() {
                    w.poll(self.ms(Instant::now()), &mut self.log, &mut self.events);
                    return Ok(());
                }
            }
            let received = if watched.is_some() {
                // The command's output is not captured: only the watched file counts.
                std::thread::sleep(wait);
                Err(mpsc::RecvTimeoutError::Timeout)
            } else {
                output.recv_timeout(wait)
            };
            match received {
                Ok(chunk) => {
                    self.log.extend_from_slice(&chunk);
                    let at = self.ms(Instant::now());
                    self.events
                        .push(Event::Append(Write::new(Some(at), &chunk)));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => self.read_if_due(next_read, args),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            }
            self.progress();
        }
    }

    /// The next read, when it is due: the planned one, or a poll.
    fn read_if_due(&mut self, next_read: Option<u64>, args: &Args) {
        let at = self.ms(Instant::now());
        if next_read.is_none_or(|due| at < due) {
            return;
        }
        match &mut self.planned {
            Some(p) if !p.is_empty() => {
                let r = p.remove(0);
                self.events.push(read_event(at, r.lines, r.raw));
            }
            Some(_) => {}
            None => {
                self.events.push(read_event(at, args.lines, false));
                self.next_poll = at + args.poll;
            }
        }
    }

    /// A progress line on stderr, once a second.
    fn progress(&mut self) {
        if self.last_progress.elapsed() <= Duration::from_secs(1) {
            return;
        }
        self.last_progress = Instant::now();
        let reads = self
            .events
            .iter()
            .filter(|e| matches!(e, Event::Read(_)))
            .count();
        eprint!(
            "\rrecording {:.1} s: {} bytes, {} lines, {reads} reads   ",
            self.started.elapsed().as_secs_f64(),
            self.log.len(),
            self.log.iter().filter(|&&b| b == b'\n').count()
        );
    }

    /// The command exited with `code`: the exit, the planned reads left, and a last read.
    fn finish(&mut self, code: i32, lines: u64) {
        let end = self.ms(Instant::now());
        self.events.push(Event::Exit(trace::Exit {
            t: Some(end),
            code: i64::from(code),
            marker: true,
        }));
        for r in self.planned.take().unwrap_or_default() {
            self.events.push(read_event(end, r.lines, r.raw));
        }
        self.events.push(read_event(end, lines, false));
        eprintln!(
            "\rrecorded {:.1} s: {} bytes, exit {code}, {} events          ",
            self.started.elapsed().as_secs_f64(),
            self.log.len(),
            self.events.len()
        );
    }
}

/// Writes the trace to `--out`, its folder made if needed.
fn write_trace(args: &Args, events: Vec<Event>) -> anyhow::Result<()> {
    let name = args.name.clone().unwrap_or_else(|| {
        args.out
            .file_stem()
            .map_or("recorded".into(), |s| s.to_string_lossy().into_owned())
    });
    let trace = Trace {
        header: Header {
            bgtail_trace: trace::VERSION,
            name,
            source: Source::Recorded,
            description: args.description.clone(),
            command: Some(args.command.join(" ")),
            machine: Some(machine()),
            job_id: "recorded-1-1".into(),
            log_path: "/jobs/recorded-1-1.log".into(),
            limits: None,
            running_gate: false,
            harness: None,
        },
        events,
    };
    if let Some(dir) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    std::fs::write(&args.out, trace.to_jsonl()).with_context(|| args.out.display().to_string())
}
