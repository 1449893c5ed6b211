//! The condenser: ANSI stripping, folding of repeated lines, the per-line cap, and the budget.
//!
//! Both engines build *emissions* the same way (docs/pi-bgrun-0.7.1.md §5 steps 1–3a); they differ only in
//! which emissions the budget keeps: upstream walks oldest-first and stops at the first that
//! does not fit (`oldest_first`), the exact engine walks newest-first (`newest_first`).
//! An emission is the unit of output and of coverage: a folded run is one emission standing
//! for all of its source lines.

use crate::upstream::js::{plural, truncate_utf16, utf16_len};
use crate::upstream::limits::Limits;
use regex::Regex;
use std::sync::OnceLock;

pub(crate) mod newest_first;
mod oldest_first;

pub(crate) use oldest_first::condense_oldest_first;
pub use oldest_first::OldestFirst;

/// Which escape sequences are stripped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnsiFlavor {
    /// Upstream's pattern exactly: CSI and a few ESC sequences; OSC (`ESC ] … BEL`) survives.
    Upstream,
    /// Upstream's pattern plus OSC sequences (hyperlinks, window titles), which upstream leaks.
    Complete,
}

/// Upstream's pattern (docs/pi-bgrun-0.7.1.md §5 step 1). JavaScript's backtracking and the regex crate's
/// leftmost-first semantics pick the same match for it.
const UPSTREAM_ANSI: &str =
    "[\u{1b}\u{9b}][\\[()#;?]*(?:[0-9]{1,4}(?:;[0-9]{0,4})*)?[0-9A-ORZcf-nq-uy=><]";
/// OSC: `ESC ]` up to BEL or ST (`ESC \`), or to the end of the line when unterminated.
const OSC: &str = "\u{1b}\\][^\u{07}\u{1b}]*(?:\u{07}|\u{1b}\\\\|$)";

pub(crate) fn ansi_regex(flavor: AnsiFlavor) -> &'static Regex {
    static UPSTREAM: OnceLock<Regex> = OnceLock::new();
    static COMPLETE: OnceLock<Regex> = OnceLock::new();
    match flavor {
        AnsiFlavor::Upstream => {
            UPSTREAM.get_or_init(|| Regex::new(UPSTREAM_ANSI).expect("valid ANSI pattern"))
        }
        AnsiFlavor::Complete => COMPLETE.get_or_init(|| {
            Regex::new(&format!("{OSC}|{UPSTREAM_ANSI}")).expect("valid ANSI pattern")
        }),
    }
}

/// The text format of an engine's replies: how its condenser builds a line's emission, and
/// how the judge tells a header, a note and a gap marker from a line of the log. Its name is
/// what an engine declares as `text_format` in the protocol's `init_ok`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextFormat {
    /// pi-bgrun 0.7's (`pi-bgrun-0.7`): upstream's ANSI pattern; the fold marker is added
    /// before the per-line cap, so a long folded line loses its count; no header on a first
    /// read, `+N new lines since last read — log at T lines` on a delta.
    Upstream,
    /// This crate's exact engine (`bgtail-exact-1`): every ANSI sequence (OSC too); the cap cuts
    /// the text and the fold marker follows, so a fold always says how many lines it stands
    /// for; a header on every condensed reply, `… N lines already shown …` between runs.
    Exact,
    /// Gemini CLI's `read_background_output` (`gemini-cli-0.56`): no condensing, every line of
    /// its tail verbatim (blank ones and `\r` too) under `Showing last N of M lines:` or
    /// `Full Log Output:`, or the one line `Log is empty.`.
    GeminiCli,
    /// coder/mux's `bash_output` (`mux-0.28`): the tool's result object as JSON, whose
    /// `output` holds the new complete lines verbatim and whose `status` says whether the job
    /// runs.
    Mux,
    /// A reader of one's own (`plain-1`): body lines are the log's lines as the reader prints
    /// them, and how it prints them — `\r`, escape sequences, blank and long lines, a header
    /// and notes — is declared in `init_ok`'s `plain` object (`bgtail::plain`).
    Plain,
    /// Codex CLI's `write_stdin` poll (`codex-343074d4`): an envelope (`Process running with
    /// session ID N` or `Process exited with code N`, `Original token count`, `Output:`), then
    /// the bytes drained since the last poll as they are, cut by `... K bytes omitted ...` and
    /// `…N tokens truncated…` under a warning when they did not fit.
    Codex,
    /// This crate's exact engine behind Codex's `write_stdin` (`bgtail-exact-1-in-codex`):
    /// Codex's envelope (`Process running with session ID N` or `Process exited with code
    /// N`, `Output:`), then a `bgtail-exact-1` text. The judge reads it as that format once
    /// the envelope is taken off ([`crate::judge::Rules::new`]).
    CodexExact,
}

