//! The tree's layers, checked: no two files of a crate (or of the TypeScript package) import
//! one another through any chain, each layer of the library imports only the layers below it
//! (docs/architecture.md), and no command of the CLI imports another.
//!
//! The graph is read from the code by [`bgtail_tests::imports`] — `crate::`, `super::` and
//! `self::` paths, `use` trees and imports followed to the file that defines the item — so the
//! test sees what `cargo modules dependencies --acyclic` would, with no tool to install.

use bgtail_tests::imports::{self, cycles, find_cycle, Graph};
use bgtail_tests::inputs::workspace_root;
use std::collections::BTreeSet;
use std::path::Path;

/// The Rust crates whose files are checked, by the folder of their root file.
const CRATES: &[&str] = &["impl/src", "model/src", "replay/src", "tests/src"];

/// The TypeScript sources whose files are checked.
const TYPESCRIPT: &[&str] = &["packages/bgtail-exact/src"];

/// Every cycle in the tree, each as `folder: a → b → a`.
fn every_cycle() -> Vec<String> {
    let root = workspace_root();
    let rust = CRATES
        .iter()
        .map(|c| (c, imports::rust_crate(&root.join(c))));
    let ts = TYPESCRIPT
        .iter()
        .map(|c| (c, imports::typescript(&root.join(c))));
    rust.chain(ts)
        .flat_map(|(folder, graph)| {
            cycles(&graph)
                .into_iter()
                .map(move |c| format!("{folder}: {}", c.join(" → ")))
        })
        .collect()
}

