//! The interface both engines share: a request in, a reply out, the bookmarks as a plain value.

use crate::source::{LogSource, SourceError};
use crate::upstream::details::Details;
use crate::upstream::limits::Limits;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

/// The job a read is for: its id and the path the id resolves to.
///
/// Resolving an id to a path (job records, a jobs directory) is the caller's business; the
/// engines only compare the path with the one their bookmark saw.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The job's id, as the agent names it (the bookmark's key).
    pub id: &'a str,
    /// The log's path that the id resolves to now.
    pub path: &'a str,
}

/// One read, with upstream's parameters as the tool receives them (JSON numbers, so `f64`:
/// NaN and infinities are possible and each engine says what it does with them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// How many lines to show; absent means the default (40).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::upstream::js::js_number"
    )]
    pub lines: Option<f64>,
    /// Skip condensing and return the verbatim window.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub raw: bool,
    /// The view: how many bytes at the end of the log are searched.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::upstream::js::js_number"
    )]
    pub bytes: Option<f64>,
    /// Read the log even though the job is still running (0.8.0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub peek: bool,
    /// Whether the job is still running: from the job's record, not from the request.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub running: bool,
    /// Seconds since the job started, for the running-job state line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_secs: Option<f64>,
}

impl Request {
    /// A condensed read of `n` lines, every other parameter absent.
    pub fn lines(n: u64) -> Self {
        Request {
            lines: Some(n as f64),
            ..Request::default()
        }
    }

    /// The same read, verbatim (`raw: true`).
    pub fn raw(mut self) -> Self {
        self.raw = true;
        self
    }

    /// The same read over a view of the last `bytes` bytes.
    pub fn bytes(mut self, bytes: u64) -> Self {
        self.bytes = Some(bytes as f64);
        self
    }

    /// The same read, of a job that is (or is not) still running.
    pub fn running(mut self, running: bool) -> Self {
        self.running = running;
        self
    }
}

/// What kind of read a reply is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReadKind {
    /// The first read of an id, or the first of a new generation of its log.
    First,
    /// A verbatim read (`raw: true`).
    Raw,
    /// New lines (and, for the exact engine, earlier lines not shown before).
    Delta,
    /// Upstream D2: more new lines than `lines`, so only the newest were shown.
    DeltaClipped,
    /// Upstream N2: no new lines, earlier lines of a wider window.
    Widened,
    /// Nothing to show.
    NothingNew,
    /// The job is still running and `peek` was not passed: no log content (0.8.0).
    Gated,
    /// The log could not be read.
    Error,
}

/// Why a read started over instead of continuing from the bookmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ResetReason {
    /// The id resolves to another path than the bookmark's.
    PathChanged,
    /// The log is smaller than at the last read (fewer bytes, or for upstream fewer lines).
    Shrank,
    /// Upstream: the first content line changed.
    Replaced,
    /// Upstream: the `bytes` view changed.
    WindowChanged,
    /// Another file now sits at the path (device and inode differ).
    FileReplaced,
    /// The bytes at the head of the log differ from those the bookmark saw: rewritten, or cut
    /// and written again.
    Rewritten,
    /// The bytes just before where the last read ended differ, behind an unchanged head: the
    /// log was cut and has grown past its old size again (a job restarted into the same log),
    /// or those bytes were rewritten in place.
    RegrownPastCut,
    /// The end of the unfinished last line the last read found (shown or not) differs,
    /// behind an unchanged head and settled end: redrawn in place (a progress line), or the
    /// log cut there and regrown.
    PartialRewritten,
}

/// A content line a reply carries, identified so that it can be checked against the log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShownLine {
    /// The engine's generation of the log the line belongs to.
    pub generation: u64,
    /// Byte offset where the line starts.
    pub offset: u64,
    /// One past its last byte (after the `\n`, or the log's end for a partial line).
    pub end: u64,
    /// Its 1-based position among the view's content lines; `None` when the engine has not
    /// counted the view's lines above it (the exact engine counts lazily: see its docs).
    pub view_line: Option<u64>,
    /// Whether it was still being written (shown, never recorded as covered).
    pub partial: bool,
}

