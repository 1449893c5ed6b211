//! The model's state — the log as a few line kinds, the judge, the engine's bookmarks — and
//! the bytes it describes.

use bgtail::judge::{Flags, Judge};
use bgtail::Limits;

use crate::requests::{Bytes, Elapsed, Lines, OtherId};

/// What a line of the model's log looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum LineKind {
    /// A short line, unique in the log.
    Short,
    /// A line longer than the per-line cap.
    Long,
    /// The same text every time, so that three in a row fold.
    Repeated,
    /// Whitespace only: not a content line.
    Blank,
    /// A line in the wrapper's `__BGRUN_` namespace: not a content line.
    Wrapper,
    /// A partial line the job has finished: the partial text and `PARTIAL_REST`.
    Completed,
    /// A partial line the wrapper's newline ended as it stood, when the job exited: the
    /// partial text alone.
    Ended,
    /// An empty line: the wrapper's newline after a complete line.
    Empty,
    /// The wrapper's exit line, with the cap it records ([`EXIT_LINES`]).
    ExitMarker,
    /// A short line styled by escape sequences (a CSI before it, an OSC title after it) with
    /// a NUL byte in it: printed stripped, the NUL as `␀`, and exactly the per-line cap long
    /// where its name fits, so that a cap that cut at its own length would cut it.
    Styled,
    /// A line one UTF-16 unit past the per-line cap whose last character is past U+FFFF (a
    /// surrogate pair in JavaScript's units), so that the cap falls inside the pair: printed
    /// with U+FFFD for the pair's half, as Node writes a lone surrogate. A rewrite keeps its
    /// name and changes that character to one of the same high surrogate ([`ASTRAL`] to
    /// [`ASTRAL_SIBLING`]): only its low half changes.
    Astral,
    /// An [`LineKind::Astral`] line whose rewrite changes the last character to one of another
    /// high surrogate ([`ASTRAL`] to [`ASTRAL_APART`]).
    AstralApart,
}

impl LineKind {
    /// Whether a line of this kind is a content line (not blank, not in the wrapper's
    /// namespace).
    pub fn is_content(self) -> bool {
        !matches!(
            self,
            LineKind::Blank | LineKind::Wrapper | LineKind::Empty | LineKind::ExitMarker
        )
    }
}

/// The wrapper's exit line as the model writes it, in each text variant (a rewrite changes the
/// exit code and the cap, and keeps the length): a cap is recorded, so that every read of it
/// is held to the note on the cap, which says one in KiB and one in MiB (976.6 KiB, 2.6 MiB),
/// each rounded to a tenth.
pub const EXIT_LINES: [&str; 2] = [
    "__BGRUN_EXIT__=0 truncated=1000000",
    "__BGRUN_EXIT__=1 truncated=2726298",
];

