//! `docs/engine-protocol.md` and `bgtail::protocol` cannot drift apart: every schema on the page
//! compiles, every message of its example session validates against its schema and parses into
//! the protocol's types (and writes back as the same JSON), and every kind of message the code
//! writes validates against the page's schema for it.

use bgtail::protocol::{
    Capabilities, DeclaredLimits, EngineInfo, ErrorCode, FromEngine, ReadReply, ReadRequest,
    ShownRange, ToEngine,
};
use bgtail::trace::JsNumber;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn page() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/engine-protocol.md");
    std::fs::read_to_string(path).unwrap()
}

/// The blocks of the page fenced as `lang`.
fn blocks(page: &str, lang: &str) -> Vec<String> {
    let open = format!("```{lang}\n");
    page.split(&open)
        .skip(1)
        .map(|rest| rest.split("\n```").next().unwrap().to_owned())
        .collect()
}

/// The page's schemas by title.
fn schemas() -> BTreeMap<String, jsonschema::Validator> {
    blocks(&page(), "json")
        .iter()
        .map(|text| {
            let schema: Value = serde_json::from_str(text).unwrap();
            let title = schema["title"].as_str().unwrap().to_owned();
            (title, jsonschema::validator_for(&schema).unwrap())
        })
        .collect()
}

fn valid(schemas: &BTreeMap<String, jsonschema::Validator>, message: &Value) {
    let kind = message["type"].as_str().unwrap();
    let schema = schemas
        .get(kind)
        .unwrap_or_else(|| panic!("no schema on the page for {kind}"));
    let errors: Vec<String> = schema.iter_errors(message).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{message}: {errors:?}");
}

#[test]
fn the_example_session_validates_and_parses_into_the_types() {
    let schemas = schemas();
    let session = blocks(&page(), "text")
        .into_iter()
        .find(|b| b.starts_with("→ "))
        .unwrap();
    let mut seen = 0;
    for line in session.lines() {
        let (from_harness, text) = match line.split_once(' ') {
            Some(("→", text)) => (true, text),
            Some(("←", text)) => (false, text),
            _ => panic!("{line}"),
        };
        let message: Value = serde_json::from_str(text).unwrap();
        valid(&schemas, &message);
        let back = if from_harness {
            serde_json::to_value(serde_json::from_value::<ToEngine>(message.clone()).unwrap())
        } else {
            serde_json::to_value(serde_json::from_value::<FromEngine>(message.clone()).unwrap())
        };
        assert_eq!(back.unwrap(), message, "{line}");
        seen += 1;
    }
    assert!(seen >= 14, "the example session is on the page");
}

/// One message of every kind the code writes, with every optional field present.
fn every_message() -> Vec<Value> {
    let read = ReadRequest {
        msg_id: 2,
        job_id: "j".into(),
        log_path: "/l".into(),
        lines: Some(JsNumber::Null),
        raw: true,
        bytes: Some(4096.0),
        peek: true,
        running: true,
        now_ms: Some(5),
    };
    let requests = [
        ToEngine::Init {
            msg_id: 0,
            protocol: "bgtail-eut".into(),
            versions: vec![1],
        },
        ToEngine::Read(read.clone()),
        ToEngine::Read(ReadRequest {
            lines: Some(JsNumber::Value(2.5)),
            bytes: None,
            now_ms: None,
            ..read
        }),
        ToEngine::Reset { msg_id: 3 },
        ToEngine::Snapshot { msg_id: 4 },
        ToEngine::Restore {
            msg_id: 5,
            state: json!({"any": [1]}),
        },
    ];
    let replies = vec![
        FromEngine::InitOk {
            in_reply_to: 0,
            version: 1,
            engine: EngineInfo {
                name: "e".into(),
                version: "1".into(),
            },
            capabilities: Capabilities::all(),
            limits: Some(DeclaredLimits::from(&bgtail::Limits::default())),
            text_format: Some("bgtail-exact-1".into()),
            plain: None,
        },
        FromEngine::InitOk {
            in_reply_to: 0,
            version: 1,
            engine: EngineInfo {
                name: "codex".into(),
                version: "1".into(),
            },
            capabilities: serde_json::from_value(json!({
                "reset": true, "snapshot": true, "no_window": true, "exit_by_running": true,
                "drain": true, "appends_only": true
            }))
            .unwrap(),
            limits: Some(serde_json::from_value(json!({"text_budget": 40000})).unwrap()),
            text_format: Some("codex-343074d4".into()),
            plain: None,
        },
        FromEngine::InitOk {
            in_reply_to: 0,
            version: 1,
            engine: EngineInfo {
                name: "codex-exact".into(),
                version: "1".into(),
            },
            capabilities: Capabilities::default(),
            limits: None,
            text_format: Some("bgtail-exact-1-in-codex".into()),
            plain: None,
        },
        FromEngine::InitOk {
            in_reply_to: 0,
            version: 1,
            engine: EngineInfo {
                name: "tail.py".into(),
                version: "1".into(),
            },
            capabilities: Capabilities::default(),
            limits: None,
            text_format: Some("plain-1".into()),
            plain: Some(
                serde_json::from_value(json!({
                    "header": {"pattern": "last \\d+ of (?P<total>\\d+) lines"},
                    "notes": "\\(.*\\)",
                    "cr": "strip",
                    "ansi": "keep",
                    "blank": "hide",
                    "long_lines": {"at": 2000, "marker": " \\.\\.\\. \\d+ more"}
                }))
                .expect("a plain declaration"),
            ),
        },
        FromEngine::ReadOk(ReadReply {
            in_reply_to: 2,
            text: "t".into(),
            details: serde_json::Map::new(),
            is_error: false,
            shown: Some(vec![ShownRange { offset: 0, end: 2 }]),
        }),
        FromEngine::ResetOk { in_reply_to: 3 },
        FromEngine::SnapshotOk {
            in_reply_to: 4,
            state: json!(null),
        },
        FromEngine::RestoreOk { in_reply_to: 5 },
    ];
    let codes = [
        ErrorCode::NotSupported,
        ErrorCode::Rejected,
        ErrorCode::Malformed,
        ErrorCode::Internal,
    ];
    let errors = codes.into_iter().map(|code| FromEngine::Error {
        in_reply_to: 1,
        code,
        text: "why".into(),
    });
    requests
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .chain(
            replies
                .into_iter()
                .chain(errors)
                .map(|r| serde_json::to_value(r).unwrap()),
        )
        .collect()
}

#[test]
fn every_message_the_code_writes_validates_against_the_page() {
    let schemas = schemas();
    let messages = every_message();
    for m in &messages {
        valid(&schemas, m);
    }
    // And the page documents no message the code does not have.
    let kinds: std::collections::BTreeSet<&str> = messages
        .iter()
        .map(|m| m["type"].as_str().unwrap())
        .collect();
    let titles: std::collections::BTreeSet<&str> = schemas.keys().map(String::as_str).collect();
    assert_eq!(kinds, titles);
}

#[test]
fn an_unknown_error_code_reads_as_another_code() {
    let reply: FromEngine = serde_json::from_value(
        json!({"type":"error","in_reply_to":1,"code":"over_quota","text":"x"}),
    )
    .unwrap();
    assert!(matches!(
        reply,
        FromEngine::Error {
            code: ErrorCode::Other,
            ..
        }
    ));
}