impl TextFormat {
    /// The name an engine gives in the protocol's `init_ok` (`text_format`).
    pub fn name(self) -> &'static str {
        match self {
            TextFormat::Exact => "bgtail-exact-1",
            TextFormat::Upstream => "pi-bgrun-0.7",
            TextFormat::GeminiCli => "gemini-cli-0.56",
            TextFormat::Mux => "mux-0.28",
            TextFormat::Plain => "plain-1",
            TextFormat::Codex => "codex-343074d4",
            TextFormat::CodexExact => "bgtail-exact-1-in-codex",
        }
    }

    /// Every format, in the order the protocol's page lists them.
    pub const ALL: [TextFormat; 7] = [
        TextFormat::Upstream,
        TextFormat::Exact,
        TextFormat::GeminiCli,
        TextFormat::Mux,
        TextFormat::Plain,
        TextFormat::Codex,
        TextFormat::CodexExact,
    ];

    /// The format a `text_format` names.
    pub fn from_name(name: &str) -> Option<TextFormat> {
        TextFormat::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Whether replies in this format are condensed by upstream's rules (ANSI stripped, runs
    /// folded, the per-line cap, the budget). The other formats' readers print each line of
    /// the log as it is, and this crate's condenser never writes them.
    pub fn condenses(self) -> bool {
        matches!(self, TextFormat::Upstream | TextFormat::Exact)
    }
}

impl TextFormat {
    fn ansi(self) -> AnsiFlavor {
        match self {
            TextFormat::Upstream => AnsiFlavor::Upstream,
            _ => AnsiFlavor::Complete,
        }
    }

    /// A line's text with escapes stripped, as this format prints it before any cap or fold:
    /// the exact format also shows NUL bytes as U+2400 (␀), which upstream passes through. A
    /// format that does not condense prints the line as it is.
    pub(crate) fn clean(self, line: &str) -> (String, usize) {
        if !self.condenses() {
            return (line.to_owned(), 0);
        }
        let (text, n) = strip_ansi(line, self.ansi());
        match self {
            TextFormat::Exact if text.contains('\0') => (text.replace('\0', "\u{2400}"), n),
            _ => (text, n),
        }
    }
}

/// A line with its escape sequences removed, and how many were.
pub(crate) fn strip_ansi(line: &str, flavor: AnsiFlavor) -> (String, usize) {
    if !line.contains(['\u{1b}', '\u{9b}']) {
        return (line.to_owned(), 0);
    }
    let re = ansi_regex(flavor);
    let count = re.find_iter(line).count();
    (re.replace_all(line, "").into_owned(), count)
}

/// One line of condensed output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emission {
    /// The text as printed (stripped, folded, capped).
    pub text: String,
    /// `text`'s length in UTF-16 code units.
    pub units: usize,
    /// Index of the first source line in the condenser's input.
    pub first: usize,
    /// How many source lines it stands for (more than one only for a fold).
    pub count: usize,
    /// Whether the per-line cap cut it.
    pub line_capped: bool,
    /// Escape sequences stripped from its source lines.
    pub ansi_sequences: usize,
}

impl Emission {
    /// What it costs against the budget: its length plus the joining newline.
    pub fn cost(&self) -> usize {
        self.units + 1
    }
}

/// The emissions of an input, with the counters the notes report.
#[derive(Clone, Debug, Default)]
pub struct Emissions {
    /// The emissions, in body order.
    pub list: Vec<Emission>,
    /// Input lines that held at least one escape sequence (what upstream's note counts).
    pub lines_with_ansi: usize,
    /// Runs that folded.
    pub folded_runs: usize,
}

