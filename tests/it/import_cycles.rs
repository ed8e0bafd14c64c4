//! No circles in the house (docs/architecture.md, "Layers point one way"): no files of `src/`
//! that import each other round a loop, and no top-level folders (or top-level files) that
//! do. Read from the source text: every `use` tree and every `crate::`/`super::`/`self::`
//! path in code (comments skipped) is resolved to the file that defines its longest module
//! prefix. A module naming its own submodules (a `mod.rs` re-exporting its children) is not
//! an import. When this fails it names each circle; move what the files share into a file
//! below both.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use super::layers::rust_files;

/// The module path of a file under `src/` (`search/om/mod.rs` → `search::om`).
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`).
fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
    if !tree.contains('{') {
        for p in tree.split(',').filter(|p| !p.is_empty()) {
            out.push(format!("{prefix}{p}"));
        }
        return;
    }
    let mut depth = 0;
    let mut part = String::new();
    let mut parts = Vec::new();
    for ch in tree.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(std::mem::take(&mut part));
        } else {
            part.push(ch);
        }
    }
    parts.push(part);
    for p in parts.iter().filter(|p| !p.is_empty()) {
        match (p.find('{'), p.rfind('}')) {
            (Some(i), Some(j)) => expand(&p[i + 1..j], &format!("{prefix}{}", &p[..i]), out),
            _ => out.push(format!("{prefix}{p}")),
        }
    }
}

/// A `use` tree with its spaces taken out, except in ` as ` (`a :: { b as c }` → `a::{b as c}`).
fn tidy(tree: &str) -> String {
    let mut t = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    for (from, to) in [
        (" ::", "::"),
        (":: ", "::"),
        ("{ ", "{"),
        (" }", "}"),
        (", ", ","),
        (" ,", ","),
    ] {
        t = t.replace(from, to);
    }
    t
}

/// Every path a file names: its top-level `use` trees and the `crate::`, `super::` and
/// `self::` paths in its code.
fn named_paths(text: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    for line_start in std::iter::once(0).chain(code.match_indices('\n').map(|(i, _)| i + 1)) {
        let line = &code[line_start..];
        let Some(tail) = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
        else {
            continue;
        };
        if let Some(end) = tail.find(';') {
            expand(&tidy(&tail[..end]), "", &mut out);
        }
    }
    let bytes = code.as_bytes();
    for key in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(key) {
            let start = from + k;
            from = start + key.len();
            if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                continue;
            }
            let len = code[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - start);
            let path = code[start..start + len].trim_end_matches(':');
            // `super::*` and the like name no module of their own.
            if path.contains("::") {
                out.push(path.to_string());
            }
        }
    }
    out
}

/// Strongly connected components of more than one node (Tarjan, iterative enough for a
/// few hundred files).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        found: Vec<Vec<String>>,
    }
    fn visit(t: &mut T, v: &str) {
        let n = t.index.len();
        t.index.insert(v.to_string(), n);
        t.low.insert(v.to_string(), n);
        t.stack.push(v.to_string());
        t.on.insert(v.to_string());
        let next: Vec<String> = t
            .edges
            .get(v)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        for w in next {
            if !t.index.contains_key(&w) {
                visit(t, &w);
                let lw = t.low[&w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(&w);
                let done = w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.found.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    let nodes: BTreeSet<String> = edges
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a.clone()).chain(bs.iter().cloned()))
        .collect();
    for v in nodes {
        if !t.index.contains_key(&v) {
            visit(&mut t, &v);
        }
    }
    t.found
}

/// The file → file imports of `src/` (a module naming its own submodules left out).
fn file_imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let mut files: BTreeMap<Vec<String>, String> = BTreeMap::new();
    for p in &paths {
        let rel = p
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if rel != "main.rs" {
            files.insert(module_of(&rel), rel);
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, rel) in &files {
        let text = fs::read_to_string(src.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let children: BTreeSet<&String> = files
            .keys()
            .filter(|k| k.len() > module.len() && k.starts_with(module))
            .map(|k| &k[module.len()])
            .collect();
        for path in named_paths(&text) {
            let path = path.split(" as ").next().unwrap_or("");
            let seg: Vec<String> = path
                .split("::")
                .filter(|s| !s.is_empty() && *s != "*")
                .map(str::to_string)
                .collect();
            let Some(first) = seg.first() else { continue };
            let full: Vec<String> = match first.as_str() {
                "crate" => seg[1..].to_vec(),
                "self" => module.iter().chain(&seg[1..]).cloned().collect(),
                "super" => {
                    let ups = seg.iter().take_while(|s| *s == "super").count();
                    let keep = module.len().saturating_sub(ups);
                    module[..keep].iter().chain(&seg[ups..]).cloned().collect()
                }
                s if children.iter().any(|c| *c == s) => {
                    module.iter().chain(&seg).cloned().collect()
                }
                _ => continue,
            };
            let target = (0..=full.len())
                .rev()
                .find_map(|k| files.get(&full[..k]).map(|t| (k, t)));
            let Some((k, target)) = target else { continue };
            // Its own file, or one of its own submodules: not an import.
            if target == rel || (full[..k].len() > module.len() && full[..k].starts_with(module)) {
                continue;
            }
            edges.entry(rel.clone()).or_default().insert(target.clone());
        }
    }
    edges
}

/// Fails naming every circle found among `what`.
fn assert_none(found: &[Vec<String>], what: &str) {
    let list: Vec<String> = found.iter().map(|c| c.join(", ")).collect();
    assert!(
        found.is_empty(),
        "{what} that import each other round a loop:\n{}",
        list.join("\n")
    );
}

#[test]
fn no_files_import_each_other_round_a_loop() {
    let edges = file_imports();
    assert!(
        edges.len() > 100,
        "the reader found too few imports: {}",
        edges.len()
    );
    assert_none(&circles(&edges), "files");
}

#[test]
fn no_folders_import_each_other_round_a_loop() {
    let top = |f: &str| f.split('/').next().unwrap_or(f).to_string();
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, bs) in file_imports() {
        for b in bs {
            if top(&a) != top(&b) {
                folders.entry(top(&a)).or_default().insert(top(&b));
            }
        }
    }
    assert_none(&circles(&folders), "folders (or top-level files)");
}

#[test]
fn the_reader_finds_a_planted_circle() {
    let mut out = Vec::new();
    expand("a::{b,c::{d,e}}", "", &mut out);
    assert_eq!(out, ["a::b", "a::c::d", "a::c::e"]);
    let paths =
        named_paths("use super::x::{Y, z::W};\npub use crate::q::R;\nfn f() { crate::s::t(); }");
    assert!(paths.contains(&"super::x::Y".to_string()), "{paths:?}");
    assert!(paths.contains(&"super::x::z::W".to_string()), "{paths:?}");
    assert!(paths.contains(&"crate::q::R".to_string()), "{paths:?}");
    assert!(paths.contains(&"crate::s::t".to_string()), "{paths:?}");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        edges.entry(a.into()).or_default().insert(b.into());
    }
    assert_eq!(circles(&edges), vec![vec!["a", "b", "c"]]);
}
