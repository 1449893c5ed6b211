//! The `bgtail-exact-1` text of a reply: the header or the status line, the body, the notes,
//! and the notes about the log itself.

use super::numbers::Numbers;
use super::scan::Scan;
use super::select::Selection;
use super::start::Start;
use crate::interface::api::{Request, ResetReason};
use crate::upstream::js::{format_bytes, group_thousands, plural};
use crate::upstream::limits::Limits;
use std::fmt::Write as _;

/// The text: the header (or the status line when nothing is new) and the body, the notes,
/// then the notes about the log itself (its cap, the view, the line bound). A raw read's reset
/// note goes first among the notes. Returns the text and where its body is.
///
/// Every part is written into the text in place (`push_fmt`): the model renders a reply for
/// every read it explores, and a `format!` per part cost it an allocation and a copy each.
#[allow(clippy::too_many_arguments)]
pub(super) fn compose(
    limits: &Limits,
    request: &Request,
    window: u64,
    scan: &Scan,
    start: &Start,
    sel: &mut Selection,
    n: &Numbers,
    partial_pending: bool,
) -> (String, std::ops::Range<usize>) {
    let reset = start.reset.map(reset_words);
    let body_len = sel.body.as_ref().map_or(0, String::len);
    let mut text = String::with_capacity(body_len + 256);
    let mut body_range = 0..0;
    match (&sel.body, request.raw) {
        (Some(body), true) => {
            if !sel.shown_complete.is_empty() || sel.partial_shown {
                body_range = 0..body.len();
            }
            text.push_str(body);
            if let Some(words) = reset {
                sel.notes
                    .insert(0, format!("{words}, so the bookmark started over"));
            }
        }
        (Some(body), false) => {
            push_prefix(&mut text, reset, n);
            push_header_what(&mut text, sel, n);
            push_fmt(&mut text, format_args!(" — {}\n", n.log_words));
            body_range = text.len()..text.len() + body.len();
            text.push_str(body);
        }
        (None, _) => {
            push_prefix(&mut text, reset, n);
            push_status(&mut text, n, partial_pending);
        }
    }
    if !sel.notes.is_empty() {
        text.push_str("\n\n(");
        push_joined(&mut text, sel.notes.iter().map(String::as_str));
        text.push(')');
    }
    push_log_notes(&mut text, limits, window, scan);
    (text, body_range)
}

/// Appends formatted text (writing into a `String` cannot fail).
fn push_fmt(text: &mut String, args: std::fmt::Arguments<'_>) {
    text.write_fmt(args).expect("a String takes any text");
}

/// Appends the notes joined by `"; "`.
fn push_joined<'a>(text: &mut String, parts: impl Iterator<Item = &'a str>) {
    for (k, part) in parts.enumerate() {
        if k > 0 {
            text.push_str("; ");
        }
        text.push_str(part);
    }
}

/// What a condensed text starts with: why the bookmark starts over, or that this is the first
/// read, or nothing when continuing.
fn push_prefix(text: &mut String, reset: Option<&str>, n: &Numbers) {
    match reset {
        Some(words) => push_fmt(text, format_args!("{words}, so the bookmark starts over: ")),
        None if !n.continuing => text.push_str("first read: "),
        None => {}
    }
}

/// What a condensed header says the text carries: new and earlier lines when continuing, else
/// how many lines; and a partial line. The parts are joined by `", "`.
fn push_header_what(text: &mut String, sel: &Selection, n: &Numbers) {
    let shown = sel.shown_complete.len() as u64;
    let (new_shown, new_lines, earlier) = (n.new_shown, n.new_lines, n.earlier_shown);
    let mut first = true;
    let mut part = |text: &mut String, args: std::fmt::Arguments<'_>| {
        if !std::mem::take(&mut first) {
            text.push_str(", ");
        }
        push_fmt(text, args);
    };
    if n.continuing {
        if new_shown > 0 && new_shown < new_lines {
            part(text, format_args!("+{new_shown} of {new_lines} new lines"));
        } else if new_shown > 0 {
            let noun = plural(new_shown, "line", "lines");
            part(text, format_args!("+{new_shown} new {noun}"));
        }
        if earlier > 0 {
            let noun = plural(earlier, "line", "lines");
            part(
                text,
                format_args!("{earlier} earlier {noun} not shown before"),
            );
        }
    } else if shown > 0 || !sel.partial_shown {
        part(
            text,
            format_args!("{shown} {}", plural(shown, "line", "lines")),
        );
    }
    if sel.partial_shown {
        part(text, format_args!("a partial line"));
    }
}

/// The status of a reply with nothing to show: the log's size, the lines above never shown
/// and the `lines` that reaches them, a partial line still being written.
fn push_status(text: &mut String, n: &Numbers, partial_pending: bool) {
    if n.counted == 0 {
        // A view that starts past the log's first byte may hold no line of a log that has
        // many: the log is empty only when the view is all of it.
        let none = if n.whole_log {
            "empty log"
        } else {
            "nothing in view"
        };
        push_fmt(text, format_args!("({none} — {}", n.log_words));
    } else {
        push_fmt(text, format_args!("(no new lines — {}", n.log_words));
        if let Some(newest) = n.newest_unseen {
            push_fmt(
                text,
                format_args!(
                    "; {} earlier {} never shown — lines: {} reaches the newest",
                    n.unseen_above,
                    plural(n.unseen_above, "line", "lines"),
                    n.counted - newest
                ),
            );
        }
    }
    if partial_pending {
        text.push_str("; the last line is still being written");
    }
    text.push(')');
}

