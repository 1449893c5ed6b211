//! The seed policy of every proptest in the workspace: the same cases on every run unless a
//! seed is asked for.
//!
//! - `PROPTEST_RNG_SEED` unset: the fixed [`DEFAULT_SEED`], so `cargo test` and CI draw the
//!   same cases every time and a red run is red again on rerun.
//! - `PROPTEST_RNG_SEED=random`: a fresh seed, for long runs that look for new cases
//!   (`PROPTEST_RNG_SEED=random PROPTEST_CASES=100000 cargo test --release -p bgtail --test
//!   exact_contract_proptest`).
//! - `PROPTEST_RNG_SEED=N`: that seed, to rerun a failure.
//!
//! [`config`] prints the seed it chose; cargo shows a test's output when the test fails, so a
//! failure's log says how to rerun it. `PROPTEST_CASES` overrides the number of cases, as
//! proptest's own configuration reads it.

use proptest::test_runner::{Config, RngSeed};
use std::hash::{BuildHasher, RandomState};

/// The seed every proptest runs with when `PROPTEST_RNG_SEED` is unset.
pub const DEFAULT_SEED: u64 = 28;

/// The environment variable that names the seed (proptest's own).
pub const SEED_ENV: &str = "PROPTEST_RNG_SEED";

/// The seed named by `value` of [`SEED_ENV`]: `None` for unset, `"random"` for a fresh one.
pub fn seed_from(value: Option<&str>) -> Result<u64, String> {
    match value {
        None | Some("") => Ok(DEFAULT_SEED),
        Some("random") => Ok(RandomState::new().hash_one(std::time::SystemTime::now())),
        Some(n) => n
            .parse()
            .map_err(|_| format!("{SEED_ENV} must be unset, `random` or a number, not {n:?}")),
    }
}

/// A proptest configuration of `cases` cases (unless `PROPTEST_CASES` says otherwise) with
/// the seed the policy above chooses.
pub fn config(cases: u32) -> Config {
    let value = std::env::var(SEED_ENV).ok();
    let seed = seed_from(value.as_deref()).unwrap_or_else(|e| panic!("{e}"));
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        Config::default().cases
    } else {
        cases
    };
    eprintln!("proptest: {cases} cases from seed {seed}; rerun with {SEED_ENV}={seed}");
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_is_the_fixed_seed_a_number_is_itself_and_random_is_fresh() {
        assert_eq!(seed_from(None), Ok(DEFAULT_SEED));
        assert_eq!(seed_from(Some("12345")), Ok(12345));
        assert!(seed_from(Some("random")).is_ok());
        assert!(seed_from(Some("twelve")).unwrap_err().contains(SEED_ENV));
    }
}
