//! How a check's results are printed: a bounded check's counts and verdicts, and an inductive
//! check's report.

use bgtail_model::checking::Summary;
use bgtail_model::induction;
use stateright::Expectation;

/// Prints what one check came to: its counts and rate, then each property's verdict.
pub fn print_summary(summary: &Summary, bound: &str) {
    let rate = summary.states as f64 / summary.seconds.max(1e-9);
    println!(
        "{} engine, bound {bound}: {} states generated, {} unique, depth {}, {:.1} s, {:.0} states/s ({:.0} unique/s)",
        summary.engine,
        summary.states,
        summary.unique,
        summary.depth,
        summary.seconds,
        rate,
        summary.unique as f64 / summary.seconds.max(1e-9)
    );
    // The names in one column, as wide as the longest.
    let width = summary
        .verdicts
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    for v in &summary.verdicts {
        let (kind, verdict) = match (&v.expectation, &v.discovery) {
            (Expectation::Sometimes, Some(p)) => {
                ("sometimes", format!("reached in {}", steps(p.len())))
            }
            (Expectation::Sometimes, None) if summary.require_examples => {
                ("sometimes", "NEVER REACHED".to_owned())
            }
            (Expectation::Sometimes, None) => {
                ("sometimes", "not reached (off in this bound)".to_owned())
            }
            (_, None) => ("always", "holds".to_owned()),
            (_, Some(p)) => ("always", format!("BROKEN in {}: {p:?}", steps(p.len()))),
        };
        println!("  {kind:<9} {:<width$} {verdict}", v.name);
        if let Some(why) = &v.why {
            println!("            {why}");
        }
    }
}

/// `n steps`, or `1 step`.
fn steps(n: usize) -> String {
    format!("{n} {}", if n == 1 { "step" } else { "steps" })
}

/// Prints what an inductive check did, and its failure if any.
pub fn print_induction<S: std::fmt::Debug>(engine: &str, r: &induction::Report<S>) {
    let disputed = match r.disputed {
        0 => String::new(),
        n => format!(", {n} the engine continues though the bytes do not (run in full)"),
    };
    let mirrored = match (r.mirrored, r.factoring) {
        (0, _) => String::new(),
        (n, f) if f.compares_mirrors() => format!(
            "; {n} continuing states with lines in the other variant run, every action compared \
             with their mirror's"
        ),
        (n, _) => format!(
            "; {n} continuing states with lines in the other variant checked as their mirror \
             (those lines swapped back)"
        ),
    };
    let factored = match r.factoring {
        induction::Factoring::Full => "every state run in full".to_owned(),
        _ => format!(
            "the reset ones as {} groups of what a read from them can see, one representative \
             each (listed in {:.1} s){}",
            r.groups,
            r.group_seconds,
            match r.compared {
                0 => String::new(),
                n => format!(", and {n} members run, every read compared with their group's"),
            }
        ),
    };
    println!(
        "{engine} engine, inductive check over logs of up to {} lines: {} states of the invariant \
         ({} before any read, {} continuing the bookmark's generation, {} reset since{disputed}); \
         {factored}{mirrored}; {} steps ({} reads), {:.1} s",
        r.max_lines,
        r.states(),
        r.fresh,
        r.continuing,
        r.reset,
        r.steps,
        r.reads,
        r.seconds,
    );
    match r.failures.first() {
        None if r.shard != induction::shard::Shard::WHOLE => println!(
            "  HOLDS for shard {} ({} of the enumeration's {} items, {} of its {} groups): merge \
             every shard's report (--report, then --merge) for the proof",
            r.shard, r.items, r.items_total, r.groups, r.groups_total
        ),
        None => println!(
            "  PROVED: the initial state satisfies the invariant, and from every state of it every \
             action keeps nothing lost, progress, repeats bounded, honest counts, resets seen, \
             bounded output and the invariant: so does every sequence of any length over logs of up to {} lines",
            r.max_lines
        ),
        Some(f) => print_induction_failure(f),
    }
}

/// The first state the step fails from, and what the step broke there.
fn print_induction_failure<S: std::fmt::Debug>(f: &induction::Failure<S>) {
    let s = &f.candidate.state;
    println!(
        "  FAILS: from the log {:?}{} (variant {}, running {}, view {:?}), last read saw {:?}",
        s.lines,
        if s.partial { " + partial" } else { "" },
        s.variant,
        s.running,
        s.view,
        f.candidate.seen
    );
    println!("    bookmark: {:?}", s.engine);
    println!("    judge: {:?}", s.judge);
    match (&f.action, &f.broke) {
        (_, induction::Broke::Start(c)) => println!("    the state itself breaks \"{}\"", c.name()),
        (Some(a), induction::Broke::Invariant(c)) => {
            println!("    {a:?} leads to a state that breaks \"{}\"", c.name())
        }
        (
            Some(a),
            induction::Broke::Property {
                name,
                text,
                anomalies,
            },
        ) => {
            println!("    {a:?} breaks \"{name}\"");
            for anomaly in anomalies {
                println!("      {anomaly}");
            }
            for line in text.lines().take(6) {
                println!("      | {line}");
            }
        }
        (_, other) => println!("    {other:?}"),
    }
}
