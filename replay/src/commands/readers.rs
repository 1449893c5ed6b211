//! `bgtail readers`: every reader the project measures — the exact engine, and pi-bgrun's,
//! Gemini CLI's and mux's own code through their adapters — model-checked at CI-sized bounds
//! and replayed over the corpus with the contract required, as the tables of
//! `docs/readers.md`. The command writes the page's generated part (between its markers), or
//! with `--check` fails when the page differs from what the checks give.

use crate::checks::bound::{bound_slug, configured, Bound, Spec};
use crate::checks::run::{export, outside_check, outside_model, write_counterexample};
use crate::corpus::{load, replay_trace, timeout, trace_files, ReplayEngine};
use crate::engine_arg::EngineArg;
use crate::replay_eut::Outside;
use anyhow::{bail, Context as _};
use bgtail::replay::Replay;
use bgtail::Engine;
use bgtail_model::checking::{self, Summary};
use bgtail_model::{shortest_discovery, Action, LineKind, TailModel};
use stateright::Expectation;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The page whose generated part is written, between its `bgtail readers` markers.
    #[arg(long, default_value = "docs/readers.md")]
    pub page: PathBuf,
    /// Compare instead of writing: exit 1 when the page's generated part differs.
    #[arg(long)]
    pub check: bool,
    /// The external inputs' folder (the checkouts are under `upstream/`): by default
    /// `$BGTAIL_SHARED`, else `../shared`.
    #[arg(long)]
    pub shared: Option<PathBuf>,
    /// Seconds to await each reply of a reader in another process.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Also write each broken property's shortest counterexample as a trace into this folder.
    #[arg(long)]
    pub export: Option<PathBuf>,
}

/// Where a reader's code comes from.
enum Source {
    /// The in-crate exact engine.
    Exact,
    /// An adapter (`adapters/<folder>/main.mjs`) over a checkout under the shared folder.
    Adapter {
        folder: &'static str,
        checkout: &'static str,
    },
}

/// One bound a reader is checked at: a named bound with CI-sized overrides.
struct At {
    bound: Bound,
    max_lines: Option<u8>,
    max_reads: Option<u8>,
}

const fn at(bound: Bound, max_lines: Option<u8>, max_reads: Option<u8>) -> At {
    At {
        bound,
        max_lines,
        max_reads,
    }
}

/// A path a reader is run along, literally, at a bound too large to search on every run: the
/// shortest counterexamples a full check at that bound found (docs/readers.md gives its
/// command). The judge names what the reader does on it now, so a reader that stops failing
/// there changes the table.
struct Witness {
    at: At,
    path: &'static [Action],
}

/// A reader of the table.
struct Reader {
    name: &'static str,
    source: Source,
    /// Issue #28's two worlds, and CI's families (resets, partial lines, the exit) over small
    /// logs; mux, whose every state is rebuilt by real processes at tens of reads per second,
    /// at the gap world only, with its witnesses for the cap world and CI's families.
    bounds: &'static [At],
    /// Paths replayed at bounds the reader is not searched at (empty for all but mux).
    witnesses: &'static [Witness],
}

const CI_SMALL: At = at(Bound::Ci, Some(3), Some(2));
/// CI's families over 1-line logs and 2 reads: 6,007 unique states and 269 s for mux (the cap
/// world: 7,845 and 482 s); with this bound among mux's, a `bgtail readers` run takes 18 m 53 s.
const CI_ONE_LINE: At = at(Bound::Ci, Some(1), Some(2));

const READERS: [Reader; 4] = [
    Reader {
        name: "bgtail exact",
        source: Source::Exact,
        bounds: &[
            at(Bound::Gap, None, None),
            at(Bound::Cap, None, None),
            CI_SMALL,
        ],
        witnesses: &[],
    },
    Reader {
        name: "pi-bgrun 0.7.1 (its own code)",
        source: Source::Adapter {
            folder: "pi-bgrun",
            checkout: "upstream/pi-bgrun-0.7.1",
        },
        bounds: &[at(Bound::Gap, None, None), at(Bound::Cap, None, None)],
        witnesses: &[],
    },
    Reader {
        name: "Gemini CLI at 5411f113 (its own code)",
        source: Source::Adapter {
            folder: "gemini-cli",
            checkout: "upstream/gemini-cli-5411f113",
        },
        bounds: &[
            at(Bound::Gap, None, None),
            at(Bound::Cap, None, None),
            CI_SMALL,
        ],
        witnesses: &[],
    },
    Reader {
        name: "mux 0.28.2 (its own code)",
        source: Source::Adapter {
            folder: "mux",
            checkout: "upstream/mux-f2160b19",
        },
        bounds: &[at(Bound::Gap, None, None)],
        witnesses: &[
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::Append(LineKind::Short),
                    Action::Read(1),
                    Action::Truncate,
                    Action::Read(1),
                ],
            },
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::Append(LineKind::Short),
                    Action::Read(1),
                    Action::Rewrite,
                    Action::Read(1),
                ],
            },
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::Append(LineKind::Short),
                    Action::Read(1),
                    Action::Truncate,
                    Action::Append(LineKind::Long),
                    Action::Read(1),
                ],
            },
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::WritePartial,
                    Action::Read(1),
                    Action::Truncate,
                    Action::Read(1),
                ],
            },
            Witness {
                at: at(Bound::Cap, None, None),
                path: &[
                    Action::Append(LineKind::Long),
                    Action::Append(LineKind::Long),
                    Action::Append(LineKind::Long),
                    Action::Append(LineKind::Long),
                    Action::Read(1),
                ],
            },
        ],
    },
];

