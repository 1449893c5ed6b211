//! Checking a model: every property's verdict, the counterexamples as traces, the reasons a
//! reply broke a property. What the CLI's `check` and `verify` run, callable from a test.

use crate::{shortest_discovery, Action, TailModel};
use bgtail::trace::Trace;
use bgtail::Engine;
use stateright::{Checker, Expectation, Model};
use std::time::Instant;

/// One property's outcome.
pub struct PropertyVerdict {
    /// The property's name, as the model declares it.
    pub name: &'static str,
    /// `always`, `sometimes` or `eventually`.
    pub expectation: Expectation,
    /// The path the checker found: a counterexample, or for `sometimes` an example.
    pub discovery: Option<Vec<Action>>,
    /// For a counterexample: the step where the judge found the anomaly, the anomaly (its
    /// line, what was expected, what the reply said), and the reply.
    pub why: Option<String>,
}

/// Why `path` breaks `property`: its last read with an anomaly of that property, replayed,
/// with the reply as [`reply_lines`] shows it.
fn explain<E: Engine>(model: &TailModel<E>, path: &[Action], property: &str) -> Option<String> {
    let steps = model.explain(path);
    steps.iter().enumerate().rev().find_map(|(i, step)| {
        let anomaly = step
            .anomalies
            .iter()
            .find(|a| a.kind.property() == property)?;
        let reply: String = reply_lines(step.text.as_deref().unwrap_or(""))
            .iter()
            .map(|l| format!("\n              | {l}"))
            .collect();
        Some(format!(
            "step {} {:?}: {anomaly}\n            the reply:{reply}",
            i + 1,
            step.action
        ))
    })
}

/// A console line longer than this many characters shows its first [`LINE_HEAD`] and its
/// length.
const LINE_SHOWN: usize = 160;
const LINE_HEAD: usize = 100;
/// A reply of more lines than this shows its first and last [`REPLY_END`] lines and counts
/// the rest.
const REPLY_SHOWN: usize = 40;
const REPLY_END: usize = 15;

/// `line` with control characters (`\r`, escape sequences) written as Rust escapes, so that
/// they show on a terminal instead of acting on it.
fn escaped(line: &str) -> String {
    let debug = format!("{line:?}");
    debug[1..debug.len() - 1].to_owned()
}

/// A reply as a counterexample prints it: every line, each one past 160 characters cut to
/// its first 100 with its length said (`… (2005 chars)`); past 40 lines, the first and last
/// 15 with the lines between counted (`… 70 more lines …`).
pub fn reply_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let show = |line: &&str| match line.char_indices().nth(LINE_SHOWN) {
        None => escaped(line),
        Some(_) => {
            let cut = line
                .char_indices()
                .nth(LINE_HEAD)
                .map_or(line.len(), |(at, _)| at);
            format!(
                "{}… ({} chars)",
                escaped(&line[..cut]),
                line.chars().count()
            )
        }
    };
    if lines.len() <= REPLY_SHOWN {
        return lines.iter().map(show).collect();
    }
    let left_out = lines.len() - 2 * REPLY_END;
    let mut out: Vec<String> = lines[..REPLY_END].iter().map(show).collect();
    out.push(format!("… {left_out} more lines …"));
    out.extend(lines[lines.len() - REPLY_END..].iter().map(show));
    out
}

/// What one check came to.
pub struct Summary {
    /// The engine's name ([`Engine::name`]).
    pub engine: &'static str,
    /// States generated, counting each every time it is reached.
    pub states: usize,
    /// Distinct states.
    pub unique: usize,
    /// The longest path explored.
    pub depth: usize,
    /// Wall time of the check.
    pub seconds: f64,
    /// Every property's outcome, in the model's order.
    pub verdicts: Vec<PropertyVerdict>,
    /// Whether every sometimes-property must be reached (bounds with every action family).
    pub require_examples: bool,
}

impl Summary {
    /// An always property broken, or a sometimes property never reached.
    pub fn failures(&self) -> Vec<&PropertyVerdict> {
        self.verdicts
            .iter()
            .filter(|v| match v.expectation {
                Expectation::Sometimes => self.require_examples && v.discovery.is_none(),
                _ => v.discovery.is_some(),
            })
            .collect()
    }
}

/// How far a running check has come.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// States generated so far, counting each every time it is reached.
    pub states: usize,
    /// Distinct states so far.
    pub unique: usize,
    /// Seconds since the check started.
    pub seconds: f64,
}

