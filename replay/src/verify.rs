//! `bgtail verify`: the model checks at the CI bounds and the whole trace corpus, both engines.

use crate::check::{check_model, Bound};
use crate::replay_cmd::{load, passes, replay_trace, table_header, table_row, trace_files};
use crate::EngineArg;
use bgtail::replay::Tally;
use bgtail_model::TailModel;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The trace corpus.
    #[arg(long)]
    pub traces: Option<PathBuf>,
    /// Skip the model checks (replay only).
    #[arg(long)]
    pub skip_model: bool,
    /// Checker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

fn corpus(arg: Option<PathBuf>) -> PathBuf {
    arg.unwrap_or_else(|| {
        let here = PathBuf::from("traces");
        if here.is_dir() {
            here
        } else {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../traces")
        }
    })
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let mut ok = true;
    if !args.skip_model {
        println!("## Model checks");
        for bound in [Bound::Ci, Bound::CiNonContent] {
            let (summary, _) = check_model(TailModel::exact(bound.config()), args.threads, true);
            summary.print(&format!("{bound:?}").to_lowercase());
            ok &= summary.failures().is_empty();
        }
        // The shipped engine must still show both symptoms of #28: if it stops failing, the
        // model has lost its teeth.
        for (bound, symptom) in [
            (Bound::Gap, "repeats bounded"),
            (Bound::Cap, "nothing lost"),
        ] {
            let (summary, _) = check_model(TailModel::shipped(bound.config()), args.threads, false);
            summary.print(&format!("{bound:?}").to_lowercase());
            let found = summary
                .verdicts
                .iter()
                .any(|v| v.name == symptom && v.discovery.is_some());
            if !found {
                println!(
                    "!! the shipped engine no longer breaks \"{symptom}\": the model missed #28"
                );
            }
            ok &= found;
        }
        println!();
    }

    let dir = corpus(args.traces);
    let files = trace_files(std::slice::from_ref(&dir))?;
    if files.is_empty() {
        return Err(format!("{}: no traces found", dir.display()));
    }
    println!("## Replay of {} traces in {}", files.len(), dir.display());
    println!("{}", table_header());
    let mut totals: Vec<(&'static str, Tally)> =
        vec![("shipped", Tally::default()), ("exact", Tally::default())];
    for file in &files {
        let trace = load(file)?;
        for r in replay_trace(&trace, EngineArg::Both) {
            if !passes(&r, None) {
                ok = false;
            }
            println!(
                "{}{}",
                table_row(&trace.header.name, &r),
                if passes(&r, None) { "" } else { "  ← FAILS" }
            );
            let total = &mut totals
                .iter_mut()
                .find(|(e, _)| *e == r.engine)
                .expect("an engine")
                .1;
            add(total, &r.tally);
        }
    }
    println!();
    println!("## Shipped vs exact over the corpus");
    println!("{:<20} {:>12} {:>12}", "", "shipped", "exact");
    let (s, e) = (&totals[0].1, &totals[1].1);
    for (label, a, b) in [
        ("reads", s.reads, e.reads),
        ("chars delivered", s.chars_delivered, e.chars_delivered),
        ("lines delivered", s.lines_delivered, e.lines_delivered),
        ("lines repeated", s.lines_repeated, e.lines_repeated),
        ("chars repeated", s.chars_repeated, e.chars_repeated),
        ("lines lost", s.lines_lost, e.lines_lost),
        (
            "lines never shown",
            s.lines_never_shown,
            e.lines_never_shown,
        ),
    ] {
        println!("{label:<20} {a:>12} {b:>12}");
    }
    println!(
        "{:<20} {:>12} {:>12}",
        "fidelity",
        format!("{}/{}", s.reproduced, s.recorded),
        "-"
    );
    println!();
    if ok {
        println!("verify: OK — the exact engine kept its contract; the shipped engine reproduced every recorded reply");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("verify: FAILED (see above)");
        Ok(ExitCode::FAILURE)
    }
}

fn add(total: &mut Tally, t: &Tally) {
    total.reads += t.reads;
    total.chars_delivered += t.chars_delivered;
    total.lines_delivered += t.lines_delivered;
    total.lines_repeated += t.lines_repeated;
    total.chars_repeated += t.chars_repeated;
    total.lines_lost += t.lines_lost;
    total.lines_never_shown += t.lines_never_shown;
    total.recorded += t.recorded;
    total.reproduced += t.reproduced;
    total.dishonest_replies += t.dishonest_replies;
    total.stalled_reads += t.stalled_reads;
    total.over_budget_reads += t.over_budget_reads;
    total.not_replayed += t.not_replayed;
}
