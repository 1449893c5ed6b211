//! The bounds a model is checked at: the engine's limits, the log's length, which actions
//! are taken and how often, and the named presets.

use crate::requests::{Bytes, Elapsed, Lines, OtherId};
use crate::state::LineKind;
use bgtail::Limits;

/// The most lines a model's log may hold: line texts are numbered by index, and a bound this
/// size is already far past what a check can enumerate.
pub const MAX_LINES: u8 = 64;

/// How many times a path of the model may read, or reset the log.
///
/// With [`Times::Any`] the state keeps no counter for it. A read changes only the bookmarks,
/// what the judge knows was delivered and the last reply's flags; a reset changes only the
/// log. Each is bounded by the log, which `max_lines` bounds — once the engine's state is
/// taken up to what no reply tells apart ([`TailModel::quotient`](crate::TailModel::quotient): the exact engine numbers
/// its generations) — so the reachable space stays finite, and a check of it covers
/// sequences of **every** length: a step that changes nothing leads back to a state already
/// visited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Times {
    /// Any number of times.
    Any,
    /// At most this many: the state counts them (random sequences need a horizon; an
    /// engine in another process is slow enough that a few reads is what a check affords).
    AtMost(u8),
}

impl Times {
    /// Whether a path that did it `done` times may do it again.
    pub fn allows_another(self, done: u8) -> bool {
        match self {
            Times::Any => true,
            Times::AtMost(max) => done < max,
        }
    }

    /// Whether `done` is inside the bound.
    pub fn contains(self, done: u8) -> bool {
        match self {
            Times::Any => true,
            Times::AtMost(max) => done <= max,
        }
    }

    /// Counts one more into `done`, where the bound counts: under [`Times::Any`] the counter
    /// stays 0, so that states differing only in how they were reached are one.
    pub fn count(self, done: &mut u8) {
        if let Times::AtMost(_) = self {
            *done = done.saturating_add(1);
        }
    }
}

impl std::fmt::Display for Times {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Times::Any => f.write_str("any"),
            Times::AtMost(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for Times {
    type Err = String;

    /// `any`, or a count from 0 to 255.
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "any" {
            return Ok(Times::Any);
        }
        s.parse()
            .map(Times::AtMost)
            .map_err(|_| format!("{s:?} is neither `any` nor a count from 0 to 255"))
    }
}

/// Which engine the model drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    Exact,
    Shipped,
}

/// The bound and the action families of one model.
#[derive(Clone, Debug)]
pub struct ModelConfig {
    /// The engine's limits, scaled down so that a few short lines reach every path.
    pub limits: Limits,
    /// At most this many lines (complete or partial) in the log.
    pub max_lines: u8,
    /// How many reads (condensed and raw) a path may make.
    pub max_reads: Times,
    /// How many truncations and rewrites together a path may make.
    pub max_resets: Times,
    /// The `lines` of condensed reads.
    pub read_lines: Vec<u8>,
    /// The `lines` of raw reads (empty: no raw reads).
    pub raw_lines: Vec<u8>,
    /// The `lines` of condensed reads during which the log is cut
    /// ([`Action::ReadDuringCut`](crate::Action::ReadDuringCut); empty: never), counted with
    /// the reads and the resets.
    pub cut_during_read: Vec<u8>,
    /// The `bytes` views the agent may switch to (empty: never changes the view).
    pub views: Vec<Bytes>,
    /// The ids other than the model's own the agent may name the job by
    /// ([`Action::ReadAs`](crate::Action::ReadAs); empty: never).
    pub other_ids: Vec<OtherId>,
    /// The elapsed times the agent may pass to a read without `peek` while the job runs
    /// ([`Action::GatedRead`](crate::Action::GatedRead); empty: it always peeks).
    pub gated_elapsed: Vec<Elapsed>,
    /// The `lines` of condensed reads that are not a whole number of at least 1
    /// ([`Action::ReadOddly`](crate::Action::ReadOddly); empty: never).
    pub odd_lines: Vec<Lines>,
    /// The kinds of complete lines the job appends.
    pub kinds: Vec<LineKind>,
    pub partial_lines: bool,
    pub truncate: bool,
    pub rewrite: bool,
    /// Whether the job rewrites its last line, complete or partial, in place
    /// ([`Action::RewriteLast`](crate::Action::RewriteLast),
    /// [`Action::RewritePartial`](crate::Action::RewritePartial)); counted with the resets.
    pub rewrite_in_place: bool,
    pub finish: bool,
    /// Whether the job grows its partial line before ending it
    /// ([`Action::GrowPartial`](crate::Action::GrowPartial)).
    pub grow_partial: bool,
    /// Whether the job's exit writes the wrapper's marker
    /// ([`Action::WriteExitMarker`](crate::Action::WriteExitMarker)).
    pub exit_marker: bool,
}

