//! `.cargo/mutants.toml`'s `exclude_re` names each argued-equivalent mutant by its file, line
//! and column, as `cargo mutants --list` prints it. An edit that moves the code moves the
//! mutant, and the pattern then silently excludes nothing (or something else): this test
//! fails instead, by checking that the source at each named place is the text the mutant
//! replaces. It needs no cargo-mutants.

use regex::Regex;

/// One excluded mutant's place: the file, its line, per column the text replaced there, and
/// the function it is in (the last segment of cargo-mutants' name for it).
#[derive(Debug, PartialEq)]
struct Place {
    file: String,
    line: usize,
    replaced: Vec<(usize, String)>,
    function: String,
}

/// The `exclude_re` patterns, as the regexes cargo-mutants reads (TOML's escapes undone).
fn patterns(config: &str) -> Vec<String> {
    let list = &config[config.find("exclude_re").expect("an exclude_re list")..];
    let list = &list[..list.find("\n]").expect("the list's end")];
    let string = Regex::new(r#"(?m)^\s*"((?:[^"\\]|\\.)*)","#).unwrap();
    string
        .captures_iter(list)
        .map(|c| c[1].replace("\\\\", "\\"))
        .collect()
}

/// A regex's literal text: each `\X` is `X`.
fn literal(regex: &str) -> String {
    let mut out = String::new();
    let mut chars = regex.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' {
            chars.next().unwrap_or('\\')
        } else {
            c
        });
    }
    out
}

/// Where a pattern points: `dir/file\.rs:LINE:COL: replace OP with …`, or several
/// `COL: replace OP with …` alternatives on one line; or a whole function's body replaced,
/// `dir/file\.rs:LINE:COL: replace PATH -> TYPE with VALUE`, which replaces no text at the
/// column and is placed by its function alone.
fn place(pattern: &str) -> Place {
    let head = Regex::new(r"^([a-z_/]+)\\\.rs:(\d+):").unwrap();
    let h = head
        .captures(pattern)
        .unwrap_or_else(|| panic!("{pattern}: no file and line"));
    let body = Regex::new(r"^\d+: replace ([A-Za-z_][A-Za-z0-9_:<>']*) -> .+ with ").unwrap();
    if let Some(b) = body.captures(&pattern[h[0].len()..]) {
        return Place {
            file: format!("impl/src/{}.rs", &h[1]),
            line: h[2].parse().unwrap(),
            replaced: Vec::new(),
            function: b[1].rsplit("::").next().unwrap_or("").to_string(),
        };
    }
    let mutation =
        Regex::new(r"(\d+): (?:replace (?:match guard )?(.+?) with |delete (\S+) in )").unwrap();
    let replaced: Vec<(usize, String)> = mutation
        .captures_iter(&pattern[h[0].len()..])
        .map(|m| {
            let text = m.get(2).or(m.get(3)).expect("a replaced or a deleted text");
            (m[1].parse().unwrap(), literal(text.as_str()))
        })
        .collect();
    assert!(!replaced.is_empty(), "{pattern}: no mutation read");
    let function = literal(pattern.rsplit(" in ").next().unwrap_or(""));
    let function = function.rsplit("::").next().unwrap_or("").to_string();
    Place {
        file: format!("impl/src/{}.rs", &h[1]),
        line: h[2].parse().unwrap(),
        replaced,
        function,
    }
}

/// The name of the nearest function declared at or above line `line` (1-based).
fn function_at(source: &str, line: usize) -> Option<String> {
    let declared = Regex::new(r"\bfn ([A-Za-z_][A-Za-z0-9_]*)").unwrap();
    source
        .lines()
        .take(line)
        .filter_map(|l| declared.captures(l).map(|c| c[1].to_string()))
        .last()
}

#[test]
fn each_excluded_mutant_is_where_its_pattern_says() {
    let root = bgtail_tests::inputs::workspace_root();
    let config = std::fs::read_to_string(root.join(".cargo/mutants.toml")).unwrap();
    let patterns = patterns(&config);
    assert!(patterns.len() > 20, "only {} patterns read", patterns.len());
    let mut wrong = Vec::new();
    for pattern in &patterns {
        let p = place(pattern);
        let source = std::fs::read_to_string(root.join(&p.file))
            .unwrap_or_else(|e| panic!("{pattern}: {}: {e}", p.file));
        let line = source.lines().nth(p.line - 1).unwrap_or("");
        let function = function_at(&source, p.line);
        if function.as_deref() != Some(p.function.as_str()) {
            wrong.push(format!(
                "{}:{}: in {function:?}, not {:?}",
                p.file, p.line, p.function
            ));
        }
        for (column, text) in &p.replaced {
            let at: String = line.chars().skip(column - 1).collect();
            if !at.starts_with(text.as_str()) {
                wrong.push(format!(
                    "{}:{}:{column}: expected {text:?}, found {at:?}",
                    p.file, p.line
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "moved mutants:\n{}", wrong.join("\n"));
}

#[test]
fn a_pattern_names_its_file_line_and_each_replaced_text() {
    let p = place(
        r"engines/exact/numbers\.rs:165:(46: replace && with \|\||30: replace < with <=) in f",
    );
    assert_eq!(
        p,
        Place {
            file: "impl/src/engines/exact/numbers.rs".into(),
            line: 165,
            replaced: vec![(46, "&&".into()), (30, "<".into())],
            function: "f".into(),
        }
    );
    let p = place(
        r"upstream/condense/mod\.rs:95:34: replace match guard text\.contains\('\\0'\) with true in g",
    );
    assert_eq!(p.replaced, [(34, r"text.contains('\0')".to_string())]);
    let p = place(
        r"upstream/details\.rs:33:9: replace Details::with_capacity -> Details with Default::default\(\)",
    );
    assert_eq!((p.line, p.replaced.len()), (33, 0));
    assert_eq!(p.function, "with_capacity");
    let p = place(r"upstream/js\.rs:189:15: delete - in shortest_round_trip");
    assert_eq!(p.replaced, [(15, "-".to_string())]);
    assert_eq!(p.function, "shortest_round_trip");
    let p = place(r"engines/exact/scan\.rs:1:2: replace > with >= in Scanner<'_>::count_back");
    assert_eq!(p.function, "count_back");
    assert_eq!(
        function_at("fn a() {\n}\nfn count_back() {\n  x > y\n}", 4).as_deref(),
        Some("count_back")
    );
}
