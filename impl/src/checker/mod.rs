//! Holding a reader to the contract: the one [`judge`], a trace run through an engine with
//! every reply judged ([`replay`]), and random traces aimed at upstream's edges
//! ([`generate`]). No engine imports this layer; the judge imports no engine.

pub mod generate;
pub mod harness_audit;
pub mod judge;
pub mod replay;
