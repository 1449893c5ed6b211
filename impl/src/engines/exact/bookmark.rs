//! What the exact engine remembers of a job between reads: its bookmark (the generation, the
//! fingerprints that tell whether the log is still that generation, the coverage and the line
//! index), and the bookmarks of every job.

use super::coverage::Coverage;
use super::index::LineIndex;
use crate::source::{read_measured_span, LogIdentity, LogSource, SourceError};
use serde::{Deserialize, Serialize};

/// A fingerprint of `len` bytes at `offset`: the log's head (to notice a log rewritten in
/// place), the bytes before the settled end (a log cut and regrown), and the end of the
/// partial line the caller saw (a progress line redrawn in place).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BytePrint {
    /// 0 for the head (state files from before the settled fingerprint have no offset).
    #[serde(default)]
    pub offset: u64,
    /// How many bytes the fingerprint covers.
    pub len: u64,
    /// FNV-1a of those bytes.
    pub hash: u64,
}

impl BytePrint {
    pub(super) fn of(offset: u64, bytes: &[u8]) -> Self {
        BytePrint {
            offset,
            len: bytes.len() as u64,
            hash: fnv1a(bytes),
        }
    }

    /// Whether `bytes`, read at `self.offset`, start with the fingerprinted ones.
    pub(super) fn matches(&self, bytes: &[u8]) -> bool {
        bytes
            .get(..self.len as usize)
            .is_some_and(|prefix| fnv1a(prefix) == self.hash)
    }

    /// Whether the log, measured to hold these bytes, still holds the same bytes there;
    /// [`SourceError::Shrank`] when it no longer holds them all.
    pub(super) fn holds(
        &self,
        log: &dyn LogSource,
        bytes_read: &mut u64,
    ) -> Result<bool, SourceError> {
        Ok(self.matches(&read_measured_span(log, self.offset, self.len, bytes_read)?))
    }
}

/// FNV-1a, 64 bits: the hash the exact engine fingerprints a log's bytes with (its head and
/// the bytes before where the last read ended).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One id's bookmark.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExactBookmark {
    /// The path the id resolved to at the last read.
    pub path: String,
    /// Counts the generations this bookmark has seen, from 1.
    pub generation: u64,
    /// Which file sat at the path (device and inode), when the source knows.
    pub identity: Option<LogIdentity>,
    /// The log's size at the last read.
    pub size: u64,
    /// Lines starting at or after this offset were not complete at the last read: they are
    /// "new". (The start of the unterminated last segment, else the size.)
    pub settled_end: u64,
    /// The log's first bytes (at most `Limits::head_probe_bytes`), as this read saw them.
    pub head: BytePrint,
    /// The `Limits::settled_print_bytes` just before `settled_end`, as this read saw them:
    /// the head alone misses a log cut and regrown past its old size, which would leave
    /// coverage on other lines.
    #[serde(default)]
    pub settled_print: Option<BytePrint>,
    /// The complete lines the caller was shown in this generation, as byte ranges.
    pub coverage: Coverage,
    /// The partial line the caller was last shown, so that an unchanged one is not sent on
    /// every poll. Never coverage: it is shown again once it grows or completes.
    pub partial_seen: Option<(u64, u64)>,
    /// The end of the partial line the last read found at the log's end, shown or not (its
    /// last `Limits::partial_print_bytes`, all of a shorter line): a progress line redrawn in
    /// place to the same length, or a log cut there and regrown, changes bytes the read saw,
    /// which neither the head nor the settled fingerprint covers, and which only a new
    /// generation can say. `None` when the log ended in a complete line.
    #[serde(default)]
    pub partial_print: Option<BytePrint>,
    /// Line numbers at known offsets, so that the next read need not count the whole view
    /// again. A cache: it takes no part in equality (see [`LineIndex`]).
    #[serde(default)]
    pub index: LineIndex,
}

/// What of a bookmark tells whether the log is still its generation: where it was, which file,
/// how long, and the fingerprints of its head and of the bytes before its settled end.
///
/// The generation check sees a bookmark only through this: coverage, the partial line seen
/// and the line index cannot change whether a read starts over, nor why. The inductive check
/// (`bgtail_model::induction`) rests on that to answer every bookmark of one generation print
/// and reason with one read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerationPrint<'a> {
    /// The path the id resolved to.
    pub path: &'a str,
    /// Which file sat at the path, when the source knows.
    pub identity: Option<LogIdentity>,
    /// The log's size.
    pub size: u64,
    /// The log's first bytes.
    pub head: BytePrint,
    /// The bytes before the settled end.
    pub settled_print: Option<BytePrint>,
    /// The partial line the caller was last shown.
    pub partial_print: Option<BytePrint>,
}

impl ExactBookmark {
    /// What of this bookmark the generation check reads.
    pub fn generation_print(&self) -> GenerationPrint<'_> {
        GenerationPrint {
            path: &self.path,
            identity: self.identity,
            size: self.size,
            head: self.head,
            settled_print: self.settled_print,
            partial_print: self.partial_print,
        }
    }
}

/// All bookmarks, least recently read first; the least recently read is evicted when full.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExactState {
    /// Every job's bookmark, in insertion order; the oldest is forgotten past `bookmark_capacity`.
    pub bookmarks: Vec<(String, ExactBookmark)>,
}

impl ExactState {
    /// The bookmark of job `id`, if it has one.
    pub fn get(&self, id: &str) -> Option<&ExactBookmark> {
        self.bookmarks.iter().find(|(k, _)| k == id).map(|(_, b)| b)
    }

    pub(super) fn take(&mut self, id: &str) -> Option<ExactBookmark> {
        let i = self.bookmarks.iter().position(|(k, _)| k == id)?;
        Some(self.bookmarks.remove(i).1)
    }

    pub(super) fn put(&mut self, id: &str, bookmark: ExactBookmark, capacity: usize) {
        self.bookmarks.push((id.to_owned(), bookmark));
        let excess = self.bookmarks.len().saturating_sub(capacity);
        self.bookmarks.drain(..excess);
    }
}
