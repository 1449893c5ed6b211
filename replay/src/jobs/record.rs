//! A job's record in the jobs folder: `<id>.job`, JSON, written whole (a temporary file
//! renamed over it) and readable by the user only, so that a server started later — or a
//! second server on the same folder — finds every job as the first left it.

use super::error::JobError;
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// One job: a command this server started, or a log it follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRecord {
    /// The job's id: `[A-Za-z0-9._-]`, not starting with `.`.
    pub id: String,
    /// The shell command run, `None` for a log attached with `bgattach`.
    pub command: Option<String>,
    /// The folder it ran in.
    pub cwd: Option<String>,
    /// Its log: `<jobs dir>/<id>.log`, or the attached file.
    pub log: PathBuf,
    /// The wrapper's pid, which leads the job's process group (`None`: attached).
    pub pid: Option<i32>,
    /// Milliseconds since the Unix epoch when it started or was attached.
    pub started_ms: u64,
    /// The signal `bgkill` sent, if any.
    #[serde(default)]
    pub signalled: Option<String>,
    /// For an attached log: the process that writes it, whose life is the job's (`None`: the
    /// job runs until its log ends in an exit marker).
    #[serde(default)]
    pub writer: Option<i32>,
}

/// Where job `id`'s record lives.
pub fn path_of(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.job"))
}

/// Writes `record` whole, replacing the old one atomically, mode 0600.
pub fn store(dir: &Path, record: &JobRecord) -> Result<(), JobError> {
    let path = path_of(dir, &record.id);
    let io = |e: std::io::Error| JobError::Io(format!("{}: {e}", path.display()));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o600))
        .map_err(io)?;
    let text = serde_json::to_string_pretty(record).expect("a record serialises");
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.persist(&path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Job `id`'s record; `UnknownId` when the folder has none.
pub fn load(dir: &Path, id: &str) -> Result<JobRecord, JobError> {
    let path = path_of(dir, id);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(JobError::UnknownId(id.to_owned()))
        }
        Err(e) => return Err(JobError::Io(format!("{}: {e}", path.display()))),
    };
    serde_json::from_slice(&bytes)
        .map_err(|e| JobError::Corrupt(format!("{}: {e}", path.display())))
}

/// Every record in the folder, oldest first; a record that cannot be read is named in
/// `broken` and skipped, so that one bad file hides no other job.
pub fn load_all(dir: &Path) -> Result<(Vec<JobRecord>, Vec<String>), JobError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| JobError::Io(format!("{}: {e}", dir.display())))?;
    let mut records = Vec::new();
    let mut broken = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(id) = name.strip_suffix(".job") else {
            continue;
        };
        match load(dir, id) {
            Ok(r) => records.push(r),
            Err(e) => broken.push(e.to_string()),
        }
    }
    records.sort_by(|a, b| (a.started_ms, &a.id).cmp(&(b.started_ms, &b.id)));
    Ok((records, broken))
}

/// Whether `id` can name a job: 1 to 200 of `[A-Za-z0-9._-]`, not starting with `.` (so it
/// can never leave the jobs folder or hide in it).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}
