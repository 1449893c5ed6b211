//! Issue #28's two reproductions, through both engines.
//!
//! What each reply delivered is read from its **text** (every log line here is unique, so a
//! line was delivered when it stands alone on a line of the reply), never from the engine's
//! own bookkeeping.

use crate::common::numbered;

use bgtail::source::MemoryLog;
use bgtail::{Engine, ExactEngine, Limits, Request, ShippedEngine, Tail};
use std::collections::BTreeMap;

/// The line numbers (1-based) of `lines` that stand alone on a line of `text`.
fn delivered(text: &str, lines: &[String]) -> Vec<usize> {
    let shown: std::collections::HashSet<&str> = text.split('\n').collect();
    (0..lines.len())
        .filter(|&i| shown.contains(lines[i].as_str()))
        .map(|i| i + 1)
        .collect()
}

fn gap_repro<E: Engine>(engine: E) -> Vec<(String, Vec<usize>)> {
    let mut log = MemoryLog::new();
    log.append(numbered(1, 10).as_bytes());
    let all: Vec<String> = (1..=13).map(|i| format!("line-{i}")).collect();
    let mut t = Tail::new(engine, "gap-1-1", "/gap.log");
    let mut out = Vec::new();
    let mut step = |t: &mut Tail<E>, log: &MemoryLog, n: u64| {
        let r = t.read(&log.source(), &Request::lines(n)).unwrap();
        out.push((r.text.clone(), delivered(&r.text, &all)));
    };
    step(&mut t, &log, 5);
    log.append(numbered(11, 13).as_bytes());
    step(&mut t, &log, 2);
    step(&mut t, &log, 4);
    step(&mut t, &log, 6);
    out
}

#[test]
fn gap_shipped_resends_line_10_then_lines_8_and_9() {
    let steps = gap_repro(ShippedEngine::default());
    let lines: Vec<&[usize]> = steps.iter().map(|(_, l)| l.as_slice()).collect();
    assert_eq!(
        lines,
        vec![&[6, 7, 8, 9, 10][..], &[12, 13], &[10, 11], &[8, 9]]
    );
    assert!(steps[2].0.starts_with(
        "no new lines since last read — showing the 2 earlier lines of the widened window (now the last 4 of 13)"
    ));
}

#[test]
fn gap_exact_returns_line_11_alone_then_nothing_new() {
    let steps = gap_repro(ExactEngine::default());
    let lines: Vec<&[usize]> = steps.iter().map(|(_, l)| l.as_slice()).collect();
    assert_eq!(lines, vec![&[6, 7, 8, 9, 10][..], &[12, 13], &[11], &[]]);
    assert_eq!(
        steps[1].0,
        "+2 of 3 new lines — log at 13 lines\nline-12\nline-13\n\n(1 skipped line above this window — lines: 3 reaches it)"
    );
    assert_eq!(
        steps[2].0,
        "1 earlier line not shown before — log at 13 lines\nline-11"
    );
    assert_eq!(
        steps[3].0,
        "(no new lines — log at 13 lines; 5 earlier lines never shown — lines: 9 reaches the newest)"
    );
}

/// 979 content lines of exactly 44 characters: 45 budget units each, so ⌊8000 / 45⌋ = 177
/// fit in one condensed reply.
fn cap_log() -> (MemoryLog, Vec<String>) {
    let lines: Vec<String> = (1..=979)
        .map(|i| {
            let head = format!("(pass) suite case {i:04}: ");
            format!("{head}{}", "v".repeat(44 - head.len()))
        })
        .collect();
    let mut log = MemoryLog::new();
    for l in &lines {
        log.append(format!("{l}\n").as_bytes());
    }
    log.append(b"\n__BGRUN_EXIT__=1\n");
    (log, lines)
}

/// Runs the sequence (`lines:400`, `lines:60`, `lines:50 raw`, then `lines:400`
/// until nothing is new) and counts how often each line was delivered, condensed and raw.
fn cap_repro<E: Engine>(engine: E) -> (Vec<Vec<usize>>, BTreeMap<usize, usize>) {
    let (log, lines) = cap_log();
    let mut t = Tail::new(engine, "cap-1-1", "/cap.log");
    let mut per_read = Vec::new();
    let mut condensed_count: BTreeMap<usize, usize> = BTreeMap::new();
    let mut requests = vec![
        Request::lines(400),
        Request::lines(60),
        Request::lines(50).raw(),
    ];
    requests.extend(std::iter::repeat_n(Request::lines(400), 4));
    for req in requests {
        let r = t.read(&log.source(), &req).unwrap();
        let got = delivered(&r.text, &lines);
        if !req.raw {
            for &l in &got {
                *condensed_count.entry(l).or_default() += 1;
            }
            assert!(
                r.text.len() < 8_000 + 600,
                "a condensed reply stays near the budget"
            );
        }
        per_read.push(got);
    }
    (per_read, condensed_count)
}

