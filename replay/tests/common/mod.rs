//! Helpers the CLI's test files share. Each test file is its own crate and uses only some of
//! them, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's root (traces/, docs/, adapters/ are found from it).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