/// A step of the model: what the agent or the job does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Action {
    /// The job writes a complete line.
    Append(LineKind),
    /// The job writes the first part of a line, without its newline.
    WritePartial,
    /// The job finishes the partial line — also after it exited (output flushed late).
    CompletePartial,
    /// The job writes more of its partial line, without a newline, as a progress line grows:
    /// [`PARTIAL_GROWTH`] after its first part, once.
    GrowPartial,
    /// A condensed read with this `lines` (wider than before is the widening).
    Read(u8),
    /// A raw read with this `lines`.
    RawRead(u8),
    /// A condensed read with a `lines` that is not a whole number of at least 1, which the
    /// contract reads otherwise than plainly (floored, raised to 1, the default, every line).
    ReadOddly(Lines),
    /// A condensed read of 1 line naming the job by another id than the model's
    /// ([`JOB_ID`](crate::JOB_ID)): judged by the contract's id rule alone, refused or
    /// answered, and made on a copy of the engine's bookmarks, which a refusal must leave as
    /// they were and an answer (a read of another job) leaves to that job.
    ReadAs(OtherId),
    /// A condensed read of 1 line without `peek`, while the caller says the job runs, passing
    /// this elapsed time: pi-bgrun 0.8.0's gate holds it back, and the reply is judged by the
    /// gate's rule alone ([`bgtail::judge::judge_gated`]): the state line with the elapsed
    /// seconds, nothing of the log, the bookmark left alone.
    GatedRead(Elapsed),
    /// The agent passes this `bytes` view from now on (`None`: the default).
    SetView(Option<Bytes>),
    /// The log is cut to its first half (a new generation).
    Truncate,
    /// A condensed read with this `lines` during which the log is cut to its first half, as
    /// by [`Action::Truncate`]: the read measures the log before the cut and finds fewer bytes
    /// when it reads them. Counted with the reads and with the resets; judged as a read made
    /// after the cut, and its reply and the engine's bookmarks held to that read's
    /// (`model/src/race.rs`).
    ReadDuringCut(u8),
    /// The log is rewritten in place with other bytes of the same length.
    Rewrite,
    /// The job rewrites its last complete line in place: one letter changes, the size does
    /// not. Offered, as every change, only where the contract promises to see it (see
    /// [`crate::scope`]).
    RewriteLast,
    /// The job redraws its partial line in place to the same length, as a progress line
    /// does.
    RewritePartial,
    /// The caller learns that the job exited: its trailing line, if any, is complete from now
    /// on.
    Finish,
    /// The job exits and the wrapper writes its marker, `\n` then an exit line
    /// ([`EXIT_LINES`]) and `\n`: the
    /// newline ends a partial line as it stands. The caller still says the job runs until
    /// [`Action::Finish`]; the job writes nothing more.
    WriteExitMarker,
}

impl Action {
    /// Whether the action resets the log (cuts it or changes bytes in place): the model
    /// counts these together.
    pub fn is_reset(&self) -> bool {
        matches!(
            self,
            Action::Truncate
                | Action::ReadDuringCut(_)
                | Action::Rewrite
                | Action::RewriteLast
                | Action::RewritePartial
        )
    }

    /// The `lines` and whether it is raw, for a read of the job by the model's own id and
    /// with `peek` (the reads the judge holds to the read rule); none for any other action.
    pub fn own_read(&self) -> Option<(f64, bool)> {
        match *self {
            Action::Read(n) => Some((f64::from(n), false)),
            Action::RawRead(n) => Some((f64::from(n), true)),
            Action::ReadOddly(lines) => Some((lines.value(), false)),
            _ => None,
        }
    }

    /// The line a rewrite in place changes, for the two that change one line.
    pub fn in_place(&self) -> Option<InPlace> {
        match self {
            Action::RewriteLast => Some(InPlace::LastLine),
            Action::RewritePartial => Some(InPlace::PartialLine),
            _ => None,
        }
    }
}

/// The bytes a read saw, written as text by `Debug` (the model's logs are UTF-8): the
/// inductive check compares successors by their `Debug` text, and a list of numbers would
/// cost it more than the reads.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct SeenBytes(pub Vec<u8>);

impl std::fmt::Debug for SeenBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "b{:?}", String::from_utf8_lossy(&self.0))
    }
}

impl std::ops::Deref for SeenBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// A rewrite in place of bytes the last read saw, behind the log's head: the regimes the
/// `sometimes` properties of in-place rewrites look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum InPlace {
    /// The last complete line, inside the bytes before where the last read's complete lines
    /// ended.
    LastLine,
    /// The partial line the last read showed.
    PartialLine,
}

/// How a read during a cut went: what the race's properties read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Race {
    /// Whether the engine asked for bytes past the cut log's end: the race reached a read.
    pub came_short: bool,
    /// Whether its reply, or the state after it, differs from those of the same read made
    /// after the cut.
    pub apart: bool,
}

