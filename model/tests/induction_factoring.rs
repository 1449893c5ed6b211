//! The factored induction checked against itself: every reset state run in full gives its
//! group's reply and successor, and every mirrored continuing state its mirror's; the
//! factored and the full check cover the same states; and engines that carry state across a
//! reset, or tell a line's text variants apart — breaking a premise the factoring rests on —
//! are caught.

use bgtail::exact::{fnv1a, BytePrint, ExactState};
use bgtail::judge::{settled_end, Judge};
use bgtail::source::{read_span, LogSource};
use bgtail::{Engine, ExactEngine, Job, Limits, Rejected, Reply, Request};
use bgtail_model::induction::{
    self, Broke, Conjunct, Factoring, Facts, Inductive, Options, Report, ResetCheck, Written,
};
use bgtail_model::{renumber_generations, ModelConfig, TailModel};

fn proved<S: std::fmt::Debug>(report: &Report<S>) {
    assert!(
        report.proved(),
        "{:#?}",
        report
            .failures
            .first()
            .map(|f| (&f.action, &f.broke, &f.candidate))
    );
}

/// The factored check of `model` with every reset state run and its reads compared, reply
/// and successor, with its group's: proved, and every reset state compared.
fn compared(model: &TailModel<ExactEngine>) -> Report<ExactState> {
    let report = induction::check(model, &Options::new(2).factoring(Factoring::Compared));
    proved(&report);
    assert_eq!(report.compared, report.reset);
    report
}

/// Before any read, continuing the bookmark's generation, and reset since.
fn counts<S>(report: &Report<S>) -> (u64, u64, u64) {
    (
        report.fresh,
        report.continuing,
        report.reset + report.disputed,
    )
}

/// The full check, each state run on its own, covers the states the factored check counts
/// from its listing of the groups, and those the cross-check runs.
#[test]
fn the_full_check_covers_the_states_the_factored_one_counts() {
    let model = TailModel::exact(ModelConfig::induction(2));
    let factored = induction::check(&model, &Options::new(2));
    let full = induction::check(&model, &Options::new(2).factoring(Factoring::Full));
    proved(&factored);
    proved(&full);
    assert_eq!(counts(&factored), counts(&full));
    assert_eq!(counts(&compared(&model)), counts(&full));
    assert_eq!(counts(&full), (104, 4_552, 38_140));
    assert!(
        full.steps > factored.steps,
        "the full check runs every reset state"
    );
}

/// At 3 lines, every reset state reads as its group, and the states run are those the
/// factored check counts (`induction.rs` pins its counts; `bgtail check --induction
/// --max-lines 3 --unfactored` runs each in full: 9,463,404 steps, 4,709,296 reads).
#[test]
fn every_reset_state_reads_as_its_group_at_3_lines() {
    let compared = compared(&TailModel::exact(ModelConfig::induction(3)));
    assert_eq!(counts(&compared), (424, 39_624, 1_137_276));
}

/// The same at 4 lines: every reset state reads as its group.
#[test]
#[ignore = "about 7 minutes on 2 threads: cargo test --release -p bgtail-model --test suite induction_factoring:: -- --ignored"]
fn every_reset_state_reads_as_its_group_at_4_lines() {
    let compared = compared(&TailModel::exact(ModelConfig::induction(4)));
    assert_eq!(counts(&compared), (1_704, 330_952, 29_878_300));
}

/// The job's end (`--bound job-end`): each line rewritten on its own, the partial line grown,
/// the exit marker, a 1-byte view. At 2 lines every reset state reads as its group, and every
/// continuing state with a line in the other variant as its mirror (`bgtail check --induction
/// --bound job-end --cross-check`; 3 lines by hand, docs/model.md).
#[test]
fn every_reset_state_of_the_jobs_end_reads_as_its_group_at_2_lines() {
    let compared = compared(&TailModel::exact(ModelConfig::induction_job_end(2)));
    assert_eq!(counts(&compared), (786, 79_356, 1_418_382));
    // And every continuing state with a line in the other variant reads as its mirror.
    assert_eq!(compared.mirrored, 57_186);
}