impl ModelConfig {
    /// Limits small enough that two long lines overflow the budget and two disjoint covered
    /// runs overflow the coverage (one range kept).
    pub fn tiny_limits() -> Limits {
        let mut limits = Limits::default();
        limits.text_budget = 40;
        limits.line_cap = 8;
        limits.coverage_ranges_max = 1;
        limits.view_default = 4096;
        limits.view_max = 4096;
        limits.scan_lines_max = 64;
        // A few bytes, so that reads see only the log's tail and count the rest from the
        // bookmark's line index: the model checks that path, not only the whole-view one.
        limits.tail_chunk = 4;
        limits.mark_spacing = 8;
        // Pieces that stop doubling at 8 bytes, and a search back for a line's start in pieces
        // of 2, so that a count, a line's rest and that search each cross piece boundaries.
        limits.piece_max = 8;
        limits.line_search_piece = 2;
        // Small views counted lazily too, or the index path would never be taken.
        limits.count_views_up_to = 0;
        // The places a read compares to see a rewrite, a few bytes each, so that a log of
        // three short lines is longer than each and a change can fall behind the head, before
        // the settled end, at the end of a partial line, or between them (see `scope`).
        limits.head_probe_bytes = 3;
        limits.settled_print_bytes = 3;
        limits.partial_print_bytes = 2;
        limits
    }

    /// The configuration CI checks the exact engine on: every action family, content lines
    /// of three kinds, up to 4 lines and 1 reset, any number of reads.
    pub fn ci() -> Self {
        ModelConfig {
            limits: Self::tiny_limits(),
            max_lines: 4,
            max_reads: Times::Any,
            max_resets: Times::AtMost(1),
            read_lines: vec![1, 2, 4],
            raw_lines: vec![1],
            cut_during_read: vec![],
            views: vec![Bytes::Whole(12)],
            other_ids: vec![],
            gated_elapsed: vec![],
            odd_lines: vec![],
            kinds: vec![LineKind::Short, LineKind::Long, LineKind::Repeated],
            partial_lines: true,
            truncate: true,
            rewrite: true,
            rewrite_in_place: true,
            finish: true,
            grow_partial: false,
            exit_marker: false,
        }
    }

    /// The second CI configuration: blank and wrapper lines among content lines, up to 3 lines
    /// and 1 reset, any number of reads.
    pub fn ci_non_content() -> Self {
        ModelConfig {
            max_lines: 3,
            kinds: vec![
                LineKind::Short,
                LineKind::Blank,
                LineKind::Wrapper,
                LineKind::Repeated,
            ],
            ..Self::ci()
        }
    }

    /// Upstream's line bound within reach: CI's second configuration with a bound of 2 `\n`
    /// bytes, so that a view holding two or more is cut to the lines after its second-to-last.
    /// Blank and wrapper lines make the `\n` bytes the bound counts differ from the content
    /// lines a reply counts. (At the CI limits' bound of 64 no read of a model's log is cut, so
    /// the other bounds leave the engine's handling of the line bound unchecked.)
    pub fn line_bound() -> Self {
        let mut limits = Self::tiny_limits();
        limits.scan_lines_max = 2;
        ModelConfig {
            limits,
            ..Self::ci_non_content()
        }
    }

