//! Endgame tables through the UCI front-end: `SyzygyPath` loads the Syzygy tables,
//! the root filter keeps the table-optimal moves, scores show as large centipawn values, and
//! a missing directory or a truncated table file gives an `info string` warning while the
//! engine keeps working. Tables come from `SYZYGY_PATH` or `tables/syzygy` (shipped with the
//! repository); a missing set fails the tests.
use crate::prereq;

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::{Engine, info_field, parse_bestmove};

/// How many exact-table files (`.ntb`) are in `dir`.
fn exact_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|f| f.path().extension().is_some_and(|x| x == "ntb"))
                .count()
        })
        .unwrap_or(0)
}

/// Generates our exact table of `material` (and its sub-endings) into `dir` with `nosce tb gen`.
fn generate_into(dir: &std::path::Path, material: &str) {
    let generated = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"))
        .args(["tb", "gen", material])
        .env("NOSCE_TABLES", dir)
        .output()
        .expect("cannot run nosce tb gen");
    assert!(generated.status.success(), "{generated:?}");
}

/// A fresh engine keeping its exact tables in `dir`, after `uci`.
fn start_with_tables(dir: &std::path::Path) -> Engine {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"));
    cmd.env("NOSCE_TABLES", dir);
    let mut e = Engine::start_command(cmd);
    e.send("uci");
    e.read_until("uciok", Duration::from_secs(10));
    e
}

fn syzygy_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SYZYGY_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables/syzygy"));
    dir.join("KQvKR.rtbw").exists().then_some(dir)
}

#[test]
fn syzygy_root_filter_keeps_the_optimal_king_moves() {
    let Some(dir) = syzygy_dir() else {
        prereq::missing(
            "no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)",
        );
        return;
    };
    let (mut e, _) = Engine::start_uci();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let loaded = e.expect("info string", Duration::from_secs(10));
    e.check(loaded.contains("Syzygy tables loaded"), "no load message");
    // Syzygy alone: with our exact tables a table root is answered with a DTM mate instead.
    e.send("setoption name ExactTables value false");
    e.send("position fen K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1");
    let (lines, _) = e.go("go depth 6", Duration::from_secs(20));
    e.check(
        lines
            .iter()
            .any(|l| l.contains("tablebase root filter: 2 of 3")),
        "no root filter message",
    );
    let best = parse_bestmove(lines.last().unwrap()).0;
    e.check(
        best == "a8a7" || best == "a8b7",
        "bestmove is not an optimal king move",
    );
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let cp: i32 = info_field(last_info, "cp")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    e.check(
        cp > 20_000,
        "tablebase win is not shown as a large cp value",
    );
    let hits: u64 = info_field(last_info, "tbhits")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    e.check(hits > 0, "no tbhits reported");
    e.close();
}