/// The model's state: the log, what the judge knows was delivered, the engine's bookmarks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TailState<S> {
    /// Complete lines, oldest first.
    pub lines: Vec<LineKind>,
    /// Whether a partial line (the start of line `lines.len()`) ends the log.
    pub partial: bool,
    /// Flipped by a rewrite: every line's text changes, its length does not.
    pub variant: bool,
    /// Lines rewritten in place on their own, one bit per index (the partial line's too; a
    /// model's log holds at most `MAX_LINES`, 64, lines):
    /// their text is the other variant's. A bit is clear wherever no line is (a truncation
    /// clears the bits of the lines it removes), so that an appended line starts unedited.
    pub edited: u64,
    /// Partial lines that grew ([`Action::GrowPartial`]) before a newline ended them, one bit
    /// per index as `edited` (the partial line's too), cleared likewise where no line is:
    /// their text carries [`PARTIAL_GROWTH`] after the partial text.
    pub grown: u64,
    /// A rewrite in place behind the head of bytes the last read saw, not read since.
    pub unread_rewrite: Option<InPlace>,
    /// The log's bytes as the last read saw them (empty before any read): what the model's
    /// changes are held to (see [`crate::scope`]). The judge's record of the last read
    /// fingerprints the same bytes, so it tells no more states apart.
    pub seen: SeenBytes,
    pub running: bool,
    /// The `bytes` the agent passes.
    pub view: Option<Bytes>,
    /// Reads made so far; always 0 under [`Times::Any`](crate::Times::Any), where nothing counts them.
    pub reads: u8,
    /// Truncations and rewrites made so far; likewise.
    pub resets: u8,
    /// The engine's bookmarks.
    pub engine: S,
    /// What the agent was delivered, as the judge read it from the replies.
    pub judge: Judge,
    /// The verdict's flags on the last reply (cleared by every other action).
    pub last: Flags,
    /// How the last action's read during a cut went, when it was one (cleared by every other
    /// action): what the race's properties read.
    pub race: Option<Race>,
}

/// The bytes of the log a state describes, and where each line starts.
pub struct Rendered {
    pub bytes: Vec<u8>,
    /// Start offset of every line (complete ones, then the partial one), by index.
    pub starts: Vec<u64>,
}

/// A line's text. Unique per index for short and long lines; a rewrite (`variant`) changes
/// one character and keeps the length.
pub fn line_text(index: usize, kind: LineKind, variant: bool, limits: &Limits) -> String {
    let mut text = Vec::new();
    push_line_text(&mut text, index, kind, variant, limits);
    String::from_utf8(text).expect("line texts are UTF-8")
}

/// Appends [`line_text`] to `bytes`: the log is rebuilt on every transition, so without a
/// `String` for each line.
pub fn push_line_text(
    bytes: &mut Vec<u8>,
    index: usize,
    kind: LineKind,
    variant: bool,
    limits: &Limits,
) {
    push_line(bytes, index, kind, variant, false, limits);
}

/// [`push_line_text`], the partial part of a completed or ended line `grown` or not.
fn push_line(
    bytes: &mut Vec<u8>,
    index: usize,
    kind: LineKind,
    variant: bool,
    grown: bool,
    limits: &Limits,
) {
    let c = if variant { b't' } else { b's' };
    match kind {
        LineKind::Short => push_name(bytes, c, index),
        LineKind::Long => {
            push_name(bytes, c, index);
            bytes.resize(bytes.len() + limits.line_cap + 2, b'x');
        }
        LineKind::Repeated => bytes.extend_from_slice(if variant { b"Again" } else { b"again" }),
        LineKind::Blank => bytes.extend_from_slice(b"  "),
        LineKind::Wrapper => {
            bytes.extend_from_slice(if variant { b"__BGRUN_Y" } else { b"__BGRUN_X" })
        }
        LineKind::Completed => {
            push_partial_text(bytes, index, variant, grown);
            bytes.extend_from_slice(PARTIAL_REST.as_bytes());
        }
        LineKind::Ended => push_partial_text(bytes, index, variant, grown),
        LineKind::Empty => {}
        LineKind::ExitMarker => {
            bytes.extend_from_slice(EXIT_LINES[usize::from(variant)].as_bytes())
        }
        LineKind::Styled => push_styled(bytes, c, index, limits),
        LineKind::Astral | LineKind::AstralApart => {
            // The name stays: a rewrite changes the character past U+FFFF alone.
            let start = bytes.len();
            push_name(bytes, b's', index);
            let named = bytes.len() - start;
            bytes.resize(start + limits.line_cap.saturating_sub(1).max(named), b'z');
            let last = match (variant, kind) {
                (false, _) => ASTRAL,
                (true, LineKind::Astral) => ASTRAL_SIBLING,
                (true, _) => ASTRAL_APART,
            };
            bytes.extend_from_slice(last.as_bytes());
        }
    }
}

