//! The files bgtail reads and writes: traces ([`trace`]), the engine-under-test protocol's
//! messages ([`protocol`]) and an engine's side of it ([`answer`]), captured pi sessions
//! ([`pi_session`]) and their jobs rebuilt as traces ([`pi_import`]).

pub mod answer;
pub mod pi_import;
pub mod pi_session;
pub mod protocol;
pub mod trace;
