//! UCI transcripts through the real binary: handshake, positions, every kind of `go`,
//! options, malformed input and positions without moves (timing: `uci_timing.rs`; mates:
//! `uci_mates.rs`).
//!
//! Every test checks what the engine says (legal moves in the right position, scores,
//! timing), not only that it keeps running; every wait has a timeout (see `common`).

use crate::common;

use std::time::Duration;

use common::{
    Engine, KIWIPETE, QUICK, SEARCH, info_field, info_tail, legal_bestmove, parse_bestmove,
    position_after, pv_lines, release_search,
};
use shakmaty::{Chess, Position};

/// Kasparov–Topalov, Wijk aan Zee 1999, all 87 plies (ends with 44.Qa7, Black to move).
const KASPAROV_TOPALOV: &str = "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 c1e3 f8g7 d1d2 c7c6 f2f3 b7b5 \
g1e2 b8d7 e3h6 g7h6 d2h6 c8b7 a2a3 e7e5 e1c1 d8e7 c1b1 a7a6 e2c1 e8c8 c1b3 e5d4 d1d4 c6c5 \
d4d1 d7b6 g2g3 c8b8 b3a5 b7a8 f1h3 d6d5 h6f4 b8a7 h1e1 d5d4 c3d5 b6d5 e4d5 e7d6 d1d4 c5d4 \
e1e7 a7b6 f4d4 b6a5 b2b4 a5a4 d4c3 d6d5 e7a7 a8b7 a7b7 d5c4 c3f6 a4a3 f6a6 a3b4 c2c3 b4c3 \
a6a1 c3d2 a1b2 d2d1 h3f1 d8d2 b7d7 d2d7 f1c4 b5c4 b2h8 d7d3 h8a8 c4c3 a8a4 d1e1 f3f4 f7f5 \
b1c1 d3d2 a4a7";

/// Sends `line`, then `isready`; asserts an `info string error` line came back for it.
fn expect_error(e: &mut Engine, line: &str) {
    e.send(line);
    let lines = e.sync();
    let ok = lines.iter().any(|l| l.starts_with("info string error"));
    e.check(ok, &format!("no 'info string error' for '{line}'"));
}

/// The `nodes` of the last info line with a score.
fn last_nodes(lines: &[String]) -> u64 {
    let l = pv_lines(lines);
    let last = l.last().expect("an info line with a score");
    info_field(last, "nodes")
        .and_then(|n| n.parse().ok())
        .expect("nodes in an info line")
}

// ---------------------------------------------------------------------------------------
// Handshake and basic commands

#[test]
fn handshake_lists_id_and_options() {
    let (mut e, lines) = Engine::start_uci();
    let name = lines.iter().position(|l| l.starts_with("id name "));
    let author = lines.iter().position(|l| l.starts_with("id author "));
    e.check(
        name.is_some() && author.is_some(),
        "id name / id author missing",
    );
    e.check(
        lines[name.unwrap()].starts_with("id name nosce"),
        "id name is not nosce",
    );
    e.check(
        lines[author.unwrap()].len() > "id author ".len(),
        "empty author",
    );
    let want = [
        ("Hash", "spin"),
        ("Threads", "spin"),
        ("MultiPV", "spin"),
        ("Ponder", "check"),
        ("Move Overhead", "spin"),
        ("Clear Hash", "button"),
        ("UCI_ShowWDL", "check"),
        ("UCI_AnalyseMode", "check"),
    ];
    for (opt, ty) in want {
        let prefix = format!("option name {opt} type {ty}");
        let found = lines.iter().position(|l| l.starts_with(&prefix));
        e.check(found.is_some(), &format!("no '{prefix}' line"));
        e.check(
            found > name && found > author,
            &format!("option {opt} came before the id lines"),
        );
    }
    for l in lines.iter().filter(|l| l.contains(" type spin ")) {
        let d: Option<i64> = info_field(l, "default").and_then(|v| v.parse().ok());
        let lo: Option<i64> = info_field(l, "min").and_then(|v| v.parse().ok());
        let hi: Option<i64> = info_field(l, "max").and_then(|v| v.parse().ok());
        let ok = matches!((d, lo, hi), (Some(d), Some(lo), Some(hi)) if lo <= d && d <= hi);
        e.check(ok, &format!("bad spin option line '{l}'"));
    }
    e.check(lines.last().unwrap() == "uciok", "uciok is not last");
    e.close();
}

