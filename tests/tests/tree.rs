//! The repository's own text, checked: it speaks of the project in the present, and every
//! link in its Markdown resolves.
//!
//! What happened and when belongs in `CHANGELOG.md` and the commit messages. Everywhere else —
//! README, docs, code comments, test names, config — a sentence that narrates the work ("stop
//! N", a tracker issue number, a commit hash, "today") goes stale the day it is written, so
//! these tests reject it. Upstream's issue #28 is a fact of the domain and stays; a figure
//! may say which commit it was measured at, in a line or table that says "measured at commit".

use regex::Regex;
use std::path::{Path, PathBuf};

/// Folders that hold data or build output, not the project's prose or code.
const SKIP_DIRS: &[&str] = &[
    ".git",
    "target",
    "node_modules",
    "mutants.out",
    "corpus",
    "artifacts",
    "regressions",
    "snapshots",
];

/// Files where history belongs, or that are data: the changelog, the licences, lock files,
/// proptest's seed files, traces (their text is a job's log), and this file (it spells the
/// patterns it looks for).
fn skipped_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == "CHANGELOG.md"
        || name.starts_with("LICENSE")
        || name.ends_with(".lock")
        || name == "package-lock.json"
        || name.ends_with(".proptest-regressions")
        || name.ends_with(".jsonl")
        || rel == "tests/tests/tree.rs"
}

/// The project's text files: prose, code, config and scripts.
fn is_text(rel: &str) -> bool {
    let ext = rel.rsplit_once('.').map(|(_, e)| e);
    matches!(
        ext,
        Some("md" | "rs" | "toml" | "mjs" | "js" | "ts" | "sh" | "json" | "yml" | "yaml" | "dict")
    ) || rel == ".ci/run"
}

fn root() -> PathBuf {
    bgtail_tests::inputs::workspace_root()
}

