//! Codex's truncation policy, re-expressed: `enum TruncationPolicy` and its budgets live in
//! `codex-rs/protocol/src/protocol.rs` (lines 3112–3160 at 343074d4), a file that needs the
//! whole `codex-protocol` crate; the arithmetic here is the same, on Codex's own token
//! estimate (`approx_tokens_from_byte_count`, `approx_bytes_for_tokens`, compiled from
//! upstream).

use crate::codex_utils_string::{approx_bytes_for_tokens, approx_tokens_from_byte_count};
use std::ops::Mul;

/// How much of a text the model may see: a byte budget or a token budget (4 bytes a token).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TruncationPolicy {
    /// At most this many bytes.
    Bytes(usize),
    /// At most this many tokens, estimated as bytes / 4 rounded up.
    Tokens(usize),
}

impl TruncationPolicy {
    /// The budget in tokens (`TruncationPolicy::token_budget`, protocol.rs:3127).
    pub fn token_budget(&self) -> usize {
        match self {
            TruncationPolicy::Bytes(bytes) => {
                usize::try_from(approx_tokens_from_byte_count(*bytes)).unwrap_or(usize::MAX)
            }
            TruncationPolicy::Tokens(tokens) => *tokens,
        }
    }

    /// The budget in bytes (`TruncationPolicy::byte_budget`, protocol.rs:3137).
    pub fn byte_budget(&self) -> usize {
        match self {
            TruncationPolicy::Bytes(bytes) => *bytes,
            TruncationPolicy::Tokens(tokens) => approx_bytes_for_tokens(*tokens),
        }
    }
}

/// The budget scaled and rounded up (`impl Mul<f64> for TruncationPolicy`, protocol.rs:3147).
impl Mul<f64> for TruncationPolicy {
    type Output = Self;

    fn mul(self, multiplier: f64) -> Self {
        match self {
            TruncationPolicy::Bytes(bytes) => {
                TruncationPolicy::Bytes((bytes as f64 * multiplier).ceil() as usize)
            }
            TruncationPolicy::Tokens(tokens) => {
                TruncationPolicy::Tokens((tokens as f64 * multiplier).ceil() as usize)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_four_bytes_and_a_scaled_budget_rounds_up() {
        assert_eq!(TruncationPolicy::Tokens(10_000).byte_budget(), 40_000);
        assert_eq!(TruncationPolicy::Bytes(9).token_budget(), 3);
        assert_eq!(
            TruncationPolicy::Tokens(2) * 1.2,
            TruncationPolicy::Tokens(3)
        );
        assert_eq!(
            TruncationPolicy::Bytes(10) * 1.2,
            TruncationPolicy::Bytes(12)
        );
    }
}