/// The column of the shortest counterexample to any `always` property that writes or
/// completes a partial line on its way.
const PARTIAL_LINES: &str = "partial lines";

/// Whether `action` writes or completes a partial line.
fn partial(action: &Action) -> bool {
    matches!(action, Action::WritePartial | Action::CompletePartial)
}

/// The model's `always` properties, in its order: the table's columns before
/// [`PARTIAL_LINES`], taken from the model so that a property it gains is a column too.
fn properties() -> Vec<&'static str> {
    use stateright::Model as _;
    TailModel::exact(bgtail_model::ModelConfig::ci())
        .properties()
        .into_iter()
        .filter(|p| p.expectation == Expectation::Always)
        .map(|p| p.name)
        .collect()
}

/// A broken property's shortest counterexample: where, how long, which anomaly.
struct Broken {
    /// The bound's name, and `path replayed` where the path is a witness's.
    bound: String,
    path: Vec<bgtail_model::Action>,
    anomaly: String,
}

/// What one reader came to.
#[derive(Default)]
struct Measured {
    /// Per property, the shortest counterexample over the reader's bounds.
    broken: BTreeMap<&'static str, Broken>,
    /// Each bound's name and its unique states.
    checked: Vec<(String, usize)>,
    /// Each witness's bound and its length.
    replayed: Vec<(String, usize)>,
    corpus: Corpus,
}

/// The corpus through one reader, summed over its traces.
#[derive(Default)]
struct Corpus {
    reads: u64,
    not_replayed: u64,
    lines_delivered: u64,
    lines_repeated: u64,
    chars_repeated: u64,
    lines_lost: u64,
    anomalies: BTreeMap<String, u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shared = shared_dir(args.shared.as_deref());
    // Every checkout is found before any check runs, so that a missing one fails at once.
    let engines = READERS
        .iter()
        .map(|r| engine_of(r, &shared))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut rows = Vec::new();
    for (reader, engine) in READERS.iter().zip(&engines) {
        eprintln!("bgtail readers: {}", reader.name);
        rows.push((reader, measure(reader, engine, &args)?));
    }
    let table = render(&rows);
    let page = std::fs::read_to_string(&args.page)
        .with_context(|| format!("{}: the page to write the tables into", args.page.display()))?;
    let updated = with_generated(&page, &table)
        .with_context(|| format!("{}: no `{BEGIN}` … `{END}` markers", args.page.display()))?;
    if args.check {
        if updated == page {
            println!("{}: up to date", args.page.display());
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "{}: the tables differ from what the checks give; run `bgtail readers` to write them. They give:\n{table}",
            args.page.display()
        );
        return Ok(ExitCode::FAILURE);
    }
    std::fs::write(&args.page, updated).with_context(|| args.page.display().to_string())?;
    println!("{}: written", args.page.display());
    Ok(ExitCode::SUCCESS)
}

/// The shared folder: the flag's, `$BGTAIL_SHARED`'s, or `../shared`.
fn shared_dir(flag: Option<&Path>) -> PathBuf {
    match (flag, std::env::var_os("BGTAIL_SHARED")) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Some(env)) if !env.is_empty() => PathBuf::from(env),
        _ => PathBuf::from("../shared"),
    }
}

/// The reader's engine, as `check` and `replay` name it.
fn engine_of(reader: &Reader, shared: &Path) -> anyhow::Result<ReplayEngine> {
    Ok(match reader.source {
        Source::Exact => ReplayEngine::Builtin(EngineArg::Exact),
        Source::Adapter { folder, checkout } => {
            let path = shared.join(checkout);
            if !path.exists() {
                bail!(
                    "{}: {}'s checkout is missing (docs/inputs.md says where it comes from)",
                    path.display(),
                    reader.name
                );
            }
            ReplayEngine::Command(format!(
                "node adapters/{folder}/main.mjs {}",
                path.display()
            ))
        }
    })
}

