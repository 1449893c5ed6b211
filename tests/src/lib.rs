//! The cross-crate suite lives in `tests/tests/`: the trace corpus through both engines as
//! reviewed snapshots, the fuzzer's regressions, and the tree's own hygiene. The `bgtail`
//! command line's end-to-end tests live beside it, in `replay/tests/`, where cargo builds the
//! binary for them.
//!
//! This library is what the test suites of every crate share: [`inputs`], where the external
//! inputs are found, [`imports`], the import graph the layering tests read, and [`seeds`], the seed policy of every proptest.

pub mod imports;
pub mod inputs;
pub mod seeds;
