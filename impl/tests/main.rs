//! Every integration test of `bgtail`, as one test binary: one link instead of one a
//! file, and the dependencies' generic code compiled once. Each module is one file of tests,
//! run alone as `cargo test -p bgtail --test suite MODULE::`.

mod common;

mod bad_input;
mod drain_judge;
mod exact_behaviour;
mod exact_contract_proptest;
mod exact_index;
mod fuzz;
mod hostile_input;
mod issue_28;
mod plain_formats;
mod protocol_doc;
mod read_cost;
mod reply_form;
mod reset_reasons;
mod session_input;
mod shipped_conformance;
mod upstream_diff;
mod upstream_sessions;
mod worked_traces;