    /// CI's, with a fold threshold of 2, so that within 4 lines one reply can show a fold
    /// together with the budget's overflow or with coverage overflow: at the CI limits'
    /// threshold of 3 each such pair needs 5 lines (3 repeated lines and 2 others).
    pub fn fold_pairs() -> Self {
        let mut limits = Self::tiny_limits();
        limits.fold_threshold = 2;
        ModelConfig {
            limits,
            ..Self::ci()
        }
    }

    /// Whether a reply within the bound can show a fold beside another feature that needs
    /// two lines of its own (two long lines overflow the budget; two covered runs overflow
    /// the coverage): the fold's repeated lines and those two fit in `max_lines`.
    pub fn reaches_fold_pairs(&self) -> bool {
        self.kinds.contains(&LineKind::Repeated)
            && self.kinds.contains(&LineKind::Long)
            && usize::from(self.max_lines) >= self.limits.fold_threshold + 2
    }

    /// Whether a view can start inside a partial line: a view narrower than the shortest
    /// partial text the model writes (`p0`, 2 bytes).
    pub fn reaches_view_inside_partial(&self) -> bool {
        self.partial_lines && self.views.iter().any(|v| v.narrower_than(2))
    }

    /// The job's end: the wrapper's exit marker (ending a partial line as it stands, with a
    /// cap recorded) while the caller still says the job runs, and a view of one byte, narrower
    /// than every partial line, so that a read's view starts inside it — a progress line
    /// longer than the `bytes` the agent passes, scaled down — also once the line has grown.
    /// Up to 3 lines, any number of reads, one in-place rewrite.
    pub fn job_end() -> Self {
        ModelConfig {
            max_lines: 3,
            read_lines: vec![1, 2],
            views: vec![Bytes::Whole(1)],
            other_ids: vec![],
            gated_elapsed: vec![],
            odd_lines: vec![],
            kinds: vec![LineKind::Short],
            truncate: false,
            rewrite: false,
            grow_partial: true,
            exit_marker: true,
            ..Self::ci()
        }
    }

    /// Issue #28's world: appends and condensed reads of two widths, nothing else. The
    /// shipped engine's gap symptom needs only this.
    pub fn issue_28_gap() -> Self {
        ModelConfig {
            limits: Self::tiny_limits(),
            max_lines: 4,
            max_reads: Times::AtMost(3),
            max_resets: Times::AtMost(0),
            read_lines: vec![1, 3],
            raw_lines: vec![],
            cut_during_read: vec![],
            views: vec![],
            other_ids: vec![],
            gated_elapsed: vec![],
            odd_lines: vec![],
            kinds: vec![LineKind::Short],
            partial_lines: false,
            truncate: false,
            rewrite: false,
            rewrite_in_place: false,
            finish: false,
            grow_partial: false,
            exit_marker: false,
        }
    }

    /// Issue #28's cap symptom: long lines that overflow the budget, condensed reads.
    pub fn issue_28_cap() -> Self {
        ModelConfig {
            kinds: vec![LineKind::Short, LineKind::Long],
            read_lines: vec![1, 2],
            ..Self::issue_28_gap()
        }
    }

    /// The budget's edge: long, repeated and completed lines, read four at a time, so that a
    /// body can fill the budget to the unit (with the tiny limits, a long line's emission
    /// costs 21, a completed one 8, a repeated one 6: 21 + 8 + 6 + 6 = 41, one over).
    pub fn budget_edge() -> Self {
        ModelConfig {
            limits: Self::tiny_limits(),
            max_lines: 4,
            max_reads: Times::AtMost(2),
            max_resets: Times::AtMost(0),
            read_lines: vec![4],
            raw_lines: vec![],
            cut_during_read: vec![],
            views: vec![],
            other_ids: vec![],
            gated_elapsed: vec![],
            odd_lines: vec![],
            kinds: vec![LineKind::Long, LineKind::Repeated],
            partial_lines: true,
            truncate: false,
            rewrite: false,
            rewrite_in_place: false,
            finish: false,
            grow_partial: false,
            exit_marker: false,
        }
    }

