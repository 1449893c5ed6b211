//! `docs/json-output.md` and the JSON the CLI prints cannot drift apart: both schemas compile,
//! and real output of `read --json` (a first read, a delta, a raw read, a wider read, an error
//! reply, both engines) and of `replay --json` (both engines over #28's traces, anomalies
//! included) validates against them.

use crate::common::repo;

use serde_json::Value;

/// The page's schemas by title.
fn schema(title: &str) -> jsonschema::Validator {
    let page = std::fs::read_to_string(repo().join("docs/json-output.md")).unwrap();
    let found = page
        .split("```json\n")
        .skip(1)
        .map(|rest| serde_json::from_str::<Value>(rest.split("\n```").next().unwrap()).unwrap())
        .find(|s| s["title"] == title)
        .unwrap_or_else(|| panic!("no schema titled {title} on the page"));
    jsonschema::validator_for(&found).unwrap()
}

fn assert_valid(schema: &jsonschema::Validator, doc: &Value) {
    let errors: Vec<String> = schema
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{doc:#}");
}

fn bgtail(args: &[&str]) -> (Option<i32>, Value) {
    let out = crate::common::run(args);
    let doc = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), doc)
}

#[test]
fn read_json_validates_against_the_page_for_every_kind_of_reply() {
    let read = schema("read");
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("job-1-1.log");
    std::fs::write(&log, "one\ntwo\nthree\n").unwrap();
    let log = log.to_str().unwrap();
    let mut kinds = Vec::new();
    for engine in ["exact", "shipped"] {
        let state = dir.path().join(format!("{engine}.json"));
        let state = state.to_str().unwrap();
        let base = ["read", log, "--state", state, "--engine", engine, "--json"];
        for extra in [
            &["--lines", "1"][..],
            &["--lines", "3"],
            &["--raw"],
            &["--lines", "2"],
        ] {
            let args: Vec<&str> = base.iter().chain(extra).copied().collect();
            let (code, doc) = bgtail(&args);
            assert_eq!(code, Some(0), "{doc}");
            assert_valid(&read, &doc);
            kinds.push(doc["kind"].as_str().unwrap().to_owned());
        }
        let missing = dir.path().join("gone-1-1.log");
        let (code, doc) = bgtail(&[
            "read",
            missing.to_str().unwrap(),
            "--state",
            state,
            "--engine",
            engine,
            "--json",
        ]);
        assert_eq!(code, Some(1), "an error reply exits 1");
        assert_eq!(doc["is_error"], true);
        assert_valid(&read, &doc);
    }
    for kind in ["first", "raw"] {
        assert!(kinds.iter().any(|k| k == kind), "{kinds:?}");
    }
}

#[test]
fn replay_json_validates_against_the_page_with_anomalies() {
    let replay = schema("replay");
    let (code, doc) = bgtail(&["replay", "--json", "--engine", "both", "traces/issue-28"]);
    assert_eq!(code, Some(0), "{doc}");
    assert_valid(&replay, &doc);
    let replays = doc["replays"].as_array().unwrap();
    assert!(replays.iter().any(|r| r["engine"] == "exact"));
    let anomalies = replays
        .iter()
        .filter(|r| r["engine"] == "shipped")
        .flat_map(|r| r["reads"].as_array().unwrap())
        .flat_map(|read| read["anomalies"].as_array().unwrap())
        .count();
    assert!(
        anomalies > 0,
        "the shipped engine's #28 replies carry anomalies to validate"
    );
}

#[test]
fn induction_shard_reports_validate_against_the_page() {
    let schema = schema("induction-shard");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (code, _) = crate::common::run_text(&[
        "check",
        "--induction",
        "--engine",
        "both",
        "--max-lines",
        "1",
        "--shard",
        "2/3",
        "--report",
        out,
    ]);
    assert_eq!(code, Some(0));
    for engine in ["exact", "shipped"] {
        let file = dir.path().join(format!("{engine}-ci-1-2-of-3.json"));
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_valid(&schema, &doc);
        assert_eq!(doc["shard"], "2/3");
    }
}