/// Builds the emissions of `lines` (docs/pi-bgrun-0.7.1.md §5 steps 1–3a), in input order.
pub(crate) fn build_emissions<S: AsRef<str>>(
    lines: &[S],
    limits: &Limits,
    format: TextFormat,
) -> Emissions {
    let mut out = Emissions::default();
    let mut cleaned: Vec<String> = Vec::with_capacity(lines.len());
    let mut sequences: Vec<usize> = Vec::with_capacity(lines.len());
    for line in lines {
        let (text, n) = format.clean(line.as_ref());
        if n > 0 {
            out.lines_with_ansi += 1;
        }
        cleaned.push(text);
        sequences.push(n);
    }
    let mut i = 0;
    while i < cleaned.len() {
        let mut j = i + 1;
        while j < cleaned.len() && cleaned[j] == cleaned[i] {
            j += 1;
        }
        let run = j - i;
        if run >= limits.fold_threshold {
            out.folded_runs += 1;
            let ansi = sequences[i..j].iter().sum();
            let mut e = match format {
                TextFormat::Upstream => {
                    capped_emission(format!("{}  [x{run}]", cleaned[i]), i, run, ansi, limits)
                }
                // The exact format's rule; the formats that do not condense never come here.
                _ => {
                    let mut e = capped_emission(cleaned[i].clone(), i, run, ansi, limits);
                    e.text.push_str(&format!("  [x{run}]"));
                    e
                }
            };
            e.units = utf16_len(&e.text);
            out.list.push(e);
        } else {
            for k in i..j {
                out.list.push(capped_emission(
                    cleaned[k].clone(),
                    k,
                    1,
                    sequences[k],
                    limits,
                ));
            }
        }
        i = j;
    }
    out
}

fn capped_emission(
    text: String,
    first: usize,
    count: usize,
    ansi_sequences: usize,
    limits: &Limits,
) -> Emission {
    let units = utf16_len(&text);
    if units > limits.line_cap {
        let mut cut = truncate_utf16(&text, limits.line_cap);
        cut.push_str(&format!(" …[+{} chars]", units - limits.line_cap));
        Emission {
            units: utf16_len(&cut),
            text: cut,
            first,
            count,
            line_capped: true,
            ansi_sequences,
        }
    } else {
        Emission {
            text,
            units,
            first,
            count,
            line_capped: false,
            ansi_sequences,
        }
    }
}

