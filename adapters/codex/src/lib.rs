//! Codex CLI's background-job reader behind bgtail's engine-under-test protocol.
//!
//! Codex reads a background job by polling it (`write_stdin` with no input): each poll drains
//! everything the process wrote since the previous one, keeps at most a head and a tail of it
//! with the middle dropped (`HeadTailBuffer`), decodes it with `from_utf8_lossy`, and cuts it to a
//! token budget with an inline marker (`truncate_middle_with_token_budget`). Those two pieces
//! are Codex's own files, compiled from the external inputs (`build.rs`); the poll loop and the
//! text the model sees need tokio and the rest of Codex's core, so [`poll`] and [`envelope`]
//! re-express them, each function naming the upstream function and lines it follows.

#![warn(missing_docs)]

// Codex's own code: upstream's lints, not this project's, decide its style.
#[allow(dead_code, unused_imports, clippy::all, clippy::pedantic)]
mod unified_exec {
    include!(concat!(env!("OUT_DIR"), "/unified_exec.rs"));
}

#[allow(dead_code, unused_imports, clippy::all, clippy::pedantic)]
mod codex_utils_string {
    include!(concat!(env!("OUT_DIR"), "/string.rs"));
    pub(crate) use src::truncate::{
        approx_bytes_for_tokens, approx_token_count, approx_tokens_from_byte_count,
        truncate_middle_chars, truncate_middle_with_token_budget,
    };
}

pub mod envelope;
pub mod exact;
pub mod policy;
pub mod poll;
