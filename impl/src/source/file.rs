//! A log on disk, read with positioned reads so that a request costs only the span it needs.

use super::{LogIdentity, LogSource, LogStat, SourceError, Unavailable};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A real log file. The file is opened once; `stat` and reads go to that open file, so a
/// rename over the path mid-read cannot mix two files' bytes in one reply.
#[derive(Debug)]
pub struct FileLog {
    path: PathBuf,
    file: File,
}

impl FileLog {
    /// Opens the log at `path`. A missing file is [`SourceError::NotFound`]; anything else that
    /// keeps it from being opened (permissions, a directory) is [`SourceError::Unreadable`].
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SourceError> {
        let path = path.as_ref().to_path_buf();
        let file = File::open(&path).map_err(|e| classify(&e))?;
        let meta = file.metadata().map_err(|e| classify(&e))?;
        if meta.is_dir() {
            return Err(SourceError::Unreadable("is a directory".into()));
        }
        Ok(FileLog { path, file })
    }

    /// The path the log was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn classify(e: &io::Error) -> SourceError {
    match e.kind() {
        io::ErrorKind::NotFound => SourceError::NotFound,
        _ => SourceError::Unreadable(e.to_string()),
    }
}

impl LogSource for FileLog {
    fn stat(&self) -> Result<LogStat, SourceError> {
        let meta = self.file.metadata().map_err(|e| classify(&e))?;
        Ok(LogStat {
            size: meta.len(),
            identity: identity_of(&meta),
        })
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError> {
        loop {
            match positioned_read(&self.file, buf, offset) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other.map_err(|e| classify(&e)),
            }
        }
    }
}

#[cfg(unix)]
fn identity_of(meta: &std::fs::Metadata) -> Option<LogIdentity> {
    use std::os::unix::fs::MetadataExt;
    Some(LogIdentity {
        device: meta.dev(),
        inode: meta.ino(),
    })
}

#[cfg(not(unix))]
fn identity_of(_meta: &std::fs::Metadata) -> Option<LogIdentity> {
    None
}

#[cfg(unix)]
fn positioned_read(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    file.read_at(buf, offset)
}

#[cfg(windows)]
fn positioned_read(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::os::windows::fs::FileExt;
    file.seek_read(buf, offset)
}

/// Opens the log at `path` for one read, or a source that reports why it cannot be read.
pub fn open_log(path: &std::path::Path) -> Box<dyn LogSource> {
    match FileLog::open(path) {
        Ok(f) => Box::new(f),
        Err(e) => Box::new(Unavailable(e)),
    }
}