/// One reader: each bound checked, then the corpus.
fn measure(reader: &Reader, engine: &ReplayEngine, args: &Args) -> anyhow::Result<Measured> {
    let mut measured = Measured::default();
    for spec in reader.bounds {
        let check_args = check_args(engine, spec, args);
        let label = label(spec);
        match engine {
            ReplayEngine::Builtin(_) => {
                let model = TailModel::exact(configured(&check_args));
                let (summary, model) = checking::check(model, 1, spec.bound.complete());
                record(&mut measured, &model, &summary, (spec.bound, &label), args)?;
            }
            ReplayEngine::Command(command) => {
                let (summary, model, _) = outside_check(&check_args, command)?;
                record(&mut measured, &model, &summary, (spec.bound, &label), args)?;
            }
        }
    }
    for witness in reader.witnesses {
        replay_witness(&mut measured, witness, engine, args)?;
    }
    measured.corpus = corpus(engine, args)?;
    Ok(measured)
}

/// `check`'s arguments for one bound of a reader.
fn check_args(engine: &ReplayEngine, spec: &At, args: &Args) -> Spec {
    Spec::bounded(
        engine.clone(),
        spec.bound,
        spec.max_lines,
        spec.max_reads,
        args.timeout,
    )
}

/// The bound as the table names it (`ci, 3 lines, 2 reads`).
fn label(spec: &At) -> String {
    let mut label = bound_slug(spec.bound);
    match spec.max_lines {
        Some(1) => label.push_str(", 1 line"),
        Some(n) => label.push_str(&format!(", {n} lines")),
        None => {}
    }
    if let Some(n) = spec.max_reads {
        label.push_str(&format!(", {n} reads"));
    }
    label
}

/// Adds one check's outcome: its states, and each broken property's shortest counterexample
/// where it is shorter than the one already kept.
fn record<E>(
    measured: &mut Measured,
    model: &TailModel<E>,
    summary: &Summary,
    (bound, label): (Bound, &str),
    args: &Args,
) -> anyhow::Result<()>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    measured.checked.push((label.to_owned(), summary.unique));
    for v in &summary.verdicts {
        if v.expectation == Expectation::Sometimes || v.discovery.is_none() {
            continue;
        }
        let path = shortest_discovery(model, v.name).or_else(|| v.discovery.clone());
        let Some(path) = path else { continue };
        let anomaly = model
            .explain(&path)
            .iter()
            .rev()
            .find_map(|step| step.anomalies.iter().find(|a| a.kind.property() == v.name))
            .map_or_else(|| "?".to_owned(), |a| format!("{:?}", a.kind));
        keep(measured, v.name, label, &anomaly, path);
    }
    if model.config.partial_lines {
        if let Some(path) = shortest_through_partial(model) {
            keep(
                measured,
                PARTIAL_LINES,
                label,
                &explain_last(model, &path),
                path,
            );
        }
    }
    if let Some(dir) = &args.export {
        export(model, summary, dir, &bound_slug(bound))?;
    }
    Ok(())
}

/// The shortest path that writes or completes a partial line and reaches a state where an
/// `always` property fails.
fn shortest_through_partial<E>(model: &TailModel<E>) -> Option<Vec<Action>>
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
{
    use stateright::Model as _;
    let always: Vec<_> = model
        .properties()
        .into_iter()
        .filter(|p| p.expectation == Expectation::Always)
        .collect();
    let bad = |s: &_| always.iter().any(|p| !(p.condition)(model, s));
    bgtail_model::shortest_through(model, partial, bad)
}

/// The first anomaly of an `always` property the judge names at the path's last step.
fn explain_last<E: Engine>(model: &TailModel<E>, path: &[Action]) -> String {
    let properties = properties();
    model
        .explain(path)
        .last()
        .and_then(|step| {
            step.anomalies
                .iter()
                .find(|a| properties.contains(&a.kind.property()))
        })
        .map_or_else(|| "?".to_owned(), |a| format!("{:?}", a.kind))
}

/// Keeps `path` as `column`'s counterexample where it is shorter than the one kept, and says
/// whether it did.
fn keep(
    measured: &mut Measured,
    column: &'static str,
    bound: &str,
    anomaly: &str,
    path: Vec<Action>,
) -> bool {
    let shorter = measured
        .broken
        .get(column)
        .is_none_or(|b| path.len() < b.path.len());
    if shorter {
        let broken = Broken {
            bound: bound.to_owned(),
            path,
            anomaly: anomaly.to_owned(),
        };
        measured.broken.insert(column, broken);
    }
    shorter
}

