//! Captured agent sessions read and imported in memory — pi's (`bgtail::pi_import`), Codex's
//! (`bgtail::codex_import`) and Claude Code's (`bgtail::claude_import`), the format told from
//! each file or given — for `bgtail import` to write and `bgtail audit` to judge. Warnings go
//! to stderr, naming the file and line.

use anyhow::Context as _;
use bgtail::claude_import;
use bgtail::claude_session::ClaudeSession;
use bgtail::codex_import;
use bgtail::codex_session::CodexSession;
use bgtail::pi_import::{calls_of, import_job, jobs_of, JobImport};
use bgtail::pi_session::PiSession;
use bgtail::session_format::{detect, SessionFormat};
use std::path::Path;

/// `--format`'s values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum FormatArg {
    /// pi's session files (pi-bgrun's bgtail and bggrep calls).
    Pi,
    /// Codex CLI rollouts (`exec_command`, `write_stdin`).
    Codex,
    /// Claude Code transcripts (background Bash tasks, `TaskOutput`).
    ClaudeCode,
}

impl From<FormatArg> for SessionFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Pi => SessionFormat::Pi,
            FormatArg::Codex => SessionFormat::Codex,
            FormatArg::ClaudeCode => SessionFormat::ClaudeCode,
        }
    }
}

/// One job of a session, imported.
pub struct ImportedJob {
    /// The trace's name (its file's stem).
    pub name: String,
    /// The session file's format.
    pub format: SessionFormat,
    /// The session file, as given.
    pub session: String,
    /// The trace and the import's report.
    pub import: JobImport,
}

/// Every job of one session file, imported; nothing written yet.
pub fn import_file(path: &Path, format: Option<SessionFormat>) -> anyhow::Result<Vec<ImportedJob>> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).with_context(|| shown.clone())?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        anyhow::anyhow!("{shown}: not UTF-8 at byte {at}")
    })?;
    let format = match format {
        Some(f) => f,
        None => detect(&text).map_err(|why| anyhow::anyhow!("{shown}: {why}"))?,
    };
    let stem = stem_of(path);
    let jobs = match format {
        SessionFormat::Codex => codex_jobs(&shown, &text, &stem)?,
        SessionFormat::ClaudeCode => claude_jobs(&shown, &text, &stem)?,
        _ => pi_jobs(&shown, &text, &stem)?,
    };
    if jobs.is_empty() {
        eprintln!("{shown}: no background job read by the agent; nothing to import");
    }
    Ok(jobs
        .into_iter()
        .map(|(name, import)| ImportedJob {
            name,
            format,
            session: shown.clone(),
            import,
        })
        .collect())
}

/// The name traces of this file start with: its folder (pi's benchmark cells) and its stem.
fn stem_of(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or("session".into(), |s| s.to_string_lossy().into_owned());
    let cell = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|s| format!("{}-", s.to_string_lossy()))
        .unwrap_or_default();
    format!("{cell}{stem}")
}

fn pi_jobs(shown: &str, text: &str, stem: &str) -> anyhow::Result<Vec<(String, JobImport)>> {
    let session = PiSession::parse(shown, text)?;
    let jobs = jobs_of(&session);
    let mut out = Vec::new();
    for (k, job) in jobs.iter().enumerate() {
        let calls = calls_of(&session, job);
        let name = if jobs.len() == 1 {
            stem.to_owned()
        } else {
            format!("{stem}-job{}", k + 1)
        };
        if !calls.iter().any(|c| c.name == "bgtail") {
            eprintln!("{shown}: job {job}: only bggrep calls, nothing to replay; no trace");
            continue;
        }
        out.push((name.clone(), import_job(&session, &name, job, &calls)));
    }
    Ok(out)
}

fn codex_jobs(shown: &str, text: &str, stem: &str) -> anyhow::Result<Vec<(String, JobImport)>> {
    let session = CodexSession::parse(shown, text)?;
    for w in &session.warnings {
        eprintln!("{shown}:{}: warning: {}", w.line, w.message);
    }
    let file = file_name(shown);
    Ok(session
        .jobs
        .iter()
        .map(|job| {
            let name = format!("{stem}-job{}", job.process);
            let import = codex_import::import_job(&session, &file, &name, job);
            (name, import)
        })
        .collect())
}

fn claude_jobs(shown: &str, text: &str, stem: &str) -> anyhow::Result<Vec<(String, JobImport)>> {
    let session = ClaudeSession::parse(shown, text)?;
    for w in &session.warnings {
        eprintln!("{shown}:{}: warning: {}", w.line, w.message);
    }
    let file = file_name(shown);
    for task in session.tasks.iter().filter(|t| t.reads.is_empty()) {
        eprintln!("{shown}: task {}: never read; no trace", task.id);
    }
    Ok(session
        .tasks
        .iter()
        .filter(|task| !task.reads.is_empty())
        .map(|task| {
            let name = format!("{stem}-task-{}", task.id);
            let import = claude_import::import_task(&session, &file, &name, task);
            (name, import)
        })
        .collect())
}

/// The file's name without its folders: a trace names its source, never a user's path.
fn file_name(shown: &str) -> String {
    Path::new(shown)
        .file_name()
        .map_or(shown.to_owned(), |n| n.to_string_lossy().into_owned())
}