/// The character a [`LineKind::Astral`] line ends in: two UTF-16 units, `D83D DE00`.
pub const ASTRAL: &str = "\u{1F600}";

/// The character a rewrite gives an [`LineKind::Astral`] line: the same high surrogate as
/// [`ASTRAL`], another low one (`D83D DE01`).
pub const ASTRAL_SIBLING: &str = "\u{1F601}";

/// The character a rewrite gives an [`LineKind::AstralApart`] line: another high surrogate
/// than [`ASTRAL`]'s (`D835 DCB3`).
pub const ASTRAL_APART: &str = "\u{1D4B3}";

/// A [`LineKind::Styled`] line: `ESC[1m`, its name padded with `y` so that with the NUL
/// (printed `␀`, one unit) it is `line_cap` units long, the NUL, then an OSC window title.
fn push_styled(bytes: &mut Vec<u8>, letter: u8, index: usize, limits: &Limits) {
    bytes.extend_from_slice(b"\x1b[1m");
    let start = bytes.len();
    push_name(bytes, letter, index);
    let named = bytes.len() - start;
    let padded = start + limits.line_cap.saturating_sub(1).max(named);
    bytes.resize(padded, b'y');
    bytes.extend_from_slice(b"\0\x1b]0;t\x07");
}

/// The first part of the partial line at `index`; completing it appends `PARTIAL_REST`.
pub fn partial_text(index: usize, variant: bool) -> String {
    let mut text = Vec::new();
    push_partial_text(&mut text, index, variant, false);
    String::from_utf8(text).expect("partial texts are ASCII")
}

/// Appends [`partial_text`] to `bytes`, and [`PARTIAL_GROWTH`] after it where it `grown`.
fn push_partial_text(bytes: &mut Vec<u8>, index: usize, variant: bool, grown: bool) {
    push_name(bytes, if variant { b'q' } else { b'p' }, index);
    if grown {
        bytes.extend_from_slice(PARTIAL_GROWTH.as_bytes());
    }
}

/// What a partial line that grows gains, once: a progress line's dots.
pub const PARTIAL_GROWTH: &str = "...";

/// Appends a letter and `index` in decimal (`s12`), without the formatting machinery: the
/// model writes every line of its log on every transition.
fn push_name(bytes: &mut Vec<u8>, letter: u8, index: usize) {
    bytes.push(letter);
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    bytes.extend_from_slice(&digits[at..]);
}
pub const PARTIAL_REST: &str = "-done";

impl<S> TailState<S> {
    /// An empty log of a running job, read by nobody yet.
    pub fn empty(engine: S) -> Self {
        TailState {
            lines: Vec::new(),
            partial: false,
            variant: false,
            edited: 0,
            grown: 0,
            unread_rewrite: None,
            seen: SeenBytes::default(),
            running: true,
            view: None,
            reads: 0,
            resets: 0,
            engine,
            judge: Judge::default(),
            last: Flags::default(),
            race: None,
        }
    }

