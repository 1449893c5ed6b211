//! The bounded reachability check split by the kind of the log's first line
//! (`bgtail_model::reach`): every starting state belongs to one shard, the shards' visited
//! states together are the unsharded run's, and the merged verdict is the unsharded one.

use bgtail_model::induction::shard::Shard;
use bgtail_model::reach::{self, FirstLine};
use bgtail_model::{ModelConfig, TailModel};

/// Shards `count` of `config`'s exact model beside the unsharded run: (unique states,
/// overlap, starting states of each shard).
fn split_and_merge(config: ModelConfig, count: usize) -> (usize, usize, Vec<usize>) {
    let model = TailModel::exact(config);
    let whole = reach::explore(&model, Shard::WHOLE);
    let runs: Vec<_> = (0..count)
        .map(|i| reach::explore(&model, Shard::new(i, count).unwrap()))
        .collect();
    // Every starting state is one shard's: the shards' first lines partition the kinds.
    let mut kinds: Vec<FirstLine> = runs.iter().flat_map(|r| r.first_lines.clone()).collect();
    assert_eq!(kinds.len(), reach::first_lines(&model).len());
    kinds.dedup();
    assert_eq!(kinds.len(), reach::first_lines(&model).len());
    assert_eq!(runs.iter().map(|r| r.starts).sum::<usize>(), whole.starts);
    // The union of the shards' visited states is the unsharded set.
    let mut union: Vec<u64> = runs.iter().flat_map(|r| r.visited.clone()).collect();
    union.sort_unstable();
    union.dedup();
    assert_eq!(union, whole.visited);
    let sometimes = bgtail_model::reach::sometimes(&model);
    let merged = reach::merge(&runs, &sometimes);
    let alone = reach::merge(std::slice::from_ref(&whole), &sometimes);
    assert_eq!(
        (&merged.broken, &merged.unreached),
        (&alone.broken, &alone.unreached)
    );
    assert!(
        merged.broken.is_empty() && merged.unreached.is_empty(),
        "{merged:?}"
    );
    (
        merged.unique,
        merged.overlap,
        runs.iter().map(|r| r.starts).collect(),
    )
}

/// CI's second world (3 lines, blank and wrapper lines): four first-line kinds, two shards.
#[test]
fn two_shards_of_the_non_content_bound_are_the_unsharded_check() {
    let (unique, overlap, starts) = split_and_merge(ModelConfig::ci_non_content(), 2);
    // The bounded checker's own count of the bound (model/tests/exact_engine.rs).
    assert_eq!(unique, 228_806);
    // Both shards explore the prefix, and a log truncated to nothing can be written again
    // with a first line of the other shard's.
    assert_eq!((overlap, starts), (22_606, vec![12, 8]));
}

/// The slow checks: minutes on 2 cores. `cargo xtask test` (the developer's loop) skips them
/// with `--skip slow::`; `cargo xtask test --full`, as CI runs it, and a plain `cargo test` run
/// them.
mod slow {
    use super::*;

    /// CI's bound (4 lines): a shard for each first line — short, long, repeated, partial.
    /// Twice CI's largest check (the shards, and the unsharded run beside them), so it runs by
    /// hand: `cargo test --release -p bgtail-model --test suite reach_shards -- --ignored`.
    /// The non-content bound's split above holds the same code in every run.
    #[test]
    #[ignore = "twice CI's largest check: run by hand with --ignored"]
    fn four_shards_of_the_ci_bound_are_the_unsharded_check() {
        let (unique, overlap, starts) = split_and_merge(ModelConfig::ci(), 4);
        assert_eq!(unique, 2_832_665);
        // Every shard explores the prefix, and a log truncated to nothing can be written again
        // with a first line of another shard's.
        assert_eq!(overlap, 738_792);
        assert_eq!(starts, vec![4, 4, 4, 4]);
    }
}