#[test]
fn folded_options_and_their_old_names() {
    let (mut e, lines) = Engine::start_uci();
    let options = lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .count();
    e.check(
        options <= 25,
        &format!("{options} options announced (issue 39: at most 25)"),
    );
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("option name OM_Search type string default depth=0 ")),
        "no OM_Search line with its keys",
    );
    // A good value says nothing; a bad one is refused with the reason; an old name works
    // with a note that says what replaced it.
    e.send("setoption name OM_Search value ties=off root=margin margin=80");
    e.send("setoption name OM_Learning value bayes gamma=30");
    e.send("isready");
    let lines = e.read_until("readyok", QUICK);
    e.check(
        !lines.iter().any(|l| l.starts_with("info string")),
        "a good value produced a message",
    );
    e.send("setoption name OM_Search value ties=perhaps");
    e.expect(
        "info string error: OM_Search ties=: 'perhaps' is not on or off",
        QUICK,
    );
    e.send("setoption name OM_Ties value false");
    e.expect("info string OM_Ties is now OM_Search's key ties=", QUICK);
    e.send("setoption name OM_Learning value fast gamma=3");
    e.expect(
        "info string error: OM_Learning: gamma= is not a parameter of fast",
        QUICK,
    );
    e.close();
}

#[test]
fn isready_answers_readyok() {
    let (mut e, _) = Engine::start_uci();
    let lines = e.sync();
    e.check(lines == ["readyok"], "isready: expected exactly 'readyok'");
    e.send("ucinewgame");
    let lines = e.sync();
    e.check(lines == ["readyok"], "ucinewgame must be silent");
    e.close();
}

#[test]
fn quit_ends_the_process() {
    let (mut e, _) = Engine::start_uci();
    e.send("quit");
    e.expect_exit(Duration::from_secs(3));
}

#[test]
fn quit_during_infinite_search_ends_the_process() {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    e.collect_for(Duration::from_millis(200));
    e.send("quit");
    e.expect_exit(Duration::from_secs(3));
}

#[test]
fn end_of_input_ends_the_process() {
    let (e, _) = Engine::start_uci();
    e.close();
}

#[test]
fn end_of_input_during_search_ends_the_process() {
    let (mut e, _) = Engine::start_uci();
    e.send("go infinite");
    e.collect_for(Duration::from_millis(200));
    e.close();
}

// ---------------------------------------------------------------------------------------
// Positions

#[test]
fn long_game_move_list_then_depth_5() {
    let (mut e, _) = Engine::start_uci();
    let moves: Vec<&str> = KASPAROV_TOPALOV.split_whitespace().collect();
    assert!(moves.len() >= 60);
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let (lines, _) = e.go("go depth 5", SEARCH);
    let pos = position_after(None, &moves);
    e.check(
        !pv_lines(&lines).is_empty(),
        "no info line with score and pv",
    );
    let depth5 = pv_lines(&lines)
        .iter()
        .any(|l| info_field(l, "depth") == Some("5"));
    e.check(depth5, "no depth 5 info line");
    legal_bestmove(&mut e, &lines, &pos);
    e.close();
}

#[test]
fn position_fen_with_moves() {
    let (mut e, _) = Engine::start_uci();
    let moves = ["e1g1", "h3g2", "d5e6"];
    e.send(&format!(
        "position fen {KIWIPETE} moves {}",
        moves.join(" ")
    ));
    let (lines, _) = e.go("go depth 4", SEARCH);
    let pos = position_after(Some(KIWIPETE), &moves);
    legal_bestmove(&mut e, &lines, &pos);
    // Every pv move sequence must be playable from that position.
    for l in pv_lines(&lines) {
        let pv = info_tail(l, "pv");
        let mut p = pos.clone();
        for m in pv {
            let Some(mv) = common::parse_move(&p, m) else {
                e.fail(&format!("pv move {m} illegal in '{l}'"));
            };
            p.play_unchecked(mv);
        }
    }
    e.close();
}