/// The numbers behind a reply's text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Counts {
    /// Content lines in the view; `None` when the engine has not counted them all (the exact
    /// engine counts the view above what it reads only when a reply needs the number).
    pub total_lines: Option<u64>,
    /// Content lines appended since the last read (upstream's "fresh").
    pub new_lines: u64,
    /// Lines the read selected before the budget (upstream's `linesShown`).
    pub selected: u64,
    /// Complete content lines the text carries.
    pub shown: u64,
    /// Of `shown`, lines appended since the last read.
    pub new_shown: u64,
    /// Of `shown`, lines that were already in the log at the last read.
    pub earlier_shown: u64,
    /// Selected lines the budget left out.
    pub left_out: u64,
    /// Content lines above the window that were never shown in this generation; `None` when
    /// not counted, like `total_lines`.
    pub unseen_above: Option<u64>,
    /// Of `unseen_above`, those below (newer than) a shown line: gaps the caller skipped.
    pub skipped_above: u64,
    /// Coverage ranges forgotten because the bookmark was full.
    pub forgotten_ranges: u64,
    /// Whether the text carries a partial line.
    pub partial_shown: bool,
}

/// What a read returns: the agent's text and the facts behind it.
///
/// Built by the engines; an engine outside this crate starts from [`Reply::new`] and sets the
/// fields it knows.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Reply {
    /// Exactly what the agent sees.
    pub text: String,
    /// Where in `text` the log's lines are (the condensed body, or the raw lines); empty when
    /// the reply carries none. The header comes before it, the notes after.
    pub body: std::ops::Range<usize>,
    /// Upstream's `isError`.
    pub is_error: bool,
    /// What kind of read it was.
    pub kind: ReadKind,
    /// Set when the read started over, with the reason.
    pub reset: Option<ResetReason>,
    /// The content lines the text carries, in log order.
    pub shown: Vec<ShownLine>,
    /// The numbers behind the text.
    pub counts: Counts,
    /// Condenser and engine notes, as printed but without the parentheses.
    pub notes: Vec<String>,
    /// Upstream's `details` object, keys in upstream's order.
    pub details: Details,
    /// How many bytes of the log this read read.
    pub bytes_read: u64,
}

impl Reply {
    /// A reply of this text and kind and nothing else known: no body range, no claimed lines,
    /// zero counts, no notes or details, no bytes read; an error exactly when `kind` is
    /// [`ReadKind::Error`].
    pub fn new(text: String, kind: ReadKind) -> Reply {
        Reply {
            text,
            body: 0..0,
            is_error: kind == ReadKind::Error,
            kind,
            reset: None,
            shown: Vec::new(),
            counts: Counts::default(),
            notes: Vec::new(),
            details: Details::new(),
            bytes_read: 0,
        }
    }

    /// The lines the reply claims, as the `(offset, end)` byte ranges the judge checks.
    pub fn shown_ranges(&self) -> Vec<(u64, u64)> {
        self.shown.iter().map(|l| (l.offset, l.end)).collect()
    }
}

/// A request refused before any read: upstream throws these instead of returning a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected(pub String);

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Rejected {}

/// An engine: pure, deterministic, with all of its memory in `State`.
pub trait Engine {
    /// Every bookmark the engine keeps. Small and hashable: the model checker stores it in
    /// every state it visits.
    type State: Clone + Eq + Hash + Debug + Default + Serialize + for<'de> Deserialize<'de>;

    /// `"shipped"` or `"exact"`.
    fn name(&self) -> &'static str;

    /// The limits the engine reads with.
    fn limits(&self) -> &Limits;