/// Every text file of the tree, relative to the root, in a stable order.
fn text_files() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !SKIP_DIRS.contains(&name.as_str()) {
                    stack.push(path);
                }
                continue;
            }
            let rel = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if is_text(&rel) && !skipped_file(&rel) {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// A token that reads as a commit hash: 7 to 40 lowercase hex digits with at least one letter
/// and one digit (so neither `1048600` nor `deadbeef` counts).
fn looks_like_hash(token: &str) -> bool {
    (7..=40).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && token.bytes().any(|b| b.is_ascii_digit())
        && token.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Lines that may name a commit: a figure's "measured at commit X", and upstream's commits
/// beside the upstream project's name.
fn may_name_a_commit(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.contains("measured at commit")
        || ["pi-background-run", "mux", "gemini", "codex"]
            .iter()
            .any(|p| lower.contains(p))
}

/// What in `text` narrates the work rather than stating what is true: one message per line.
fn history_in(rel: &str, text: &str) -> Vec<String> {
    let patterns = [
        (r"(?i)\bstops? [0-9]+\b", "a stop of the work"),
        (r"(?i)\bissues? #?[0-9]+\b", "a tracker issue number"),
        (r"(?:^|[\s(])#[0-9]+\b", "a tracker issue number"),
        (
            r"(?i)\b(today|yesterday|at the time|used to|a faster day|a quiet machine|this stop|previous stop|last stop)\b",
            "a word of the story",
        ),
    ];
    let patterns: Vec<(Regex, &str)> = patterns
        .iter()
        .map(|(p, what)| (Regex::new(p).unwrap(), *what))
        .collect();
    let token = Regex::new(r"[0-9A-Za-z_.]+").unwrap();
    // A comment line's marker, left out when a line is read on from the one before it.
    let marker = Regex::new(r"^\s*(//[/!]?|#|\*|>|--)?\s*").unwrap();
    let mut found = Vec::new();
    let mut commit_table = false;
    let next_lines: Vec<&str> = text.lines().collect();
    for (i, line) in text.lines().enumerate() {
        // A Markdown table whose header says "measured at commit" may name one in its rows.
        let in_table = line.trim_start().starts_with('|');
        commit_table = in_table && (commit_table || may_name_a_commit(line));
        let at = format!("{rel}:{}", i + 1);
        for (re, what) in &patterns {
            for m in re.find_iter(line) {
                let s = m.as_str().trim();
                // Upstream's issue #28 is the domain's, not the tracker's.
                if *what == "a tracker issue number" && s.ends_with("28") {
                    continue;
                }
                found.push(format!("{at}: {what}: {s:?}"));
            }
        }
        found.extend(split_across_the_break(
            &patterns[..3],
            &marker,
            line,
            next_lines.get(i + 1),
            &at,
        ));
        if !commit_table && !may_name_a_commit(line) {
            for t in token.find_iter(line) {
                let t = t.as_str().trim_end_matches('.');
                if looks_like_hash(t) {
                    found.push(format!("{at}: a commit hash: {t:?}"));
                }
            }
        }
    }
    found
}

/// Matches of `patterns` that a line break splits — `issue` at the end of one comment line and
/// its number at the start of the next — read with the next line's comment marker left out, so
/// that a comment block is read as the sentence it is.
fn split_across_the_break(
    patterns: &[(Regex, &str)],
    marker: &Regex,
    line: &str,
    next: Option<&&str>,
    at: &str,
) -> Vec<String> {
    let Some(next) = next else { return Vec::new() };
    let rest = &next[marker.find(next).map_or(0, |m| m.end())..];
    let joined = format!("{} {rest}", line.trim_end());
    let edge = line.trim_end().len();
    let mut found = Vec::new();
    for (re, what) in patterns {
        for m in re.find_iter(&joined) {
            let s = m.as_str().trim();
            if m.start() < edge && m.end() > edge + 1 && !s.ends_with("28") {
                found.push(format!("{at}: {what}, across the line break: {s:?}"));
            }
        }
    }
    found
}

#[test]
fn the_tree_speaks_of_the_project_in_the_present() {
    let mut found = Vec::new();
    for rel in text_files() {
        let text =
            std::fs::read_to_string(root().join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        found.extend(history_in(&rel, &text));
    }
    assert!(
        found.is_empty(),
        "history belongs in CHANGELOG.md and commit messages; say what is true now instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_history_check_finds_each_pattern_and_spares_the_domain() {
    // The six places to be flagged (the last split across a comment's line break) are assembled from parts, so that no scan of the tree
    // (this file is skipped by the check, not by every reader) sees them spelled out.
    let flagged = [
        ["found at ", "stop", " 25"],
        ["see ", "issue", " 12"],
        ["as in ", "#", "5"],
        ["commit ", "8db51ed", ""],
        ["slow ", "to", "day"],
        ["// as ", "issue", "\n// 12 says"],
    ]
    .map(|parts| parts.concat())
    .join("\n");
    let found = history_in(
        "x.md",
        &(flagged
            + "\n\
         upstream's #28 and issue #28 stay\nMeasured at commit 8db51ed.\n\
         1048600 bytes, deadbeef, 9.5367431640625e+243\n\
         | file | measured at commit |\n|---|---|\n| a.rs | 8db51ed |\n"),
    );
    let lines: Vec<&str> = found.iter().map(|f| f.split(':').nth(1).unwrap()).collect();
    assert_eq!(lines, ["1", "2", "3", "4", "5", "6"], "{found:#?}");
}

/// The targets of a Markdown file's inline links, with the line they are on.
fn links(text: &str) -> Vec<(usize, String)> {
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        for c in link.captures_iter(line) {
            out.push((i + 1, c[1].to_string()));
        }
    }
    out
}

/// GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

fn broken_links_in(rel: &str, text: &str) -> Vec<String> {
    let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
    let mut broken = Vec::new();
    for (line, target) in links(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
        let file = if path.is_empty() {
            root().join(rel)
        } else {
            root().join(dir).join(path)
        };
        let at = format!("{rel}:{line}: {target}");
        if !file.exists() {
            broken.push(format!("{at}: no such file"));
        } else if !fragment.is_empty() && file.extension().is_some_and(|e| e == "md") {
            let target_text = std::fs::read_to_string(&file).unwrap();
            if !anchors(&target_text).iter().any(|a| a == fragment) {
                broken.push(format!("{at}: no such heading"));
            }
        }
    }
    broken
}

#[test]
fn every_link_in_the_markdown_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for rel in text_files().into_iter().filter(|f| f.ends_with(".md")) {
        let text = std::fs::read_to_string(root().join(&rel)).unwrap();
        checked += links(&text).len();
        broken.extend(broken_links_in(&rel, &text));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked > 20,
        "only {checked} links found: is the scan reading the docs?"
    );
}

#[test]
fn a_broken_link_and_a_missing_heading_are_reported() {
    let broken = broken_links_in(
        "README.md",
        "[a](docs/no-such-page.md) [b](docs/contract.md#no-such-heading) [c](docs/contract.md#guarantees)",
    );
    assert_eq!(broken.len(), 2, "{broken:#?}");
}

/// The front page is read in five minutes: everything else has its page under docs/.
#[test]
fn the_readme_stays_a_front_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; move detail to docs/"
    );
}
