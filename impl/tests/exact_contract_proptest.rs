//! The exact engine against its contract on random logs and random reads.
//!
//! The oracle here keeps its own account of what was delivered, from what each reply's text
//! contained: a line the engine claims to have shown must stand in the text, and a unique line
//! that stands in the text must be claimed. It splits the log into lines itself, knows when it
//! rewrote the log (so when a new generation must be reported), and checks the contract's
//! guarantees 1–5 after every read. Logs stay under the engine's 4 KiB head probe, where every
//! rewrite is detectable by contract.

use bgtail::condense::{strip_ansi, AnsiFlavor};
use bgtail::js::{js_trim, truncate_utf16};
use bgtail::source::MemoryLog;
use bgtail::{ExactEngine, Limits, ReadKind, Reply, Request, Tail};
use proptest::prelude::*;
use std::collections::HashSet;

#[derive(Clone, Debug)]
enum Piece {
    Unique,
    Ansi,
    Same,
    Long,
    Blank,
    Wrapper,
    Crlf,
    CrOnly,
}

#[derive(Clone, Debug)]
enum Op {
    Append(Vec<Piece>),
    Partial,
    Truncate(u8),
    Rewrite,
    Replace,
    Finish,
    Read {
        lines: u8,
        raw: bool,
        bytes: Option<u16>,
    },
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        6 => Just(Piece::Unique),
        1 => Just(Piece::Ansi),
        3 => Just(Piece::Same),
        1 => Just(Piece::Long),
        1 => Just(Piece::Blank),
        1 => Just(Piece::Wrapper),
        1 => Just(Piece::Crlf),
        1 => Just(Piece::CrOnly),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => prop::collection::vec(piece(), 1..6).prop_map(Op::Append),
        1 => Just(Op::Partial),
        1 => (0u8..100).prop_map(Op::Truncate),
        1 => Just(Op::Rewrite),
        1 => Just(Op::Replace),
        1 => Just(Op::Finish),
        8 => (1u8..30, prop::bool::weighted(0.1), prop::option::weighted(0.2, 20u16..600))
            .prop_map(|(lines, raw, bytes)| Op::Read { lines, raw, bytes }),
    ]
}

/// Small budgets, and tail pieces and mark spacing from a few bytes up, so that reads lean on
/// the engine's line index as often as they scan the whole view.
fn limits(tail_chunk: u64, mark_spacing: u64) -> Limits {
    Limits {
        text_budget: 200,
        line_cap: 60,
        coverage_ranges_max: 3,
        tail_chunk,
        mark_spacing,
        ..Limits::default()
    }
}

/// A content line as the oracle splits it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Line {
    offset: u64,
    end: u64,
    text: String,
    terminated: bool,
}

/// The complete content lines of a view, and its partial line, split independently of the
/// engine's scanner.
fn split(bytes: &[u8], window: u64, running: bool) -> (Vec<Line>, Option<Line>) {
    let size = bytes.len() as u64;
    let origin = size - size.min(window);
    let mut lines = Vec::new();
    let mut start = 0usize;
    let mut segments = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            segments.push((start, i, i + 1, true));
            start = i + 1;
        }
    }
    if start < bytes.len() {
        segments.push((start, bytes.len(), bytes.len(), false));
    }
    let exited = segments
        .iter()
        .rev()
        .map(|&(s, e, _, _)| String::from_utf8_lossy(&bytes[s..e]).into_owned())
        .find(|t| !js_trim(t).is_empty())
        .is_some_and(|t| t.starts_with("__BGRUN_EXIT__="));
    for (s, e, end, terminated) in segments {
        if (s as u64) < origin {
            continue;
        }
        let e = if terminated && e > s && bytes[e - 1] == b'\r' {
            e - 1
        } else {
            e
        };
        let text = String::from_utf8_lossy(&bytes[s..e]).into_owned();
        if text.starts_with("__BGRUN_") || js_trim(&text).is_empty() {
            continue;
        }
        lines.push(Line {
            offset: s as u64,
            end: end as u64,
            text,
            terminated,
        });
    }
    let partial = match lines.last() {
        Some(l) if !l.terminated && running && !exited => lines.pop(),
        _ => None,
    };
    (lines, partial)
}

struct Oracle {
    log: MemoryLog,
    counter: usize,
    running: bool,
    generation_bytes: Vec<u8>,
    generation_file: u64,
    files: u64,
    delivered: HashSet<(u64, u64)>,
    forgot_in_generation: bool,
    reads: usize,
}