/// What a mutant gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// It carries part of the old bookmark into a new generation.
    Carry(Carry),
    /// It forgets its coverage, unsaid, after a read that continues the generation of a log
    /// whose first line is rewritten and whose second is not (`t0`, `s1`): it tells a line's
    /// variant from the other's.
    ForgetsBesideARewrittenFirstLine,
}

/// What a mutant carries from the old bookmark into a new generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Carry {
    /// The old coverage, into the next bookmark.
    Coverage,
    /// The partial line last shown, into the next bookmark.
    PartialSeen,
    /// The old coverage into the reply itself: the old bookmark is made to describe the new
    /// log, so that the read continues it.
    CoverageIntoReply,
}

/// The exact engine, but for one fault. It says its reads start over for the exact engine's
/// reasons (its generation check is the exact engine's), and its bookmarks are the exact
/// engine's, so the factored check takes it at its word and must find it out.
#[derive(Clone, Debug)]
struct Mutant {
    inner: ExactEngine,
    fault: Fault,
}

impl Engine for Mutant {
    type State = ExactState;

    fn name(&self) -> &'static str {
        "exact, with a fault"
    }

    fn limits(&self) -> &Limits {
        self.inner.limits()
    }

    fn text_format(&self) -> bgtail::TextFormat {
        self.inner.text_format()
    }

    fn read(
        &self,
        state: &mut ExactState,
        job: Job<'_>,
        log: &dyn LogSource,
        request: &Request,
    ) -> Result<Reply, Rejected> {
        let old = state.get(job.id).cloned();
        let reset = old.as_ref().and_then(|b| {
            let print = b.generation_print();
            self.inner
                .generation_check(&print, job.path, log)
                .ok()
                .flatten()
        });
        let carry = match self.fault {
            Fault::Carry(carry) => carry,
            Fault::ForgetsBesideARewrittenFirstLine => {
                let reply = self.inner.read(state, job, log, request)?;
                let size = log.stat().expect("a model's log").size;
                let first = read_span(log, 0, size.min(6), &mut 0).expect("a model's log");
                if old.is_some() && reset.is_none() && first.starts_with(b"t0\ns1") {
                    state.bookmarks[0].1.coverage = Default::default();
                }
                return Ok(reply);
            }
        };
        let (Some(old), Some(_)) = (old, reset) else {
            return self.inner.read(state, job, log, request);
        };
        if carry == Carry::CoverageIntoReply {
            let bookmark = &mut state.bookmarks[0].1;
            describe_log(bookmark, log, self.limits(), request.running);
            return self.inner.read(state, job, log, request);
        }
        let reply = self.inner.read(state, job, log, request)?;
        let bookmark = &mut state.bookmarks[0].1;
        match carry {
            Carry::Coverage => bookmark.coverage = old.coverage,
            _ => bookmark.partial_seen = bookmark.partial_seen.or(old.partial_seen),
        }
        Ok(reply)
    }
}

/// Makes `bookmark` say it saw `log` as it is now, keeping its coverage.
fn describe_log(
    bookmark: &mut bgtail::exact::ExactBookmark,
    log: &dyn LogSource,
    limits: &Limits,
    running: bool,
) {
    let size = log.stat().expect("a model's log").size;
    let bytes = read_span(log, 0, size, &mut 0).expect("a model's log");
    let print = |offset: u64, end: u64| BytePrint {
        offset,
        len: end - offset,
        hash: fnv1a(&bytes[offset as usize..end as usize]),
    };
    let settled = settled_end(&bytes, running);
    bookmark.size = size;
    bookmark.settled_end = settled;
    bookmark.head = print(0, size.min(limits.head_probe_bytes));
    bookmark.settled_print = Some(print(settled.saturating_sub(64), settled));
    bookmark.index = Default::default();
}

impl Inductive for Mutant {
    fn starts(
        &self,
        config: &ModelConfig,
        seen: &Written,
        facts: &Facts,
        dropped: Option<Conjunct>,
    ) -> Vec<(ExactState, Judge)> {
        self.inner.starts(config, seen, facts, dropped)
    }

