//! Syzygy tables damaged in ways the size and magic checks cannot see (`src/tb/trust.rs`):
//! a KQvKR WDL file with altered bytes inside is loaded without a warning, gives wrong values
//! for some positions, and the root cross-check — against the position's successors, and
//! against our exact table — disables it with a message the first time such a position is
//! the root; through the binary the engine says so and still plays a legal move.
use crate::common;
use crate::prereq;
use crate::tb_common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{Engine, QUICK, SEARCH};
use nosce::tb::sample::all_positions;
use nosce::tb::{ExactTables, Metric, SyzygyTables, Tablebases};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode};

/// The shared Syzygy directory, or `None` (reported) if missing.
fn real_dir(test: &str) -> Option<PathBuf> {
    let Some(dirs) = tb_common::table_dir("SYZYGY_PATH", "syzygy") else {
        prereq::missing(&format!(
            "{test}: no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)"
        ));
        return None;
    };
    std::env::split_paths(dirs.as_os_str()).next()
}

/// A copy of the KQvKR tables and the smaller ones they need, with `flips` bytes of the
/// WDL file's data altered (a deterministic pattern).
fn damaged_copy(real: &Path, test: &str, flips: usize) -> PathBuf {
    let dir = tb_common::temp_dir(test);
    for entry in fs::read_dir(real).expect("read the Syzygy dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if ["KQvKR", "KQvK.", "KRvK.", "KQvKQ", "KRvKR"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            fs::copy(&path, dir.join(&name)).expect("copy");
        }
    }
    let wdl = dir.join("KQvKR.rtbw");
    let mut bytes = fs::read(&wdl).expect("read KQvKR.rtbw");
    let (start, len) = (bytes.len() / 4, bytes.len() / 2);
    for i in 0..flips {
        let at = start + (i * 7919) % len;
        bytes[at] ^= 0x5a;
    }
    fs::write(&wdl, bytes).expect("write");
    dir
}

fn tables(dir: &Path) -> SyzygyTables {
    let mut t = SyzygyTables::new();
    let warnings = t.add_paths(dir.as_os_str());
    assert!(warnings.is_empty(), "size and magic pass: {warnings:?}");
    t
}

/// KQvKR positions (White to move, the exact table's order) whose WDL the damaged tables
/// give differently from the real ones (a failed probe is not a wrong value).
fn wrong_values(real: &SyzygyTables, bad: &SyzygyTables, exact: &ExactTables) -> Vec<Chess> {
    let table = exact
        .table(&"KQvKR".parse().expect("material"))
        .expect("our KQvKR table");
    let mut wrong = Vec::new();
    for (_, pos) in all_positions(&table, Color::White).step_by(7) {
        if let (Some(a), Some(b)) = (real.probe_wdl(&pos), bad.probe_wdl(&pos))
            && a != b
        {
            wrong.push(pos);
            if wrong.len() == 20 {
                break;
            }
        }
    }
    wrong
}

#[test]
fn damaged_values_are_caught_by_the_successor_check() {
    let Some(real_path) = real_dir("damaged_values_are_caught_by_the_successor_check") else {
        return;
    };
    let dir = damaged_copy(&real_path, "damage-successors", 64);
    let (real, bad) = (tables(&real_path), tables(&dir));
    let exact = tb_common::exact();
    let wrong = wrong_values(&real, &bad, &exact);
    assert!(!wrong.is_empty(), "the damage changes some values");
    // The real tables pass the check on every one of these positions.
    for pos in &wrong {
        assert!(real.verify_root(pos, None), "a good table was distrusted");
    }
    // Without our exact tables: the successors alone catch the damage.
    let caught = wrong.iter().any(|pos| !bad.verify_root(pos, None));
    assert!(caught, "no wrong root value contradicted its successors");
    assert_eq!(bad.distrusted(), vec!["KQvKR".to_string()]);
    let w = bad.take_warnings();
    assert!(
        w.iter()
            .any(|w| w.contains("KQvKR tables") && w.contains("not used any more")),
        "{w:?}"
    );
    // From now on, no value from them.
    assert!(wrong.iter().all(|p| bad.probe_wdl(p).is_none()));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn damaged_values_are_caught_against_the_exact_tables_at_the_root() {
    let Some(real_path) = real_dir("damaged_values_are_caught_against_the_exact_tables") else {
        return;
    };
    let dir = damaged_copy(&real_path, "damage-exact", 64);
    let (real, bad) = (tables(&real_path), tables(&dir));
    let exact = tb_common::exact();
    let wrong = wrong_values(&real, &bad, &exact);
    let Some(pos) = wrong.first() else {
        panic!("the damage changes some values");
    };
    // The engine's view: Syzygy's root ranking is cross-checked before it is used.
    let (set, warnings) = Tablebases::new(&dir.to_string_lossy(), exact, true);
    assert!(warnings.is_empty(), "{warnings:?}");
    set.load_now(pos);
    let _ = set.root_moves(pos);
    let sz = set.syzygy.as_ref().expect("Syzygy tables");
    assert_eq!(sz.distrusted(), vec!["KQvKR".to_string()]);
    // With the damaged tables out, the root moves come from our exact tables.
    let moves = set.root_moves(pos).expect("exact root moves");
    assert_eq!(Some(moves), set.exact_root_moves(pos, Metric::Dtm));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_reports_damaged_tables_and_plays_on() {
    let Some(real_path) = real_dir("the_engine_reports_damaged_tables_and_plays_on") else {
        return;
    };
    let dir = damaged_copy(&real_path, "damage-engine", 64);
    let (real, bad) = (tables(&real_path), tables(&dir));
    let wrong = wrong_values(&real, &bad, &tb_common::exact());
    let pos = wrong.first().expect("the damage changes some values");
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let (mut e, _) = Engine::start_uci();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.sync();
    e.send(&format!("position fen {fen}"));
    let (lines, _) = e.go("go depth 6", SEARCH);
    let warned = lines.iter().any(|l| {
        l.starts_with("info string warning: syzygy: the KQvKR tables") && l.contains("damaged")
    });
    e.check(warned, "the damaged tables are reported");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap_or("");
    let legal = shakmaty::uci::UciMove::from_ascii(best.as_bytes())
        .ok()
        .and_then(|m| m.to_move(pos).ok())
        .is_some();
    e.check(legal, "a legal bestmove");
    e.send("quit");
    e.expect_exit(QUICK);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn good_tables_are_never_distrusted() {
    let Some(real_path) = real_dir("good_tables_are_never_distrusted") else {
        return;
    };
    let real = tables(&real_path);
    let exact = tb_common::exact();
    let mut checked = 0;
    for material in ["KQvKR", "KQvK", "KRvK", "KRvKR", "KQvKQ"] {
        let table = exact
            .table(&material.parse().expect("material"))
            .expect("table");
        for turn in [Color::White, Color::Black] {
            for (_, pos) in all_positions(&table, turn).step_by(1999) {
                let e = exact.probe_if_loaded(&pos).map(|e| e.wdl);
                assert!(
                    real.verify_root(&pos, e),
                    "{material}: {} distrusted: {:?}",
                    Fen::from_position(&pos, EnPassantMode::Legal),
                    real.take_warnings()
                );
                checked += 1;
            }
        }
    }
    assert!(real.distrusted().is_empty());
    println!("{checked} positions: the real tables pass every check");
}