impl Oracle {
    fn apply(&mut self, op: &Op) {
        let next = |c: &mut usize| {
            *c += 1;
            *c
        };
        match op {
            Op::Append(pieces) if self.running && self.log.bytes().len() < 3_000 => {
                let mut text = String::new();
                for p in pieces {
                    let n = next(&mut self.counter);
                    text.push_str(&match p {
                        Piece::Unique => format!("u{n}\n"),
                        Piece::Ansi => format!("\u{1b}[31ma{n}\u{1b}[0m\n"),
                        Piece::Same => "same\n".into(),
                        Piece::Long => format!("long{n}-{}\n", "x".repeat(90)),
                        Piece::Blank => "  \n".into(),
                        Piece::Wrapper => "__BGRUN_TRUNC__ note\n".into(),
                        Piece::Crlf => format!("c{n}\r\n"),
                        Piece::CrOnly => format!("r{n}\rr{n}b\n"),
                    });
                }
                self.log.append(text.as_bytes());
            }
            Op::Partial if self.running && self.log.bytes().len() < 3_000 => {
                let n = next(&mut self.counter);
                self.log.append(format!("p{n}").as_bytes());
            }
            Op::Truncate(pct) => {
                let len = self.log.bytes().len() * (*pct as usize) / 100;
                self.log.truncate(len);
            }
            Op::Rewrite => {
                let n = next(&mut self.counter);
                self.log.rewrite(format!("gen{n}\nu{n}a\n").as_bytes());
                self.running = true;
            }
            Op::Replace => {
                let n = next(&mut self.counter);
                self.log.replace(format!("file{n}\n").as_bytes());
                self.files += 1;
                self.running = true;
            }
            Op::Finish if self.running => {
                self.log.append(b"\n__BGRUN_EXIT__=0\n");
                self.running = false;
            }
            _ => {}
        }
    }

