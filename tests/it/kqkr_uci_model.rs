//! `nosce kqkr` against a deterministic UCI K+Q side (nosce itself, without its exact
//! tables, at a node limit): `--opp-nodes-spread` makes the games of a cell differ, records
//! each K+Q move's drawn budget in `moves.csv` and reproduces it from the seed; an `engine`
//! type in `--model` asks the same program and its predictions land in `moves.csv`
//! (`predicted`, `correct`). Real processes throughout, no mocks.

use std::path::{Path, PathBuf};
use std::process::Command;

const NOSCE: &str = env!("CARGO_BIN_EXE_nosce");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-kqkr-uci-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An EPD with Browne–BELLE 2 only (one position keeps the runs short).
fn epd(dir: &Path) -> String {
    let p = dir.join("one.epd");
    std::fs::write(&p, "K2Q4/8/8/8/r7/2k5/8/8 w - - id \"Browne-BELLE 2\";\n").unwrap();
    p.display().to_string()
}

/// Runs a sweep into `out` against nosce as the UCI K+Q side; `extra` adds options.
fn sweep(epd: &str, out: &Path, extra: &[&str]) {
    let out_s = out.display().to_string();
    let mut args = vec![
        "kqkr",
        "--positions",
        epd,
        "--opponent-uci",
        NOSCE,
        "--opponent-option",
        "ExactTables=false",
        "--opponent-option",
        "Hash=4",
        "--kr-depth",
        "3",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        &out_s,
    ];
    args.extend_from_slice(extra);
    let o = Command::new(NOSCE).args(&args).output().expect("run nosce");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `moves.csv` as (header fields, rows of fields).
fn moves(dir: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(dir.join("moves.csv")).unwrap();
    let mut lines = text.lines();
    let split = |l: &str| l.split(',').map(String::from).collect::<Vec<_>>();
    let header = split(lines.next().unwrap());
    (header, lines.map(split).collect())
}

fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

#[test]
fn a_node_spread_varies_the_games_and_records_each_budget() {
    let dir = tmp("spread");
    let epd = epd(&dir);
    let opts = [
        "--opp-nodes",
        "3000",
        "--opp-nodes-spread",
        "0.8",
        "--depths",
        "0",
        "--games",
        "2",
        "--seed",
        "5",
    ];
    let (a, b) = (dir.join("a"), dir.join("b"));
    sweep(&epd, &a, &opts);
    sweep(&epd, &b, &opts);
    let (header, rows) = moves(&a);
    let (side, game, budget, time) = (
        col(&header, "side"),
        col(&header, "game"),
        col(&header, "budget"),
        col(&header, "time_ms"),
    );
    assert_eq!(time, header.len() - 1, "timing stays the last column");
    // Every K+Q move has a budget within [600, 5400]; K+R moves have none.
    let mut per_game: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    for r in &rows {
        if r[side] == "kq" {
            let n: u64 = r[budget].parse().unwrap_or_else(|_| panic!("{r:?}"));
            assert!((600..=5400).contains(&n), "{r:?}");
            per_game[r[game].parse::<usize>().unwrap()].push(n);
        } else {
            assert!(r[budget].is_empty(), "{r:?}");
        }
    }
    assert!(per_game.iter().all(|g| !g.is_empty()));
    assert!(
        per_game[0].iter().any(|&n| n != per_game[0][0]),
        "budgets vary by ply"
    );
    // The two games of the cell differ.
    let games = std::fs::read_to_string(a.join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(lines.len(), 2, "{games}");
    let line_of = |l: &str| l.split(',').nth(12).unwrap().to_string();
    assert_ne!(line_of(lines[0]), line_of(lines[1]), "{games}");
    // Same seed, same games and budgets (everything but the timing).
    let (_, rows_b) = moves(&b);
    let strip = |rs: &[Vec<String>]| -> Vec<Vec<String>> {
        rs.iter().map(|r| r[..time].to_vec()).collect()
    };
    assert_eq!(strip(&rows), strip(&rows_b));
    let config = std::fs::read_to_string(a.join("config.txt")).unwrap();
    assert!(config.contains("opponent.nodes_spread = 0.8"), "{config}");
    let _ = std::fs::remove_dir_all(dir);
}

/// K+Q rows after the first K+R move: (predicted, correct) pairs.
fn predictions(dir: &Path) -> Vec<(String, String)> {
    let (header, rows) = moves(dir);
    let (side, predicted, correct) = (
        col(&header, "side"),
        col(&header, "predicted"),
        col(&header, "correct"),
    );
    rows.iter()
        .filter(|r| r[side] == "kq")
        .map(|r| (r[predicted].clone(), r[correct].clone()))
        .collect()
}

#[test]
fn an_engine_model_of_the_uci_side_predicts_its_replies() {
    let dir = tmp("model");
    let epd = epd(&dir);
    let out = dir.join("run");
    sweep(
        &epd,
        &out,
        &[
            "--opp-nodes",
            "2000",
            "--model",
            "engine:1:nodes=2000:replay=on",
            "--depths",
            "1",
            "--games",
            "1",
        ],
    );
    let p = predictions(&out);
    let made: Vec<_> = p.iter().filter(|(m, _)| !m.is_empty()).collect();
    assert!(made.len() >= 5, "{p:?}");
    // Same program, options, budget and a fresh game per question: an exact model at ply 1.
    assert!(made.iter().all(|(_, c)| c == "1"), "{p:?}");
    let config = std::fs::read_to_string(out.join("config.txt")).unwrap();
    assert!(config.contains("model = engine:1:nodes=2000"), "{config}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_model_that_knows_the_drawn_budget_stays_exact() {
    let dir = tmp("knows");
    let epd = epd(&dir);
    let out = dir.join("run");
    sweep(
        &epd,
        &out,
        &[
            "--opp-nodes",
            "2000",
            "--opp-nodes-spread",
            "0.7",
            "--model",
            "engine:1:replay=on",
            "--model-knows-budget",
            "--depths",
            "1",
            "--games",
            "1",
        ],
    );
    let p = predictions(&out);
    let made: Vec<_> = p.iter().filter(|(m, _)| !m.is_empty()).collect();
    assert!(made.len() >= 5, "{p:?}");
    assert!(made.iter().all(|(_, c)| c == "1"), "{p:?}");
    let _ = std::fs::remove_dir_all(dir);
}
