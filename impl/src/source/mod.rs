//! Where a log's bytes come from.
//!
//! Engines see a log only through [`LogSource`]: its size, its identity, and positioned reads.
//! That keeps them pure (the model and the trace replayer hand them bytes in memory) while the
//! command line hands them a real file ([`file::FileLog`]) that is read only where a request
//! needs it.

pub mod file;
mod memory;

pub use file::open_log;
pub use memory::{MemoryLog, SliceLog};

use serde::{Deserialize, Serialize};
use std::fmt;

/// What identifies one file behind a path: device and inode for a real file, a number the
/// owner bumps on every replacement for a log in memory. A change means "another file".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LogIdentity {
    /// The device number.
    pub device: u64,
    /// The inode number.
    pub inode: u64,
}

/// A log's size and identity at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogStat {
    /// The log's size in bytes.
    pub size: u64,
    /// Which file it is, when the source knows.
    pub identity: Option<LogIdentity>,
}

/// Why a log could not be read. Engines turn these into upstream's error replies.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SourceError {
    /// Nothing exists at the path.
    NotFound,
    /// Something exists but could not be read; the text is the operating system's reason.
    Unreadable(String),
    /// The log held fewer bytes than a read measured: it shrank while it was read
    /// ([`read_measured_span`]).
    Shrank,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::NotFound => f.write_str("not found"),
            SourceError::Unreadable(why) => write!(f, "unreadable: {why}"),
            SourceError::Shrank => f.write_str("the log shrank while it was read"),
        }
    }
}

/// A log an engine can read.
pub trait LogSource {
    /// The current size and identity.
    fn stat(&self) -> Result<LogStat, SourceError>;

    /// Reads up to `buf.len()` bytes at `offset`; fewer (down to 0) at the end of the log.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, SourceError>;
}

/// Reads `len` bytes at `offset`, or fewer when the log ends first (it may have shrunk since
/// it was measured), counting what was read into `bytes_read`.
pub fn read_span(
    source: &dyn LogSource,
    offset: u64,
    len: u64,
    bytes_read: &mut u64,
) -> Result<Vec<u8>, SourceError> {
    let len = usize::try_from(len).map_err(|_| SourceError::Unreadable("span too large".into()))?;
    let mut buf = vec![0u8; len];
    let mut filled = 0;
    while filled < len {
        let n = source.read_at(offset + filled as u64, &mut buf[filled..])?;
        if n == 0 {
            break;
        }
        filled += n;
    }
    buf.truncate(filled);
    *bytes_read += filled as u64;
    Ok(buf)
}

/// Reads the `len` bytes at `offset` of a log measured to hold them, counting what was read
/// into `bytes_read`: fewer bytes mean the log shrank since it was measured,
/// [`SourceError::Shrank`].
pub fn read_measured_span(
    source: &dyn LogSource,
    offset: u64,
    len: u64,
    bytes_read: &mut u64,
) -> Result<Vec<u8>, SourceError> {
    let bytes = read_span(source, offset, len, bytes_read)?;
    if bytes.len() as u64 != len {
        return Err(SourceError::Shrank);
    }
    Ok(bytes)
}

/// A log that could not be opened: every call reports why, so that engines answer with their
/// error reply (upstream's "No log found …" or "… could not be read").
#[derive(Clone, Debug)]
pub struct Unavailable(pub SourceError);

impl LogSource for Unavailable {
    fn stat(&self) -> Result<LogStat, SourceError> {
        Err(self.0.clone())
    }

    fn read_at(&self, _offset: u64, _buf: &mut [u8]) -> Result<usize, SourceError> {
        Err(self.0.clone())
    }
}
