//! The scope of the model's log changes: the ones the contract promises a read sees.
//!
//! The contract (docs/contract.md, "Generation") sees that the log is no longer the one the
//! last read saw when it is shorter, or when one of three places holds other bytes: its first
//! `head_probe_bytes`, the `settled_print_bytes` before where the last read's complete lines
//! ended, and the last `partial_print_bytes` of the partial line that read found at the log's
//! end. A log that changed only elsewhere — rewritten in place, or cut and regrown to at least
//! its old size, with the same bytes in those places — is not seen: seeing it would cost
//! reading the whole log on every poll. The model makes no change that leaves the log so, so
//! that "resets seen" and the guarantees after it are checked exactly where the contract makes
//! them. With `ModelConfig::tiny_limits`' places of a few bytes, the model's logs reach all
//! three and the bytes between them.

use crate::state::{Action, InPlace, TailState};
use bgtail::Limits;
use std::ops::Range;

/// The places a read compares, as byte ranges of the log it saw: `len` bytes long, its
/// complete lines ending at `settled` (a partial line after them while the job ran).
pub fn compared_places(len: u64, settled: u64, limits: &Limits) -> [Range<u64>; 3] {
    [
        0..len.min(limits.head_probe_bytes),
        settled.saturating_sub(limits.settled_print_bytes)..settled,
        len.saturating_sub(limits.partial_print_bytes).max(settled)..len,
    ]
}

/// Whether the contract promises that a read of `after` sees that it is not the log the last
/// read saw (`seen`, its complete lines ending at `settled`): it continues `seen` (nothing to
/// see), it is shorter, or one of the compared places holds other bytes.
pub fn contract_sees(seen: &[u8], settled: u64, after: &[u8], limits: &Limits) -> bool {
    if after.starts_with(seen) || after.len() < seen.len() {
        return true;
    }
    compared_places(seen.len() as u64, settled, limits)
        .iter()
        .any(|r| at(after, r) != at(seen, r))
}

/// The bytes of `log` in `range`.
fn at<'a>(log: &'a [u8], range: &Range<u64>) -> &'a [u8] {
    &log[range.start as usize..range.end as usize]
}

/// Keeps of `actions` those the model may take in `state` ([`in_scope`]), rendering the log
/// once and each change that needs it: while the log continues what the last read saw, an
/// append continues it too.
pub fn retain_in_scope<S>(state: &TailState<S>, actions: &mut Vec<Action>, limits: &Limits) {
    let Some((_, settled)) = state.judge.last_extent() else {
        return;
    };
    let continues = state.render(limits).bytes.starts_with(&state.seen);
    actions.retain(|action| match action {
        Action::Read(_)
        | Action::RawRead(_)
        | Action::ReadOddly(_)
        | Action::ReadAs(_)
        | Action::GatedRead(_)
        | Action::SetView(_)
        | Action::Finish => true,
        Action::Append(_)
        | Action::WritePartial
        | Action::CompletePartial
        | Action::GrowPartial
        | Action::WriteExitMarker
            if continues =>
        {
            true
        }
        _ => {
            let after = state.log_after(action).render(limits).bytes;
            contract_sees(&state.seen, settled, &after, limits)
        }
    });
}

/// Whether the model may take `action` in `state`: a read (by any id), a change of view, the
/// job's exit, or a change to the log the contract promises the next read sees
/// ([`retain_in_scope`] for one action).
pub fn in_scope<S>(state: &TailState<S>, action: &Action, limits: &Limits) -> bool {
    let mut one = vec![action.clone()];
    retain_in_scope(state, &mut one, limits);
    !one.is_empty()
}

/// The regime a rewrite in place of one line reaches, for the `sometimes` properties: a
/// change to bytes the last read saw, past the log's head, of a log that still continued what
/// that read saw. `None` for every other action.
pub fn rewrite_behind_head<S>(
    state: &TailState<S>,
    action: &Action,
    limits: &Limits,
) -> Option<InPlace> {
    let target = action.in_place()?;
    state.judge.last_extent()?;
    let rendered = state.render(limits);
    if !rendered.bytes.starts_with(&state.seen) {
        return None;
    }
    let index = match target {
        InPlace::LastLine => state.lines.len() - 1,
        InPlace::PartialLine => state.lines.len(),
    };
    let offset = rendered.starts[index];
    let len = state.seen.len() as u64;
    (len.min(limits.head_probe_bytes)..len)
        .contains(&offset)
        .then_some(target)
}
