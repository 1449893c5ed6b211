//! Every integration test of `bgtail-model`, as one test binary: one link instead of one a
//! file, and the dependencies' generic code compiled once. Each module is one file of tests,
//! run alone as `cargo test -p bgtail-model --test suite MODULE::`.

// The checker allocates for every reply the engine renders and the judge reads: mimalloc makes
// the model's tests ~1.3x faster (the CLI keeps the system allocator: mimalloc's start-up costs
// more than a read).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod checking;
mod cut_during_read;
mod exact_engine;
mod export;
mod induction;
mod induction_factoring;
mod induction_shards;
mod long_sequences;
mod reach_shards;
mod scope;
mod shipped_engine;
mod unfixed_engine;