/// Checks one engine's model with `threads` threads and gives back the model with its
/// summary; DFS for the exhaustive run (BFS ignores nothing here, but DFS
/// needs far less memory).
pub fn check<E>(
    model: TailModel<E>,
    threads: usize,
    require_examples: bool,
) -> (Summary, TailModel<E>)
where
    E: Engine + Send + Sync + Clone + 'static,
    E::State: Send + Sync,
{
    check_watched(model, threads, require_examples, None)
}

/// [`check`], telling `watch` how far it has come every so often while it runs (a first
/// look after 5 ms, then at intervals doubling up to 200 ms, so that a short check is not
/// kept waiting).
pub fn check_watched<E>(
    model: TailModel<E>,
    threads: usize,
    require_examples: bool,
    mut watch: Option<&mut dyn FnMut(Progress)>,
) -> (Summary, TailModel<E>)
where
    E: Engine + Send + Sync + Clone + 'static,
    E::State: Send + Sync,
{
    let engine = model.engine.clone();
    let config = model.config.clone();
    let started = Instant::now();
    let running = model.checker().threads(threads).spawn_dfs();
    if let Some(watch) = watch.as_mut() {
        let mut pause = std::time::Duration::from_millis(5);
        while !running.is_done() {
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(200));
            watch(Progress {
                states: running.state_count(),
                unique: running.unique_state_count(),
                seconds: started.elapsed().as_secs_f64(),
            });
        }
    }
    let checker = running.join();
    let seconds = started.elapsed().as_secs_f64();
    let discoveries = checker.discoveries();
    let verdicts = checker
        .model()
        .properties()
        .iter()
        .map(|p| {
            // A counterexample is the shortest path to it, as `--export` writes it; an example
            // of a `sometimes` property is whichever path the checker found first.
            let discovery = discoveries.get(p.name).map(|path| {
                let found = path.clone().into_actions();
                match p.expectation {
                    Expectation::Sometimes => found,
                    _ => shortest_discovery(checker.model(), p.name).unwrap_or(found),
                }
            });
            let why = discovery
                .as_ref()
                .filter(|_| p.expectation != Expectation::Sometimes)
                .and_then(|path| explain(checker.model(), path, p.name));
            PropertyVerdict {
                name: p.name,
                expectation: p.expectation.clone(),
                discovery,
                why,
            }
        })
        .collect();
    let summary = Summary {
        engine: engine.name(),
        states: checker.state_count(),
        unique: checker.unique_state_count(),
        depth: checker.max_depth(),
        seconds,
        verdicts,
        require_examples,
    };
    (summary, TailModel::new(engine, config))
}

/// A broken `always` property's shortest counterexample, as a replayable trace.
pub struct Counterexample {
    /// `<engine>-<bound>-<property>`, with every character but ASCII letters and digits made
    /// `-`: the trace's name, and its file's stem.
    pub name: String,
    /// The path, the same bytes and reads, with the model's limits in its header.
    pub trace: Trace,
}

/// Each counterexample of `summary`, on the shortest path to it (a deterministic
/// breadth-first search, run by [`check`]) rather than whichever path a parallel checker
/// happened to record. `bound` names the bound in the traces' names and descriptions.
pub fn counterexamples<E>(
    model: &TailModel<E>,
    summary: &Summary,
    bound: &str,
) -> Vec<Counterexample>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    let mut out = Vec::new();
    for v in &summary.verdicts {
        // Only counterexamples: a broken always-property.
        if v.discovery.is_none() || v.expectation == Expectation::Sometimes {
            continue;
        }
        // `check` made every counterexample the shortest path to it.
        let Some(path) = v.discovery.as_ref() else {
            continue;
        };
        out.push(counterexample(model, bound, v.name, path));
    }
    out
}

/// `path`, the shortest counterexample to `property` at `bound` that the model checker found
/// for `model`'s engine, as a replayable trace named as [`counterexamples`] names it.
pub fn counterexample<E>(
    model: &TailModel<E>,
    bound: &str,
    property: &str,
    path: &[Action],
) -> Counterexample
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    let engine = model.engine.name();
    let name = format!("{}-{bound}-{}", slug(engine), slug(property));
    let description = format!(
        "the shortest counterexample to \"{property}\" found by the model checker ({engine} engine, bound {bound})"
    );
    let trace = model.to_trace(path, &name, &description);
    Counterexample { name, trace }
}

/// `text` with every character but ASCII letters and digits made `-`.
fn slug(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}