/// Runs the reader along a witness's path and keeps, per property, the path up to the step
/// where the judge first names an anomaly of it, where that is shorter than the one kept (and,
/// with `--export`, writes it as the trace a full check would write).
fn replay_witness(
    measured: &mut Measured,
    witness: &Witness,
    engine: &ReplayEngine,
    args: &Args,
) -> anyhow::Result<()> {
    let ReplayEngine::Command(command) = engine else {
        bail!("a witness is replayed through an engine in another process");
    };
    let label = label(&witness.at);
    let (model, _, _) = outside_model(&check_args(engine, &witness.at, args), command)?;
    let explained = model.explain(witness.path);
    if let Some(failure) = model.engine.failure() {
        bail!("{}: {failure}", model.engine.name());
    }
    let properties = properties();
    let bound = format!("{label}, path replayed");
    for (step, e) in explained.iter().enumerate() {
        let path = &witness.path[..=step];
        for a in &e.anomalies {
            let Some(&name) = properties.iter().find(|p| **p == a.kind.property()) else {
                continue;
            };
            let anomaly = format!("{:?}", a.kind);
            if path.iter().any(partial) {
                keep(measured, PARTIAL_LINES, &bound, &anomaly, path.to_vec());
            }
            if keep(measured, name, &bound, &anomaly, path.to_vec()) {
                if let Some(dir) = &args.export {
                    let slug = bound_slug(witness.at.bound);
                    let found = checking::counterexample(&model, &slug, name, path);
                    write_counterexample(&found, dir)?;
                }
            }
        }
    }
    measured.replayed.push((label, witness.path.len()));
    Ok(())
}

/// Every trace under `traces/` through the reader, the contract required.
fn corpus(engine: &ReplayEngine, args: &Args) -> anyhow::Result<Corpus> {
    let files = trace_files(&[PathBuf::from("traces")])?;
    let work = tempfile::tempdir().context("a temporary folder")?;
    let mut outside = match engine {
        ReplayEngine::Command(c) => Some(Outside::new(c, timeout(args.timeout)?)),
        ReplayEngine::Builtin(_) => None,
    };
    let mut sum = Corpus::default();
    for (i, file) in files.iter().enumerate() {
        let trace = load(file)?;
        let replays = match outside.as_mut() {
            None => replay_trace(&trace, EngineArg::Exact),
            Some(o) => {
                let dir = work.path().join(i.to_string());
                std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
                vec![o.replay(&trace, &dir)?]
            }
        };
        replays.iter().for_each(|r| add(&mut sum, r));
    }
    if let Some(o) = outside {
        o.finish()?;
    }
    Ok(sum)
}

/// Adds one replay to the sum.
fn add(sum: &mut Corpus, r: &Replay) {
    let t = &r.tally;
    sum.reads += t.reads;
    sum.lines_delivered += t.lines_delivered;
    sum.lines_repeated += t.lines_repeated;
    sum.chars_repeated += t.chars_repeated;
    sum.lines_lost += t.lines_lost;
    for read in &r.reads {
        sum.not_replayed += u64::from(read.text.starts_with("(not replayed"));
        for a in &read.anomalies {
            *sum.anomalies.entry(format!("{:?}", a.kind)).or_default() += 1;
        }
    }
}

const BEGIN: &str = "<!-- bgtail readers: begin -->";
const END: &str = "<!-- bgtail readers: end -->";

/// `page` with `table` between its markers.
fn with_generated(page: &str, table: &str) -> Option<String> {
    let begin = page.find(BEGIN)? + BEGIN.len();
    let end = begin + page[begin..].find(END)?;
    Some(format!("{}\n{table}{}", &page[..begin], &page[end..]))
}

/// The witnesses' bounds in the order first met, each with its paths' lengths
/// (`cap: 1 path replayed (5 steps)`).
fn replayed(witnesses: &[(String, usize)]) -> Vec<String> {
    let mut bounds: Vec<(&str, Vec<String>)> = Vec::new();
    for (bound, steps) in witnesses {
        match bounds.iter_mut().find(|(b, _)| b == bound) {
            Some((_, lengths)) => lengths.push(steps.to_string()),
            None => bounds.push((bound, vec![steps.to_string()])),
        }
    }
    bounds
        .into_iter()
        .map(|(bound, lengths)| {
            let paths = if lengths.len() == 1 { "path" } else { "paths" };
            let n = lengths.len();
            format!(
                "{bound}: {n} {paths} replayed ({} steps)",
                lengths.join(", ")
            )
        })
        .collect()
}

