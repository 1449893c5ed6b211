//! Where a read starts from: what the generation check found of the bookmark (its
//! [`Opening`]), and the memory the read carries on from it (its [`Start`]).

use super::bookmark::ExactBookmark;
use super::coverage::Coverage;
use crate::interface::api::ResetReason;

/// Where a read starts from: the bookmark's memory, or a fresh one.
pub(crate) struct Start {
    pub generation: u64,
    pub coverage: Coverage,
    /// The bookmark's `settled_end` when continuing a generation; `None` on a first read or
    /// a new generation.
    pub settled_before: Option<u64>,
    /// The bookmark's `size` when continuing a generation. The bytes from `settled_before` up
    /// to it were the last read's unterminated last segment: they held no `\n`.
    pub size_before: Option<u64>,
    pub reset: Option<ResetReason>,
    /// The extent of the partial line the last condensed reply carried, if any.
    pub partial_seen: Option<(u64, u64)>,
}

/// What a read found of the bookmark's generation, once the generation check ran.
///
/// A read that starts over holds only the generation it follows and the reason: nothing of
/// the bookmark's coverage, partial line or index can reach its reply or its next bookmark.
pub(crate) enum Opening<'a> {
    /// No bookmark: the job's first read.
    First,
    /// The log continues the bookmark's generation.
    Continues(&'a ExactBookmark),
    /// The log is another generation than the bookmark's, numbered `generation`.
    Reset {
        generation: u64,
        reason: ResetReason,
    },
}

impl<'a> Opening<'a> {
    /// The bookmark, when the read continues its generation.
    pub fn continuing(&self) -> Option<&'a ExactBookmark> {
        match *self {
            Opening::Continues(p) => Some(p),
            _ => None,
        }
    }
}

impl Start {
    /// Where a read starts from: the bookmark's memory when it continues, else a fresh one.
    pub fn of(opening: &Opening<'_>) -> Start {
        match *opening {
            Opening::Continues(p) => Start {
                generation: p.generation,
                coverage: p.coverage.clone(),
                settled_before: Some(p.settled_end),
                size_before: Some(p.size),
                reset: None,
                partial_seen: p.partial_seen,
            },
            Opening::Reset { generation, reason } => Start {
                generation: generation + 1,
                reset: Some(reason),
                ..Start::fresh()
            },
            Opening::First => Start::fresh(),
        }
    }

    /// The start of a generation's first read.
    fn fresh() -> Start {
        Start {
            generation: 1,
            coverage: Coverage::default(),
            settled_before: None,
            size_before: None,
            reset: None,
            partial_seen: None,
        }
    }
}
