//! Helpers the CLI's test files share. Each test file is its own crate and uses only some of
//! them, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's root (traces/, docs/, adapters/ are found from it).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// pi-bgrun 0.7.1's own code behind the protocol, through its adapter (run from [`repo`]).
pub fn pi_bgrun_engine() -> String {
    let checkout = bgtail_tests::inputs::require(&bgtail_tests::inputs::PI_BGRUN);
    format!("cmd:node adapters/pi-bgrun/main.mjs {}", checkout.display())
}
