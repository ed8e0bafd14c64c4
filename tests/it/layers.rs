//! The layers point one way (docs/architecture.md, issue 39): evaluation, network inference
//! and tables never reach the search; the network code never names the evaluators that wrap
//! it; the search never reaches options, the engine core or
//! the protocols; the options module is generic; the engine (everything but the lab) never
//! names the lab. Checked on the source text, so that a new import that breaks a rule fails
//! here with the file and line. The build without the lab
//! (`cargo check --no-default-features`) is the compiler's side of the last rule (`.ci/run`).

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (also used by `import_cycles`).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// Lines of the files under `src/<dirs>` (minus `except`) that name one of `forbidden`.
fn offenders(dirs: &[&str], except: &[&str], forbidden: &[&str]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for d in dirs {
        let p = src.join(d);
        assert!(
            p.exists(),
            "src/{d} is gone: update this test's map of the layers"
        );
        if p.is_dir() {
            rust_files(&p, &mut files);
        } else {
            files.push(p);
        }
    }
    let mut found = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if except.iter().any(|e| rel.starts_with(e)) {
            continue;
        }
        let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{rel}: {e}"));
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if forbidden.iter().any(|w| code.contains(w)) {
                found.push(format!("src/{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn evaluation_and_tables_never_reach_the_search() {
    let bad = offenders(
        &["eval", "nnue", "tb"],
        &[],
        &["crate::search", "crate::engine", "crate::options"],
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_network_never_names_the_evaluators() {
    // `eval/nnue_eval.rs` wraps a network as an evaluator; the network code takes only the
    // score type (`crate::score`), so the two folders do not import each other.
    let bad = offenders(&["nnue"], &[], &["crate::eval"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_search_never_reaches_options_engine_or_protocols() {
    let bad = offenders(
        &["search"],
        &[],
        &[
            "crate::options",
            "crate::engine",
            "crate::uci",
            "crate::xboard",
        ],
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_options_module_is_generic() {
    let bad = offenders(&["options.rs"], &[], &["crate::"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_engine_never_names_the_lab() {
    let lab = [
        "crate::experiment",
        "crate::tournament",
        "crate::trees",
        "crate::datagen",
        "crate::train",
        "crate::lab_args",
    ];
    let engine = [
        "eval",
        "nnue",
        "tb",
        "search",
        "engine",
        "engine.rs",
        "uci.rs",
        "xboard",
        "xboard.rs",
        "options.rs",
        "position.rs",
        "tt.rs",
        "limits.rs",
        "time.rs",
        "params",
        "opponent.rs",
        "external",
        "external.rs",
        "profile",
        "profile.rs",
        "learning.rs",
        "strength.rs",
        "bench.rs",
        "report.rs",
        "score.rs",
        "mate",
    ];
    let bad = offenders(&engine, &[], &lab);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