    fn check_read(&mut self, t: &mut Tail<ExactEngine>, lines: u8, raw: bool, bytes: Option<u16>) {
        self.reads += 1;
        let mut req = Request::lines(lines as u64).running(self.running);
        req.peek = true;
        req.raw = raw;
        req.bytes = bytes.map(f64::from);
        let window = bytes.map_or(u64::MAX, u64::from);

        let current = self.log.bytes().to_vec();
        let continues = self.reads > 1
            && self.files == self.generation_file
            && current.starts_with(&self.generation_bytes);
        let reply: Reply = t.read(&self.log.source(), &req).unwrap();
        if continues {
            assert_eq!(
                reply.reset, None,
                "a log that only grew must not start a new generation"
            );
        } else {
            if self.reads > 1 {
                assert!(
                    reply.reset.is_some(),
                    "a rewritten log must be reported as a new generation"
                );
            }
            self.delivered.clear();
            self.forgot_in_generation = false;
        }
        self.generation_bytes = current.clone();
        self.generation_file = self.files;

        let (view, partial) = split(&current, window, self.running);
        let window_lines = &view[view.len() - view.len().min(lines as usize)..];
        let undelivered: Vec<&Line> = window_lines
            .iter()
            .filter(|l| !self.delivered.contains(&(l.offset, l.end)))
            .collect();

        // The claim of what was shown must match the text.
        let lim = t.engine.limits.clone();
        let shown: Vec<&Line> = reply
            .shown
            .iter()
            .filter(|s| !s.partial)
            .map(|s| {
                view.iter()
                    .find(|l| l.offset == s.offset && l.end == s.end)
                    .unwrap_or_else(|| panic!("shown line {s:?} is not a content line of the view"))
            })
            .collect();
        for l in &shown {
            let cut = if raw {
                l.text.clone()
            } else {
                truncate_utf16(&strip_ansi(&l.text, AnsiFlavor::Complete).0, lim.line_cap)
            };
            assert!(
                reply.text.contains(&cut),
                "claimed line {:?} is not in the text:\n{}",
                l.text,
                reply.text
            );
        }
        let text_lines: HashSet<&str> = reply.text.split('\n').collect();
        for l in &view {
            // Truncation can cut a line into another's text: only a text found once is unique
            // (the partial line counts too: a cut can leave it spelling an earlier line).
            let unique = (l.text.starts_with('u') || l.text.starts_with('c'))
                && view.iter().filter(|o| o.text == l.text).count() == 1
                && partial.as_ref().is_none_or(|p| p.text != l.text);
            if unique && text_lines.contains(l.text.as_str()) && !raw {
                assert!(
                    shown.contains(&l),
                    "line {:?} is in the text but not claimed:\n{}\nlog: {:?}",
                    l.text,
                    reply.text,
                    String::from_utf8_lossy(&current)
                );
            }
        }
        if let Some(p) = reply.shown.iter().find(|s| s.partial) {
            assert_eq!(
                Some(p.offset),
                partial.as_ref().map(|l| l.offset),
                "only the partial line is partial"
            );
        }

        let counts = &reply.counts;
        // The view's line count may be left uncounted (and then named so in the text), but
        // never wrong, and never left out of a reply with nothing new.
        match counts.total_lines {
            Some(total) => assert_eq!(total, view.len() as u64, "honest line count"),
            None => {
                assert!(
                    reply.kind != ReadKind::NothingNew,
                    "nothing new without a line count:\n{}\nlog: {:?}",
                    reply.text,
                    String::from_utf8_lossy(&current)
                );
                assert!(raw || reply.text.contains("(the view above is not counted yet)"));
                assert!(counts.unseen_above.is_none());
            }
        }
        for s in &reply.shown {
            if let Some(n) = s.view_line {
                let i = view.iter().position(|l| l.offset == s.offset);
                assert!(s.partial || i == Some(n as usize - 1), "honest view line");
            }
        }
        assert_eq!(counts.shown, shown.len() as u64, "honest shown count");
        if !raw {
            // 3. Repeats bounded: nothing still delivered in this generation comes again.
            if !self.forgot_in_generation {
                for l in &shown {
                    assert!(
                        !self.delivered.contains(&(l.offset, l.end)),
                        "condensed read repeated {:?}\n{}",
                        l.text,
                        reply.text
                    );
                }
                assert_eq!(
                    counts.left_out,
                    undelivered.len() as u64 - shown.len() as u64,
                    "honest left-out count"
                );
            }
            // 2. Progress: the newest undelivered line of the window is delivered.
            if let Some(newest) = undelivered.last() {
                assert!(
                    shown.contains(newest),
                    "the newest unseen line {:?} was not delivered",
                    newest.text
                );
            }
            // 5. Bounded output.
            let body = reply.text.split_once('\n').map_or("", |(_, b)| b);
            let body = body.split("\n\n(").next().unwrap_or("");
            let units: usize = body.chars().map(char::len_utf16).sum();
            assert!(
                units < lim.text_budget,
                "body of {units} units exceeds the budget"
            );
        }
        if counts.forgotten_ranges > 0 {
            self.forgot_in_generation = true;
        }
        for l in &shown {
            self.delivered.insert((l.offset, l.end));
        }
        // 1. Nothing lost: whatever the bookmark covers was delivered.
        let coverage = &t
            .state
            .get(&t.id)
            .expect("a bookmark after a read")
            .coverage;
        for l in &view {
            if coverage.covers(l.offset, l.end) {
                assert!(
                    self.delivered.contains(&(l.offset, l.end)),
                    "covered but never delivered: {:?}",
                    l.text
                );
            }
        }
        if let Some(p) = &partial {
            assert!(
                !coverage.covers(p.offset, p.end),
                "a partial line is never covered"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn exact_engine_keeps_the_contract(
        ops in prop::collection::vec(op(), 1..60),
        tail_chunk in prop_oneof![1u64..48, Just(16_384u64)],
        mark_spacing in 1u64..128,
    ) {
        let mut oracle = Oracle {
            log: MemoryLog::new(),
            counter: 0,
            running: true,
            generation_bytes: Vec::new(),
            generation_file: 0,
            files: 0,
            delivered: HashSet::new(),
            forgot_in_generation: false,
            reads: 0,
        };
        let mut t = Tail::new(ExactEngine::new(limits(tail_chunk, mark_spacing)), "prop-1-1", "/prop.log");
        for op in &ops {
            match op {
                Op::Read { lines, raw, bytes } => oracle.check_read(&mut t, *lines, *raw, *bytes),
                other => oracle.apply(other),
            }
        }
        // Draining: repeated reads of the whole log deliver every line.
        for _ in 0..200 {
            oracle.check_read(&mut t, 200, false, None);
        }
        let (view, _) = split(oracle.log.bytes(), u64::MAX, oracle.running);
        for l in &view {
            prop_assert!(oracle.delivered.contains(&(l.offset, l.end)), "never delivered: {:?}", l.text);
        }
    }
}
