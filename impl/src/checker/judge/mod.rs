//! The one judge of the contract (`docs/contract.md`): every reply of any engine —
//! compiled in, or in another process — judged from its **text** and the log the harness
//! wrote, never from the engine's own books.
//!
//! The model, the replay audit, the contract proptest and the fuzzer all call [`Judge::judge`]
//! once per read. The judge keeps what the agent was really delivered in the current
//! generation (decided by the judge itself: the log no longer continues the bytes the last
//! read saw, or another file sits at the path), matches every body line **exactly** to a line
//! of the window (see `align`), and reads the numbers the header and notes state (see
//! `text`). An engine that reports the byte ranges it showed has them checked against the
//! text; they only choose between lines that print the same.
//!
//! What each guarantee means from the text alone:
//! - **nothing lost**: a condensed read whose window holds lines never delivered carries none
//!   of them and does not say the budget left any out — the agent is told there is nothing
//!   more, so those lines are hidden. (An engine that counts a line as shown without showing
//!   it is caught by the next read of a window holding the line.)
//! - **progress**: a condensed read whose window holds a line never delivered carries the
//!   newest such line (once coverage was forgotten, at least one line).
//! - **repeats bounded**: a condensed read carries no line delivered before in this
//!   generation, unless the engine said it forgot coverage.
//! - **honest counts**: every number the text states is the truth — in the exact engine's
//!   text that includes its condensing notes (escape sequences stripped, runs collapsed,
//!   lines truncated and the cap), where a note left out says 0, and its other statements
//!   (`statements`: "first read", the partial line, the `lines` that reach lines never shown,
//!   the left-out note's budget and `lines`, the view and line-bound notes) — the reset is
//!   reported exactly when a new generation began, every body line is a line of the window or
//!   a documented marker, and the engine's claimed ranges are what the text carries; what the
//!   reply says beside its text (`details`, its kind, its body's range) agrees with the text
//!   (`fields`), and the exact engine's text says each count its format's way, none of
//!   nothing (`format`).
//! - **bounded output**: a condensed body fits the budget.
//! - a read the running-job gate holds back says the job's state in one line, with the
//!   caller's elapsed seconds, and leaves the bookmark alone ([`judge_gated`], under the
//!   guarantees its statements are about).
//! - **ids checked**: a read naming its job by an id upstream refuses is refused with
//!   upstream's message, and one naming it by an id upstream reads is answered ([`judge_id`],
//!   beside [`Judge::judge`]: a refusal has no text to judge).
//!
//! Linear in the log and the reply: one scan of the view, one hash of the log, one pass over
//! the body with the window indexed by what each line prints.
//!
//! The judge owes nothing to an engine: its content lines, its window, its line-bound cut and
//! its hash are its own (`truth`), written from the contract. Its one deliberate use of shared
//! upstream semantics is the condenser's rule for what a line prints — ANSI stripped, runs
//! folded, the per-line cap (`crate::upstream::condense`, used by `align` and `text`) — which the
//! contract takes as upstream's: a body line is checked against what the window's line prints.

mod align;
mod checks;
mod delivered;
mod drain;
mod fields;
mod filled;
mod format;
mod gate;
mod ids;
mod literal;
mod plain;
mod print;
mod reach;
mod resets;
mod result_object;
mod sizes;
mod statements;
#[cfg(test)]
mod testing;
mod text;
mod truth;
mod verdict;

pub use delivered::{Judge, Opening};
pub use fields::Fields;
pub use gate::judge_gated;
pub use ids::{judge_id, refusal};
pub use truth::{content_lines_of, line_bound_start, settled_end};
pub use verdict::{Anomaly, AnomalyKind, Flags, LineRef, Verdict};

use crate::interface::api::Request;
use crate::interface::plain::Plain;
use crate::upstream::condense::TextFormat;
use crate::upstream::limits::Limits;

/// What the judge holds an engine to: its text format, its limits, and whether it reads a
/// window of lines.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Rules {
    /// Which text format the engine writes: the markers, header and notes the judge reads.
    pub text_format: TextFormat,
    /// The engine's limits: the budget, the per-line cap, the fold threshold, the default view
    /// and `lines`.
    pub limits: Limits,
    /// Whether the engine shows a window of the last `lines` lines. A reader with none (mux's
    /// `bash_output` returns everything new) owes every complete line of its view: the judge
    /// then takes the window to be the whole view, whatever `lines` says.
    pub line_window: bool,
    /// A plain reader's declaration (`plain-1`): its header, notes and how it prints a line.
    /// Other formats ignore it.
    pub plain: Plain,
    /// Whether the reader drains (Codex's polls): each read owes exactly the bytes the log
    /// gained since the previous one, and a line not delivered whole is then out of reach.
    pub drain: bool,
    /// The largest view (bytes at the log's end) any request the reader accepts reads: a
    /// line longer than it can never be delivered.
    pub largest_view: u64,
    /// Whether each reply comes inside Codex's envelope, taken off before the text is read
    /// in `text_format` (`bgtail-exact-1-in-codex`).
    pub codex_envelope: bool,
}

impl Rules {
    /// The rules of an engine with a line window.
    /// `bgtail-exact-1-in-codex` is read as `bgtail-exact-1` inside Codex's envelope.
    pub fn new(text_format: TextFormat, limits: Limits) -> Rules {
        let largest_view = limits.view_max;
        let codex_envelope = text_format == TextFormat::CodexExact;
        Rules {
            text_format: if codex_envelope {
                TextFormat::Exact
            } else {
                text_format
            },
            codex_envelope,
            limits,
            line_window: true,
            plain: Plain::default(),
            drain: false,
            largest_view,
        }
    }
}

/// One read, as the harness saw it: the log it wrote, the request, and the reply's text.
#[derive(Clone, Copy, Debug)]
pub struct ReadInput<'a> {
    /// The log's bytes when the read was answered.
    pub log: &'a [u8],
    /// Which file sits at the path: the harness changes it whenever another file (or none)
    /// comes to sit there, or the id resolves to another path.
    pub file: u64,
    /// The agent's request.
    pub request: &'a Request,
    /// The reply's text, exactly as the agent sees it.
    pub text: &'a str,
    /// The `(offset, end)` byte ranges the engine says the text carries, when it says.
    pub shown: Option<&'a [(u64, u64)]>,
    /// What the reply says beside its text, when the reader reports it: held to the text.
    pub fields: Option<Fields<'a>>,
}
