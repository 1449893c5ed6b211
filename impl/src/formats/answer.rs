//! The engine's side of the engine-under-test protocol, for any reader: request lines in,
//! one reply line each out, a line that is no request answered `malformed` with its `msg_id`,
//! an `init` that offers no version this side speaks refused. What a reply says is the
//! reader's; `bgtail serve` and `adapters/codex` answer through it.

use super::protocol::{ErrorCode, FromEngine, ToEngine, PROTOCOL, VERSION};
use serde_json::Value;
use std::io::{BufRead, Write};

/// Answers every request line of `input` with `answer`'s reply, one JSON line each on
/// `output`, flushed before the next request is read; blank lines are skipped. Returns when
/// `input` ends, or with the first error reading or writing, naming the line.
pub fn lines(
    input: impl BufRead,
    mut output: impl Write,
    mut answer: impl FnMut(ToEngine) -> FromEngine,
) -> std::io::Result<()> {
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| named(e, format!("request line {}", n + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<ToEngine>(&line) {
            Ok(request) => answer(request),
            Err(e) => FromEngine::Error {
                in_reply_to: msg_id_of(&line),
                code: ErrorCode::Malformed,
                text: format!("request line {}: {e}", n + 1),
            },
        };
        let text = serde_json::to_string(&reply).expect("a reply serialises");
        writeln!(output, "{text}")
            .and_then(|()| output.flush())
            .map_err(|e| named(e, format!("the reply to request line {}", n + 1)))?;
    }
    Ok(())
}

/// The refusal of an `init` whose `versions` do not hold this side's, or `None` when they do.
pub fn refuse_versions(msg_id: u64, versions: &[u32]) -> Option<FromEngine> {
    (!versions.contains(&VERSION)).then(|| FromEngine::Error {
        in_reply_to: msg_id,
        code: ErrorCode::NotSupported,
        text: format!("{PROTOCOL} versions {versions:?}: this engine speaks {VERSION}"),
    })
}

/// The `msg_id` of a request that did not parse, when it has one (else 0).
fn msg_id_of(line: &str) -> u64 {
    serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|v| v.get("msg_id").and_then(Value::as_u64))
        .unwrap_or(0)
}

fn named(e: std::io::Error, what: String) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(input: &str) -> Vec<Value> {
        let mut out = Vec::new();
        lines(input.as_bytes(), &mut out, |request| FromEngine::ResetOk {
            in_reply_to: request.msg_id(),
        })
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn each_request_line_gets_one_reply_and_a_bad_one_is_named_with_its_msg_id() {
        let replies = answered(
            "{\"type\":\"reset\",\"msg_id\":4}\n\n{\"type\":\"nope\",\"msg_id\":7}\nnot json\n",
        );
        assert_eq!(replies.len(), 3);
        assert_eq!(replies[0]["in_reply_to"], 4);
        assert_eq!(
            (
                replies[1]["code"].as_str(),
                replies[1]["in_reply_to"].as_u64()
            ),
            (Some("malformed"), Some(7))
        );
        assert!(replies[2]["text"]
            .as_str()
            .unwrap()
            .starts_with("request line 4: "));
    }

    #[test]
    fn an_init_without_this_version_is_refused() {
        assert!(refuse_versions(0, &[1, 2]).is_none());
        let Some(FromEngine::Error { code, text, .. }) = refuse_versions(3, &[9]) else {
            panic!("refused");
        };
        assert_eq!(code, ErrorCode::NotSupported);
        assert_eq!(text, "bgtail-eut versions [9]: this engine speaks 1");
    }
}
