//! The readers `bgtail readers` measures: where each one's code comes from, the bounds it is
//! checked at, and the paths replayed for it where a full check is too slow for every run.

use crate::checks::bound::Bound;
use bgtail_model::{Action, LineKind, TailModel};
use stateright::Expectation;

/// Where a reader's code comes from.
pub(super) enum Source {
    /// The in-crate exact engine.
    Exact,
    /// An adapter (`adapters/<folder>/main.mjs`) over a checkout under the shared folder.
    Adapter {
        folder: &'static str,
        checkout: &'static str,
    },
    /// A binary of this workspace built beside `bgtail` (its upstream code compiled in from
    /// the shared folder), checked with `model_args` (its sizes scaled down) and replayed over
    /// the corpus with `corpus_args` (at upstream's sizes).
    Binary {
        name: &'static str,
        model_args: &'static str,
        corpus_args: &'static str,
    },
}

/// The reader's engines, as `check` and `replay` name them: the one the model checks, and the
/// one the corpus is replayed through (the same but for a reader scaled down for the model).
pub(super) struct Engines {
    pub model: crate::corpus::ReplayEngine,
    pub corpus: crate::corpus::ReplayEngine,
}

/// One bound a reader is checked at: a named bound with CI-sized overrides.
pub(super) struct At {
    pub bound: Bound,
    pub max_lines: Option<u8>,
    pub max_reads: Option<u8>,
}

pub(super) const fn at(bound: Bound, max_lines: Option<u8>, max_reads: Option<u8>) -> At {
    At {
        bound,
        max_lines,
        max_reads,
    }
}

/// A path a reader is run along, literally, at a bound too large to search on every run: the
/// shortest counterexamples a full check at that bound found (docs/readers.md gives its
/// command). The judge names what the reader does on it now, so a reader that stops failing
/// there changes the table.
pub(super) struct Witness {
    pub at: At,
    pub path: &'static [Action],
}

/// A reader of the table.
pub(super) struct Reader {
    pub name: &'static str,
    pub source: Source,
    /// Issue #28's two worlds, and CI's families (resets, partial lines, the exit) over small
    /// logs; mux, whose every state is rebuilt by real processes at tens of reads per second,
    /// at the gap world only, with its witnesses for the cap world and CI's families.
    pub bounds: &'static [At],
    /// Paths replayed at bounds the reader is not searched at (empty for all but mux).
    pub witnesses: &'static [Witness],
}

pub(super) const CI_SMALL: At = at(Bound::Ci, Some(3), Some(2));
/// Issue #28's gap and cap worlds and CI's families over small logs: the bounds of every reader
/// whose check fits CI.
pub(super) const WORLDS_AND_CI: &[At] = &[
    at(Bound::Gap, None, None),
    at(Bound::Cap, None, None),
    CI_SMALL,
];
/// CI's families over 1-line logs and 2 reads: 6,007 unique states and 269 s for mux (the cap
/// world: 7,845 and 482 s); with this bound among mux's, a `bgtail readers` run takes 18 m 53 s.
pub(super) const CI_ONE_LINE: At = at(Bound::Ci, Some(1), Some(2));

pub(super) const READERS: [Reader; 6] = [
    Reader {
        name: "bgtail exact",
        source: Source::Exact,
        bounds: WORLDS_AND_CI,
        witnesses: &[],
    },
    Reader {
        name: "pi-bgrun 0.7.1 (its own code)",
        source: Source::Adapter {
            folder: "pi-bgrun",
            checkout: "upstream/pi-bgrun-0.7.1",
        },
        bounds: &[at(Bound::Gap, None, None), at(Bound::Cap, None, None)],
        witnesses: &[],
    },
    Reader {
        name: "Gemini CLI at 5411f113 (its own code)",
        source: Source::Adapter {
            folder: "gemini-cli",
            checkout: "upstream/gemini-cli-5411f113",
        },
        bounds: WORLDS_AND_CI,
        witnesses: &[],
    },
    Reader {
        name: "mux 0.28.2 (its own code)",
        source: Source::Adapter {
            folder: "mux",
            checkout: "upstream/mux-f2160b19",
        },
        bounds: &[at(Bound::Gap, None, None)],
        witnesses: &[
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::Append(LineKind::Short),
                    Action::Read(1),
                    Action::Truncate,
                    Action::Read(1),
                ],
            },
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::Append(LineKind::Short),
                    Action::Read(1),
                    Action::Rewrite,
                    Action::Read(1),
                ],
            },
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::Append(LineKind::Short),
                    Action::Read(1),
                    Action::Truncate,
                    Action::Append(LineKind::Long),
                    Action::Read(1),
                ],
            },
            Witness {
                at: CI_ONE_LINE,
                path: &[
                    Action::WritePartial,
                    Action::Read(1),
                    Action::Truncate,
                    Action::Read(1),
                ],
            },
            Witness {
                at: at(Bound::Cap, None, None),
                path: &[
                    Action::Append(LineKind::Long),
                    Action::Append(LineKind::Long),
                    Action::Append(LineKind::Long),
                    Action::Append(LineKind::Long),
                    Action::Read(1),
                ],
            },
        ],
    },
    Reader {
        name: "Codex at 343074d4 (its own code)",
        source: Source::Binary {
            name: "bgtail-codex",
            model_args: "--scaled",
            corpus_args: "",
        },
        bounds: WORLDS_AND_CI,
        witnesses: &[],
    },
    Reader {
        name: "Codex at 343074d4 with bgtail exact",
        source: Source::Binary {
            name: "bgtail-codex",
            model_args: "--exact --scaled",
            corpus_args: "--exact",
        },
        bounds: WORLDS_AND_CI,
        witnesses: &[],
    },
];

/// The column of the shortest counterexample to any `always` property that writes or
/// completes a partial line on its way.
pub(super) const PARTIAL_LINES: &str = "partial lines";

/// Whether `action` writes or completes a partial line.
pub(super) fn partial(action: &Action) -> bool {
    matches!(action, Action::WritePartial | Action::CompletePartial)
}

/// The model's `always` properties, in its order: the table's columns before
/// [`PARTIAL_LINES`], taken from the model so that a property it gains is a column too.
pub(super) fn properties() -> Vec<&'static str> {
    use stateright::Model as _;
    TailModel::exact(bgtail_model::ModelConfig::ci())
        .properties()
        .into_iter()
        .filter(|p| p.expectation == Expectation::Always)
        .map(|p| p.name)
        .collect()
}
