//! Helpers the CLI's test files share. Each test file is its own crate and uses only some of
//! them, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's root (traces/, docs/, adapters/ are found from it).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `bgtail` binary under test, run from [`repo`] (so that `traces/…` and
/// `adapters/…` resolve).
pub fn bgtail() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_bgtail"));
    command.current_dir(repo());
    command
}

/// `bgtail ARGS…` run to its end.
pub fn run(args: &[&str]) -> std::process::Output {
    bgtail().args(args).output().expect("bgtail runs")
}

/// Its exit code and what it printed, stdout then stderr.
pub fn run_text(args: &[&str]) -> (Option<i32>, String) {
    let out = run(args);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// pi-bgrun 0.7.1's own code behind the protocol, through its adapter (run from [`repo`]).
pub fn pi_bgrun_engine() -> String {
    let checkout = bgtail_tests::inputs::require(&bgtail_tests::inputs::PI_BGRUN);
    format!("cmd:node adapters/pi-bgrun/main.mjs {}", checkout.display())
}

/// pi-bgrun 0.7.1's `bgtail` reading through the exact engine's TypeScript package: its tool,
/// ids, job registry and error replies, the package's reading (`--exact`).
pub fn pi_bgrun_exact_engine() -> String {
    bgtail_exact_ts_engine();
    format!("{} --exact", pi_bgrun_engine())
}

/// Gemini CLI's own `read_background_output` behind the protocol, through its adapter.
pub fn gemini_cli_engine() -> String {
    let checkout = bgtail_tests::inputs::require(&bgtail_tests::inputs::GEMINI_CLI);
    format!(
        "cmd:node adapters/gemini-cli/main.mjs {}",
        checkout.display()
    )
}

/// Codex's own reader behind the protocol (`adapters/codex`, compiled from its files), with
/// `args`: the binary cargo builds beside `bgtail` when it tests the workspace.
pub fn codex_engine(args: &str) -> String {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::CODEX);
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_bgtail")).with_file_name("bgtail-codex");
    assert!(
        bin.is_file(),
        "{}: missing; `cargo test --workspace` builds it, or `cargo build -p bgtail-codex`",
        bin.display()
    );
    format!("cmd:{} {args}", bin.display())
        .trim_end()
        .to_string()
}

/// coder/mux's own background-process manager behind the protocol, through its adapter.
pub fn mux_engine() -> String {
    let checkout = bgtail_tests::inputs::require(&bgtail_tests::inputs::MUX);
    format!("cmd:node adapters/mux/main.mjs {}", checkout.display())
}

/// `bgtail explore ARGS… --port 0`, killed when dropped, and the port it says it serves on.
pub struct Explorer {
    child: std::process::Child,
    /// The port the explorer printed in its first line.
    pub port: u16,
}

impl Explorer {
    /// Starts the explorer with `args` and reads the address it serves from its first line
    /// (`Explorer: http://127.0.0.1:PORT/ …`); no port is chosen outside it.
    pub fn start(args: &[&str]) -> Explorer {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bgtail"))
            .arg("explore")
            .args(args)
            .args(["--port", "0"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let mut explorer = Explorer { child, port: 0 };
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the explorer printed no address within 20 s");
        explorer.port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .filter(|&p| p != 0)
            .unwrap_or_else(|| panic!("no port in the explorer's first line: {line:?}"));
        explorer
    }
}

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The exact engine's TypeScript package behind the protocol, with the model checker's limits
/// when `model` (built by `npm ci` at the repository's root, which runs its `tsc`).
pub fn bgtail_exact_ts_engine() -> String {
    let built = repo().join("packages/bgtail-exact/dist/index.js");
    assert!(
        built.exists(),
        "{} is missing: run `npm ci` at the repository's root (`cargo xtask test` does)",
        built.display()
    );
    "cmd:node packages/bgtail-exact/serve.mjs".into()
}

/// `N states generated, M unique` and each property's verdict (holds, BROKEN, reached, …)
/// without the paths, which depend on the search order.
pub fn check_outcome(report: &str) -> (String, Vec<String>) {
    let header = report.lines().next().unwrap_or_default();
    let counts = header
        .split(": ")
        .nth(1)
        .and_then(|c| c.split(", depth").next())
        .unwrap_or_default()
        .to_owned();
    let verdicts = report
        .lines()
        .filter(|l| l.starts_with("  always") || l.starts_with("  sometimes"))
        .map(|l| l.split(" in ").next().unwrap_or(l).to_owned())
        .collect();
    (counts, verdicts)
}

/// The bounds an exact engine behind the protocol is model-checked at, against the in-process
/// check's counts (the model's tiny limits on both sides).
pub const PROTOCOL_BOUNDS: [&[&str]; 4] = [
    &["--bound", "gap"],
    &["--bound", "cap"],
    &["--bound", "budget-edge"],
    &["--bound", "ci", "--max-lines", "2", "--max-reads", "2"],
];

/// The summary of `bgtail compare`, `N traces, R reads, M mismatching reads`, as numbers.
pub fn compare_figures(report: &str) -> (u64, u64, u64) {
    let line = report
        .lines()
        .find(|l| l.ends_with("mismatching reads"))
        .unwrap_or_else(|| panic!("no summary in:\n{report}"));
    let n: Vec<u64> = line
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}
