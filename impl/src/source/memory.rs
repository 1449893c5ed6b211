use super::{LogIdentity, LogSource, LogStat, SourceError};

/// A log held in memory, borrowed: what the model and trace replay hand an engine.
#[derive(Clone, Copy, Debug)]
pub struct SliceLog<'a> {
    /// The log's bytes.
    pub bytes: &'a [u8],
    /// Bumped by the owner whenever the log is replaced by another file.
    pub file_number: u64,
    /// Nothing sits at the path: every call reports [`SourceError::NotFound`].
    pub missing: bool,
}

impl LogSource for SliceLog<'_> {
    fn stat(&self) -> Result<LogStat, SourceError> {
        if self.missing {
            return Err(SourceError::NotFound);
        }
        Ok(LogStat {
            size: self.bytes.len() as u64,
            identity: Some(LogIdentity {
                device: 0,
                inode: self.file_number,
            }),
        })
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError> {
        if self.missing {
            return Err(SourceError::NotFound);
        }
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        let n = buf.len().min(self.bytes.len() - start);
        buf[..n].copy_from_slice(&self.bytes[start..start + n]);
        Ok(n)
    }
}

/// A log held in memory that a job writes to: appends, truncation, replacement and deletion.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MemoryLog {
    bytes: Vec<u8>,
    file_number: u64,
    /// Deleted, and not created again since: nothing sits at the path (`bytes` is empty).
    removed: bool,
}

impl MemoryLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// The log's bytes now.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Appends, creating a new file first if the log was deleted (as `>>` does).
    pub fn append(&mut self, data: &[u8]) {
        self.removed = false;
        self.bytes.extend_from_slice(data);
    }

    /// Cuts the log to `len` bytes in place (same file, like `truncate(2)`; nothing to cut
    /// when it was deleted).
    pub fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
    }

    /// Rewrites the log's bytes in place (same file, like `open(O_TRUNC)` and a new write).
    pub fn rewrite(&mut self, data: &[u8]) {
        // `O_CREAT` too: a rewrite of a deleted log creates it again.
        self.removed = false;
        self.bytes.clear();
        self.bytes.extend_from_slice(data);
    }

    /// Puts another file at the path (like a rename over it): a new identity.
    pub fn replace(&mut self, data: &[u8]) {
        self.rewrite(data);
        self.removed = false;
        self.file_number += 1;
    }

    /// Deletes the log (like `unlink`): reads fail with "not found" until the next append
    /// or replacement, which makes a new file.
    pub fn remove(&mut self) {
        self.bytes.clear();
        self.file_number += 1;
        self.removed = true;
    }

    /// Whether a file sits at the path.
    pub fn exists(&self) -> bool {
        !self.removed
    }

    /// The file at the path, as an engine reads it; a deleted log reads as not found.
    pub fn source(&self) -> SliceLog<'_> {
        SliceLog {
            bytes: &self.bytes,
            file_number: self.file_number,
            missing: self.removed,
        }
    }
}