#[test]
fn cap_shipped_keeps_the_oldest_177_and_hides_the_newest_for_good() {
    let (reads, _) = cap_repro(ShippedEngine::default());
    assert_eq!(
        reads[0],
        (580..=756).collect::<Vec<_>>(),
        "the oldest 177 of the window"
    );
    assert!(reads[1].is_empty(), "lines:60 says nothing is new");
    assert_eq!(
        reads[2],
        (930..=979).collect::<Vec<_>>(),
        "only raw reaches the real tail"
    );
    let ever: std::collections::BTreeSet<usize> = reads.iter().flatten().copied().collect();
    let lost: Vec<usize> = (580..=979).filter(|l| !ever.contains(l)).collect();
    assert_eq!(
        lost,
        (757..=929).collect::<Vec<_>>(),
        "173 lines of the window are never delivered"
    );
}

#[test]
fn cap_exact_shows_the_newest_then_pages_back_every_line_once() {
    let (reads, condensed) = cap_repro(ExactEngine::default());
    assert_eq!(
        reads[0],
        (803..=979).collect::<Vec<_>>(),
        "the newest 177 first"
    );
    assert!(reads[1].is_empty());
    assert_eq!(reads[2], (930..=979).collect::<Vec<_>>());
    assert_eq!(reads[3], (626..=802).collect::<Vec<_>>());
    assert_eq!(reads[4], (580..=625).collect::<Vec<_>>());
    assert!(reads[5].is_empty() && reads[6].is_empty());
    let window: Vec<usize> = (580..=979).collect();
    assert_eq!(
        condensed.keys().copied().collect::<Vec<_>>(),
        window,
        "nothing lost"
    );
    assert!(
        condensed.values().all(|&n| n == 1),
        "each line exactly once across condensed reads"
    );
}

#[test]
fn cap_exact_texts_say_what_was_left_out_and_how_to_get_it() {
    let (log, _) = cap_log();
    let mut t = Tail::new(ExactEngine::default(), "cap-1-1", "/cap.log");
    let first = t.read(&log.source(), &Request::lines(400)).unwrap();
    assert!(first
        .text
        .starts_with("first read: 177 lines — log at 979 lines\n(pass) suite case 0803"));
    assert!(first.text.ends_with(
        "(pass) suite case 0979: vvvvvvvvvvvvvvvvvvvv\n\n(223 older lines left out by the 8000-char budget — the next read with lines: 400 returns them)"
    ), "{:?}", &first.text[first.text.len() - 300..]);
    assert_eq!(first.counts.left_out, 223);
    let poll = t.read(&log.source(), &Request::lines(60)).unwrap();
    assert_eq!(
        poll.text,
        "(no new lines — log at 979 lines; 802 earlier lines never shown — lines: 178 reaches the newest)"
    );
}

#[test]
fn exact_limits_scale_down_and_still_deliver_every_line_once() {
    let limits = {
        let mut limits = Limits::default();
        limits.text_budget = 120;
        limits.line_cap = 40;
        limits
    };
    limits.validate().unwrap();
    let mut log = MemoryLog::new();
    let lines: Vec<String> = (1..=30)
        .map(|i| format!("step {i:02} {}", "z".repeat(i % 7)))
        .collect();
    for l in &lines {
        log.append(format!("{l}\n").as_bytes());
    }
    let mut t = Tail::new(ExactEngine::new(limits), "s-1-1", "/s.log");
    let mut seen = vec![0; lines.len()];
    for _ in 0..40 {
        let r = t.read(&log.source(), &Request::lines(30)).unwrap();
        let body = r.text.split("\n\n(").next().unwrap();
        assert!(body.split_once('\n').map_or(0, |(_, b)| b.chars().count()) < 120);
        for l in delivered(&r.text, &lines) {
            seen[l - 1] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
}
