//! Compiles Codex's reading path from upstream's own files, read where the external inputs
//! sit (docs/inputs.md): nothing of Codex is in this repository.
//!
//! It writes two small Rust files into `OUT_DIR` that `src/upstream.rs` includes:
//! - `unified_exec.rs`: the four items `head_tail_buffer.rs` and the driver take from
//!   `core/src/unified_exec/mod.rs` (its cap, its default token budget, the omission marker and
//!   `resolve_max_tokens`), lifted out of that file by name — the rest of `mod.rs` needs tokio
//!   and the rest of Codex's core — then `head_tail_buffer.rs` itself by its absolute path, with
//!   its own tests beside it;
//! - `string.rs`: `utils/string/src/truncate.rs` by its absolute path, with its own tests.
//!
//! A missing input stops the build with the message every test gives for one.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The input's path inside the shared folder (docs/inputs.md).
const INPUT: &str = "upstream/codex-343074d4";
const WHAT: &str = "Codex CLI's unified-exec output path (Apache-2.0), at upstream's paths";
const ORIGIN: &str = "github.com/openai/codex at commit 343074d4207d572809bd8cea15f4be1d09d98e0b: \
     codex-rs/core/src/unified_exec/{mod,head_tail_buffer,head_tail_buffer_tests}.rs, \
     codex-rs/utils/string/src/truncate.rs and truncate/tests.rs, LICENSE, NOTICE";

const MOD_RS: &str = "codex-rs/core/src/unified_exec/mod.rs";
const HEAD_TAIL: &str = "codex-rs/core/src/unified_exec/head_tail_buffer.rs";
const STRING_SRC: &str = "codex-rs/utils/string/src";

/// The items of `mod.rs` compiled here, by name: each a one-line `const` or a `fn` whose body
/// ends at the first line that is `}` alone.
const ITEMS: [&str; 4] = [
    "pub(crate) const UNIFIED_EXEC_OUTPUT_MAX_BYTES:",
    "pub(crate) const DEFAULT_MAX_OUTPUT_TOKENS:",
    "pub(crate) fn resolve_max_tokens(",
    "pub(crate) fn format_output_omission_marker(",
];

fn main() {
    println!("cargo::rerun-if-env-changed=BGTAIL_SHARED");
    let root = workspace_root();
    let input = shared_dir(&root).join(INPUT);
    for file in [
        MOD_RS,
        HEAD_TAIL,
        "codex-rs/core/src/unified_exec/head_tail_buffer_tests.rs",
        "codex-rs/utils/string/src/truncate.rs",
        "codex-rs/utils/string/src/truncate/tests.rs",
    ] {
        let path = input.join(file);
        if !path.is_file() {
            panic!("{}", missing(&path));
        }
        println!("cargo::rerun-if-changed={}", path.display());
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write(&out.join("unified_exec.rs"), &unified_exec(&input));
    write(&out.join("string.rs"), &string(&input));
}

/// The message `bgtail_tests::inputs::missing` gives for an input that is not there.
fn missing(path: &Path) -> String {
    format!(
        "external input missing: {WHAT}\n  looked for: {}\n  comes from: {ORIGIN}\n  \
         set BGTAIL_SHARED to the folder that holds `{INPUT}` (default: ../shared beside the \
         checkout); docs/inputs.md lists every input",
        path.display()
    )
}

/// The workspace's root: two folders up from this crate (`adapters/codex`).
fn workspace_root() -> PathBuf {
    let dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    dir.ancestors()
        .nth(2)
        .expect("adapters/codex sits two folders below the workspace's root")
        .to_path_buf()
}

/// `BGTAIL_SHARED` if set (relative to the workspace's root), else `../shared` beside it.
fn shared_dir(root: &Path) -> PathBuf {
    match env::var_os("BGTAIL_SHARED") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("../shared"),
    }
}

/// The items of `mod.rs` this crate compiles, then `head_tail_buffer.rs` by its path.
fn unified_exec(input: &Path) -> String {
    let path = input.join(MOD_RS);
    let source = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: cannot be read: {e}", path.display()));
    let mut out = format!("// Items lifted from {} by build.rs.\n", path.display());
    for item in ITEMS {
        out.push_str(&lift(&source, item).unwrap_or_else(|| {
            panic!(
                "{}: no item starting `{item}`: this crate compiles Codex at commit 343074d4",
                path.display()
            )
        }));
        out.push('\n');
    }
    let head_tail = input.join(HEAD_TAIL);
    writeln!(
        out,
        "#[path = {:?}]\npub(crate) mod head_tail_buffer;",
        head_tail
    )
    .expect("a String takes every write");
    out
}

/// `truncate.rs` as a file of its own folder, so that its `mod tests;` finds `truncate/tests.rs`.
fn string(input: &Path) -> String {
    let dir = input.join(STRING_SRC);
    format!("#[path = {dir:?}]\npub(crate) mod src {{\n    pub(crate) mod truncate;\n}}\n")
}

/// The item of `source` whose first line starts with `start`: that line for a `const`, through
/// the first line that is `}` alone for a `fn`.
fn lift(source: &str, start: &str) -> Option<String> {
    let mut lines = source.lines().skip_while(|l| !l.starts_with(start));
    let first = lines.next()?;
    let mut item = format!("{first}\n");
    if first.contains(" fn ") {
        for line in lines {
            item.push_str(line);
            item.push('\n');
            if line == "}" {
                return Some(item);
            }
        }
        return None;
    }
    Some(item)
}

fn write(path: &Path, text: &str) {
    fs::write(path, text).unwrap_or_else(|e| panic!("{}: cannot be written: {e}", path.display()));
}
