//! `bgtail readers`' arguments.

use std::path::PathBuf;

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
