//! The inductive check: the contract for read sequences of **any** length, over logs of up to
//! N lines.
//!
//! A bounded check explores the states a few steps reach. This check instead starts from
//! **every** state that satisfies an invariant `Inv` — the log, what the last read saw, the
//! engine's bookmark and the judge's record of what was delivered, related as below — and
//! applies every action of the model once. If every reply keeps every `always` property and
//! every successor satisfies `Inv` again, then, since the initial state satisfies `Inv`, no
//! sequence of any length breaks a guarantee (induction on the sequence's length).
//!
//! # The invariant (exact engine)
//! With `P` the log as the last read saw it (its bytes, and whether the job was running), `L`
//! the log now, `D` the complete lines the judge holds delivered in this generation, `C` the
//! lines inside the bookmark's coverage ranges:
//! - **no read, no bookmark**: before any read there is no bookmark and the judge saw nothing;
//! - **the bookmark describes P**: one bookmark, at the job's path and file, its size, settled
//!   end (where P's complete lines end), head fingerprint (P's first bytes, up to the head
//!   probe), settled fingerprint (the `settled_print_bytes` before the settled end) and
//!   partial fingerprint (the last `partial_print_bytes` of P's partial line, shown or not)
//!   are P's;
//! - **the judge saw P**: the judge's last read is P's length, hash and settled end;
//! - **delivered lines are P's**: `D` ⊆ P's complete content lines, but for spans of lines
//!   that have grown since they were delivered (a finished job's last line, flushed late):
//!   no line of the generation has their span again, and the judge's one use of them — the
//!   newest line delivered, which a forget does not let come again — lets a state holding
//!   one allow no less than the same state without it, so they are left out of the
//!   enumeration, but where coverage ends at that first part (below), which the read that
//!   covered it delivered; the conjuncts below speak of `D`'s current lines;
//! - **coverage lies on complete lines**: every coverage range starts where a complete
//!   content line of P starts and ends where one ends, at most `coverage_ranges_max` ranges
//!   — or, where a finished job's last line was flushed late, where that line's first part
//!   ends: a read before the flush covered the part as a line, and a read whose view cut the
//!   line since leaves the range as it was (the enumeration holds both);
//! - **coverage was delivered** (the contract's "nothing lost"): `C` ⊆ `D`;
//! - **delivered is covered until forgotten**: unless the engine said it forgot coverage in
//!   this generation, `D` ⊆ `C`;
//! - **the newest delivered line is covered**: the highest line of `D` lies in `C`, forgot
//!   or not (coverage forgets its oldest ranges first);
//! - **the partial line seen is P's**: the bookmark's `partial_seen` is none, or P's own
//!   partial line while the job runs;
//! - **the index is true**: every mark of the line index lies at a line start of P at or
//!   before the settled end, marks increase, and the differences of their numbers are P's
//!   content-line and newline counts;
//! - **a finished job writes nothing** but the end of its partial line: if the job now runs,
//!   it ran at P; if it had finished at P, `L`'s lines are a prefix of P's with P's partial
//!   line completed (output flushed after the exit was seen), in either variant, each line
//!   rewritten on its own and grown as it was at P (those changes are the job's);
//! - **within the bound**: `P` and `L` hold at most N lines;
//! - **the log is one the contract sees**: `L` continues `P`, is shorter, or holds other bytes
//!   than `P` at a place the contract compares (the model's scope, `crate::scope`).
//!
//! `L` is otherwise free: any log of the model's line kinds that continues `P`, or any that
//! does not (a reset since the bookmark was written, in either text variant).
//!
//! # What the enumeration assumes
//! The states are enumerated, not sampled: every `P` and `L` of up to N lines of the model's
//! kinds (a partial line, or a completed one, at any position), every `D`, every coverage of
//! at most `coverage_ranges_max` runs, the forgot flag, `partial_seen`, every view, a running
//! or finished job; then filtered by `Inv`. Where the model's configuration has them
//! ([`ModelConfig::induction_job_end`](crate::ModelConfig::induction_job_end)), also every
//! line in the other text variant on its own (a rewrite of one line), every partial part grown
//! or not, and the job's end: a log closed by the wrapper's newline and exit marker, and what a
//! truncation leaves of one (`log_shapes`; `model/tests/induction.rs` checks that every log the
//! bounded model reaches is among them). Four dimensions are fixed, each for a stated reason:
//! - `P` is written in the first text variant: a rewrite changes one letter of every line
//!   (`s`↔`t`, `p`↔`q`), and `L` takes both variants, so only "same variant or not" matters
//!   (each line rewritten on its own is a bit of its own, in `P` and in `L`, beside it);
//! - a blank or empty line is never marked rewritten on its own: it reads the same in either
//!   variant, now and after any action;
//! - the bookmark's generation number is 1: it numbers the reply's claims and appears in no
//!   text and in no check;
//! - the line index is enumerated empty or complete (a mark at every line start): it is a
//!   cache the engine may thin; any index that `Inv` accepts lies between the two, and each
//!   successor's index is checked against `Inv` whatever the engine made of it.
//!
//! Two quotients by the judge's own code, not the engine's: the judge's record of partial
//! lines delivered feeds only a `sometimes` flag, so it starts empty; and a read of a log that
//! does not continue `P` begins a generation, where the judge drops `D` and the forgot flag
//! before it checks anything, so of the states that differ only in those (with the same `P`,
//! bookmark and `L`) one stands for all. Counters of reads and resets are the bounded model's,
//! not the contract's: every action is enabled in every state.
//!
//! # The factoring of reset states
//! The engine's part is merged only where the engine's own code says a read cannot tell it
//! apart: a read of a log its generation check does not continue depends on the bookmark only
//! through the reason and the generation number, and on the judge only through
//! [`Judge::opening`](bgtail::judge::Judge::opening). [`factor`] groups those states by what such a read can see, runs every
//! action from one member of each group, and compares its reads with those of the group's
//! most different members; [`Factoring::Compared`] runs every member and compares each.
//! [`Factoring::Full`] runs every state on its own.
//!
//! # Mirrored continuing states
//! Where lines are rewritten on their own, a continuing state with a line in the other text
//! variant — in `P` and `L` alike, or in a line `L` has past `P` — reads as the state with
//! that line swapped back, its letter swapped in the reply ([`mirror`]: no offset, length,
//! kind or equality of bytes changes). The factored check runs each continuing state whose
//! lines are all unedited and counts the others as their mirror's; a reset state is never
//! mirrored (a line written after a cut is compared with `P`'s line at its index).
//! [`Factoring::MirrorsCompared`] and [`Factoring::Compared`] run every mirrored state too
//! and compare each action's outcome with its mirror's.

mod driver;
mod enumerate;
mod exact;
pub mod factor;
mod groups;
mod invariant;
mod merge;
pub mod mirror;
mod options;
mod plan;
mod pool;
mod report;
pub mod shard;
mod shipped;

pub use driver::check;
pub use enumerate::{log_shapes, Candidate, Facts, Log, Written};
pub use invariant::{broken_conjunct, Conjunct, Inductive, ResetCheck};
pub use merge::{merge, MergeError, Merged, ShardReport, SHARD_REPORT_VERSION};
pub use options::{Factoring, Options};
pub use report::{Broke, Failure, Report};