#[test]
fn no_file_imports_itself_through_a_chain_of_others() {
    let found = every_cycle();
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn every_crate_and_the_package_are_read() {
    let root = workspace_root();
    for (folder, at_least) in [("impl/src", 40), ("model/src", 12), ("replay/src", 15)] {
        let graph = imports::rust_crate(&root.join(folder));
        assert!(graph.len() >= at_least, "{folder}: {} files", graph.len());
        let edges: usize = graph.values().map(BTreeSet::len).sum();
        assert!(edges >= graph.len(), "{folder}: only {edges} imports read");
    }
    let ts = imports::typescript(&root.join(TYPESCRIPT[0]));
    assert!(ts.len() >= 15 && ts.values().map(BTreeSet::len).sum::<usize>() >= 20);
}

/// A module of the library folded to what the layer rules speak of: `engines::exact` for any
/// file inside that folder, `upstream::condense` for `upstream/condense/oldest_first.rs`.
fn layer_module(node: &str) -> String {
    let parts: Vec<&str> = node.split("::").collect();
    match parts.as_slice() {
        [layer, module, ..] if LAYER_FOLDERS.contains(layer) => format!("{layer}::{module}"),
        [module, ..] => module.to_string(),
        [] => node.to_string(),
    }
}

/// The folders of `impl/src/` that group modules into layers; every other top-level file or
/// folder is a module of its own (`source`, `state_file`).
const LAYER_FOLDERS: &[&str] = &["interface", "upstream", "engines", "checker", "formats"];

/// The library's graph, files folded by [`layer_module`].
fn layer_graph() -> Graph {
    let fine = imports::rust_crate(&workspace_root().join("impl/src"));
    let mut folded = Graph::new();
    for (from, uses) in fine {
        let from = layer_module(&from);
        let entry = folded.entry(from.clone()).or_default();
        entry.extend(uses.iter().map(|u| layer_module(u)).filter(|u| *u != from));
    }
    folded
}

/// Modules that may import only what the layers below them offer: this is
/// docs/architecture.md's rules, in code.
const LAYERS: &[(&str, &[&str])] = &[
    // Upstream's semantics, shared by both engines.
    ("upstream::js", &[]),
    ("upstream::limits", &[]),
    ("upstream::details", &[]),
    ("upstream::marker", &[]),
    ("upstream::view", &["upstream::js", "upstream::marker"]),
    ("upstream::condense", &["upstream::js", "upstream::limits"]),
    ("upstream::tool", &["upstream::js", "upstream::limits"]),
    // The sources: a leaf.
    ("source", &[]),
    // The engine interface.
    ("interface::api", UNDER_INTERFACE),
    ("interface::plain", &["upstream::condense"]),
    ("interface::tail", &["interface::api", "source"]),
    // The engines never import the checker or the formats.
    ("engines::exact", UNDER_ENGINES),
    ("engines::shipped", UNDER_ENGINES),
    // The text of Codex's replies, which the judge reads and the importer takes apart: a leaf.
    ("formats::codex_reply", &[]),
    // The judge owes nothing to an engine.
    (
        "checker::judge",
        &[
            "formats::codex_reply",
            "upstream::js",
            "upstream::limits",
            "upstream::condense",
            "upstream::tool",
            "upstream::marker",
            "interface::api",
            "interface::plain",
            // The reply's `details`, which it holds to the text (`judge::fields`).
            "upstream::details",
        ],
    ),
];

/// What the engine interface may import: upstream's semantics and the sources.
const UNDER_INTERFACE: &[&str] = &[
    "interface::plain",
    "upstream::js",
    "upstream::limits",
    "upstream::details",
    "upstream::marker",
    "upstream::view",
    "upstream::condense",
    "upstream::tool",
    "source",
];

/// What an engine may import: the interface and everything under it.
const UNDER_ENGINES: &[&str] = &[
    "upstream::js",
    "upstream::limits",
    "upstream::details",
    "upstream::marker",
    "upstream::view",
    "upstream::condense",
    "upstream::tool",
    "source",
    "interface::api",
];

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let graph = layer_graph();
    let mut wrong = Vec::new();
    for (module, allowed) in LAYERS {
        let uses = graph
            .get(*module)
            .unwrap_or_else(|| panic!("no module {module}"));
        for used in uses {
            if !allowed.contains(&used.as_str()) && !used.starts_with(module) {
                wrong.push(format!("{module} imports {used}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_command_imports_another() {
    let graph = imports::rust_crate(&workspace_root().join("replay/src"));
    let command = |node: &str| {
        node.strip_prefix("commands::")
            .map(|c| c.split("::").next().unwrap().to_string())
    };
    let mut wrong = Vec::new();
    for (from, uses) in &graph {
        let Some(from_command) = command(from) else {
            continue;
        };
        for used in uses {
            if command(used).is_some_and(|c| c != from_command) {
                wrong.push(format!("{from} imports {used}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a command imports another (move the shared piece to a module of its own):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_cycle_is_found_and_named() {
    let mut graph = Graph::new();
    for (from, to) in [
        ("api", "source"),
        ("source", "trace"),
        ("trace", "api"),
        ("js", ""),
    ] {
        graph
            .entry(from.to_string())
            .or_default()
            .extend((!to.is_empty()).then(|| to.to_string()));
    }
    assert_eq!(
        find_cycle(&graph).unwrap(),
        ["api", "source", "trace", "api"]
    );
    graph.get_mut("trace").unwrap().clear();
    assert_eq!(find_cycle(&graph), None);
}

/// Writes `files` (path, text) into a fresh folder and reads its crate graph.
fn graph_of(files: &[(&str, &str)]) -> Graph {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    imports::rust_crate(dir.path())
}

#[test]
fn super_paths_brace_trees_and_reexports_are_followed_to_the_defining_file() {
    let graph = graph_of(&[
        ("lib.rs", "pub mod engine;\n"),
        (
            "engine/mod.rs",
            "mod render; mod select; mod start;\npub use start::Start; // render::no\nfn f() { render::respond(); }\n",
        ),
        ("engine/start.rs", "pub struct Start;\n"),
        ("engine/select.rs", "use super::{Start, render as r};\nconst X: &str = \"crate::engine::render\";\n"),
        ("engine/render.rs", "use std::fmt::Write as _;\npub fn respond() { let _ = super::Start; }\n#[cfg(test)]\nmod tests { use super::*; }\n"),
    ]);
    let uses = |node: &str| graph[node].iter().cloned().collect::<Vec<_>>();
    // `pub use start::Start` is the module's face, not a need of its code.
    assert_eq!(uses("engine"), ["engine::render"]);
    assert_eq!(uses("engine::select"), ["engine::render", "engine::start"]);
    assert_eq!(uses("engine::render"), ["engine::start"]);
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn a_child_that_takes_its_parents_own_item_closes_a_cycle() {
    let graph = graph_of(&[
        ("lib.rs", "mod exact;\n"),
        (
            "exact/mod.rs",
            "mod render;\npub struct Bookmark;\nfn read() { render::respond(); }\n",
        ),
        (
            "exact/render.rs",
            "pub fn respond(_: &super::Bookmark) {}\n",
        ),
    ]);
    assert_eq!(
        find_cycle(&graph).unwrap(),
        ["exact", "exact::render", "exact"]
    );
}

#[test]
fn a_typescript_cycle_is_read_from_its_imports() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "render.ts",
        "import { select } from \"./select.js\";\nexport type Start = number;\n",
    );
    write(
        "select.ts",
        "import type { Start } from \"./render.js\";\n// import { x } from \"./text.js\";\n",
    );
    write(
        "text.ts",
        "/** import from \"./render.js\" */\nexport {};\n",
    );
    let graph = imports::typescript(dir.path());
    assert_eq!(find_cycle(&graph).unwrap(), ["render", "select", "render"]);
    assert!(graph["text"].is_empty());
}

#[test]
fn each_file_is_named_by_its_module_path() {
    let of = |rel: &str| imports::module_path(Path::new(rel)).join("::");
    assert_eq!(of("engines/exact/scan.rs"), "engines::exact::scan");
    assert_eq!(of("engines/exact/mod.rs"), "engines::exact");
    assert_eq!(of("state_file.rs"), "state_file");
    assert_eq!(of("lib.rs"), "");
    assert_eq!(of("main.rs"), "");
}