    fn bookmark_conjuncts(
        &self,
        config: &ModelConfig,
        state: &ExactState,
        seen: &Written,
        facts: &Facts,
        judge: &Judge,
        dropped: Option<Conjunct>,
    ) -> Option<Conjunct> {
        self.inner
            .bookmark_conjuncts(config, state, seen, facts, judge, dropped)
    }

    fn no_bookmark(state: &ExactState) -> bool {
        ExactEngine::no_bookmark(state)
    }

    fn alike_beyond_eq(a: &ExactState, b: &ExactState) -> bool {
        ExactEngine::alike_beyond_eq(a, b)
    }

    fn reset_check<'a>(
        &'a self,
        config: &'a ModelConfig,
        seen: &'a Written,
        facts: &'a Facts,
    ) -> ResetCheck<'a> {
        self.inner.reset_check(config, seen, facts)
    }
}

fn mutant(fault: Fault, config: ModelConfig) -> TailModel<Mutant> {
    let inner = ExactEngine::new(config.limits.clone());
    TailModel {
        quotient: Some(renumber_generations),
        ..TailModel::new(Mutant { inner, fault }, config)
    }
}

/// Each mutant is caught at 1 line by the factored check: a group's representative holds no
/// coverage and no partial line, so carries nothing, and its most different members read
/// otherwise — the next bookmark differs for all three, and for the one that reads with the
/// old coverage the reply too wherever that coverage hides a line.
#[test]
fn engines_that_carry_state_across_a_reset_are_caught() {
    for carry in [
        Carry::Coverage,
        Carry::PartialSeen,
        Carry::CoverageIntoReply,
    ] {
        let model = mutant(Fault::Carry(carry), ModelConfig::induction(1));
        let report = induction::check(&model, &Options::new(2));
        let failure = report
            .failures
            .first()
            .unwrap_or_else(|| panic!("{carry:?}: the factored check proves the mutant"));
        assert!(
            matches!(failure.broke, Broke::Unfactorable { .. }),
            "{carry:?}: {:?}",
            failure.broke
        );
        // The full check, which runs every reset state on its own, fails them too.
        let full = induction::check(&model, &Options::new(2).factoring(Factoring::Full));
        assert!(
            !full.proved(),
            "{carry:?}: the full check proves the mutant"
        );
    }
}

/// Dropping a conjunct the step needs still fails the factored step (the continuing states
/// are run in full), as it fails the full one.
#[test]
fn a_needed_conjunct_dropped_fails_the_factored_step() {
    let model = TailModel::exact(ModelConfig::induction(2));
    for factoring in [Factoring::Factored, Factoring::Full] {
        let options = Options::new(2)
            .dropping(Conjunct::CoverageDelivered)
            .factoring(factoring);
        let report = induction::check(&model, &options);
        assert!(!report.proved(), "{factoring:?}");
    }
}

/// An engine that tells a line's variant from the other's breaks the symmetry the check takes
/// for continuing states (`induction::mirror`): every continuing state whose log starts with
/// `t0`, `s1` has lines in the other variant, so the factored check runs only their mirrors
/// and proves the mutant. The cross-check, which runs each such state and compares it with
/// its mirror, names the asymmetry; the full check finds what the fault breaks.
#[test]
fn an_engine_that_tells_the_variants_apart_is_caught_by_the_cross_check() {
    let model = mutant(
        Fault::ForgetsBesideARewrittenFirstLine,
        ModelConfig::induction_job_end(2),
    );
    let factored = induction::check(&model, &Options::new(2));
    proved(&factored);
    let compared = induction::check(&model, &Options::new(2).factoring(Factoring::Compared));
    let failure = compared
        .failures
        .first()
        .expect("the cross-check proves the mutant");
    assert!(
        matches!(failure.broke, Broke::Asymmetric { .. }),
        "{:?}",
        failure.broke
    );
    let full = induction::check(&model, &Options::new(2).factoring(Factoring::Full));
    assert!(!full.proved(), "the full check proves the mutant");
}
