//! What a reply says beside its text, held to what the text says: upstream's `details` object
//! (which a harness may hand the agent, or read itself), and for an engine compiled in, the
//! read's kind and where its body lies. A field that says otherwise than the text is an
//! [`AnomalyKind::UntrueField`]: a reader that trusts the field is misled as surely as one
//! that trusts a wrong count.
//!
//! Only the `bgtail-exact-1` text is read this way: its header and notes state every number
//! its `details` carry. Each field is compared with the text where the text states the
//! number, so that a field is never held to something the text leaves open.

use super::align::Aligned;
use super::sizes::js_printed;
use super::text::{Claimed, Parsed};
use super::truth::Truth;
use super::verdict::{Anomaly, AnomalyKind, Verdict};
use super::ReadInput;
use crate::interface::api::{ReadKind, Reply, ShownLine};
use crate::upstream::details::Details;
use serde_json::Value;
use std::ops::Range;

/// What a reply says beside its text, as far as the reader reports it.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct Fields<'a> {
    /// Upstream's `details` object.
    pub details: Option<&'a Details>,
    /// The read's kind (an engine compiled in reports it).
    pub kind: Option<ReadKind>,
    /// Where in the text the log's lines are (an engine compiled in reports it).
    pub body: Option<&'a Range<usize>>,
    /// The lines the reply says it carries, with their places among the view's content lines
    /// (an engine compiled in reports them).
    pub shown: Option<&'a [ShownLine]>,
}

