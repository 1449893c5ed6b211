//! The ghost: what the agent was really delivered, taken from each reply and checked against
//! the reply's text, and the verdict of the contract on every reply.
//!
//! The ghost knows the log from the model (line kinds, where each starts), not from the
//! engine: it decides on its own when a new generation began (the log does not continue the
//! bytes the last read saw), which lines a window holds, and which lines a reply carries.

use crate::{line_text, partial_text, LineKind, Rendered};
use bgtail::exact::fnv1a;
use bgtail::js::{truncate_utf16, utf16_len};
use bgtail::{Limits, Reply};

/// What the agent has been delivered in the current generation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ghost {
    /// Length and FNV-1a hash of the log's bytes at the last read (none before the first).
    pub last_read: Option<(u64, u64)>,
    /// Complete lines delivered, by index (bit i: line i).
    pub delivered: u64,
    /// Lines whose partial beginning was delivered, by index.
    pub partial_delivered: u64,
    /// Complete lines the log had at the last read: lines from this index on are new.
    pub settled: u8,
    /// Whether the engine said it forgot coverage in this generation (repeats allowed after).
    pub forgot: bool,
}

/// The contract's verdict on the last reply. All false after any action but a read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The bookmark counts as shown a line the agent was never delivered.
    pub lost: bool,
    /// The window held an undelivered line and the read did not deliver the newest of them.
    pub stalled: bool,
    /// A condensed read delivered again a line still covered.
    pub repeated: bool,
    /// A number, a claim of what was shown, or a reset flag is not the truth.
    pub dishonest: bool,
    /// The condensed body is longer than the budget allows.
    pub over_budget: bool,
    pub earlier_returned: bool,
    pub left_out: bool,
    pub reset_reported: bool,
    pub partial_completed: bool,
    pub forgot: bool,
    pub folded: bool,
}

/// What the ghost needs to know about the log and the request of one read.
pub struct ReadContext<'a> {
    pub limits: &'a Limits,
    pub rendered: &'a Rendered,
    pub lines: &'a [LineKind],
    pub partial: bool,
    pub variant: bool,
    pub running: bool,
    pub view: Option<u16>,
    pub lines_requested: usize,
    pub raw: bool,
}

fn bit(i: usize) -> u64 {
    1 << i
}

impl ReadContext<'_> {
    /// Complete lines: every complete line, plus the trailing one once the job has finished.
    fn complete_count(&self) -> usize {
        self.lines.len() + usize::from(self.partial && !self.running)
    }

    fn kind(&self, i: usize) -> Option<LineKind> {
        self.lines.get(i).copied()
    }

    fn is_content(&self, i: usize) -> bool {
        match self.kind(i) {
            Some(LineKind::Blank | LineKind::Wrapper) => false,
            Some(_) => true,
            None => self.partial && i == self.lines.len(),
        }
    }

    /// One past the last byte of line `i`.
    fn end(&self, i: usize) -> u64 {
        if i + 1 < self.rendered.starts.len() {
            self.rendered.starts[i + 1]
        } else {
            self.rendered.bytes.len() as u64
        }
    }

    /// The text of line `i` as the log holds it.
    fn text(&self, i: usize) -> String {
        match self.kind(i) {
            Some(k) => line_text(i, k, self.variant, self.limits),
            None => partial_text(i, self.variant),
        }
    }

    /// The complete content lines of the view (a line cut by the view's start is out).
    fn view_lines(&self) -> Vec<usize> {
        let size = self.rendered.bytes.len() as u64;
        let window = self.view.map_or(self.limits.view_default, u64::from);
        let origin = size - size.min(window);
        (0..self.complete_count())
            .filter(|&i| self.is_content(i) && self.rendered.starts[i] >= origin)
            .collect()
    }

    /// How line `i` appears in a condensed body (unfolded).
    fn emission(&self, i: usize) -> String {
        let text = self.text(i);
        let units = utf16_len(&text);
        if units > self.limits.line_cap {
            format!(
                "{} …[+{} chars]",
                truncate_utf16(&text, self.limits.line_cap),
                units - self.limits.line_cap
            )
        } else {
            text
        }
    }
}