#[test]
fn fen_without_move_counters() {
    let (mut e, _) = Engine::start_uci();
    // Black to move after 1.e4; without the counters the side to move must still be Black.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    e.send(&format!("position fen {fen}"));
    let lines = e.sync();
    e.check(
        !lines.iter().any(|l| l.contains("error")),
        "FEN without counters rejected",
    );
    let (lines, _) = e.go("go depth 3", SEARCH);
    legal_bestmove(&mut e, &lines, &position_after(Some(fen), &[]));
    // And with moves after it.
    e.send(&format!("position fen {fen} moves e7e5 g1f3"));
    let (lines, _) = e.go("go depth 3", SEARCH);
    legal_bestmove(
        &mut e,
        &lines,
        &position_after(Some(fen), &["e7e5", "g1f3"]),
    );
    e.close();
}

// ---------------------------------------------------------------------------------------
// Determinism

#[test]
fn go_nodes_is_deterministic() {
    const N: u64 = 30_000;
    let run = |e: &mut Engine| -> (String, u64) {
        e.send("ucinewgame");
        e.send(&format!("position fen {KIWIPETE}"));
        let (lines, _) = e.go(&format!("go nodes {N}"), SEARCH);
        let nodes = last_nodes(&lines);
        let best = legal_bestmove(e, &lines, &position_after(Some(KIWIPETE), &[]));
        (best, nodes)
    };
    let (mut e, _) = Engine::start_uci();
    let a = run(&mut e);
    let b = run(&mut e);
    e.check(a == b, &format!("go nodes {N} twice: {a:?} vs {b:?}"));
    e.check(
        a.1 <= N,
        &format!("reported {} nodes with a limit of {N}", a.1),
    );
    e.check(a.1 > N / 10, &format!("only {} nodes reported", a.1));
    e.close();
    // A fresh process agrees too.
    let (mut f, _) = Engine::start_uci();
    let c = run(&mut f);
    f.check(a == c, &format!("another process: {a:?} vs {c:?}"));
    f.close();
}

// ---------------------------------------------------------------------------------------
// Positions without moves
#[test]
fn no_legal_moves_gives_0000() {
    let (mut e, _) = Engine::start_uci();
    // Fool's mate: White is checkmated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let (lines, _) = e.go("go depth 5", SEARCH);
    e.check(
        parse_bestmove(lines.last().unwrap()).0 == "0000",
        "checkmated: expected bestmove 0000",
    );
    // Stalemate: Black to move has no move and is not in check.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let (lines, _) = e.go("go movetime 200", SEARCH);
    e.check(
        parse_bestmove(lines.last().unwrap()).0 == "0000",
        "stalemated: expected bestmove 0000",
    );
    // With a clock too.
    let (lines, _) = e.go("go wtime 1000 btime 1000", SEARCH);
    e.check(
        parse_bestmove(lines.last().unwrap()).0 == "0000",
        "stalemated (clock): expected bestmove 0000",
    );
    e.close();
}

// ---------------------------------------------------------------------------------------
// Malformed input

