//! The generation check: whether the log a read finds is still the generation its bookmark
//! saw, and, when it is not, why. It sees the bookmark only through its [`GenerationPrint`].

use super::bookmark::GenerationPrint;
use crate::interface::api::ResetReason;
use crate::source::{LogSource, LogStat, SourceError};

/// Whether the log is another generation than the bookmark's, and why. `head` holds the
/// log's first bytes, at least as many as the bookmark hashed unless the log shrank.
///
/// Then the bytes before the bookmark's settled end are read back and compared: a log cut and
/// regrown past its old size behind an unchanged head is another generation too; and last the
/// partial line the last read found, which a redraw in place may change behind both.
pub(super) fn change(
    prev: &GenerationPrint<'_>,
    path: &str,
    stat: LogStat,
    head: &[u8],
    log: &dyn LogSource,
    bytes_read: &mut u64,
) -> Result<Option<ResetReason>, SourceError> {
    if prev.path != path {
        return Ok(Some(ResetReason::PathChanged));
    }
    if let (Some(a), Some(b)) = (prev.identity, stat.identity) {
        if a != b {
            return Ok(Some(ResetReason::FileReplaced));
        }
    }
    if stat.size < prev.size {
        return Ok(Some(ResetReason::Shrank));
    }
    // Compare the same prefix the bookmark hashed: the log is at least as long as the
    // bookmark saw it, and its head was read whole, so `head` holds all of that prefix.
    if !prev.head.matches(head) {
        return Ok(Some(ResetReason::Rewritten));
    }
    if let Some(print) = prev.settled_print {
        if !print.holds(log, bytes_read)? {
            return Ok(Some(ResetReason::RegrownPastCut));
        }
    }
    // Last, so that every reason above is decided without it: the end of the partial line the
    // last read found, redrawn in place (a progress line redrawn to the same length behind an
    // unchanged head) or cut and regrown.
    match prev.partial_print {
        Some(print) if !print.holds(log, bytes_read)? => Ok(Some(ResetReason::PartialRewritten)),
        _ => Ok(None),
    }
}
