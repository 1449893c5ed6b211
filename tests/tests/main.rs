//! Every integration test of `bgtail-tests`, as one test binary: one link instead of one a
//! file, and the dependencies' generic code compiled once. Each module is one file of tests,
//! run alone as `cargo test -p bgtail-tests --test suite MODULE::`.

mod corpus;
mod fuzz_regressions;
mod layers;
mod mutants_config;
mod tree;