    /// Lines skipped between covered runs of a view that upstream's line bound cuts: two
    /// coverage ranges kept, a bound of 5 `\n` bytes and up to 6 short lines, appends and
    /// condensed reads of 1 and 2. A view then holds a delivered line, lines never delivered
    /// newer than it, and the window, while the bound refuses to count the view cheaply from a
    /// mark before it: the engine counts back from its tail, down to the oldest covered line in
    /// the view, so that a reply that does not count the whole view still says the skipped
    /// lines exactly. (CI's bounds keep one range, or a bound no view reaches.)
    pub fn skipped_in_cut_view() -> Self {
        let mut limits = Self::tiny_limits();
        limits.coverage_ranges_max = 2;
        limits.scan_lines_max = 5;
        ModelConfig {
            limits,
            max_lines: 6,
            max_reads: Times::Any,
            read_lines: vec![1, 2],
            ..Self::issue_28_gap()
        }
    }

    /// A view narrower than the log that upstream's line bound cuts: a bound of 4 `\n` bytes,
    /// up to 5 short and blank lines, views of 6 and 12 bytes, appends and condensed reads of 1
    /// and 2. The newline ending the line the view's start falls in counts against the bound
    /// (upstream scans from the byte before the view), so a view counted cheaply from a line
    /// index mark before it must count that newline too, or it escapes the cut by a line.
    pub fn narrow_view_cut() -> Self {
        let mut limits = Self::tiny_limits();
        limits.scan_lines_max = 4;
        ModelConfig {
            limits,
            max_lines: 5,
            views: vec![Bytes::Whole(6), Bytes::Whole(12)],
            kinds: vec![LineKind::Short, LineKind::Blank],
            ..Self::skipped_in_cut_view()
        }
    }

    /// A narrow view counted cheaply from a line index mark before it, where upstream's line
    /// bound cuts by exactly the newlines that mark gives: a bound of 5 `\n` bytes, a mark
    /// about every 12 bytes, up to 9 short lines, views of 11 and 14 bytes, appends and
    /// condensed reads of 1 and 2. A read whose view starts before the last read's settled
    /// end numbers the view's first line forward from the index's mark before the view, here
    /// two lines or more before it; a mark numbered wrong, or the newline before the view left
    /// out, lets the view escape the cut. A read whose whole view the bound cut starts the
    /// index over. (With CI's mark spacing of 8 bytes, this bound misses a mark numbered by
    /// multiplying the newlines it passed.)
    pub fn line_bound_from_a_mark() -> Self {
        let mut limits = Self::tiny_limits();
        limits.scan_lines_max = 5;
        limits.mark_spacing = 12;
        ModelConfig {
            limits,
            max_lines: 9,
            max_reads: Times::Any,
            read_lines: vec![1, 2],
            views: vec![Bytes::Whole(11), Bytes::Whole(14)],
            ..Self::issue_28_gap()
        }
    }

    /// Lines styled by escape sequences, with a NUL in them ([`LineKind::Styled`], printed
    /// exactly the per-line cap long), and lines whose cap falls inside a surrogate pair
    /// ([`LineKind::Astral`]), among short ones: up to 3 lines, appends, condensed reads of 1
    /// and 2 and raw reads of 1, any number of reads. The read rule strips the escapes and
    /// shows the NUL as `␀` before it cuts a line at the cap, writes a cut pair's half as
    /// U+FFFD, and the reply counts the escapes it stripped; CI's bounds write no escape, no
    /// NUL and no character past U+FFFF.
    pub fn styled_lines() -> Self {
        ModelConfig {
            max_lines: 3,
            max_reads: Times::Any,
            read_lines: vec![1, 2],
            raw_lines: vec![1],
            kinds: vec![LineKind::Short, LineKind::Styled, LineKind::Astral],
            ..Self::issue_28_gap()
        }
    }

