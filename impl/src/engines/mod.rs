//! The two engines: [`shipped`], pi-bgrun 0.7.1's `bgtail` as upstream keeps it, and
//! [`exact`], the contract. They see a log only through [`crate::source::LogSource`] and never
//! import the checker or the formats.

pub mod exact;
pub mod shipped;