impl<'a> Fields<'a> {
    /// Every field of a reply of an engine compiled in ([`Engine::reports_fields`]).
    ///
    /// [`Engine::reports_fields`]: crate::Engine::reports_fields
    pub fn of_reply(reply: &'a Reply) -> Fields<'a> {
        Fields {
            details: Some(&reply.details),
            kind: Some(reply.kind),
            body: Some(&reply.body),
            shown: Some(&reply.shown),
        }
    }

    /// Only a `details` object: what an engine in another process sends beside its text (an
    /// empty one is none sent).
    pub fn of_details(details: Option<&'a Details>) -> Fields<'a> {
        Fields {
            details: details.filter(|d| !d.is_empty()),
            ..Fields::default()
        }
    }
}

/// What the text says, as the judge read it.
pub(super) struct Said<'s, 'a> {
    pub truth: &'s Truth,
    pub parsed: &'s Parsed<'a>,
    pub claimed: &'s Claimed,
    pub aligned: &'s Aligned,
}

/// Each field `input` reports, against what the text says.
pub(super) fn check(input: &ReadInput<'_>, said: &Said<'_, '_>, v: &mut Verdict) {
    let Some(fields) = input.fields else {
        return;
    };
    let raw = input.request.raw;
    if let Some(details) = fields.details {
        check_details(details, raw, said, v);
    }
    if let Some(kind) = fields.kind {
        let expected = kind_said(raw, said);
        if kind != expected {
            untrue(v, "kind", format!("{expected:?}"), format!("{kind:?}"));
        }
    }
    if let Some(body) = fields.body {
        let expected = body_said(input.text, said);
        let agrees = match &expected {
            None => body.is_empty(),
            Some(range) => body == range,
        };
        if !agrees {
            let expected = expected.map_or("an empty range".into(), |r| format!("{r:?}"));
            untrue(v, "body", expected, format!("{body:?}"));
        }
    }
    if let Some(shown) = fields.shown {
        check_view_lines(shown, said.truth, v);
    }
}

/// Each complete line's place among the view's content lines, where the reply gives one, is
/// the judge's number for the line at those bytes. (A line the judge does not find there is
/// a claim `FalseClaim` names.)
fn check_view_lines(shown: &[ShownLine], truth: &Truth, v: &mut Verdict) {
    for line in shown.iter().filter(|l| !l.partial) {
        let Some(number) = line.view_line else {
            continue;
        };
        let Ok(i) = truth.spans.binary_search(&(line.offset, line.end)) else {
            continue;
        };
        if number != i as u64 + 1 {
            let place = format!("view_line of bytes {}..{}", line.offset, line.end);
            untrue(v, &place, (i + 1).to_string(), number.to_string());
        }
    }
}

/// The `details` keys whose numbers the text states, each against the text; `condensed`
/// against the request; `notes` against the text's first notes.
fn check_details(details: &Details, raw: bool, said: &Said<'_, '_>, v: &mut Verdict) {
    let (c, a) = (said.claimed, said.aligned);
    let shown = a.complete.len() as u64 + u64::from(a.partial);
    let numbers = [
        ("linesShown", Some(shown)),
        ("newLines", c.new_lines),
        ("earlierLines", c.earlier_shown),
        ("totalLines", c.total),
        ("leftOut", c.left_out),
        ("unseenAbove", c.unseen_above),
        ("skippedAbove", c.stated.skipped.map(|(n, _)| n)),
    ];
    for (key, stated) in numbers {
        let Some(stated) = stated else { continue };
        match details.get(key) {
            // A null leaves the number unsaid: it contradicts nothing.
            Some(Value::Null) => {}
            Some(value) if value.as_u64() == Some(stated) => {}
            found => untrue(v, key, stated.to_string(), shown_value(found)),
        }
    }
    match details.get("condensed") {
        Some(Value::Bool(condensed)) if *condensed != raw => {}
        found => untrue(v, "condensed", (!raw).to_string(), shown_value(found)),
    }
    check_notes(details, said.parsed, v);
    check_cap(details, said, v);
}

/// `details.truncatedAtBytes` is the cap the log's exit marker records, as `JSON.stringify`
/// writes a JavaScript number (`null` for one past every double), wherever the field is given
/// or the text states the cap; the judge reads the cap and prints the number with its own
/// code, so that a fault in the engines' printing shows here.
fn check_cap(details: &Details, said: &Said<'_, '_>, v: &mut Verdict) {
    let found = details.get("truncatedAtBytes");
    if found.is_none() && said.claimed.stated.cap.is_none() {
        return;
    }
    let expected = said.truth.exit.and_then(|m| m.cap).map(json_of);
    if found != expected.as_ref() {
        let expected = expected.map_or("no such key".into(), |e| e.to_string());
        untrue(v, "truncatedAtBytes", expected, shown_value(found));
    }
}

/// A cap as JSON holds upstream's number: its JavaScript digits, or `null` when infinite.
fn json_of(cap: f64) -> Value {
    if cap.is_finite() {
        serde_json::from_str(&js_printed(cap)).expect("JavaScript prints a finite number as JSON")
    } else {
        Value::Null
    }
}

/// `details.notes`, joined as the text joins them, is the text's first notes paragraph; with
/// no `notes`, that paragraph is one of the notes about the log itself, or there is none.
fn check_notes(details: &Details, parsed: &Parsed<'_>, v: &mut Verdict) {
    let first = parsed.notes.first().copied();
    match details.get("notes") {
        None => {
            if let Some(note) = first.filter(|n| !is_log_note(n)) {
                untrue(
                    v,
                    "notes",
                    "none: the text has none",
                    format!("none; the text: {note:?}"),
                );
            }
        }
        Some(Value::Array(notes)) => {
            let joined: Vec<&str> = notes.iter().filter_map(Value::as_str).collect();
            let joined = joined.join("; ");
            if notes.iter().any(|n| !n.is_string()) || Some(joined.as_str()) != first {
                let expected = first.map_or("none".into(), |n| format!("{n:?}"));
                untrue(v, "notes", expected, format!("{joined:?}"));
            }
        }
        Some(other) => untrue(v, "notes", "an array of strings", other.to_string()),
    }
}

/// The notes about the log itself, which the exact engine writes after its own notes and
/// keeps out of `details.notes`: the wrapper's cap, the view, the line bound.
fn is_log_note(note: &str) -> bool {
    ["log truncated at ", "view: the last ", "only the last "]
        .iter()
        .any(|p| note.starts_with(p))
}

/// The read's kind as the text tells it: raw by the request; a first read or a reset by the
/// text's opening words; nothing new by a status line; else a delta.
fn kind_said(raw: bool, said: &Said<'_, '_>) -> ReadKind {
    if raw {
        ReadKind::Raw
    } else if said.claimed.stated.first_read || said.claimed.reset {
        ReadKind::First
    } else if said.parsed.status.is_some() {
        ReadKind::NothingNew
    } else {
        ReadKind::Delta
    }
}

/// Where the body the judge matched lies in `text`: from its first line's first byte to its
/// last line's last. `None` when it carries no line of the log.
fn body_said(text: &str, said: &Said<'_, '_>) -> Option<Range<usize>> {
    if said.aligned.complete.is_empty() && !said.aligned.partial {
        return None;
    }
    let body = &said.parsed.body;
    let (first, last) = (body.first()?, body.last()?);
    let at = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
    Some(at(first)..at(last) + last.len())
}

fn shown_value(found: Option<&Value>) -> String {
    found.map_or("no such key".into(), Value::to_string)
}

fn untrue(v: &mut Verdict, field: &str, expected: impl Into<String>, said: String) {
    v.push(Anomaly::new(
        AnomalyKind::UntrueField,
        None,
        format!("{field}: {}", expected.into()),
        format!("{field}: {said}"),
    ));
}
