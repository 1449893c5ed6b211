//! The import graph of a source tree, file by file: which file's code names which other file's
//! items. The layering tests (`tests/tests/layers.rs`) read it for every crate and for the
//! TypeScript package, so that a circle of imports between two files is seen wherever it is.
//!
//! For Rust, a file is a node named by its module path (`engines::exact::render`; `crate` for
//! `lib.rs` or `main.rs`, `engines::exact` for `engines/exact/mod.rs`). Every path the code
//! names counts — `crate::`, `super::` and `self::` paths, `use` trees with their braces, and
//! paths through a child module the file declares — but not a `pub use`, which is a module's
//! face to its importers rather than a need of its own code. A path that names an item a module
//! only imports (`super::Coverage`, where `mod.rs` has `pub use coverage::Coverage`) is
//! followed to the file that defines it. An inline module (`mod tests { use super::*; }`) is
//! part of its file. Comments are left out, and with them intra-doc links.
//!
//! For TypeScript, a file is a node named by its stem, and its edges are its relative `import`
//! and `export … from` specifiers (type-only imports included: a cycle of types is still one).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Which nodes each node names: a node with no imports is present with an empty set.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// The name of the crate root's node.
pub const ROOT: &str = "crate";

/// One Rust file, read: its module path and its code with the comments left out.
struct RustFile {
    module: Vec<String>,
    code: String,
}

/// The import graph of the Rust crate whose root file (`lib.rs` or `main.rs`) is in `src`.
pub fn rust_crate(src: &Path) -> Graph {
    let files = rust_files(src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let imports: BTreeMap<Vec<String>, Vec<UsePath>> = files
        .iter()
        .map(|f| (f.module.clone(), use_paths(&f.code)))
        .collect();
    let resolver = Resolver {
        modules: &modules,
        imports: &imports,
    };
    let mut graph = Graph::new();
    for file in &files {
        let node = name(&file.module);
        let uses = graph.entry(node.clone()).or_default();
        for path in paths_named(file, &modules) {
            let target = name(&resolver.resolve(&path, 0));
            if target != node {
                uses.insert(target);
            }
        }
    }
    graph
}

/// A node's name: its module path joined by `::`, or [`ROOT`].
fn name(module: &[String]) -> String {
    if module.is_empty() {
        ROOT.to_string()
    } else {
        module.join("::")
    }
}

/// Every `.rs` file under `src`, with its module path.
fn rust_files(src: &Path) -> Vec<RustFile> {
    let mut files = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            if file.is_dir() {
                stack.push(file);
            } else if file.extension().is_some_and(|e| e == "rs") {
                let rel = file.strip_prefix(src).unwrap();
                let text = std::fs::read_to_string(&file).unwrap();
                files.push(RustFile {
                    module: module_path(rel),
                    code: strip_comments(&text),
                });
            }
        }
    }
    files.sort_by(|a, b| a.module.cmp(&b.module));
    files
}

/// The module path of a file at `rel` inside `src`: `engines/exact/mod.rs` is
/// `[engines, exact]`, `engines/exact/scan.rs` is `[engines, exact, scan]`, `lib.rs` is `[]`.
pub fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    let root = parts.is_empty() && (stem == "lib" || stem == "main");
    if stem != "mod" && !root {
        parts.push(stem.to_string());
    }
    parts
}

/// `text` with its `//` and `/* */` comments replaced by spaces (line breaks kept, so that
/// offsets and line numbers stay), and string literals' contents blanked, so that neither a
/// comment nor a string is read as code.
pub fn strip_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let skip = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if let Some(body) = rest.strip_prefix("/*") {
            body.find("*/").map_or(rest.len(), |end| end + 4)
        } else if rest.starts_with('"') && !text[..i].ends_with('\'') {
            string_len(rest)
        } else {
            0
        };
        if skip == 0 {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        } else {
            out.extend(
                rest[..skip]
                    .chars()
                    .map(|c| if c == '\n' { '\n' } else { ' ' }),
            );
            i += skip;
        }
    }
    out
}

/// The length of the string literal `rest` opens, its quotes included.
fn string_len(rest: &str) -> usize {
    let mut escaped = false;
    for (at, c) in rest.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return at + 1,
            _ => escaped = false,
        }
    }
    rest.len()
}

