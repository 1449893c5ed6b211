//! The profile an engine in another process negotiated at its handshake — its text format,
//! window, capabilities and limits, each marked declared or default — printed once per
//! command before the first result, so that a reader's author sees what the judge holds it
//! to (a misspelled key is an error, not a silent default: `eut`).

use crate::eut::ProcessEngine;
use bgtail::condense::TextFormat;
use std::collections::HashSet;
use std::sync::Mutex;

/// The commands whose profile this run has printed: `verify` starts one engine per bound
/// and again for the corpus, and each prints nothing new.
static PRINTED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Prints `engine`'s profile on stderr (stdout stays the command's result, `--json` too),
/// unless it was printed for `command` already in this run.
pub fn announce(command: &str, engine: &ProcessEngine) {
    let mut printed = PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    if printed
        .get_or_insert_with(HashSet::new)
        .insert(command.to_owned())
    {
        eprint!("{}", describe(engine));
    }
}

/// The profile as it prints: one line a part.
pub fn describe(e: &ProcessEngine) -> String {
    let mut out = format!(
        "engine {} {} (bgtail-eut {}):\n",
        e.info.name,
        e.info.version,
        bgtail::protocol::VERSION
    );
    let mark = |declared: bool| if declared { "declared" } else { "default" };
    let format = e.text_format.name();
    out += &format!(
        "  text format   {format} ({}){}\n",
        mark(e.format_declared),
        plain(e)
    );
    let caps = e.capabilities;
    let lines = e.limits.and_then(|l| l.lines_default);
    out += &format!(
        "  window        {}\n",
        if caps.no_window {
            "none: every new line is owed whatever `lines` says (no_window, declared)".to_owned()
        } else {
            format!(
                "the last `lines` lines; {} when a read gives none ({})",
                lines.unwrap_or(40),
                mark(lines.is_some())
            )
        }
    );
    let on: Vec<&str> = capability_names(caps)
        .into_iter()
        .filter_map(|(name, on)| on.then_some(name))
        .collect();
    out += &format!(
        "  capabilities  {} (declared); every other: no (default)\n",
        if on.is_empty() {
            "none".to_owned()
        } else {
            on.join(", ")
        }
    );
    out += &format!("  limits        {}\n", limits(e));
    out
}

/// Each capability by its protocol name, and whether the engine has it.
fn capability_names(c: bgtail::protocol::Capabilities) -> [(&'static str, bool); 10] {
    [
        ("raw", c.raw),
        ("bytes", c.bytes),
        ("peek", c.peek),
        ("shown", c.shown),
        ("reset", c.reset),
        ("snapshot", c.snapshot),
        ("no_window", c.no_window),
        ("exit_by_running", c.exit_by_running),
        ("drain", c.drain),
        ("appends_only", c.appends_only),
    ]
}

/// The limits, each with its value and whether the engine declared it.
fn limits(e: &ProcessEngine) -> String {
    let d = e.limits.unwrap_or_default();
    let one = |name: &str, value: Option<u64>, default: &str| match value {
        Some(v) => format!("{name} {v} (declared)"),
        None => format!("{name} {default} (default)"),
    };
    let mut all = vec![
        one("text_budget", d.text_budget, "8000"),
        one("line_cap", d.line_cap, "none: long lines 2000 units"),
        one("view_default", d.view_default, "the whole log"),
        one("lines_default", d.lines_default, "40"),
    ];
    // The largest view and the places compared to see a change, named only where declared:
    // most readers have none.
    let places = [
        ("view_max", d.view_max),
        ("head_probe_bytes", d.head_probe_bytes),
        ("settled_print_bytes", d.settled_print_bytes),
        ("partial_print_bytes", d.partial_print_bytes),
    ];
    for (name, value) in places {
        if let Some(v) = value {
            all.push(format!("{name} {v} (declared)"));
        }
    }
    all.join(", ")
}

/// A plain reader's declaration in a few words (nothing for other formats).
fn plain(e: &ProcessEngine) -> String {
    let Some(p) = e
        .plain
        .as_ref()
        .filter(|_| e.text_format == TextFormat::Plain)
    else {
        return String::new();
    };
    let d = &p.declared;
    let json = serde_json::to_string(d).unwrap_or_default();
    format!(": {json}")
}
