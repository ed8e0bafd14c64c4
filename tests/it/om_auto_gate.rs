//! `OM_Mode=auto`'s resources condition (issue 38, item 5; Bao paper §7: OM pays only with
//! extra resources) through the real binary: without them `auto` *is* α-β — the same move
//! and the same node count as `OM_Mode=off` at a fixed node limit, on every `bench.epd`
//! position and on the positions of kept games (with the fit scoring the opponent's moves
//! of the game before each search) — and the gate opens and closes with the clocks, under
//! UCI (`wtime btime winc binc`) and xboard (`time`/`otim`), keeping the time control's odds
//! (the game's first clocks) when the running clocks drift.

use crate::common;

use common::{Engine, QUICK, SEARCH};

const NODES: &str = "go nodes 6000";

/// `(bestmove, nodes of the last info line)` of a search.
fn search(e: &mut Engine, position: &str, go: &str) -> (String, String) {
    e.send(position);
    let lines = e.read_until_bestmove(go);
    let best = lines.last().cloned().unwrap_or_default();
    let nodes = lines
        .iter()
        .rev()
        .filter(|l| l.starts_with("info") && l.contains(" nodes "))
        .find_map(|l| {
            let mut it = l.split_whitespace().skip_while(|&w| w != "nodes");
            it.next();
            it.next().map(String::from)
        })
        .unwrap_or_default();
    (best, nodes)
}

trait Go {
    fn read_until_bestmove(&mut self, go: &str) -> Vec<String>;
}

impl Go for Engine {
    fn read_until_bestmove(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.read_until("bestmove", SEARCH)
    }
}

fn engine(mode: &str) -> Engine {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("setoption name OM_Mode value {mode}"));
    // Whether an exact table is in memory yet depends on when its background generation
    // ends, which differs between the two processes; both answer a table root from the
    // table alike once it is there (tests/it/go_mate.rs).
    e.send("setoption name ExactTables value false");
    e.send("isready");
    e.read_until("readyok", QUICK);
    e
}

/// The positions of the first `n` games of a kept match, as `position startpos moves …`.
fn game_positions(n: usize) -> Vec<String> {
    let text =
        std::fs::read_to_string("matches/2026-11-26-nnue-toga2-goal/default-vs-toga2-600.pgn")
            .expect("the kept PGN");
    let mut out = Vec::new();
    for game in nosce::experiment::pgn::parse_pgn(&text).into_iter().take(n) {
        let (start, moves) = game.moves().expect("a legal game");
        let fen = shakmaty::fen::Fen::from_position(&start, shakmaty::EnPassantMode::Legal);
        let uci: Vec<String> = moves.iter().map(|&m| nosce::position::uci(m)).collect();
        for i in 0..uci.len() {
            out.push(format!("position fen {fen} moves {}", uci[..i].join(" ")));
        }
    }
    out
}

#[test]
fn auto_is_alpha_beta_at_a_fixed_node_limit() {
    let mut positions: Vec<String> = std::fs::read_to_string("bench.epd")
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("position fen {}", l.trim()))
        .collect();
    let bench = positions.len();
    positions.extend(game_positions(3));
    assert!(
        positions.len() >= bench + 200,
        "{} positions",
        positions.len()
    );
    let (mut off, mut auto) = (engine("off"), engine("auto"));
    for e in [&mut off, &mut auto] {
        e.send("ucinewgame");
    }
    for p in &positions {
        let a = search(&mut off, p, NODES);
        let b = search(&mut auto, p, NODES);
        if a != b {
            auto.fail(&format!("{p}: OM_Mode=off {a:?}, auto {b:?}"));
        }
    }
    off.close();
    auto.close();
}

/// Searches `pos` with `go` and fails unless a line of the output contains `says`.
fn expect_says(e: &mut Engine, pos: &str, go: &str, says: &str) {
    e.send(pos);
    let lines = e.read_until_bestmove(go);
    let ok = lines.iter().any(|l| l.contains(says));
    e.check(ok, &format!("{go}: no '{says}'"));
}

