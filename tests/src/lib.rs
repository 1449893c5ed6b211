//! The cross-crate suite lives in `tests/tests/`: the trace corpus through both engines as
//! reviewed snapshots. The `bgtail` command line's end-to-end tests live beside it, in
//! `replay/tests/`, where cargo builds the binary for them.