#[test]
fn garbage_is_reported_and_changes_nothing() {
    let (mut e, _) = Engine::start_uci();
    // The old position: Black to move after 1.e4.
    e.send("position startpos moves e2e4");
    let old = position_after(None, &["e2e4"]);
    expect_error(&mut e, "foo");
    expect_error(&mut e, "setoption name Hash value abc");
    expect_error(&mut e, "setoption name Nope value 1");
    expect_error(&mut e, "setoption name Threads value 0");
    expect_error(&mut e, "position fen garbage");
    expect_error(&mut e, "position startpos moves e2e5");
    expect_error(&mut e, "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e4");
    expect_error(&mut e, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    expect_error(&mut e, "position");
    // Accepted quietly.
    for ok in ["debug on", "debug off", "register later", "", "   "] {
        e.send(ok);
        let lines = e.sync();
        e.check(
            !lines.iter().any(|l| l.contains("error")),
            &format!("'{ok}' gave an error"),
        );
    }
    // The position is still the old one: a legal Black move.
    let (lines, _) = e.go("go depth 1", SEARCH);
    legal_bestmove(&mut e, &lines, &old);
    e.close();
}

#[test]
fn go_depth_without_value_still_searches() {
    let (mut e, _) = Engine::start_uci();
    e.send("go depth");
    let early = e.collect_for(Duration::from_millis(300));
    e.check(
        early.iter().any(|l| l.starts_with("info string error")),
        "no error for 'go depth'",
    );
    release_search(
        &mut e,
        "stop",
        &Chess::default(),
        Duration::from_millis(200),
    );
    e.close();
}

#[test]
fn go_depth_300_with_trailing_space_searches() {
    let (mut e, _) = Engine::start_uci();
    e.send("go depth 300 ");
    let early = e.collect_for(Duration::from_millis(300));
    e.check(
        !early.iter().any(|l| l.contains("error")),
        "'go depth 300 ' gave an error",
    );
    e.check(
        !pv_lines(&early).is_empty() || early.iter().any(|l| l.starts_with("bestmove")),
        "'go depth 300 ' did not search",
    );
    e.send("stop");
    let mut lines = early.clone();
    if !early.iter().any(|l| l.starts_with("bestmove")) {
        lines.extend(e.read_until("bestmove", QUICK));
    }
    let bests = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    e.check(bests == 1, &format!("{bests} bestmove lines"));
    let best_line = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .unwrap()
        .clone();
    legal_bestmove(&mut e, &[best_line], &Chess::default());
    e.close();
}

// ---------------------------------------------------------------------------------------
// Options and go parameters

#[test]
fn multipv_3_reports_three_lines() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name MultiPV value 3");
    e.send(&format!("position fen {KIWIPETE}"));
    let (lines, _) = e.go("go depth 5", SEARCH);
    let at5: Vec<&String> = pv_lines(&lines)
        .into_iter()
        .filter(|l| info_field(l, "depth") == Some("5"))
        .collect();
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let line = at5
            .iter()
            .find(|l| info_field(l, "multipv") == Some(&k.to_string()));
        let Some(line) = line else {
            e.fail(&format!("no 'multipv {k}' line at depth 5"));
        };
        firsts.push(info_tail(line, "pv")[0].to_string());
    }
    firsts.sort();
    firsts.dedup();
    e.check(
        firsts.len() == 3,
        "the three lines start with the same move",
    );
    let best = legal_bestmove(&mut e, &lines, &position_after(Some(KIWIPETE), &[]));
    let mpv1 = at5
        .iter()
        .rfind(|l| info_field(l, "multipv") == Some("1"))
        .unwrap();
    e.check(
        info_tail(mpv1, "pv")[0] == best,
        "bestmove is not the first move of multipv 1",
    );
    e.close();
}

#[test]
fn show_wdl_adds_wdl_to_info_lines() {
    let (mut e, _) = Engine::start_uci();
    let (lines, _) = e.go("go depth 3", SEARCH);
    e.check(
        pv_lines(&lines).iter().all(|l| !l.contains(" wdl ")),
        "wdl shown by default",
    );
    e.send("setoption name UCI_ShowWDL value true");
    let (lines, _) = e.go("go depth 3", SEARCH);
    let pvs = pv_lines(&lines);
    e.check(!pvs.is_empty(), "no info lines");
    for l in pvs {
        let w = info_tail(l, "wdl");
        let nums: Vec<u32> = w.iter().take(3).filter_map(|x| x.parse().ok()).collect();
        e.check(
            nums.len() == 3 && nums.iter().sum::<u32>() == 1000,
            &format!("bad wdl in '{l}'"),
        );
    }
    e.close();
}

