//! Deliberately broken exact engines, for `bgtail serve --break KIND`: the mutation check of
//! the one judge. Each wraps the real exact engine and breaks one thing from outside it — its
//! text, its claims, its limits or its bookmark between reads — the way a defect of that kind
//! would show, so that a test can ask that `replay` alone and `check` each catch it and name
//! the right anomaly. Test equipment: nothing else serves these.

use bgtail::exact::fnv1a;
use bgtail::exact::BytePrint;
use bgtail::source::{read_span, LogSource};
use bgtail::{
    Engine, ExactEngine, ExactState, Job, Limits, Rejected, Reply, Request, ResetReason, ShownLine,
};

/// What is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Break {
    /// Claims a line just above the ones it printed, which it did not print (a lying engine).
    ClaimsUnprinted,
    /// Drops the newest line from the text, still claiming it.
    HidesNewest,
    /// States one more line left out by the budget than it left out.
    LeftOutCount,
    /// Keeps one unit more than the budget it declares.
    BudgetOffByOne,
    /// Moves the new-line boundary one byte on after each read that left a partial line: the
    /// line, once complete, counts as earlier.
    SettledOffByOne,
    /// Forgets the newest coverage range instead of the oldest on overflow, and says nothing.
    ForgetsNewest,
    /// Ignores a shrink or a changed head: the bookmark is made to match the log before each
    /// read, so no new generation is ever found.
    IgnoresShrink,
    /// Forgets the unfinished last line's fingerprint after each read: a progress line redrawn
    /// in place behind an unchanged head and settled end goes unsaid.
    ForgetsPartialPrint,
    /// Forgets the fingerprint of the bytes before the settled end after each read: a last
    /// line rewritten in place behind an unchanged head goes unsaid.
    ForgetsSettledPrint,
    /// Closes every gap in coverage after each read, as if the lines a budget left out had
    /// been shown: a wider read then leaves them out for good.
    CoversLeftOut,
    /// Gives a reset the wrong reason: a shrink where the same file changed without shrinking,
    /// and a change in place where it shrank.
    UntrueReason,
    /// Says one line more in `details.linesShown` than the text carries.
    UntrueDetails,
    /// Says a count of nothing: a delta's header adds `0 earlier lines not shown before`.
    SaysZero,
}

/// The exact text's words for a shrink, and the words `UntrueReason` says a shrink with.
const SHRANK: &str = "the log shrank since the last read";
const NOT_SHRANK: &str =
    "the log's first bytes changed (it was rewritten, or cut and written again)";

/// The exact text's reasons for a new generation of the same file.
const SAME_FILE_REASONS: [&str; 4] = [
    SHRANK,
    NOT_SHRANK,
    "the bytes before the last read's end changed (the log was cut and regrown, or rewritten)",
    "the unfinished last line the last read saw changed (redrawn in place, or the log was cut and regrown)",
];

/// The exact engine with one thing broken.
#[derive(Clone, Debug)]
pub struct Broken {
    inner: ExactEngine,
    /// The limits it declares (the inner engine's may differ by the break).
    declared: Limits,
    what: Break,
}

impl Broken {
    pub fn new(limits: Limits, what: Break) -> Self {
        let mut inner = limits.clone();
        match what {
            Break::BudgetOffByOne => inner.text_budget += 1,
            Break::ForgetsNewest => inner.coverage_ranges_max += 1,
            _ => {}
        }
        Broken {
            inner: ExactEngine::new(inner),
            declared: limits,
            what,
        }
    }

    /// Before a read: the bookmark made to match the log (`IgnoresShrink`).
    fn hide_generation_change(&self, state: &mut ExactState, log: &dyn LogSource) {
        let Ok(stat) = log.stat() else { return };
        let mut read = 0;
        for (_, b) in &mut state.bookmarks {
            let head_len = b.head.len.min(stat.size);
            let Ok(head) = read_span(log, 0, head_len, &mut read) else {
                continue;
            };
            b.head = BytePrint {
                offset: 0,
                len: head_len,
                hash: fnv1a(&head),
            };
            b.identity = stat.identity;
            b.settled_print = None;
            b.size = b.size.min(stat.size);
            b.settled_end = b.settled_end.min(stat.size);
        }
    }

