//! `bgtail generate`: random traces from seeds, for differential testing against another
//! implementation (fill their `expect` with `node adapters/pi-bgrun/main.mjs … --oracle`).

use anyhow::Context as _;
use bgtail::generate::{trace, Profile};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The first seed; trace `i` uses seed `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many traces.
    #[arg(long, default_value_t = 100)]
    pub count: u64,
    /// The folder the traces are written to (`generated-<seed>.jsonl`); created if missing.
    #[arg(long)]
    pub out: PathBuf,
    /// Percent of traces that grow a log past the 2 MiB default view.
    #[arg(long, default_value_t = Profile::default().big_log_percent)]
    pub big_log_percent: u64,
    /// Percent of traces past upstream's 500,000-line scan bound.
    #[arg(long, default_value_t = Profile::default().line_bound_percent)]
    pub line_bound_percent: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.out).with_context(|| args.out.display().to_string())?;
    let mut profile = Profile::default();
    profile.big_log_percent = args.big_log_percent;
    profile.line_bound_percent = args.line_bound_percent;
    for seed in args.seed..args.seed.saturating_add(args.count) {
        let path = args.out.join(format!("generated-{seed}.jsonl"));
        std::fs::write(&path, trace(seed, &profile).to_jsonl())
            .with_context(|| path.display().to_string())?;
    }
    eprintln!(
        "bgtail: {} traces written to {}",
        args.count,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