#[test]
fn missing_and_truncated_tables_warn_and_the_engine_keeps_working() {
    let Some(dir) = syzygy_dir() else {
        prereq::missing(
            "no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)",
        );
        return;
    };
    let tmp = std::env::temp_dir().join(format!("nosce-uci-tb-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let bytes = std::fs::read(dir.join("KQvKR.rtbw")).unwrap();
    std::fs::write(tmp.join("KQvKR.rtbw"), &bytes[..bytes.len() / 3]).unwrap();
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name SyzygyPath value /definitely/not/here");
    let warn = e.expect("info string", Duration::from_secs(10));
    e.check(warn.contains("not/here"), "missing directory not named");
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        tmp.display()
    ));
    let warn = e.expect("info string", Duration::from_secs(10));
    e.check(
        warn.to_lowercase().contains("kqvkr"),
        "truncated file not reported",
    );
    e.send("position fen K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1");
    let (lines, _) = e.go("go depth 5", Duration::from_secs(20));
    let best = parse_bestmove(lines.last().unwrap()).0;
    e.check(
        ["a8a7", "a8b7", "a5d8"].contains(&best.as_str()),
        "no legal bestmove",
    );
    e.close();
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Our exact table on disk is used from the first search of a fresh engine: before, it was
/// loaded in the background while that search ran unfiltered (found under cutechess-cli:
/// Browne-BELLE 1, 1. Kb7, the K+R side's first move Re6, mate in 29 instead of 34).
#[test]
fn exact_tables_on_disk_filter_the_first_search() {
    let dir = std::env::temp_dir().join(format!("nosce-first-search-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    generate_into(&dir, "KQvKR");
    let mut e = start_with_tables(&dir);
    for mode in ["off", "om"] {
        e.send(&format!("setoption name OM_Mode value {mode}"));
        e.send("ucinewgame");
        e.send("position fen K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1 moves a8b7");
        let (lines, _) = e.go("go depth 4", Duration::from_secs(20));
        e.check(
            lines
                .iter()
                .any(|l| l.contains("tablebase root filter: 1 of 19")),
            "the first search ran without the exact table's root filter",
        );
        // Re7+ is the only move that keeps mate in 34 (`nosce tb probe`).
        e.check(
            parse_bestmove(lines.last().unwrap()).0 == "e8e7",
            "a move that shortens the loss",
        );
    }
    e.close();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exact_tables_can_be_switched_off() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name ExactTables value maybe");
    let err = e.expect("info string", Duration::from_secs(10));
    e.check(err.contains("error"), "a bad value must be rejected");
    e.send("setoption name ExactTables value false");
    let msg = e.expect("info string", Duration::from_secs(10));
    e.check(msg.contains("exact tables off"), "no confirmation");
    e.send("position fen K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1");
    for _ in 0..2 {
        let (lines, _) = e.go("go depth 4", Duration::from_secs(20));
        e.check(
            lines.iter().all(|l| !l.contains("tablebase root filter")),
            "tables used although switched off",
        );
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        e.check(
            info_field(last, "tbhits") == Some("0"),
            "tbhits with tables off",
        );
    }
    e.close();
}

/// Started by a GUI in some directory, the engine keeps its exact tables in the user's cache
/// directory and creates nothing where it was started (issue 39).
#[cfg(unix)]
#[test]
fn exact_tables_go_to_the_cache_not_the_working_directory() {
    let base = std::env::temp_dir().join(format!("nosce-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let (cwd, home) = (base.join("gui"), base.join("home"));
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"));
    cmd.current_dir(&cwd)
        .env_remove("NOSCE_TABLES")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", &home);
    let mut e = Engine::start_command(cmd);
    e.send("uci");
    e.read_until("uciok", Duration::from_secs(10));
    // K+Q against K: the exact table is generated on first use and written to disk.
    e.send("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    let (lines, _) = e.go("go depth 3", Duration::from_secs(30));
    e.check(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "no bestmove",
    );
    // The table is written in the background: wait for it (at most 30 s) before quitting.
    let cache = home.join(".cache").join("nosce");
    let cached = || exact_files(&cache);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while cached() == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    e.close();
    let entries: Vec<_> = std::fs::read_dir(&cwd).unwrap().collect();
    assert!(
        entries.is_empty(),
        "the engine created {entries:?} in its working directory"
    );
    assert!(cached() > 0, "no exact table in the user's cache directory");
    let _ = std::fs::remove_dir_all(&base);
}

/// A timed search never starts an exact table's generation (it would take a core from the
/// game, in a match the opponent's): it says so once and plays without the table; a search
/// without a clock generates it, and a timed search of the next engine uses it from disk.
#[test]
fn exact_tables_are_not_generated_under_a_clock() {
    let dir = std::env::temp_dir().join(format!("nosce-no-gen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let start = || start_with_tables(&dir);
    let mut e = start();
    let tables = || exact_files(&dir);
    let kqk = dir.join("KQvK.ntb");
    // K+Q against K (generated in milliseconds when allowed).
    e.send("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    for round in 0..2 {
        let (lines, _) = e.go("go wtime 3000 btime 3000", Duration::from_secs(20));
        let said = lines
            .iter()
            .filter(|l| l.contains("not generated under a clock"))
            .count();
        e.check(
            lines.iter().all(|l| !l.contains("tablebase root filter")),
            "a timed search used a table that was not on disk",
        );
        // Said once per ending, not at every move.
        e.check(
            said == usize::from(round == 0),
            "the reason is said once, at the first timed search",
        );
        std::thread::sleep(Duration::from_millis(500));
        e.check(tables() == 0, "a timed search generated a table");
    }
    let (first, _) = e.go("go depth 3", Duration::from_secs(20));
    e.check(
        first.iter().all(|l| !l.contains("not generated")),
        "an untimed search declined to generate",
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !kqk.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    e.check(
        kqk.exists(),
        "a search without a clock did not generate the table",
    );
    e.close();
    // The next engine's timed search reads it from disk.
    let mut e = start();
    e.send("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    let (lines, _) = e.go("go wtime 3000 btime 3000", Duration::from_secs(20));
    e.check(
        lines.iter().any(|l| l.contains("tablebase root filter")),
        "the table on disk was not used by a timed search",
    );
    e.close();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under a clock, table files are read on the search's thread only within a small share of
/// our time (`tb::params::SYNC_LOAD_TIME_SHARE`): with 0.1 s on the clock the first search of
/// a K+P ending (its table and its sub-endings' files, about 1 MB) plays without them while
/// they are read in the background, and a later search uses them; with 3 s they are read at
/// once. Before, the whole set was read at the root whatever the clock: a K+2P ending's
/// 240 MB took 1.1–1.8 s with 1.04 s left and lost time-odds match O1 a game on time.
#[test]
fn table_files_too_large_for_the_clock_are_read_in_the_background() {
    let dir = std::env::temp_dir().join(format!("nosce-tb-clock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    generate_into(&dir, "KPvK");
    let start = || start_with_tables(&dir);
    // White wins only with Ke6 (mate in 13, `nosce tb probe`).
    let pos = "position fen 4k3/8/8/3K4/4P3/8/8/8 w - - 0 1";
    let filtered = |lines: &[String]| {
        lines
            .iter()
            .any(|l| l.contains("tablebase root filter: 1 of 8"))
    };
    let mut e = start();
    e.send(pos);
    let (first, _) = e.go("go wtime 100 btime 100", Duration::from_secs(20));
    e.check(
        !filtered(&first),
        "a search with 0.1 s on the clock read the table files first",
    );
    e.check(
        first.iter().all(|l| !l.contains("not generated")),
        "files on disk were reported missing",
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut later = false;
    while !later && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        e.send(pos);
        let (lines, _) = e.go("go wtime 100 btime 100", Duration::from_secs(20));
        later = filtered(&lines);
    }
    e.check(later, "the files read in the background were never used");
    e.close();
    let mut e = start();
    e.send(pos);
    let (lines, _) = e.go("go wtime 3000 btime 3000", Duration::from_secs(20));
    e.check(
        filtered(&lines) && parse_bestmove(lines.last().unwrap()).0 == "d5e6",
        "with 3 s on the clock the table was not used at once",
    );
    e.close();
    let _ = std::fs::remove_dir_all(&dir);
}