    /// What an action does to the log and to the agent's settings: everything but a read.
    pub fn apply_to_log(&mut self, action: &Action) {
        match action {
            Action::Append(kind) => self.lines.push(*kind),
            Action::WritePartial => self.partial = true,
            Action::CompletePartial => {
                // The completed line keeps the partial line's start; its text grows.
                self.partial = false;
                self.lines.push(LineKind::Completed);
            }
            Action::SetView(v) => self.view = *v,
            // A read during a cut is the cut, here: the read is the model's to make.
            Action::Truncate | Action::ReadDuringCut(_) => {
                self.lines.truncate(self.lines.len() / 2);
                self.partial = false;
                let kept = 1u64
                    .checked_shl(self.lines.len() as u32)
                    .map_or(u64::MAX, |bit| bit - 1);
                self.edited &= kept;
                self.grown &= kept;
            }
            Action::Rewrite => self.variant = !self.variant,
            Action::RewriteLast => self.edited ^= 1 << (self.lines.len() - 1),
            Action::RewritePartial => self.edited ^= 1 << self.lines.len(),
            Action::GrowPartial => self.grown |= 1 << self.lines.len(),
            Action::Finish => self.running = false,
            Action::WriteExitMarker => {
                let newline_ends = if self.partial {
                    LineKind::Ended
                } else {
                    LineKind::Empty
                };
                self.partial = false;
                self.lines.extend([newline_ends, LineKind::ExitMarker]);
            }
            Action::Read(_)
            | Action::RawRead(_)
            | Action::ReadOddly(_)
            | Action::ReadAs(_)
            | Action::GatedRead(_) => {}
        }
    }

    /// The log (and the agent's settings) after `action`, without the engine, the judge or
    /// the counters: what [`crate::scope`] holds a change to before the model makes it.
    pub fn log_after(&self, action: &Action) -> TailState<()> {
        let mut s = TailState {
            lines: self.lines.clone(),
            partial: self.partial,
            variant: self.variant,
            edited: self.edited,
            grown: self.grown,
            running: self.running,
            view: self.view,
            ..TailState::empty(())
        };
        s.apply_to_log(action);
        s
    }

    /// The request a read with `lines` makes from this state: the agent's view, and the job
    /// running as far as the caller knows (the model always peeks).
    pub fn request(&self, lines: f64, raw: bool) -> bgtail::Request {
        bgtail::Request {
            lines: Some(lines),
            raw,
            bytes: self.view.map(Bytes::value),
            peek: true,
            running: self.running,
            elapsed_secs: None,
        }
    }

    /// Whether the job may still write: it runs, as far as the caller knows, and the wrapper
    /// has not written its exit marker.
    pub fn job_writes(&self) -> bool {
        self.running && self.lines.last() != Some(&LineKind::ExitMarker)
    }

    /// Whether the partial part of line `index` grew before a newline ended it.
    pub fn grew(&self, index: usize) -> bool {
        self.grown.checked_shr(index as u32).unwrap_or(0) & 1 == 1
    }

    /// The text variant of line `index`: the log's, flipped where the line was rewritten in
    /// place on its own.
    pub fn variant_of(&self, index: usize) -> bool {
        self.variant ^ (self.edited.checked_shr(index as u32).unwrap_or(0) & 1 == 1)
    }

    pub fn render(&self, limits: &Limits) -> Rendered {
        let mut bytes = Vec::new();
        let mut starts = Vec::with_capacity(self.lines.len() + 1);
        for (i, &kind) in self.lines.iter().enumerate() {
            starts.push(bytes.len() as u64);
            push_line(
                &mut bytes,
                i,
                kind,
                self.variant_of(i),
                self.grew(i),
                limits,
            );
            bytes.push(b'\n');
        }
        if self.partial {
            starts.push(bytes.len() as u64);
            let i = self.lines.len();
            push_partial_text(&mut bytes, i, self.variant_of(i), self.grew(i));
        }
        Rendered { bytes, starts }
    }
}

#[cfg(test)]
mod line_text_tests {
    use super::*;

    #[test]
    fn lines_are_named_by_their_kind_variant_and_index() {
        let limits = Limits::default();
        assert_eq!(line_text(0, LineKind::Short, false, &limits), "s0");
        assert_eq!(line_text(12, LineKind::Short, true, &limits), "t12");
        assert_eq!(
            line_text(usize::MAX, LineKind::Short, false, &limits),
            format!("s{}", usize::MAX)
        );
        let long = line_text(7, LineKind::Long, false, &limits);
        assert_eq!(long, format!("s7{}", "x".repeat(limits.line_cap + 2)));
        assert_eq!(partial_text(30, false), "p30");
        assert_eq!(partial_text(4, true), "q4");
    }
}
