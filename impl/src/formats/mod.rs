//! The files bgtail reads and writes: traces ([`trace`]), the engine-under-test protocol's
//! messages ([`protocol`]) and an engine's side of it ([`answer`]), and captured agent
//! sessions rebuilt as traces — pi's ([`pi_session`], [`pi_import`]) and Codex's
//! ([`codex_session`], [`codex_import`], its replies' text in [`codex_reply`]) and Claude
//! Code's ([`claude_session`], [`claude_import`]).

pub mod answer;
pub mod claude_import;
pub mod claude_session;
pub mod codex_import;
pub(crate) mod codex_reply;
pub mod codex_session;
pub mod harness;
#[cfg(test)]
pub(crate) mod import_fixture;
pub mod pi_import;
pub mod pi_session;
pub mod protocol;
pub mod session_format;
mod session_lines;
pub mod timestamp;
pub mod trace;
pub mod unknown;
