//! Starting a job, attaching a log, and signalling a job's process group.

use super::error::JobError;
use super::record::{self, JobRecord};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::os::unix::fs::OpenOptionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The wrapper: runs the command (`$1`) in a shell of its own, then appends pi-bgrun's exit
/// marker with its status, so that the exit is in the log whoever reads it, and whenever.
const WRAPPER: &str = r#"sh -c "$1"; code=$?; printf '\n__BGRUN_EXIT__=%s\n' "$code""#;

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// An id for a job named `word`: `<word>-<seconds>-<n>`, the first `n` whose file `ext` in
/// `dir` can be created (created empty, mode 0600, and returned), so that two servers never
/// share one.
fn fresh_id(dir: &Path, word: &str, ext: &str) -> Result<(String, std::fs::File), JobError> {
    let secs = now_ms() / 1000;
    for n in 1..10_000 {
        let id = format!("{word}-{secs}-{n}");
        let path = dir.join(format!("{id}.{ext}"));
        match std::fs::OpenOptions::new()
            .append(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(file) => return Ok((id, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(JobError::Io(format!("{}: {e}", path.display()))),
        }
    }
    Err(JobError::Io(format!(
        "{}: no free id for {word}",
        dir.display()
    )))
}

/// The first word of `text` in lower-case letters and digits, at most 20 (`job` if none).
fn word_of(text: &str) -> String {
    let word: String = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("job")
        .chars()
        .take(20)
        .collect();
    word.to_ascii_lowercase()
}

/// Starts `command` through the wrapper in a process group of its own, detached from the
/// server (stdin from /dev/null, stdout and stderr appended to `<dir>/<id>.log`), and writes
/// its record. A thread reaps the wrapper when it ends, so no zombie outlives it.
pub fn start(
    dir: &Path,
    command: &str,
    cwd: Option<&str>,
    env: &[(String, String)],
) -> Result<JobRecord, JobError> {
    if command.trim().is_empty() {
        return Err(JobError::Argument("command", "is empty".into()));
    }
    if let Some(cwd) = cwd.filter(|c| !Path::new(c).is_dir()) {
        return Err(JobError::Argument(
            "cwd",
            format!("{cwd:?} is not a folder"),
        ));
    }
    let (id, log) = fresh_id(dir, &word_of(command), "log")?;
    let log_path = dir.join(format!("{id}.log"));
    let err = log
        .try_clone()
        .map_err(|e| JobError::Io(format!("{}: {e}", log_path.display())))?;
    let mut cmd = Command::new("sh");
    cmd.args(["-c", WRAPPER, "bgrun", command])
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .process_group(0);
    if let Some(cwd) = cwd {
        cmd.current_dir(cwd);
    }
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    let mut child = cmd.spawn().map_err(|e| {
        let _ = std::fs::remove_file(&log_path);
        JobError::Spawn(e.to_string())
    })?;
    let record = JobRecord {
        id,
        command: Some(command.to_owned()),
        cwd: cwd.map(str::to_owned),
        log: log_path,
        pid: Some(child.id() as i32),
        started_ms: now_ms(),
        signalled: None,
        writer: None,
    };
    record::store(dir, &record)?;
    std::thread::spawn(move || child.wait());
    Ok(record)
}

/// Follows the log at `path` (made absolute; it may not exist yet), written by process
/// `writer` when given: the id a record of it already has (its writer updated), or a new one.
pub fn attach(dir: &Path, path: &str, writer: Option<i32>) -> Result<JobRecord, JobError> {
    let file = Path::new(path);
    let absolute = std::path::absolute(file)
        .map_err(|e| JobError::Argument("path", format!("{path:?}: {e}")))?;
    // A log not written yet may be followed (a server about to start): its folder must be.
    match std::fs::metadata(&absolute) {
        Ok(m) if m.is_file() => {}
        Ok(_) => {
            return Err(JobError::Argument(
                "path",
                format!("{path:?} is not a file"),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if !absolute.parent().is_some_and(Path::is_dir) {
                return Err(JobError::Argument(
                    "path",
                    format!("{path:?}: neither it nor its folder exists"),
                ));
            }
        }
        Err(e) => return Err(JobError::Argument("path", format!("{path:?}: {e}"))),
    }
    let (records, _) = record::load_all(dir)?;
    if let Some(mut r) = records
        .into_iter()
        .find(|r| r.pid.is_none() && r.log == absolute)
    {
        if writer.is_some() && writer != r.writer {
            r.writer = writer;
            record::store(dir, &r)?;
        }
        return Ok(r);
    }
    let stem = absolute
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    let (id, _) = fresh_id(dir, &word_of(stem.as_deref().unwrap_or("log")), "job")?;
    let record = JobRecord {
        id,
        command: None,
        cwd: None,
        log: absolute,
        pid: None,
        started_ms: now_ms(),
        signalled: None,
        writer,
    };
    record::store(dir, &record)?;
    Ok(record)
}

/// Sends `signal` (`TERM`, `INT`, `HUP`, `KILL`, with or without `SIG`) to `record`'s
/// process group, notes it in the record, and waits up to `wait` for its wrapper to end.
pub fn signal(
    dir: &Path,
    record: &JobRecord,
    signal: &str,
    wait: Duration,
) -> Result<(), JobError> {
    let Some(pid) = record.pid else {
        return Err(JobError::Argument(
            "id",
            format!(
                "{} is an attached log, not a job this server started",
                record.id
            ),
        ));
    };
    let name = signal.trim().to_ascii_uppercase();
    let name = name.strip_prefix("SIG").unwrap_or(&name).to_owned();
    let sig = match name.as_str() {
        "TERM" => Signal::SIGTERM,
        "INT" => Signal::SIGINT,
        "HUP" => Signal::SIGHUP,
        "KILL" => Signal::SIGKILL,
        _ => {
            return Err(JobError::Argument(
                "signal",
                format!("{signal:?} is not one of TERM, INT, HUP, KILL"),
            ))
        }
    };
    let group = Pid::from_raw(pid);
    if killpg(group, sig).is_ok() {
        let mut marked = record.clone();
        marked.signalled = Some(format!("SIG{name}"));
        record::store(dir, &marked)?;
    }
    let deadline = Instant::now() + wait;
    while super::status::alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}
