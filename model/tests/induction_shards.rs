//! The inductive check split into shards: the shards partition the enumeration, and merged
//! they are the unsharded check, count for count.

use bgtail_model::induction::shard::Shard;
use bgtail_model::induction::{check, Options};
use bgtail_model::induction::{merge, MergeError, ShardReport};
use bgtail_model::{ModelConfig, TailModel};

fn shard_reports(model: &TailModel<bgtail::ExactEngine>, n: usize) -> Vec<ShardReport> {
    (0..n)
        .map(|i| {
            let report = check(model, &Options::new(2).shard(Shard::new(i, n).unwrap()));
            assert!(report.proved(), "shard {}", report.shard);
            ShardReport::of("exact", &report)
        })
        .collect()
}

#[test]
fn three_shards_merged_are_the_whole_check_at_2_lines() {
    let model = TailModel::exact(ModelConfig::induction(2));
    let whole = check(&model, &Options::new(2));
    let reports = shard_reports(&model, 3);
    let items: Vec<u64> = reports.iter().map(|r| r.items).collect();
    assert_eq!(items.iter().sum::<u64>(), whole.items_total);
    assert!(items.iter().all(|&n| n > 0), "{items:?}");
    let groups: Vec<u64> = reports.iter().map(|r| r.groups).collect();
    assert_eq!(groups.iter().sum::<u64>(), whole.groups_total);
    assert!(groups.iter().all(|&n| n > 0), "{groups:?}");
    let merged = merge(&reports).unwrap();
    assert!(merged.proved());
    assert_eq!(
        (
            merged.fresh,
            merged.continuing,
            merged.reset,
            merged.disputed,
            merged.steps,
            merged.reads
        ),
        (
            whole.fresh,
            whole.continuing,
            whole.reset,
            whole.disputed,
            whole.steps,
            whole.reads
        )
    );
    assert_eq!((merged.items, merged.groups), (whole.items, whole.groups));
}

#[test]
fn a_merge_refuses_what_is_not_each_shard_of_one_check_once() {
    let model = TailModel::exact(ModelConfig::induction(1));
    let reports = shard_reports(&model, 2);
    assert!(merge(&reports).unwrap().proved());
    assert_eq!(merge(&[]), Err(MergeError::Empty));
    assert_eq!(
        merge(&reports[..1]),
        Err(MergeError::Missing(vec!["2/2".into()]))
    );
    assert_eq!(
        merge(&[reports[0].clone(), reports[0].clone()]),
        Err(MergeError::Twice(Shard::new(0, 2).unwrap()))
    );
    let mut other = reports[1].clone();
    other.max_lines = 2;
    assert!(matches!(
        merge(&[reports[0].clone(), other]),
        Err(MergeError::Mismatch("max_lines", _, _))
    ));
    let mut short = reports[1].clone();
    short.items -= 1;
    assert!(matches!(
        merge(&[reports[0].clone(), short]),
        Err(MergeError::Items { .. })
    ));
    let mut short = reports[1].clone();
    short.groups -= 1;
    assert!(matches!(
        merge(&[reports[0].clone(), short]),
        Err(MergeError::Groups { .. })
    ));
}

#[test]
fn a_failing_shard_fails_the_merge() {
    let model = TailModel::shipped(ModelConfig::induction(2));
    let reports: Vec<ShardReport> = (0..2)
        .map(|i| {
            ShardReport::of(
                "shipped",
                &check(&model, &Options::new(2).shard(Shard::new(i, 2).unwrap())),
            )
        })
        .collect();
    let merged = merge(&reports).unwrap();
    assert!(!merged.proved());
    assert!(!merged.failures.is_empty());
}