    /// Requests a JSON caller (or a JavaScript one) may send that are not plain. Views asked
    /// by numbers that are not a whole number of bytes within the largest view: 0, -1, NaN and
    /// +Infinity (not positive and finite: the default view), 1.5 (floored to 1 byte) and 5000
    /// (past the largest view, 4 KiB), with a default view of 6 bytes, so that each asks for a
    /// view other than its neighbours' and narrower than the log; windows asked by `lines` of
    /// 1.5 (floored), 0 and -1 (raised to 1), NaN (the default, 40 lines) and +Infinity (every
    /// line); and reads naming the job by each id upstream refuses, for each of its reasons
    /// alone, and by the longest it reads. Short lines and a partial one, up to 3 lines,
    /// condensed reads of 1 and 2 and raw reads of 1, any number of reads, and the job's
    /// finish. A clamp that read a view as upstream does not (0 as no bytes, -1 as a number of
    /// bytes), a window of NaN lines read as 1, or an id check that let a path-like id
    /// through, breaks a property; CI's bounds pass whole numbers and the model's one id.
    pub fn odd_requests() -> Self {
        let mut limits = Self::tiny_limits();
        limits.view_default = 6;
        ModelConfig {
            limits,
            max_lines: 3,
            max_reads: Times::Any,
            read_lines: vec![1, 2],
            raw_lines: vec![1],
            views: vec![
                Bytes::Whole(0),
                Bytes::Negative,
                Bytes::NotANumber,
                Bytes::Infinite,
                Bytes::AndAHalf(1),
                Bytes::Whole(5000),
            ],
            other_ids: OtherId::ALL.to_vec(),
            gated_elapsed: Elapsed::ALL.to_vec(),
            odd_lines: Lines::ALL.to_vec(),
            partial_lines: true,
            finish: true,
            ..Self::issue_28_gap()
        }
    }

    /// Whether a view the line bound cut can hold a delivered line, a line never delivered
    /// newer than it, and the window's: two coverage ranges kept, and a log longer than the
    /// bound.
    pub fn reaches_skipped_in_cut_view(&self) -> bool {
        self.limits.coverage_ranges_max >= 2
            && usize::from(self.max_lines) > self.limits.scan_lines_max
    }

    /// Upstream's real limits and a long horizon, for random sequences far beyond what the
    /// checker can enumerate.
    pub fn long_random() -> Self {
        ModelConfig {
            limits: Limits::default(),
            max_lines: 60,
            max_reads: Times::AtMost(80),
            max_resets: Times::AtMost(4),
            read_lines: vec![1, 2, 3, 5, 10, 40, 144],
            raw_lines: vec![2, 40],
            cut_during_read: vec![],
            views: vec![Bytes::Whole(300), Bytes::Whole(1200)],
            other_ids: vec![],
            gated_elapsed: vec![],
            odd_lines: vec![],
            kinds: vec![
                LineKind::Short,
                LineKind::Long,
                LineKind::Repeated,
                LineKind::Blank,
                LineKind::Wrapper,
            ],
            partial_lines: true,
            truncate: true,
            rewrite: true,
            rewrite_in_place: true,
            finish: true,
            grow_partial: true,
            exit_marker: true,
        }
    }