/// A path a `use` tree names, and the name it is brought in as (`None` for a glob).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsePath {
    /// The path's segments, as written (`super`, `crate` and `self` included).
    pub path: Vec<String>,
    /// The name it binds in the importing module.
    pub alias: Option<String>,
}

/// Every path named by the `use` declarations in `code`, braces expanded.
pub fn use_paths(code: &str) -> Vec<UsePath> {
    use_statements(code)
        .into_iter()
        .flat_map(|(_, tree)| expand(&tree, &[]))
        .collect()
}

/// The `use` declarations of `code`: each one's byte offset and its tree, [`compact`]ed.
fn use_statements(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use ") {
        let start = from + at;
        from = start + 4;
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = code[from..].find(';') else {
            break;
        };
        let tree = compact(&code[from..from + end]);
        if tree.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == ':' || c == '{') {
            found.push((start, tree));
        }
        from += end;
    }
    found
}

/// A `use` tree with no whitespace but the one space before and after each `as`.
fn compact(tree: &str) -> String {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        let spaced = *word == "as" || words.get(i + 1) == Some(&"as");
        out.push_str(word);
        if spaced && i + 1 < words.len() {
            out.push(' ');
        }
    }
    out
}

/// The paths of one `use` tree below `prefix`.
fn expand(tree: &str, prefix: &[String]) -> Vec<UsePath> {
    let tree = tree.trim_start_matches("::");
    let Some(open) = tree.find('{') else {
        return vec![leaf(tree, prefix)];
    };
    let mut base = prefix.to_vec();
    base.extend(segments(tree[..open].trim_end_matches("::")));
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    split_top(inner)
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| expand(part, &base))
        .collect()
}

/// One leaf of a `use` tree: `a::b`, `a::b as c`, `self`, `*`.
fn leaf(leaf: &str, prefix: &[String]) -> UsePath {
    let (path, alias) = match leaf.split_once(" as ") {
        Some((path, alias)) => (path, Some(alias.to_string())),
        None => (leaf, None),
    };
    let mut full = prefix.to_vec();
    let segs = segments(path);
    let last = segs.last().cloned();
    for seg in segs {
        if seg != "self" || full.is_empty() {
            full.push(seg);
        }
    }
    let alias = match last.as_deref() {
        Some("*") => {
            full.pop();
            None
        }
        Some("self") => alias.or_else(|| full.last().cloned()),
        _ => alias.or(last),
    };
    UsePath { path: full, alias }
}

/// The `::`-separated segments of `path`.
fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `inner` split at its commas outside braces.
fn split_top(inner: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
}

/// Every path `file`'s code names, made absolute (from the crate root): its `use` trees and the
/// paths in its other code that start at `crate`, `super`, `self` or a child module it declares.
fn paths_named(file: &RustFile, modules: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let scopes = inline_scopes(&file.code);
    let here = |offset: usize| {
        let mut module = file.module.clone();
        module.extend(
            scopes
                .iter()
                .filter(|s| s.0 <= offset && offset < s.1)
                .map(|s| s.2.clone()),
        );
        module
    };
    let is_child = |first: &str| {
        let mut child = file.module.clone();
        child.push(first.to_string());
        modules.contains(&child)
    };
    let mut paths = Vec::new();
    let mut code = file.code.clone();
    for (at, tree) in use_statements(&file.code) {
        if !reexport(&file.code[..at]) {
            for used in expand(&tree, &[]) {
                paths.extend(absolute(&used.path, &here(at), is_child));
            }
        }
        let end = at + file.code[at..].find(';').unwrap_or(0);
        code.replace_range(at..end, &" ".repeat(end - at));
    }
    let path = regex::Regex::new(r"\b[a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+").unwrap();
    for m in path.find_iter(&code) {
        let preceded = code[..m.start()].ends_with("::");
        if !preceded {
            paths.extend(absolute(&segments(m.as_str()), &here(m.start()), is_child));
        }
    }
    paths
}

/// Whether the `use` that follows `before` is a `pub use`: a re-export is the module's face to
/// its importers, not a need of its own code, and the resolver follows it to the defining file.
fn reexport(before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or("").trim();
    line.starts_with("pub")
}

