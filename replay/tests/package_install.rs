//! The TypeScript package as a user gets it: `npm pack`'s tarball installed into an empty
//! folder, without the network, runs the package's example from there and type-checks a
//! TypeScript consumer against the installed declarations (no `@types/node` needed).

use crate::common::{bgtail_exact_ts_engine, repo};
use std::path::Path;
use std::process::Command;

/// Runs a command in `dir`, failing with its output when it fails; returns its stdout.
fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{program} {args:?} in {}: {}\n{text}{}",
        dir.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// A consumer of the package's types: every name it uses is exported with its declaration.
const CONSUMER: &str = r#"import { ExactEngine, emptyState, parseState, snapshotState, StateError } from "bgtail-exact";
import type { Reply, Request } from "bgtail-exact";
const request: Request = { lines: 40, running: false, peek: true };
const state = parseState(JSON.parse(JSON.stringify(snapshotState(emptyState()))));
const reply: Reply = new ExactEngine().readFile(state, { id: "build-1-1", path: "/no/such.log" }, request);
const problem: StateError | undefined = reply.isError ? undefined : undefined;
console.log(reply.text, problem);
"#;

const TSCONFIG: &str = r#"{"compilerOptions": {"strict": true, "noEmit": true, "module": "nodenext",
  "moduleResolution": "nodenext", "target": "es2022", "types": []}, "files": ["consumer.ts"]}"#;

#[test]
fn the_packed_tarball_installs_into_an_empty_folder_and_runs_its_example() {
    bgtail_exact_ts_engine(); // the package is built (its dist is what the tarball holds)
    let package = repo().join("packages/bgtail-exact");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let app = work.path().join("app");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&app).unwrap();
    // `--ignore-scripts`: the tarball takes the dist already built, rather than rebuilding it
    // under the tests that read it.
    let packed = run(
        &package,
        "npm",
        &[
            "pack",
            "--ignore-scripts",
            "--json",
            "--pack-destination",
            out.to_str().unwrap(),
        ],
    );
    let packed: serde_json::Value = serde_json::from_str(&packed).expect("npm pack --json");
    let files: Vec<&str> = packed[0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    for wanted in [
        "dist/index.js",
        "dist/index.d.ts",
        "serve.mjs",
        "examples/poll.mjs",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ] {
        assert!(files.contains(&wanted), "{wanted} is not packed: {files:?}");
    }
    assert!(
        files
            .iter()
            .all(|f| !f.starts_with("src/") && !f.starts_with("test/") && !f.starts_with("bench/")),
        "sources, tests or benchmarks packed: {files:?}"
    );
    let tarball = out.join(packed[0]["filename"].as_str().unwrap());

    std::fs::write(
        app.join("package.json"),
        r#"{"name": "app", "private": true, "type": "module"}"#,
    )
    .unwrap();
    run(
        &app,
        "npm",
        &[
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            tarball.to_str().unwrap(),
        ],
    );
    std::fs::copy(package.join("examples/poll.mjs"), app.join("poll.mjs")).unwrap();
    let shown = run(&app, "node", &["poll.mjs"]);
    assert!(
        shown.starts_with("first read: 2 lines — log at 2 lines\n"),
        "{shown}"
    );
    assert!(
        shown.contains("+2 new lines — log at 4 lines\ncompiling c\nerror: b failed\n"),
        "{shown}"
    );
    assert!(
        shown.ends_with("{\"kind\":\"delta\",\"newLines\":2,\"shown\":2}\n"),
        "{shown}"
    );

    std::fs::write(app.join("consumer.ts"), CONSUMER).unwrap();
    std::fs::write(app.join("tsconfig.json"), TSCONFIG).unwrap();
    let tsc = repo().join("node_modules/.bin/tsc"); // the workspace's pinned tsc
    run(&app, tsc.to_str().unwrap(), &["-p", "tsconfig.json"]);
}
