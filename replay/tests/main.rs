//! Every integration test of `bgtail-cli`, as one test binary: one link instead of one a
//! file, and the dependencies' generic code compiled once. Each module is one file of tests,
//! run alone as `cargo test -p bgtail-cli --test suite MODULE::`.

mod common;

mod bgtail_exact_ts;
mod cli;
mod codex;
mod contract_traces;
mod engine_protocol;
mod explore_browser;
mod import;
mod json_output;
mod mcp;
mod model_over_protocol;
mod node_adapters;
mod package_install;
mod pi_bgrun_exact;
mod progress;
mod readers;
mod reliability;
mod upstream_oracle;
mod your_reader;
