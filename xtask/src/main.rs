//! `cargo xtask`: the project's own build steps, in Rust, so that a fresh clone needs cargo and
//! node 20 and nothing else.
//!
//! - `cargo xtask test` installs the node parts (one `npm ci` at the root: the adapters and the
//!   TypeScript package, which its `prepare` builds), finds the external inputs
//!   (docs/inputs.md) and runs `cargo test --workspace -- --skip slow::`: the developer's loop,
//!   the model's slow checks (each in a `mod slow`) left out.
//! - `cargo xtask test --full` is what CI runs: formatting checked, clippy over every target
//!   (the CLI's mimalloc build included), then every test (`cargo test --workspace`, the slow
//!   checks in) but the one another contains ([`CONTAINED`]), and the docs with warnings denied.
//! - `cargo xtask inputs` says where each external input was looked for, and whether it is there.

use bgtail_tests::inputs::{self, Input};
use std::path::Path;
use std::process::{Command, ExitCode};

/// How to fetch the inputs when they are missing: the one command that names.
const FETCH: &str = "scripts/fetch-inputs";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["test"] => test(false),
        ["test", "--full"] => test(true),
        ["inputs"] => check_inputs().map(|()| println!("every external input is there")),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("cargo xtask: {why}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask test [--full] | cargo xtask inputs
  test          npm ci at the root, the external inputs checked, then cargo test --workspace
                without the model's slow checks (-- --skip slow::)
  test --full   what CI runs: fmt checked, clippy with the mimalloc build, every test,
                the slow checks too (but one the 5-line job's end contains), the docs
                with warnings denied
  inputs        where each external input was looked for, and whether it is there";

/// The setup, then the tests of the tier asked for.
fn test(full: bool) -> Result<(), String> {
    let root = inputs::workspace_root();
    if full {
        run(&root, "cargo", &["fmt", "--all", "--check"])?;
        run(
            &root,
            "cargo",
            // With the CLI's mimalloc feature, as the model-deep workflow builds it: the one
            // check covers that build too.
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--features",
                "bgtail-cli/mimalloc",
                "--",
                "-D",
                "warnings",
            ],
        )?;
    }
    node_parts(&root)?;
    check_inputs()?;
    // The developer's loop leaves every slow check out by its module; CI only the one another
    // contains, by its full path.
    let skipped: &[&str] = if full {
        &["--skip", CONTAINED, "--exact"]
    } else {
        &["--skip", SLOW]
    };
    let mut test = vec!["test", "--workspace", "--no-fail-fast", "--"];
    test.extend_from_slice(skipped);
    run(&root, "cargo", &test)?;
    if full {
        let doc = Command::new("cargo")
            .args(["doc", "--no-deps", "--workspace", "--quiet"])
            .env("RUSTDOCFLAGS", "-D warnings")
            .current_dir(&root)
            .status();
        return exited(doc, "cargo doc");
    }
    Ok(())
}

/// The slow check CI leaves out, by its full path: the inductive proof over the job's end at 4
/// lines, whose every state the 5-line proof CI runs enumerates too (logs of up to 5 lines).
/// `bgtail verify` and a plain `cargo test` still run it (about a minute of CPU on 2 threads).
const CONTAINED: &str =
    "induction::slow::the_exact_engine_keeps_the_contract_over_the_jobs_end_in_4_lines";

/// The prefix of the model's slow checks' test paths: each sits in a `mod slow` of its test
/// file (minutes on 2 cores), so libtest's `--skip` leaves them out of the developer's loop.
const SLOW: &str = "slow::";

/// `npm ci` at the root: every adapter's packages and the TypeScript package, built.
fn node_parts(root: &Path) -> Result<(), String> {
    let version = Command::new("node")
        .arg("--version")
        .output()
        .map_err(|e| {
            format!("node is missing ({e}): the adapters and the TypeScript package need node 20")
        })?;
    let version = String::from_utf8_lossy(&version.stdout);
    let major: u32 = version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 20 {
        return Err(format!(
            "node {} is too old: the node parts need node 20 or newer",
            version.trim()
        ));
    }
    run(root, "npm", &["ci", "--no-audit", "--no-fund"])
}

/// Every external input where the tests look for it, or one message naming each missing
/// one and the command that fetches them.
fn check_inputs() -> Result<(), String> {
    let dir = inputs::shared_dir();
    let missing: Vec<&Input> = inputs::ALL
        .iter()
        .filter(|input| !dir.join(input.path).exists())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut text = format!(
        "{} of the tests' external inputs missing from {} ({} names another folder):\n",
        missing.len(),
        dir.display(),
        inputs::ENV
    );
    for input in missing {
        text.push_str(&format!(
            "  {}: {}\n    from {}\n",
            input.path, input.what, input.origin
        ));
    }
    text.push_str(&format!(
        "fetch them with `{FETCH} {}` (needs git and the network), or point {} at a folder \
         that holds them; docs/inputs.md lists each",
        dir.display(),
        inputs::ENV
    ));
    Err(text)
}

/// Runs `program` with `args` in `dir`, failing with the command's name when it fails.
fn run(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("cargo xtask: {program} {}", args.join(" "));
    let status = Command::new(program).args(args).current_dir(dir).status();
    exited(status, &format!("{program} {}", args.join(" ")))
}

/// `Ok` when the command ran and exited 0.
fn exited(status: std::io::Result<std::process::ExitStatus>, what: &str) -> Result<(), String> {
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("`{what}` failed ({s})")),
        Err(e) => Err(format!("`{what}` could not start: {e}")),
    }
}