/// Whether a bound the reader is searched at writes partial lines: where none does, the
/// partial lines column says it is not checked rather than `holds`.
fn writes_partial_lines(reader: &Reader) -> bool {
    reader.bounds.iter().any(|b| b.bound.config().partial_lines)
}

/// The tables, in Markdown.
fn render(rows: &[(&Reader, Measured)]) -> String {
    let mut columns = properties();
    columns.push(PARTIAL_LINES);
    let mut out = String::new();
    out.push_str("| reader | ");
    out.push_str(&columns.join(" | "));
    out.push_str(" |\n|---|");
    out.push_str(&"---|".repeat(columns.len()));
    out.push('\n');
    for (reader, m) in rows {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| match m.broken.get(c) {
                Some(broken) => cell(broken),
                None if *c == PARTIAL_LINES && !writes_partial_lines(reader) => {
                    "not checked (no bound writes partial lines)".to_owned()
                }
                None => "holds".to_owned(),
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", reader.name, cells.join(" | ")));
    }
    out.push_str("\n| reader | bounds checked (unique states) |\n|---|---|\n");
    for (reader, m) in rows {
        let bounds: Vec<String> = m
            .checked
            .iter()
            .map(|(b, n)| format!("{b}: {}", thousands(*n as u64)))
            .chain(replayed(&m.replayed))
            .collect();
        out.push_str(&format!("| {} | {} |\n", reader.name, bounds.join("; ")));
    }
    out.push_str(
        "\n| reader | reads | not replayed | lines delivered | repeated | chars repeated | lost | anomalies |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (reader, m) in rows {
        let c = &m.corpus;
        let anomalies: Vec<String> = c
            .anomalies
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            reader.name,
            thousands(c.reads),
            thousands(c.not_replayed),
            thousands(c.lines_delivered),
            thousands(c.lines_repeated),
            thousands(c.chars_repeated),
            thousands(c.lines_lost),
            if anomalies.is_empty() {
                "none".to_owned()
            } else {
                anomalies.join(", ")
            }
        ));
    }
    out
}

/// A broken cell: the anomaly, the bound, and the shortest path, runs of one action folded.
fn cell(b: &Broken) -> String {
    let mut steps: Vec<(String, usize)> = Vec::new();
    for action in &b.path {
        let name = format!("{action:?}");
        match steps.last_mut() {
            Some((last, n)) if *last == name => *n += 1,
            _ => steps.push((name, 1)),
        }
    }
    let path: Vec<String> = steps
        .into_iter()
        .map(|(a, n)| if n > 1 { format!("{a}×{n}") } else { a })
        .collect();
    format!(
        "**{}** ({}, {} steps: {})",
        b.anomaly,
        b.bound,
        b.path.len(),
        path.join(", ")
    )
}

/// `12345` as `12,345`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn witnesses_are_grouped_by_bound_in_the_order_first_met() {
        let ci = "ci, 1 line, 2 reads".to_owned();
        let witnesses = [(ci.clone(), 4), ("cap".to_owned(), 5), (ci, 5)];
        assert_eq!(
            replayed(&witnesses),
            [
                "ci, 1 line, 2 reads: 2 paths replayed (4, 5 steps)",
                "cap: 1 path replayed (5 steps)",
            ]
        );
    }

    /// The partial lines cell of a reader measured as `measured`.
    fn partial_cell(bounds: &'static [At], measured: Measured) -> String {
        let reader = Reader {
            name: "r",
            source: Source::Exact,
            bounds,
            witnesses: &[],
        };
        let table = render(&[(&reader, measured)]);
        let row = table.lines().find(|l| l.starts_with("| r |")).unwrap();
        row.trim_end_matches(" |")
            .rsplit(" | ")
            .next()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn partial_lines_hold_only_where_a_bound_wrote_them() {
        const GAP: &[At] = &[at(Bound::Gap, None, None)];
        assert_eq!(
            partial_cell(GAP, Measured::default()),
            "not checked (no bound writes partial lines)"
        );
        assert_eq!(partial_cell(&[CI_SMALL], Measured::default()), "holds");
        let mut broken = Measured::default();
        let path = vec![Action::WritePartial, Action::Read(1)];
        assert!(keep(&mut broken, PARTIAL_LINES, "ci", "Lost", path.clone()));
        assert!(!keep(&mut broken, PARTIAL_LINES, "ci", "Stalled", path));
        assert_eq!(
            partial_cell(&[CI_SMALL], broken),
            "**Lost** (ci, 2 steps: WritePartial, Read(1))"
        );
    }
}