/// `path` as written in `module`, made absolute; `None` for a path into another crate or into
/// a name the module imported (that import is a path of its own).
fn absolute(
    path: &[String],
    module: &[String],
    is_child: impl Fn(&str) -> bool,
) -> Option<Vec<String>> {
    let mut at = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                at.pop();
                rest = &rest[1..];
            }
        }
        Some(first) if is_child(first) => {}
        _ => return None,
    }
    at.extend(rest.iter().cloned());
    Some(at)
}

/// The inline modules of `code` (`mod tests { … }`): each one's span and name.
fn inline_scopes(code: &str) -> Vec<(usize, usize, String)> {
    let open = regex::Regex::new(r"\bmod\s+([a-z_][a-z0-9_]*)\s*\{").unwrap();
    open.captures_iter(code)
        .map(|c| {
            let start = c.get(0).unwrap().end();
            let mut depth = 1;
            let mut end = code.len();
            for (at, ch) in code[start..].char_indices() {
                depth += match ch {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    end = start + at;
                    break;
                }
            }
            (start, end, c[1].to_string())
        })
        .collect()
}

/// Finds the file an absolute path leads to.
struct Resolver<'a> {
    modules: &'a BTreeSet<Vec<String>>,
    /// Each module's `use` paths: an item a module imports is found where it is defined.
    imports: &'a BTreeMap<Vec<String>, Vec<UsePath>>,
}

impl Resolver<'_> {
    /// The module whose file defines what `path` names: the deepest module along it, or, where
    /// the next segment is a name that module imports, the module that import leads to.
    fn resolve(&self, path: &[String], depth: usize) -> Vec<String> {
        let mut module: Vec<String> = Vec::new();
        for seg in path {
            let mut next = module.clone();
            next.push(seg.clone());
            if self.modules.contains(&next) {
                module = next;
                continue;
            }
            if depth < 8 {
                if let Some(target) = self.imported(&module, seg) {
                    return self.resolve(&target, depth + 1);
                }
            }
            break;
        }
        module
    }

    /// Where `module`'s import of `name` leads, made absolute.
    fn imported(&self, module: &[String], name: &str) -> Option<Vec<String>> {
        let modules = self.modules;
        let found = self
            .imports
            .get(module)?
            .iter()
            .find(|u| u.alias.as_deref() == Some(name))?;
        absolute(&found.path, module, |first| {
            let mut child = module.to_vec();
            child.push(first.to_string());
            modules.contains(&child)
        })
    }
}

/// The import graph of the TypeScript files in `src`: each file's relative imports.
pub fn typescript(src: &Path) -> Graph {
    let from =
        regex::Regex::new(r#"(?:from|import)\s*\(?\s*["']\./([A-Za-z0-9_]+)\.js["']"#).unwrap();
    let mut graph = Graph::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let file = entry.unwrap().path();
        if file.extension().is_none_or(|e| e != "ts") {
            continue;
        }
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let code = strip_line_comments(&std::fs::read_to_string(&file).unwrap());
        let uses = graph.entry(stem.clone()).or_default();
        for m in from.captures_iter(&code) {
            if m[1] != stem {
                uses.insert(m[1].to_string());
            }
        }
    }
    graph
}

/// `text` without its `//` comment lines and `/* */` blocks (TypeScript's doc comments).
fn strip_line_comments(text: &str) -> String {
    let block = regex::Regex::new(r"(?s)/\*.*?\*/").unwrap();
    block
        .replace_all(text, "")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A cycle in `graph`, as the nodes along it (the first repeated at the end), if there is one.
pub fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
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

/// Every cycle of `graph` that runs through a different set of nodes, each as [`find_cycle`]
/// gives it: the strongly connected parts of more than one node, one cycle each.
pub fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut left = graph.clone();
    while let Some(cycle) = find_cycle(&left) {
        let (from, to) = (&cycle[cycle.len() - 2], &cycle[cycle.len() - 1]);
        left.get_mut(from).unwrap().remove(to);
        let members: BTreeSet<&String> = cycle.iter().collect();
        if !found
            .iter()
            .any(|c| c.iter().collect::<BTreeSet<_>>() == members)
        {
            found.push(cycle);
        }
    }
    found
}