    /// This bound for an engine with other limits (an engine in another process declares
    /// its own): long lines are longer than its per-line cap, and the widest condensed read is
    /// widened, with the line bound, until that many long lines overflow its budget. The
    /// identity for the limits the bound was made for.
    pub fn for_limits(mut self, limits: Limits) -> Self {
        // A long line's capped emission, `s<i>xx… …[+<n> chars]`, costs the cap plus 13 units
        // (with its newline) for a one-digit index.
        let overflow = limits.text_budget / (limits.line_cap + 13) + 1;
        let overflow = u8::try_from(overflow).unwrap_or(u8::MAX).min(MAX_LINES);
        let widest = self.read_lines.iter().copied().max().unwrap_or(1);
        if self.kinds.contains(&LineKind::Long) && widest >= 2 && widest < overflow {
            for w in &mut self.read_lines {
                if *w >= 2 {
                    *w = (*w).max(overflow);
                }
            }
            self.read_lines.dedup();
            self.max_lines = self.max_lines.max(overflow);
        }
        self.limits = limits;
        self
    }

    /// The inductive check's model: CI's families and kinds, logs of up to `max_lines`
    /// lines, and every action enabled in every state (reads are not counted, and one reset
    /// is allowed, as the reset counter starts at zero in every state the check enumerates).
    /// One family is [`ModelConfig::induction_job_end`]'s: rewriting one line in place, which
    /// gives every line a text variant of its own and the enumeration of the logs a factor
    /// of about 4 per line.
    pub fn induction(max_lines: u8) -> Self {
        ModelConfig {
            max_lines,
            max_reads: Times::Any,
            max_resets: Times::AtMost(1),
            rewrite_in_place: false,
            ..Self::ci()
        }
    }

    /// The inductive check over the job's end: short lines and partial lines, each line
    /// rewritten in place on its own, the partial line that grows and the wrapper's exit
    /// marker, beside truncations, rewrites of every line and the job's finish, with the
    /// default view, [`ModelConfig::job_end`]'s view of 1 byte (narrower than every line, so
    /// that a read's view starts inside one) and CI's.
    pub fn induction_job_end(max_lines: u8) -> Self {
        ModelConfig {
            kinds: vec![LineKind::Short],
            views: vec![Bytes::Whole(1), Bytes::Whole(12)],
            other_ids: vec![],
            gated_elapsed: vec![],
            odd_lines: vec![],
            rewrite_in_place: true,
            grow_partial: true,
            exit_marker: true,
            ..Self::induction(max_lines)
        }
    }

    /// [`ModelConfig::induction`] over CI's second world's kinds: short, blank, wrapper and
    /// repeated lines, so that the lazy count of the view above the tail counts back over lines
    /// that are not content (`tiny_limits` counts every view lazily).
    pub fn induction_non_content(max_lines: u8) -> Self {
        ModelConfig {
            kinds: Self::ci_non_content().kinds,
            ..Self::induction(max_lines)
        }
    }

    /// [`ModelConfig::induction`] over [`ModelConfig::styled_lines`]'s kinds: short lines and
    /// lines styled by escape sequences with a NUL in them, so that every state of the
    /// invariant, not only the reachable ones, holds the condenser's stripping, its NUL step
    /// and its cap's boundary to the judge's print.
    pub fn induction_styled(max_lines: u8) -> Self {
        ModelConfig {
            kinds: Self::styled_lines().kinds,
            ..Self::induction(max_lines)
        }
    }

    /// Every sequence of any length over small logs: CI's families and kinds but the rewrites
    /// of one line (as the inductive check), logs of up to 3 lines, any number of reads and
    /// of resets. With the engine's quotient the reachable space is finite, so the check
    /// covers every path — a proof by reachability of what the inductive check proves from its
    /// invariant.
    pub fn any_length() -> Self {
        ModelConfig {
            max_lines: 3,
            max_resets: Times::Any,
            // The inductive check's actions: with any number of them, rewrites of one line
            // on their own give every line its own text variant, a space of another order.
            rewrite_in_place: false,
            ..Self::ci()
        }
    }

    /// A deeper bound for the command line: CI's families and kinds, up to 5 lines, any
    /// number of reads.
    pub fn deep() -> Self {
        ModelConfig {
            max_lines: 5,
            ..Self::ci()
        }
    }
}
