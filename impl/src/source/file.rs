//! A log on disk, read with positioned reads so that a request costs only the span it needs.

use super::{LogIdentity, LogSource, LogStat, SourceError};
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

/// Applies a trace event's change to the real file at `path`, as [`crate::trace::Event::apply_to`]
/// applies it in memory: an append writes at the end (creating a deleted log again), `truncate`
/// cuts the same file (nothing to cut when it is gone), `rewrite` rewrites the same file,
/// `replace` renames another file over the path, `remove` deletes it, and `exit` appends the
/// wrapper's marker unless the trace wrote none. Reads and other tools change nothing.
pub fn apply_event(event: &crate::trace::Event, path: &Path) -> io::Result<()> {
    use crate::trace::Event;
    use std::io::Write as _;
    let bytes = |w: &crate::trace::Write| {
        w.decode()
            .map_err(|why| io::Error::new(io::ErrorKind::InvalidData, why))
    };
    let append = |data: &[u8]| -> io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        f.write_all(data)
    };
    match event {
        Event::Append(w) => append(&bytes(w)?),
        Event::Truncate(t) => match std::fs::OpenOptions::new().write(true).open(path) {
            Ok(f) => f.set_len(t.len.min(f.metadata()?.len())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        },
        Event::Rewrite(w) => std::fs::write(path, bytes(w)?),
        Event::Replace(w) => {
            let mut name = path.as_os_str().to_owned();
            name.push(".replacement");
            let next = PathBuf::from(name);
            std::fs::write(&next, bytes(w)?)?;
            std::fs::rename(&next, path)
        }
        Event::Remove(_) => match std::fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
        Event::Exit(e) if e.marker => append(crate::trace::exit_marker(e.code).as_bytes()),
        Event::Exit(_) | Event::Read(_) | Event::OtherTool(_) => Ok(()),
    }
}
