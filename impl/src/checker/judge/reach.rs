//! Lines no request can deliver any more, and the counts a Codex reply states.
//!
//! A line the reader never delivered is `Lost` only on a read whose window holds it. Two kinds
//! of line never sit in any window the reader looks at again: one a drain has read past (the
//! next poll starts after it), and one longer than the largest view the reader accepts (its
//! start is always cut off, as Gemini CLI's 64 KiB tail cuts a 70 KB line). Each is named once,
//! at the read that first finds it complete.

use super::truth::{content_lines_of, Truth};
use super::verdict::{Anomaly, AnomalyKind, LineRef, Verdict};
use super::{Judge, ReadInput, Rules};
use crate::formats::codex_reply::CodexReply;

impl Judge {
    /// Names each line completed since the last read that no later request can deliver:
    /// `carried` are the lines of `truth` this reply delivered.
    pub(super) fn check_reach(
        &self,
        rules: &Rules,
        truth: &Truth,
        input: &ReadInput<'_>,
        carried: &[usize],
        v: &mut Verdict,
    ) {
        let settled = self.last.map_or(0, |l| l.settled);
        if rules.drain {
            let passed: Vec<usize> = (0..truth.complete)
                .filter(|&i| {
                    let span = truth.spans[i];
                    span.1 > settled
                        && !self.was_delivered(span)
                        && carried.binary_search(&i).is_err()
                })
                .collect();
            if let Some(&first) = passed.first() {
                v.hidden.extend(passed.iter().map(|&i| truth.spans[i]));
                v.push(out_of_reach(
                    Some(LineRef::of(truth, first)),
                    "every line the poll read past delivered whole (the next poll starts after them)",
                    passed.len(),
                ));
            }
        }
        if input.log.len() as u64 > rules.largest_view {
            self.check_longer_than_view(rules, input, settled, v);
        }
    }

    /// Lines longer than the largest view: their start is cut off in every view.
    fn check_longer_than_view(
        &self,
        rules: &Rules,
        input: &ReadInput<'_>,
        settled: u64,
        v: &mut Verdict,
    ) {
        let log = input.log;
        let unfinished =
            |end: u64| input.request.running && end as usize == log.len() && !log.ends_with(b"\n");
        let long: Vec<(usize, (u64, u64))> = content_lines_of(log)
            .into_iter()
            .enumerate()
            .filter(|&(_, (s, e))| e > settled && e - s > rules.largest_view && !unfinished(e))
            .collect();
        let Some(&(i, (offset, end))) = long.first() else {
            return;
        };
        v.hidden.extend(long.iter().map(|&(_, span)| span));
        let line = LineRef {
            number: i as u64 + 1,
            offset,
            end,
            text: None,
        };
        let expected = format!(
            "lines no longer than the largest view ({} bytes): this one is {} bytes",
            rules.largest_view,
            end - offset
        );
        v.push(out_of_reach(Some(line), expected, long.len()));
    }
}

fn out_of_reach(line: Option<LineRef>, expected: impl Into<String>, lines: usize) -> Anomaly {
    let said = if lines == 1 {
        "nothing: no request the reader accepts can deliver this line now".to_string()
    } else {
        format!("nothing: no request the reader accepts can deliver these {lines} lines now")
    };
    Anomaly::new(AnomalyKind::OutOfReach, line, expected, said)
}

/// The counts a Codex reply states, and the envelope's lines that are not Codex's:
/// `Original token count` is ⌈bytes drained / 4⌉ (Codex's estimate, dropped bytes included),
/// and `Total output lines` the lines of the text drained, as Rust's `str::lines` counts them.
pub(super) fn check_codex(reply: &CodexReply<'_>, log: &[u8], from: u64, v: &mut Verdict) {
    for line in &reply.foreign {
        v.push(Anomaly::new(
            AnomalyKind::UntrueLine,
            None,
            "a line of Codex's envelope (Chunk ID, Wall time, Process …, Original token count, Output:)",
            format!("{line:?}"),
        ));
    }
    let drained = &log[(from as usize).min(log.len())..];
    let tokens = (drained.len() as u64).div_ceil(4);
    if let Some(said) = reply.token_count.filter(|&n| n != tokens) {
        v.push(Anomaly::new(
            AnomalyKind::DishonestCount,
            None,
            format!("the tokens drained: {tokens} ({} bytes)", drained.len()),
            format!("{said}"),
        ));
    }
    let lines = String::from_utf8_lossy(drained).lines().count() as u64;
    if let Some(said) = reply.total_lines.filter(|&n| n != lines) {
        v.push(Anomaly::new(
            AnomalyKind::DishonestCount,
            None,
            format!("the lines drained: {lines}"),
            format!("{said}"),
        ));
    }
}
