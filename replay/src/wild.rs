//! The readers measured in the wild: every job of captured sessions audited
//! (`bgtail::harness_audit`), one row per job and a total per harness, as `bgtail audit`
//! prints it and `bgtail readers` writes it into docs/readers.md.

use crate::sessions::import_file;
use bgtail::harness_audit::{audit, JobAudit};
use bgtail::session_format::SessionFormat;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One job, audited.
pub struct Row {
    /// The session file's name (never its folders).
    pub session: String,
    /// The harness's name as the table shows it.
    pub harness: &'static str,
    /// The job's id in its session.
    pub job: String,
    /// What the audit found.
    pub audit: JobAudit,
}

/// Every job of `sessions`, audited, in file order.
pub fn audit_sessions(
    sessions: &[PathBuf],
    format: Option<SessionFormat>,
) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for path in sessions {
        for job in import_file(path, format)? {
            let trace = &job.import.trace;
            rows.push(Row {
                session: file_name(path),
                harness: harness_name(job.format),
                job: trace.header.job_id.clone(),
                audit: audit(trace),
            });
        }
    }
    Ok(rows)
}

fn harness_name(format: SessionFormat) -> &'static str {
    match format {
        SessionFormat::Codex => "Codex",
        SessionFormat::ClaudeCode => "Claude Code",
        _ => "pi-bgrun 0.7.1",
    }
}

fn file_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    match path.parent().and_then(|p| p.file_name()) {
        Some(folder) => format!("{}/{name}", folder.to_string_lossy()),
        None => name,
    }
}

/// The columns of both tables.
const HEAD: &str = "| reads | other reads | log lines | unknown | shown | shown again (chars) | never shown | untrue | lost | chars sent | exact: chars | exact: shown | exact: lost |";

/// One row's figures, in [`HEAD`]'s order.
fn figures(a: &JobAudit) -> String {
    let h = &a.harness_tally;
    let e = &a.exact_tally;
    format!(
        "| {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} | {} | {} | {} | {} |",
        h.reads,
        a.agent_reads,
        a.log_lines,
        a.unknown_lines,
        h.lines_delivered - h.lines_repeated,
        h.lines_repeated,
        h.chars_repeated,
        h.lines_never_shown,
        a.untrue_lines,
        h.lines_lost,
        h.chars_delivered + a.agent_chars,
        e.chars_delivered,
        e.lines_delivered - e.lines_repeated,
        e.lines_lost
    )
}

/// The table of every job, then the total per harness.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| harness | session | job {HEAD}");
    let _ = writeln!(
        out,
        "|---|---|---{}",
        "|---:".repeat(HEAD.matches('|').count() - 1) + "|"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | `{}` | `{}` {}",
            r.harness,
            r.session,
            r.job,
            figures(&r.audit)
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "| harness | jobs {HEAD}");
    let _ = writeln!(
        out,
        "|---|---:{}",
        "|---:".repeat(HEAD.matches('|').count() - 1) + "|"
    );
    let mut names: Vec<&str> = rows.iter().map(|r| r.harness).collect();
    names.dedup();
    for name in names {
        let of: Vec<&JobAudit> = rows
            .iter()
            .filter(|r| r.harness == name)
            .map(|r| &r.audit)
            .collect();
        let _ = writeln!(out, "| {name} | {} {}", of.len(), figures(&sum(&of)));
    }
    out
}

/// The figures of several jobs added up.
fn sum(audits: &[&JobAudit]) -> JobAudit {
    let mut total = audits[0].clone();
    for a in &audits[1..] {
        total.add(a);
    }
    total
}