    /// After a read: the bookmark broken as the kind says.
    fn break_bookmark(&self, state: &mut ExactState) {
        for (_, b) in &mut state.bookmarks {
            match self.what {
                // Inside the log, as the engine's invariants need (past its end it would
                // underflow): the boundary is off, the bookmark still well formed.
                Break::SettledOffByOne if b.settled_end > 0 && b.settled_end < b.size => {
                    b.settled_end += 1
                }
                Break::ForgetsPartialPrint => b.partial_print = None,
                Break::ForgetsSettledPrint => b.settled_print = None,
                Break::CoversLeftOut => {
                    let ranges = b.coverage.ranges().to_vec();
                    if let (Some(first), Some(last)) = (ranges.first(), ranges.last()) {
                        b.coverage.rebuild_from(0, &[(first.0, last.1)]);
                    }
                }
                Break::ForgetsNewest => {
                    let ranges = b.coverage.ranges().to_vec();
                    if ranges.len() > self.declared.coverage_ranges_max {
                        let mut coverage = bgtail::exact::Coverage::default();
                        coverage.rebuild_from(0, &ranges[..ranges.len() - 1]);
                        b.coverage = coverage;
                    }
                }
                _ => {}
            }
        }
    }
}

/// The content line ending where `offset` begins, as `(start, end)`, if there is one.
fn line_above(log: &dyn LogSource, offset: u64) -> Option<(u64, u64)> {
    let mut read = 0;
    let before = read_span(log, 0, offset, &mut read).ok()?;
    let body = before.strip_suffix(b"\n")?;
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = String::from_utf8_lossy(&body[start..]);
    bgtail::view::is_content(text.as_bytes()).then_some((start as u64, offset))
}

impl Engine for Broken {
    type State = ExactState;

    fn name(&self) -> &'static str {
        "exact"
    }

    fn limits(&self) -> &Limits {
        &self.declared
    }

    fn text_format(&self) -> bgtail::condense::TextFormat {
        self.inner.text_format()
    }

    fn read(
        &self,
        state: &mut ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        if self.what == Break::IgnoresShrink {
            self.hide_generation_change(state, log);
        }
        let mut reply = self.inner.read(state, job, log, request)?;
        self.break_bookmark(state);
        match self.what {
            Break::ClaimsUnprinted => {
                let first = reply.shown.first().map(|s| (s.offset, s.generation));
                if let Some((offset, generation)) = first {
                    if let Some((start, end)) = line_above(log, offset) {
                        reply.shown.insert(
                            0,
                            ShownLine {
                                generation,
                                offset: start,
                                end,
                                view_line: None,
                                partial: false,
                            },
                        );
                    }
                }
            }
            Break::HidesNewest if !reply.body.is_empty() => {
                let body = &reply.text[reply.body.clone()];
                let cut = body.rfind('\n').map_or(0, |i| i);
                let hidden = reply.body.start + cut..reply.body.end;
                reply.text.replace_range(hidden, "");
            }
            Break::LeftOutCount => {
                if let Some(at) = reply.text.find(" older line") {
                    let digits = reply.text[..at]
                        .rfind(|c: char| !c.is_ascii_digit())
                        .map_or(0, |i| i + 1);
                    if let Ok(n) = reply.text[digits..at].parse::<u64>() {
                        reply.text.replace_range(digits..at, &(n + 1).to_string());
                    }
                }
            }
            Break::UntrueReason => untrue_reason(&mut reply),
            Break::UntrueDetails => {
                if let Some(n) = reply.details.get("linesShown").and_then(|v| v.as_u64()) {
                    reply.details.insert("linesShown", n + 1);
                }
            }
            Break::SaysZero => says_zero(&mut reply),
            _ => {}
        }
        Ok(reply)
    }
}

/// The reset's reason swapped: a shrink said as a change in place, any other change of the
/// same file said as a shrink. The reason sits in the header, before the body, which moves.
fn untrue_reason(reply: &mut Reply) {
    let shrank = match reply.reset {
        Some(ResetReason::Shrank) => true,
        Some(
            ResetReason::Rewritten | ResetReason::RegrownPastCut | ResetReason::PartialRewritten,
        ) => false,
        _ => return,
    };
    let found = SAME_FILE_REASONS
        .iter()
        .find_map(|words| reply.text.find(words).map(|at| at..at + words.len()));
    let Some(said) = found else { return };
    let untrue = if shrank { NOT_SHRANK } else { SHRANK };
    reply.text.replace_range(said.clone(), untrue);
    if said.start < reply.body.start {
        let moved = |i: usize| i + untrue.len() - said.len();
        reply.body = moved(reply.body.start)..moved(reply.body.end);
    }
}

/// A delta's header that says nothing of earlier lines given `0 earlier lines not shown
/// before`, before its ` — `. The body, after the header, moves.
fn says_zero(reply: &mut Reply) {
    const ZERO: &str = ", 0 earlier lines not shown before";
    let header = reply.text.lines().next().unwrap_or_default();
    let delta = header.starts_with('+') && !header.contains(" earlier line");
    let Some(at) = header.find(" — ").filter(|_| delta) else {
        return;
    };
    reply.text.insert_str(at, ZERO);
    if at < reply.body.start {
        reply.body = reply.body.start + ZERO.len()..reply.body.end + ZERO.len();
    }
}