#[test]
fn searchmoves_restricts_the_root() {
    let (mut e, _) = Engine::start_uci();
    // After 1.e4 d5 the natural move is exd5; we allow only two quiet pawn moves.
    let moves = ["e2e4", "d7d5"];
    e.send("position startpos moves e2e4 d7d5");
    let (lines, _) = e.go("go depth 5 searchmoves a2a3 h2h3", SEARCH);
    let best = legal_bestmove(&mut e, &lines, &position_after(None, &moves));
    e.check(
        best == "a2a3" || best == "h2h3",
        &format!("bestmove {best} outside searchmoves"),
    );
    for l in pv_lines(&lines) {
        let first = info_tail(l, "pv")[0];
        e.check(
            first == "a2a3" || first == "h2h3",
            &format!("pv outside searchmoves: '{l}'"),
        );
    }
    // A single allowed move.
    let (lines, _) = e.go("go depth 4 searchmoves g1f3", SEARCH);
    let best = legal_bestmove(&mut e, &lines, &position_after(None, &moves));
    e.check(
        best == "g1f3",
        &format!("bestmove {best}, only g1f3 allowed"),
    );
    e.close();
}

#[test]
fn two_threads_search_and_answer() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name Threads value 2");
    e.send(&format!("position fen {KIWIPETE}"));
    let pos = position_after(Some(KIWIPETE), &[]);
    let (lines, _) = e.go("go depth 7", SEARCH);
    legal_bestmove(&mut e, &lines, &pos);
    let (lines, took) = e.go("go movetime 300", Duration::from_secs(3));
    e.check(
        took < Duration::from_millis(1500),
        &format!("movetime 300 with 2 threads took {took:?}"),
    );
    legal_bestmove(&mut e, &lines, &pos);
    e.send("go infinite");
    e.collect_for(Duration::from_millis(300));
    release_search(&mut e, "stop", &pos, Duration::from_millis(200));
    e.close();
}

#[test]
fn clear_hash_and_hash_resize_between_searches() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name Hash value 1");
    e.send("setoption name Clear Hash");
    let lines = e.sync();
    e.check(
        !lines.iter().any(|l| l.contains("error")),
        "Hash 1 / Clear Hash gave an error",
    );
    let (lines, _) = e.go("go depth 5", SEARCH);
    legal_bestmove(&mut e, &lines, &Chess::default());
    e.close();
}

#[test]
fn options_can_be_set_right_after_bestmove() {
    // A GUI may send `setoption` the moment `bestmove` arrives, while the search thread is
    // still ending: that must never be refused as "during a search". (The window is a few
    // microseconds: this failed under the load of the whole suite, seldom on an idle machine.)
    let (mut e, _) = Engine::start_uci();
    for i in 0..100 {
        e.send("position startpos");
        let (lines, _) = e.go("go depth 1", SEARCH);
        e.check(
            lines.last().is_some_and(|l| l.starts_with("bestmove")),
            "no bestmove",
        );
        e.send(&format!("setoption name Move Overhead value {}", 10 + i));
        let answer = e.sync();
        e.check(
            !answer.iter().any(|l| l.contains("during a search")),
            "setoption right after bestmove was refused",
        );
    }
    e.close();
}

/// Found by the stress driver (`tests/it/protocol_stress.rs`): a line that is not UTF-8 ended
/// the input loop, so the engine quit.
#[test]
fn input_that_is_not_utf8_is_reported_and_the_engine_goes_on() {
    let (mut e, _) = Engine::start_uci();
    e.send_raw(&[0xff, 0xfe, b'g', b'o', 0xc3, b'\n']);
    let line = e.expect("info string error", QUICK);
    e.check(line.contains("unknown command"), "an unknown command");
    e.sync();
    let (lines, _) = e.go("go depth 3", SEARCH);
    legal_bestmove(&mut e, &lines, &Chess::default());
    e.send("quit");
    e.expect_exit(QUICK);
}

/// The same before the protocol is chosen: the first line is read the same way.
#[test]
fn a_first_line_that_is_not_utf8_does_not_end_the_program() {
    let mut e = Engine::start();
    e.send_raw(&[0xc3, 0x28, b'\n']);
    e.send("uci");
    e.read_until("uciok", QUICK);
    e.sync();
    e.send("quit");
    e.expect_exit(QUICK);
}