impl Ghost {
    /// Judges one reply and records what it delivered.
    pub fn judge(
        &mut self,
        ctx: &ReadContext<'_>,
        reply: &Reply,
        believed: &[(u64, u64)],
    ) -> Verdict {
        let mut v = Verdict::default();
        let bytes = &ctx.rendered.bytes;

        // A new generation: the log does not continue the bytes the last read saw.
        let first = self.last_read.is_none();
        let new_generation = self.last_read.is_some_and(|(len, hash)| {
            let len = len as usize;
            bytes.len() < len || fnv1a(&bytes[..len]) != hash
        });
        if new_generation {
            self.delivered = 0;
            self.partial_delivered = 0;
            self.settled = 0;
            self.forgot = false;
        }
        let continuing = !first && !new_generation;
        v.reset_reported = reply.reset.is_some();
        if !first && v.reset_reported != new_generation {
            v.dishonest = true;
        }

        // What the reply claims it carries, mapped to the model's lines.
        let mut claimed: u64 = 0;
        let mut claimed_partial: Option<usize> = None;
        for s in &reply.shown {
            let Ok(i) = ctx.rendered.starts.binary_search(&s.offset) else {
                v.dishonest = true;
                continue;
            };
            if s.end != ctx.end(i) || !ctx.is_content(i) {
                v.dishonest = true;
            } else if s.partial {
                if i < ctx.complete_count() {
                    v.dishonest = true;
                }
                claimed_partial = Some(i);
            } else if i >= ctx.complete_count() {
                v.dishonest = true;
            } else {
                claimed |= bit(i);
            }
        }

        // The claim against the text: each claimed line stands in the body, and each unique
        // line standing in the body is claimed.
        let body = &reply.text[reply.body.clone()];
        let body_lines: Vec<&str> = if body.is_empty() {
            Vec::new()
        } else {
            body.split('\n').collect()
        };
        let shown_as = |i: usize| {
            if ctx.raw {
                ctx.text(i)
            } else {
                ctx.emission(i)
            }
        };
        let mut repeated_claimed = 0usize;
        for i in 0..ctx.rendered.starts.len() {
            let is_claimed = claimed & bit(i) != 0 || claimed_partial == Some(i);
            let repeated_kind = ctx.kind(i) == Some(LineKind::Repeated);
            if repeated_kind {
                repeated_claimed += usize::from(is_claimed);
                continue;
            }
            let stands = body_lines.iter().any(|l| *l == shown_as(i));
            if is_claimed != stands && ctx.is_content(i) {
                v.dishonest = true;
            }
        }
        let repeated_text = line_text(0, LineKind::Repeated, ctx.variant, ctx.limits);
        let repeated_in_body: usize = body_lines
            .iter()
            .map(|l| {
                if *l == repeated_text {
                    1
                } else {
                    l.strip_prefix(&format!("{repeated_text}  [x"))
                        .and_then(|rest| rest.strip_suffix(']'))
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0)
                }
            })
            .sum();
        if repeated_in_body != repeated_claimed {
            v.dishonest = true;
        }
        v.folded = body.contains("  [x");

        // The window, as the contract defines it, and what was undelivered in it.
        let view = ctx.view_lines();
        let window = &view[view.len() - view.len().min(ctx.lines_requested)..];
        let undelivered: Vec<usize> = window
            .iter()
            .copied()
            .filter(|&i| self.delivered & bit(i) == 0)
            .collect();
        let above = &view[..view.len() - window.len()];

        if !ctx.raw {
            if !self.forgot && claimed & self.delivered != 0 {
                v.repeated = true;
            }
            // Progress: the newest undelivered line comes now. Once the bookmark has forgotten
            // coverage it cannot tell forgotten lines from unseen ones, and the guarantee is
            // that the read still delivers something.
            if let Some(&newest) = undelivered.last() {
                let delivers_newest = claimed & bit(newest) != 0;
                if (!self.forgot && !delivers_newest) || (self.forgot && claimed == 0) {
                    v.stalled = true;
                }
            }
            let units = utf16_len(body);
            if units + 1 > ctx.limits.text_budget && !body.is_empty() {
                v.over_budget = true;
            }
            v.earlier_returned = (0..ctx.complete_count()).any(|i| {
                claimed & bit(i) != 0
                    && self.delivered & bit(i) == 0
                    && i < self.settled as usize
                    && continuing
            });
            v.left_out = undelivered.iter().any(|&i| claimed & bit(i) == 0);
        }
        v.partial_completed =
            (0..64).any(|i| claimed & bit(i) != 0 && self.partial_delivered & bit(i) != 0);

        // Honest counts.
        let c = &reply.counts;
        let shown_count = claimed.count_ones() as u64;
        // The engine may leave the view's line count unknown (it counts lazily), but never
        // state a wrong one, and never leave it out of a reply that has nothing new to show.
        let nothing_new = reply.kind == bgtail::ReadKind::NothingNew;
        if c.shown != shown_count
            || c.total_lines.is_some_and(|t| t != view.len() as u64)
            || (c.total_lines.is_none() && nothing_new)
            || c.unseen_above.is_some() != c.total_lines.is_some()
        {
            v.dishonest = true;
        }
        if continuing {
            let new_lines = view.iter().filter(|&&i| i >= self.settled as usize).count() as u64;
            if c.new_lines != new_lines {
                v.dishonest = true;
            }
        }
        let forgot_before = self.forgot;
        v.forgot = c.forgotten_ranges > 0;
        let undelivered_not_shown = undelivered
            .iter()
            .filter(|&&i| claimed & bit(i) == 0)
            .count() as u64;
        if !ctx.raw && !forgot_before && !v.forgot && c.left_out != undelivered_not_shown {
            v.dishonest = true;
        }
        // The numbers the header and notes print (a raw reply has neither).
        if !ctx.raw {
            if c.left_out > 0 && !reply.text.contains(&format!("{} older", c.left_out)) {
                v.dishonest = true;
            }
            if c.new_shown > 0 && !reply.text.contains(&format!("+{}", c.new_shown)) {
                v.dishonest = true;
            }
        }

        // Record what was delivered, then judge the bookmark's belief against it.
        self.delivered |= claimed;
        if let Some(p) = claimed_partial {
            self.partial_delivered |= bit(p);
        }
        self.forgot |= v.forgot;
        self.settled = ctx.complete_count() as u8;
        self.last_read = Some((bytes.len() as u64, fnv1a(bytes)));
        if !forgot_before && !v.forgot && !ctx.raw {
            let unseen_above = above
                .iter()
                .filter(|&&i| self.delivered & bit(i) == 0)
                .count() as u64;
            if c.unseen_above.is_some_and(|u| u != unseen_above) {
                v.dishonest = true;
            }
        }
        for &(start, end) in believed {
            let delivered = ctx
                .rendered
                .starts
                .binary_search(&start)
                .is_ok_and(|i| ctx.end(i) == end && self.delivered & bit(i) != 0);
            if !delivered {
                v.lost = true;
            }
        }
        v
    }
}
