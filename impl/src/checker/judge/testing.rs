//! What the judge's unit tests share: one read judged, its anomalies by what they expected.

use super::{Judge, ReadInput, Rules, TextFormat};
use crate::interface::api::Request;
use crate::upstream::limits::Limits;

/// What the judge finds wrong with `text` as the reply to a read of `log` (then recorded), at
/// the default limits.
pub fn wrong_in(judge: &mut Judge, log: &[u8], request: &Request, text: &str) -> Vec<String> {
    wrong_at(&Limits::default(), judge, log, request, text)
}

/// [`wrong_in`] at `limits`.
pub fn wrong_at(
    limits: &Limits,
    judge: &mut Judge,
    log: &[u8],
    request: &Request,
    text: &str,
) -> Vec<String> {
    let rules = Rules::new(TextFormat::Exact, limits.clone());
    let input = ReadInput {
        log,
        file: 0,
        request,
        text,
        shown: None,
        fields: None,
    };
    let verdict = judge.judge(&rules, &input);
    verdict
        .anomalies
        .iter()
        .map(|a| a.expected.clone())
        .collect()
}

/// A read of the last `n` lines.
pub fn lines(n: f64) -> Request {
    Request {
        lines: Some(n),
        ..Request::default()
    }
}
