//! The engine interface: what a caller asks ([`api::Request`]), what an engine answers
//! ([`api::Reply`]), the [`api::Engine`] trait both engines implement, and [`tail::Tail`], an
//! engine together with its state. It imports upstream's semantics and the sources, nothing
//! else (docs/architecture.md).

pub mod api;
pub mod plain;
pub(crate) mod tail;
