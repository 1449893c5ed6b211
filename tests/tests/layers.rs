//! The library's layers, checked: the modules of `impl/src/` import one another without a
//! cycle, and each layer imports only the layers below it (docs/architecture.md).
//!
//! A module's imports are the `crate::NAME` paths in its code (comments are left out), so the
//! test reads the same graph `cargo modules dependencies --acyclic` would, with no tool to
//! install.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The folders of `impl/src/` that group modules into layers; every other top-level file or
/// folder is a module of its own (`source`, `state_file`).
const LAYER_FOLDERS: &[&str] = &["interface", "upstream", "engines", "checker", "formats"];

/// Which modules each module of `impl/src/` names in its code, as `layer::module` paths
/// (`upstream::view`, `engines::exact`) or a module's own name (`source`, `state_file`).
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = bgtail_tests::inputs::workspace_root().join("impl/src");
    let path = Regex::new(r"crate::([a-z_][a-z0-9_]*)(?:::([a-z_][a-z0-9_]*))?").unwrap();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            if file.is_dir() {
                stack.push(file);
                continue;
            }
            let Some(module) = module_of(&src, &file) else {
                continue;
            };
            let code = std::fs::read_to_string(&file).unwrap();
            let uses = graph.entry(module.clone()).or_default();
            for line in code.lines() {
                let code = line.split("//").next().unwrap_or("");
                for m in path.captures_iter(code) {
                    let used = imported(&m[1], m.get(2).map(|n| n.as_str()));
                    if used != module {
                        uses.insert(used);
                    }
                }
            }
        }
    }
    graph
}

/// The module a `crate::FIRST::SECOND` path names. A path into a layer must name the module
/// inside it: the root's re-exports (`crate::view`) would hide which layer is imported.
fn imported(first: &str, second: Option<&str>) -> String {
    if !LAYER_FOLDERS.contains(&first) {
        return first.to_string();
    }
    match second {
        Some(module) => format!("{first}::{module}"),
        None => panic!("`crate::{first}` names a layer, not a module in it"),
    }
}

/// `engines::exact` for `impl/src/engines/exact/scan.rs`, `upstream::view` for
/// `impl/src/upstream/view.rs`, `source` for `impl/src/source/file.rs`; `None` for `lib.rs`
/// and a layer's own `mod.rs`, which only declare modules.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    if file.extension().is_none_or(|e| e != "rs") {
        return None;
    }
    let rel = file.strip_prefix(src).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str().unwrap())
        .collect();
    let stem = |name: &str| name.strip_suffix(".rs").unwrap_or(name).to_string();
    match parts.as_slice() {
        ["lib.rs"] => None,
        [layer, "mod.rs"] if LAYER_FOLDERS.contains(layer) => None,
        [layer, module, ..] if LAYER_FOLDERS.contains(layer) => {
            Some(format!("{layer}::{}", stem(module)))
        }
        [module, ..] => Some(stem(module)),
        [] => None,
    }
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

/// Modules that may import only what the layers below them offer: this is
/// docs/architecture.md's rules, in code.
const LAYERS: &[(&str, &[&str])] = &[
    // Upstream's semantics, shared by both engines.
    ("upstream::js", &[]),
    ("upstream::limits", &[]),
    ("upstream::details", &[]),
    ("upstream::view", &["upstream::js"]),
    ("upstream::condense", &["upstream::js", "upstream::limits"]),
    // The sources: a leaf.
    ("source", &[]),
    // The engine interface.
    ("interface::api", UNDER_INTERFACE),
    ("interface::tail", &["interface::api", "source"]),
    // The engines never import the checker or the formats.
    ("engines::exact", UNDER_ENGINES),
    ("engines::shipped", UNDER_ENGINES),
    // The judge owes nothing to an engine.
    (
        "checker::judge",
        &[
            "upstream::js",
            "upstream::limits",
            "upstream::condense",
            "interface::api",
        ],
    ),
];

/// What the engine interface may import: upstream's semantics and the sources.
const UNDER_INTERFACE: &[&str] = &[
    "upstream::js",
    "upstream::limits",
    "upstream::details",
    "upstream::view",
    "upstream::condense",
    "source",
];

/// What an engine may import: the interface and everything under it.
const UNDER_ENGINES: &[&str] = &[
    "upstream::js",
    "upstream::limits",
    "upstream::details",
    "upstream::view",
    "upstream::condense",
    "source",
    "interface::api",
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

#[test]
fn a_path_into_a_layer_names_its_module() {
    assert_eq!(imported("upstream", Some("view")), "upstream::view");
    assert_eq!(imported("source", Some("memory")), "source");
    assert!(std::panic::catch_unwind(|| imported("checker", None)).is_err());
}

#[test]
fn each_file_belongs_to_its_layer_and_module() {
    let src = Path::new("/x/impl/src");
    let of = |rel: &str| module_of(src, &src.join(rel));
    assert_eq!(
        of("engines/exact/scan.rs").as_deref(),
        Some("engines::exact")
    );
    assert_eq!(of("upstream/view.rs").as_deref(), Some("upstream::view"));
    assert_eq!(of("source/file.rs").as_deref(), Some("source"));
    assert_eq!(of("state_file.rs").as_deref(), Some("state_file"));
    assert_eq!(of("checker/mod.rs"), None);
    assert_eq!(of("lib.rs"), None);
}