/// The notes about the log itself: the wrapper's cap, a view smaller than the log, the line
/// bound.
fn push_log_notes(text: &mut String, limits: &Limits, window: u64, scan: &Scan) {
    let view = &scan.view;
    if let Some(cap) = scan.truncated_at {
        text.push_str(&crate::upstream::tool::cap_note(cap));
    }
    if scan.origin > 0 {
        push_fmt(text, format_args!(
            "\n\n(view: the last {} of {} — earlier lines are not counted; pass a larger `bytes` (max {}) to reach them)",
            format_bytes(window as f64),
            format_bytes(view.size as f64),
            format_bytes(limits.view_max as f64)
        ));
    }
    if scan.line_bound_hit {
        push_fmt(
            text,
            format_args!(
                "\n\n(only the last {} {} of the view were scanned)",
                group_thousands(limits.scan_lines_max as u64),
                plural(limits.scan_lines_max as u64, "line", "lines")
            ),
        );
    }
}

/// Why the bookmark starts over, in the words the text uses.
fn reset_words(reason: ResetReason) -> &'static str {
    match reason {
        ResetReason::PathChanged => "the id now resolves to another log path",
        ResetReason::Shrank => "the log shrank since the last read",
        ResetReason::Replaced | ResetReason::FileReplaced => {
            "another file now sits at the log path"
        }
        ResetReason::Rewritten => {
            "the log's first bytes changed (it was rewritten, or cut and written again)"
        }
        ResetReason::RegrownPastCut => {
            "the bytes before the last read's end changed (the log was cut and regrown, or rewritten)"
        }
        ResetReason::PartialRewritten => {
            "the unfinished last line the last read saw changed (redrawn in place, or the log was cut and regrown)"
        }
        ResetReason::WindowChanged => "the view changed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(continuing: bool) -> Numbers {
        Numbers {
            continuing,
            counted: 12,
            total: Some(12),
            unseen_above: 0,
            newest_unseen: None,
            skipped_above: 0,
            oldest_skipped: None,
            new_lines: 0,
            new_shown: 0,
            earlier_shown: 0,
            log_words: "log at 12 lines".into(),
            whole_log: true,
        }
    }

    fn shown(lines: usize, partial_shown: bool) -> Selection {
        Selection {
            shown_complete: (0..lines).collect(),
            partial_shown,
            notes: Vec::new(),
            left_out: 0,
            selected: lines as u64,
            body: Some(String::new()),
        }
    }

    fn header(sel: &Selection, n: &Numbers) -> String {
        let mut text = String::new();
        push_header_what(&mut text, sel, n);
        text
    }

    #[test]
    fn a_continuing_header_says_new_of_new_and_earlier_lines() {
        let n = Numbers {
            new_lines: 5,
            new_shown: 3,
            earlier_shown: 2,
            ..numbers(true)
        };
        assert_eq!(
            header(&shown(5, false), &n),
            "+3 of 5 new lines, 2 earlier lines not shown before"
        );
        let n = Numbers {
            new_lines: 1,
            new_shown: 1,
            ..numbers(true)
        };
        assert_eq!(header(&shown(1, true), &n), "+1 new line, a partial line");
    }

    #[test]
    fn a_first_header_counts_the_lines_and_names_a_lone_partial_line() {
        assert_eq!(header(&shown(1, false), &numbers(false)), "1 line");
        assert_eq!(header(&shown(0, true), &numbers(false)), "a partial line");
        assert_eq!(header(&shown(0, false), &numbers(false)), "0 lines");
    }

    #[test]
    fn the_status_names_what_is_never_shown_and_the_lines_that_reach_it() {
        let mut text = String::new();
        let n = Numbers {
            unseen_above: 4,
            newest_unseen: Some(9),
            ..numbers(true)
        };
        push_status(&mut text, &n, true);
        assert_eq!(
            text,
            "(no new lines — log at 12 lines; 4 earlier lines never shown — lines: 3 reaches \
             the newest; the last line is still being written)"
        );
        let mut text = String::new();
        let n = Numbers {
            counted: 0,
            log_words: "log at 0 lines".into(),
            ..numbers(false)
        };
        push_status(&mut text, &n, false);
        assert_eq!(text, "(empty log — log at 0 lines)");
        let mut text = String::new();
        let n = Numbers {
            counted: 0,
            log_words: "0 lines in view".into(),
            whole_log: false,
            ..numbers(false)
        };
        push_status(&mut text, &n, false);
        assert_eq!(text, "(nothing in view — 0 lines in view)");
    }

    #[test]
    fn the_prefix_says_why_the_bookmark_starts_over() {
        let prefix = |reset: Option<&str>, continuing: bool| {
            let mut text = String::new();
            push_prefix(&mut text, reset, &numbers(continuing));
            text
        };
        assert_eq!(
            prefix(Some(reset_words(ResetReason::Shrank)), true),
            "the log shrank since the last read, so the bookmark starts over: "
        );
        assert_eq!(prefix(None, false), "first read: ");
        assert_eq!(prefix(None, true), "");
    }
}