/// The default threshold is the budget run's K* (100: no time-odds match gained at 3×), so
/// ordinary clocks keep `auto` α-β; with the threshold of the time-odds matches (`odds=3`)
/// the gate opens at 3.3 : 1 and closes again with the clocks.
#[test]
fn the_gate_follows_the_clocks_under_uci() {
    let mut e = engine("auto");
    e.send("ucinewgame");
    let pos = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    expect_says(
        &mut e,
        pos,
        "go wtime 40000 btime 10000 winc 100 binc 100",
        "om auto: alpha-beta (time odds 3.3 < 100.0",
    );
    // A new game: the first one's clocks (3.3 : 1) would count for the rest of it.
    e.send("setoption name OM_Search value odds=3");
    e.send("ucinewgame");
    for (go, says) in [
        (
            "go wtime 10000 btime 10000 winc 100 binc 100",
            "om auto: alpha-beta (time odds 1.0",
        ),
        (
            "go wtime 40000 btime 10000 winc 100 binc 100",
            "om auto: resources to speculate (time odds 3.3",
        ),
        (
            "go wtime 30000 winc 100",
            "the opponent's clock is not given",
        ),
        // The running clocks say 0.3; the game's first ones (1.0) are the larger odds.
        (
            "go wtime 9000 btime 30000",
            "om auto: alpha-beta (time odds 1.0",
        ),
    ] {
        expect_says(&mut e, pos, go, says);
    }
    e.close();
}

/// A game at 30+0.3 against 10+0.1 with the threshold of the time-odds matches (`odds=3`):
/// the running clocks drift to about 2 : 1 as we spend more a move, and the gate stays open
/// on the time control's 3 : 1 (the first start of time-odds match O1 closed it on most
/// moves); a new game takes its clocks afresh.
#[test]
fn the_gate_keeps_the_time_control_odds_for_the_game() {
    let mut e = engine("auto");
    e.send("setoption name OM_Search value odds=3");
    let pos = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    let later = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5";
    for (new_game, pos, go, says) in [
        (
            true,
            pos,
            "go wtime 30000 btime 10000 winc 300 binc 100",
            "resources to speculate (time odds 3.0",
        ),
        (
            false,
            later,
            "go wtime 16000 btime 8000 winc 300 binc 100",
            "resources to speculate (time odds 3.0",
        ),
        (
            true,
            later,
            "go wtime 16000 btime 8000 winc 300 binc 100",
            "alpha-beta (time odds 2.3",
        ),
    ] {
        if new_game {
            e.send("ucinewgame");
        }
        expect_says(&mut e, pos, go, says);
    }
    e.close();
}

/// `OM_Search odds=` moves the clock threshold (the diff that added it is issue 39's example
/// of adding an OM setting): at equal clocks the gate opens with `odds=1`, stays shut with
/// `odds=2`, and `odds=auto` returns to the tuned threshold.
#[test]
fn the_odds_key_sets_the_clock_threshold() {
    let mut e = engine("auto");
    e.send("ucinewgame");
    let pos = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    let go = "go wtime 10000 btime 10000 winc 100 binc 100";
    for (odds, says) in [
        (
            "odds=1",
            "om auto: resources to speculate (time odds 1.0 >= 1.0",
        ),
        ("odds=2", "om auto: alpha-beta (time odds 1.0 < 2.0"),
        ("odds=auto", "om auto: alpha-beta (time odds 1.0 < 100.0"),
    ] {
        e.send(&format!("setoption name OM_Search value {odds}"));
        e.send(pos);
        let lines = e.read_until_bestmove(go);
        let ok = lines.iter().any(|l| l.contains(says));
        e.check(ok, &format!("{odds}: no '{says}'"));
    }
    for bad in ["odds=-1", "odds=x", "odds=1001"] {
        e.send(&format!("setoption name OM_Search value {bad}"));
        let lines = e.read_until_bestmove("go depth 1");
        let ok = lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("not auto or a ratio"));
        e.check(ok, &format!("{bad}: no message"));
    }
    e.close();
}

#[test]
fn the_gate_follows_the_clocks_under_xboard() {
    let (mut e, _) = Engine::start_xboard();
    e.send("option OM_Mode=auto");
    // The threshold of the time-odds matches; the default (100) would keep these clocks α-β.
    e.send("option OM_Search=odds=3");
    e.send("new");
    e.send("level 0 1 0");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    for (ours, theirs, says) in [
        (3000, 3000, "alpha-beta (time odds 1.0"),
        (3000, 1000, "resources to speculate (time odds 3.0"),
    ] {
        e.send(&format!("time {ours}"));
        e.send(&format!("otim {theirs}"));
        e.send("go");
        let lines = e.read_until("move ", SEARCH);
        let ok = lines.iter().any(|l| l.contains(says));
        e.check(ok, &format!("time {ours} otim {theirs}: no '{says}'"));
        e.send("force");
        e.send("undo");
    }
    e.close();
}
