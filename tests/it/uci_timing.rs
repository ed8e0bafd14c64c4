//! UCI timing through the real binary: `movetime`, `go infinite` and pondering (the answer
//! waits for `stop` or `ponderhit`, exactly one `bestmove`), and games on a small clock that
//! never flag, with and without issue 41's trial refinements.

use crate::common;

use std::time::{Duration, Instant};

use common::{
    Engine, KIWIPETE, SEARCH, legal_bestmove, no_bestmove, position_after, pv_lines, release_search,
};

#[test]
fn movetime_300_answers_in_time() {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {KIWIPETE}"));
    e.sync();
    let (lines, took) = e.go("go movetime 300", Duration::from_secs(3));
    e.check(
        took < Duration::from_millis(1500),
        &format!("movetime 300 took {took:?}"),
    );
    e.check(!pv_lines(&lines).is_empty(), "no info line");
    legal_bestmove(&mut e, &lines, &position_after(Some(KIWIPETE), &[]));
    e.close();
}

#[test]
fn infinite_answers_isready_and_waits_for_stop() {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(500));
    no_bestmove(&mut e, &early, "before stop in go infinite");
    e.check(
        !pv_lines(&early).is_empty(),
        "no info lines while searching",
    );
    let t0 = Instant::now();
    let lines = e.sync();
    let took = t0.elapsed();
    no_bestmove(&mut e, &lines, "before stop in go infinite");
    e.check(
        took < Duration::from_millis(500),
        &format!("readyok took {took:?} during a search"),
    );
    let pos = position_after(Some(KIWIPETE), &[]);
    release_search(&mut e, "stop", &pos, Duration::from_millis(300));
    let after = e.sync();
    no_bestmove(&mut e, &after, "twice");
    e.close();
}

/// Mate in 1 with K+Q vs K: the search ends by itself almost at once.
const QUICK_MATE: &str = "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1";

#[test]
fn infinite_waits_for_stop_even_when_the_search_ends_early() {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {QUICK_MATE}"));
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(500));
    no_bestmove(&mut e, &early, "before stop in go infinite");
    let pos = position_after(Some(QUICK_MATE), &[]);
    release_search(&mut e, "stop", &pos, Duration::from_millis(200));
    e.close();
}

#[test]
fn ponder_waits_for_ponderhit_even_when_the_search_ends_early() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name Ponder value true");
    e.send(&format!("position fen {QUICK_MATE}"));
    e.send("go ponder wtime 5000 btime 5000");
    let early = e.collect_for(Duration::from_millis(500));
    no_bestmove(&mut e, &early, "before ponderhit");
    let pos = position_after(Some(QUICK_MATE), &[]);
    release_search(&mut e, "ponderhit", &pos, Duration::from_millis(200));
    e.close();
}

#[test]
fn ponder_then_ponderhit_answers_on_the_clock() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    let early = e.collect_for(Duration::from_millis(500));
    no_bestmove(&mut e, &early, "while pondering (before ponderhit)");
    let pos = position_after(None, &["e2e4", "e7e5", "g1f3", "b8c6"]);
    let (_, took) = release_search(&mut e, "ponderhit", &pos, Duration::from_millis(200));
    e.check(
        took < Duration::from_millis(1500),
        &format!("bestmove {took:?} after ponderhit with 3 s on the clock"),
    );
    e.close();
}

#[test]
fn ponder_then_stop_gives_exactly_one_bestmove() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name Ponder value true");
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go ponder wtime 1000 btime 1000");
    let early = e.collect_for(Duration::from_millis(400));
    no_bestmove(&mut e, &early, "while pondering");
    let pos = position_after(Some(KIWIPETE), &[]);
    release_search(&mut e, "stop", &pos, Duration::from_millis(300));
    // The engine is usable afterwards.
    let (lines, _) = e.go("go depth 2", SEARCH);
    legal_bestmove(&mut e, &lines, &position_after(Some(KIWIPETE), &[]));
    e.close();
}

#[test]
fn small_clock_game_never_flags() {
    clock_game(&[]);
}

#[test]
fn small_clock_game_never_flags_with_the_trial_refinements() {
    // Issue 41's switches, the node-share time management among them.
    clock_game(&["setoption name SearchFeatures value all"]);
}

fn clock_game(setup: &[&str]) {
    // Ten plies against itself from 1 s + 10 ms: every answer well inside the clock.
    let (mut e, _) = Engine::start_uci();
    for line in setup {
        e.send(line);
    }
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [1000i64, 1000i64]; // white, black, in ms
    for ply in 0..10 {
        let side = ply % 2;
        let list = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&list);
        let (lines, took) = e.go(
            &format!("go wtime {} btime {} winc 10 binc 10", clock[0], clock[1]),
            Duration::from_secs(3),
        );
        let took_ms = took.as_millis() as i64;
        // Leave a real margin: at most half the remaining time for one move.
        e.check(
            took_ms < clock[side] / 2,
            &format!("ply {ply}: {took_ms} ms used with {} ms left", clock[side]),
        );
        clock[side] = clock[side] - took_ms + 10;
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let best = legal_bestmove(&mut e, &lines, &position_after(None, &refs));
        moves.push(best);
    }
    e.close();
}
