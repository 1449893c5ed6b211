//! The cross-crate suite lives in `tests/tests/`: the trace corpus through both engines as
//! reviewed snapshots, and the `bgtail` command line end to end.