    /// How the engine condenses lines (for checkers that look for a line in a reply).
    fn text_format(&self) -> crate::upstream::condense::TextFormat;

    /// Whether [`Reply::shown`] is the engine's claim of what the text carries (both in-crate
    /// engines make one; an engine in another process may not, and then its replies are
    /// judged from their text alone).
    fn reports_shown(&self) -> bool {
        true
    }

    /// Whether [`Reply::kind`] and [`Reply::body`] are the engine's own (both in-crate engines
    /// set them; an engine in another process sends only its text, `details` and ranges, and
    /// the judge then holds only its `details` to the text).
    fn reports_fields(&self) -> bool {
        true
    }

    /// A plain reader's declared treatment of its lines (`plain-1`); `None` for every other
    /// format.
    fn plain(&self) -> Option<&crate::interface::plain::Plain> {
        None
    }

    /// Whether the engine shows a window of the last `lines` lines (both in-crate engines do;
    /// a reader that returns everything new has none, and owes every line of its view).
    fn line_window(&self) -> bool {
        true
    }

    /// Whether the reader drains: each read returns only what the log gained since the
    /// previous one (Codex's polls; neither in-crate engine does).
    fn drains(&self) -> bool {
        false
    }

    /// The largest view (bytes at the log's end) any request the engine accepts reads.
    fn largest_view(&self) -> u64 {
        self.limits().view_max
    }

    /// Performs one read. Same state, same log bytes, same request: same reply and state.
    fn read(
        &self,
        state: &mut Self::State,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected>;
}

/// The keys every read's `details` starts with, in upstream's order (both engines): `id`,
/// `linesShown`, `logPath`, `notFound` (false: the log was read), `condensed`.
pub(crate) fn details_head(job: Job<'_>, lines_shown: u64, condensed: bool) -> Details {
    let mut d = Details::with_capacity(14);
    d.push_new("id", job.id);
    d.push_new("linesShown", lines_shown);
    d.push_new("logPath", job.path);
    d.push_new("notFound", false);
    d.push_new("condensed", condensed);
    d
}

/// The keys every read's `details` ends with: `windowBytes`, and `truncatedAtBytes` when the
/// wrapper's exit marker says the log was truncated.
pub(crate) fn details_tail(d: &mut Details, window: u64, truncated_at: Option<f64>) {
    d.push_new("windowBytes", window);
    if let Some(cap) = truncated_at {
        d.push_new("truncatedAtBytes", crate::upstream::js::json_number(cap));
    }
}

/// Upstream's error result for a log that cannot be read (docs/pi-bgrun-0.7.1.md §6.5).
pub(crate) fn error_reply(job: Job<'_>, error: &SourceError) -> Reply {
    let not_found = matches!(error, SourceError::NotFound);
    let text = if not_found {
        format!(
            "No log found for job {} at {}. bgrun job ids look like `<name>-<epoch>-<pid>`; run `bgstatus` with no id to list this session's jobs.",
            job.id, job.path
        )
    } else {
        format!(
            "Log for job {} at {} exists but could not be read (file may be too large or unreadable)",
            job.id, job.path
        )
    };
    let mut details = Details::with_capacity(3);
    details.push_new("id", job.id);
    details.push_new("logPath", job.path);
    details.push_new("notFound", not_found);
    let mut reply = Reply::new(text, ReadKind::Error);
    reply.details = details;
    reply
}

/// The reply to a gated read (0.8.0): the state line and nothing of the log. The `details`
/// beyond `running: true` are not known; we give the id and path.
pub(crate) fn gated_reply(job: Job<'_>, request: &Request) -> Reply {
    let mut details = Details::with_capacity(3);
    details.push_new("id", job.id);
    details.push_new("logPath", job.path);
    details.push_new("running", true);
    let mut reply = Reply::new(
        crate::upstream::tool::running_state_line(request.elapsed_secs),
        ReadKind::Gated,
    );
    reply.details = details;
    reply
}
