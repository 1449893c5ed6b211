//! Progress on long work: states explored by a check, traces done by a replay. Drawn on
//! stderr only when it is a terminal, outside CI (`CI` set) and without `--json`, so that
//! logs and machine-read output never carry it; cleared when the work ends. Bars of work done
//! at once (`bgtail readers` measures its readers side by side) are drawn one per line.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Set by a command printing `--json`: nothing is drawn for the rest of the run.
static SILENCED: AtomicBool = AtomicBool::new(false);

/// No progress for the rest of the run.
pub fn silence() {
    SILENCED.store(true, Ordering::Relaxed);
}

/// Whether progress is drawn: stderr is a terminal, `CI` is not set, no `--json`.
fn drawn() -> bool {
    !SILENCED.load(Ordering::Relaxed)
        && std::env::var_os("CI").is_none()
        && std::io::stderr().is_terminal()
}

/// Every drawn bar of the run, so that bars of work done at once share stderr, one line each.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr_with_hz(4)))
}

/// Writes `line` to stderr above the bars being drawn (plainly when none is).
pub fn note(line: &str) {
    if drawn() {
        bars().suspend(|| eprintln!("{line}"));
    } else {
        eprintln!("{line}");
    }
}

/// A bar that draws nothing when progress is not [`drawn`].
fn bar(length: Option<u64>, template: &str) -> ProgressBar {
    if !drawn() {
        return ProgressBar::hidden();
    }
    let bar = bars().add(match length {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    });
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// A check of `what` under way: states generated and distinct, and states per second.
pub fn states(what: &str) -> ProgressBar {
    let bar = bar(None, "{spinner} {prefix}: {msg} ({elapsed})");
    bar.set_prefix(what.to_owned());
    bar
}

/// Updates a [`states`] bar from a check's progress.
pub fn show_states(bar: &ProgressBar, p: bgtail_model::checking::Progress) {
    bar.set_message(format!(
        "{} states, {} unique, {:.0}/s",
        p.states,
        p.unique,
        p.states as f64 / p.seconds.max(1e-9)
    ));
}

/// `count` traces to go through.
pub fn traces(count: usize, what: &str) -> ProgressBar {
    let bar = bar(
        Some(count as u64),
        "{prefix} [{bar:30}] {pos}/{len} traces ({elapsed}, {eta} left) {msg}",
    );
    bar.set_prefix(what.to_owned());
    bar
}