/// The notes both engines share, in upstream's order: escapes, folds, capped lines.
pub(crate) fn common_notes(
    ansi: usize,
    folds: usize,
    capped: usize,
    limits: &Limits,
) -> Vec<String> {
    let mut notes = Vec::new();
    if ansi > 0 {
        notes.push(format!(
            "{ansi} ANSI escape {} stripped",
            plural(ansi as u64, "sequence", "sequences")
        ));
    }
    if folds > 0 {
        notes.push(format!(
            "{folds} repeated-line {} collapsed",
            plural(folds as u64, "run", "runs")
        ));
    }
    if capped > 0 {
        notes.push(format!(
            "{capped} long {} truncated to {} chars",
            plural(capped as u64, "line", "lines"),
            limits.line_cap
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boundaries cargo-mutants found unpinned: a line of exactly the cap is not cut, and
    /// emissions that cost exactly the budget all fit (upstream stops only past it).
    #[test]
    fn a_line_of_exactly_the_cap_is_whole_and_the_budget_is_inclusive() {
        let limits = Limits {
            text_budget: 30,
            line_cap: 9,
            ..Limits::default()
        };
        let at_cap = "abcdefghi";
        let e = build_emissions(&[at_cap], &limits, TextFormat::Exact);
        assert_eq!(
            (e.list[0].text.as_str(), e.list[0].line_capped),
            (at_cap, false)
        );
        // Three emissions of 9 units cost 10 each: exactly the budget.
        let lines = ["aaaaaaaaa", "bbbbbbbbb", "ccccccccc"];
        let c = condense_oldest_first(&lines, &limits);
        assert_eq!((c.lines_rendered, c.budget_hit), (3, false));
        let over = Limits {
            text_budget: 29,
            ..limits
        };
        let c = condense_oldest_first(&lines, &over);
        assert_eq!((c.lines_rendered, c.budget_hit), (2, true));
    }

    fn l() -> Limits {
        Limits::default()
    }

    #[test]
    fn upstream_pattern_strips_sgr_and_keeps_osc() {
        assert_eq!(
            strip_ansi("\u{1b}[32mOK\u{1b}[0m green", AnsiFlavor::Upstream),
            ("OK green".into(), 2)
        );
        let osc = "\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7}";
        let (kept, n) = strip_ansi(osc, AnsiFlavor::Upstream);
        assert_eq!((kept.as_str(), n), (osc, 0));
        assert_eq!(strip_ansi(osc, AnsiFlavor::Complete), ("link".into(), 2));
        assert_eq!(
            strip_ansi("a\u{1b}[2Kb", AnsiFlavor::Upstream),
            ("ab".into(), 1)
        );
        // Backtracking picks the fifth digit as the final character, leaving the `m`.
        assert_eq!(
            strip_ansi("\u{1b}[12345m", AnsiFlavor::Upstream),
            ("m".into(), 1)
        );
    }

    /// A format's name is what `init_ok` declares and a trace records: each is pinned, and
    /// each finds its format back.
    #[test]
    fn each_format_is_found_by_its_name() {
        let names = TextFormat::ALL.map(TextFormat::name);
        assert_eq!(
            names,
            [
                "pi-bgrun-0.7",
                "bgtail-exact-1",
                "gemini-cli-0.56",
                "mux-0.28",
                "plain-1",
                "codex-343074d4",
                "bgtail-exact-1-in-codex",
            ]
        );
        for format in TextFormat::ALL {
            assert_eq!(TextFormat::from_name(format.name()), Some(format));
        }
        assert_eq!(TextFormat::from_name("pi-bgrun-0.8"), None);
    }

    /// Upstream's format prints an OSC sequence (a window title, a hyperlink) as the log holds
    /// it; the exact format strips it with the others and shows a NUL as `␀`.
    #[test]
    fn upstream_prints_osc_and_the_exact_format_strips_it() {
        let line = "\u{1b}[1mok\u{1b}]0;title\u{7}\0";
        assert_eq!(
            TextFormat::Upstream.clean(line),
            ("ok\u{1b}]0;title\u{7}\0".into(), 1)
        );
        assert_eq!(TextFormat::Exact.clean(line), ("ok\u{2400}".into(), 2));
        assert_eq!(TextFormat::Mux.clean(line), (line.into(), 0));
    }

    #[test]
    fn a_pair_stays_and_a_run_of_three_folds() {
        let out = condense_oldest_first(
            &["dup", "dup", "spinner", "spinner", "spinner", "done"],
            &l(),
        );
        assert_eq!(out.body, "dup\ndup\nspinner  [x3]\ndone");
        assert_eq!(out.notes, vec!["1 repeated-line run collapsed"]);
        assert_eq!(out.lines_rendered, 6);
    }

    #[test]
    fn the_cap_keeps_the_oldest_prefix_and_counts_the_selection() {
        let lines: Vec<String> = (0..200)
            .map(|i| format!("{i:03}{}", "x".repeat(504)))
            .collect();
        let out = condense_oldest_first(&lines, &l());
        // 508 units each: 15 × 508 = 7,620 ≤ 8,000 < 16 × 508.
        assert_eq!(out.emissions_kept, 15);
        assert!(out.body.starts_with("000"));
        assert!(out.notes[0].starts_with("output capped at 8000 chars — 200 raw lines total"));
        assert!(out.body.len() < 8000);
    }

    #[test]
    fn a_long_fold_keeps_its_count_only_in_the_exact_style() {
        let limits = Limits {
            line_cap: 4,
            ..Limits::default()
        };
        let lines = ["abcdef"; 3];
        let up = build_emissions(&lines, &limits, TextFormat::Upstream);
        assert_eq!(up.list[0].text, "abcd …[+8 chars]");
        let exact = build_emissions(&lines, &limits, TextFormat::Exact);
        assert_eq!(exact.list[0].text, "abcd …[+2 chars]  [x3]");
        assert_eq!(exact.list[0].units, 22);
    }

    #[test]
    fn a_long_line_is_cut_at_the_cap_with_its_overflow() {
        let long = "x".repeat(5000);
        let out = condense_oldest_first(&[long.as_str()], &l());
        assert_eq!(out.body, format!("{} …[+3000 chars]", "x".repeat(2000)));
        assert_eq!(out.notes, vec!["1 long line truncated to 2000 chars"]);
    }
}
