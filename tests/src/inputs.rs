//! The external inputs some tests read: other projects' code and recorded sessions, which are
//! not part of this repository (docs/inputs.md lists each and where it comes from).
//!
//! They sit in one folder, `../shared` beside the checkout unless [`ENV`] names another (a
//! relative path is taken from the workspace's root). Every test finds its input through
//! [`require`], so that a clone without that folder fails at once with one message naming what
//! is missing, where it was looked for and where to get it — not with a panic deep in a test.

use std::path::{Path, PathBuf};

/// The environment variable that names the folder of external inputs.
pub const ENV: &str = "BGTAIL_SHARED";

/// One external input: a path inside the shared folder, what it is, and its public origin.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    /// Its path inside the shared folder.
    pub path: &'static str,
    /// What it is, for the message when it is missing.
    pub what: &'static str,
    /// The public repository, commit and paths it is taken from.
    pub origin: &'static str,
}

/// pi-bgrun 0.7.1's source, laid out as a checkout: the upstream oracle runs it under node.
pub const PI_BGRUN: Input = Input {
    path: "upstream/pi-bgrun-0.7.1",
    what: "pi-bgrun 0.7.1's own source (extension/index.ts, MIT), laid out as a checkout",
    origin: concat!(
        "github.com/stablekernel/pi-background-run at commit ",
        "5f2fe0929dee01a159c90dade8cf2de5f1ab024e", // pi-background-run 0.7.1
        ": extension/index.ts and LICENSE",
    ),
};

/// coder/mux's background-process manager and `bash_output`, laid out as a checkout: its
/// adapter loads it at run time (AGPL-3.0-only: never copied or bundled into the project).
pub const MUX: Input = Input {
    path: "upstream/mux-f2160b19",
    what: "coder/mux 0.28.2's background-output reader (bash_output, AGPL-3.0-only), laid out as a checkout",
    origin: "github.com/coder/mux at commit f2160b194cc458a220103e288ea89f5d137b5367: \
             src/node/services/backgroundProcessManager.ts and the files it imports, LICENSE",
};

/// Gemini CLI's `read_background_output`, laid out as a checkout: its adapter loads it.
pub const GEMINI_CLI: Input = Input {
    path: "upstream/gemini-cli-5411f113",
    what: "Gemini CLI's read_background_output (Apache-2.0), laid out as a checkout",
    origin: concat!(
        "github.com/google-gemini/gemini-cli at commit ",
        "5411f113cafae26161b4969b0237b8e1e024e2c2", // gemini-cli v0.56.0-nightly.20260822
        ": packages/core/src/tools/shellBackgroundTools.ts and the files it imports, LICENSE",
    ),
};

/// Codex CLI's unified-exec output path at upstream's paths: `adapters/codex`'s build compiles
/// its head-tail buffer and token truncation from here.
pub const CODEX: Input = Input {
    path: "upstream/codex-343074d4",
    what: "Codex CLI's unified-exec output path (Apache-2.0), at upstream's paths",
    origin: "github.com/openai/codex at commit 343074d4207d572809bd8cea15f4be1d09d98e0b: \
             codex-rs/core/src/unified_exec/{mod,head_tail_buffer,head_tail_buffer_tests}.rs, \
             codex-rs/utils/string/src/truncate.rs and truncate/tests.rs, LICENSE, NOTICE",
};

/// The recorded pi sessions whose bgtail replies the shipped engine must reproduce.
pub const SESSIONS: Input = Input {
    path: "upstream-sessions",
    what: "recorded pi sessions that call bgtail (one folder per benchmark cell)",
    origin: "github.com/stablekernel/pi-background-run: \
             docs/benchmark/runs/<cell>/sessions/bgrun-<n>/*.jsonl (the redacted tree)",
};

/// Every input the tests read, in the order `cargo xtask test` checks them.
pub const ALL: [Input; 5] = [PI_BGRUN, SESSIONS, GEMINI_CLI, MUX, CODEX];

/// The workspace's root: the folder holding `Cargo.toml`'s `[workspace]`, the parent of the
/// crate under test. Read when the test runs (cargo sets `CARGO_MANIFEST_DIR` for it), not
/// when this library was compiled: two checkouts sharing one target folder share this build.
pub fn workspace_root() -> PathBuf {
    let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    crate_dir
        .parent()
        .expect("every crate of the workspace sits in a folder of its root")
        .to_path_buf()
}

/// The folder of external inputs: [`ENV`] if set, else `../shared` beside the checkout.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(ENV) {
        Some(dir) if !dir.is_empty() => workspace_root().join(dir),
        _ => workspace_root().join("../shared"),
    }
}

/// The path of `input`, or a panic that says what is missing, where it was looked for and
/// where it comes from.
pub fn require(input: &Input) -> PathBuf {
    let path = shared_dir().join(input.path);
    if !path.exists() {
        panic!("{}", missing(input, &path));
    }
    path
}

/// The message for an input that is not where it was looked for.
pub fn missing(input: &Input, looked_at: &Path) -> String {
    format!(
        "external input missing: {what}\n  looked for: {path}\n  comes from: {origin}\n  \
         set {ENV} to the folder that holds `{rel}` (default: ../shared beside the checkout); \
         docs/inputs.md lists every input",
        what = input.what,
        path = looked_at.display(),
        origin = input.origin,
        rel = input.path,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_input_is_named_with_where_it_was_looked_for_and_where_it_comes_from() {
        let msg = missing(&PI_BGRUN, Path::new("/nowhere/upstream/pi-bgrun-0.7.1"));
        assert!(msg.contains("pi-bgrun 0.7.1's own source"), "{msg}");
        assert!(msg.contains("/nowhere/upstream/pi-bgrun-0.7.1"), "{msg}");
        assert!(
            msg.contains("stablekernel/pi-background-run at commit"),
            "{msg}"
        );
        assert!(msg.contains(ENV), "{msg}");
    }

    #[test]
    fn the_default_folder_sits_beside_the_checkout() {
        if std::env::var_os(ENV).is_none() {
            assert_eq!(shared_dir(), workspace_root().join("../shared"));
        }
    }
}
