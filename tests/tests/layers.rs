//! The library's layers, checked: the modules of `impl/src/` import one another without a
//! cycle, and each layer imports only the layers below it (docs/architecture.md).
//!
//! A module's imports are the `crate::NAME` paths in its code (comments are left out), so the
//! test reads the same graph `cargo modules dependencies --acyclic` would, with no tool to
//! install.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Which top-level modules each top-level module of `impl/src/` names in its code.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = bgtail_tests::inputs::workspace_root().join("impl/src");
    let path = Regex::new(r"crate::([a-z_][a-z0-9_]*)").unwrap();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            if file.is_dir() {
                stack.push(file);
                continue;
            }
            let Some(module) = top_module(&src, &file) else {
                continue;
            };
            let code = std::fs::read_to_string(&file).unwrap();
            let uses = graph.entry(module.clone()).or_default();
            for line in code.lines() {
                let code = line.split("//").next().unwrap_or("");
                for m in path.captures_iter(code) {
                    if m[1] != module {
                        uses.insert(m[1].to_string());
                    }
                }
            }
        }
    }
    graph
}

/// `exact` for `impl/src/exact/scan.rs`, `api` for `impl/src/api.rs`; `None` for `lib.rs`.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && file.extension().is_some_and(|e| e == "rs")).then(|| name.to_string())
}

/// A cycle in `graph`, as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_library_modules_import_one_another_without_a_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 10, "only {} modules read", graph.len());
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle: {}", cycle.join(" → "));
    }
}

#[test]
fn a_cycle_is_found_and_named() {
    let mut graph = BTreeMap::new();
    for (from, to) in [
        ("api", "source"),
        ("source", "trace"),
        ("trace", "api"),
        ("js", ""),
    ] {
        graph
            .entry(from.to_string())
            .or_insert_with(BTreeSet::new)
            .extend((!to.is_empty()).then(|| to.to_string()));
    }
    assert_eq!(
        find_cycle(&graph).unwrap(),
        ["api", "source", "trace", "api"]
    );
    graph.get_mut("trace").unwrap().clear();
    assert_eq!(find_cycle(&graph), None);
}

/// Modules that may import only what the layer below them offers.
const LAYERS: &[(&str, &[&str])] = &[
    // Upstream's semantics, shared by both engines.
    ("js", &[]),
    ("limits", &[]),
    ("details", &[]),
    ("view", &["js"]),
    ("condense", &["js", "limits"]),
    // The sources: a leaf.
    ("source", &[]),
    // The engine interface.
    (
        "api",
        &["js", "limits", "details", "view", "condense", "source"],
    ),
    ("tail", &["api", "source"]),
    // The engines never import the checker or the formats.
    (
        "exact",
        &[
            "js", "limits", "details", "view", "condense", "source", "api",
        ],
    ),
    (
        "shipped",
        &[
            "js", "limits", "details", "view", "condense", "source", "api",
        ],
    ),
    // The judge owes nothing to an engine.
    ("judge", &["js", "limits", "condense", "api"]),
];

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let graph = module_graph();
    let mut wrong = Vec::new();
    for (module, allowed) in LAYERS {
        let uses = graph
            .get(*module)
            .unwrap_or_else(|| panic!("no module {module}"));
        for used in uses {
            if !allowed.contains(&used.as_str()) {
                wrong.push(format!("{module} imports {used}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
