//! `go mate` and the mate prover beside α-β (UCI, xboard `analyze`), through the real
//! binary (issue 40): the reported mate is the shortest, its PV is legal and ends in
//! checkmate, the last info line agrees with `bestmove`, `stop` answers at once, and
//! analysis mode runs the prover beside α-β.

use crate::common;

use common::{Engine, QUICK, SEARCH, info_field, info_tail, parse_bestmove, pv_lines, pv_moves};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::time::Duration;

/// 1.Qxh8+! Kxh8 2.Bf6+ Kg8 3.Re8#.
const MATE_IN_3: &str = "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 0";
/// 1.Qe5+ and mate in four (e4e5 the only move that mates in 4).
const MATE_IN_4: &str = "r1bqr3/ppp1B1kp/1b4p1/n2B4/3PQ1P1/2P5/P4P2/RN4K1 w - - 1 0";

fn board(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// Plays `pv` from `fen`: true if every move is legal and the line ends in checkmate.
fn mates(fen: &str, pv: &[&str]) -> bool {
    let mut pos = board(fen);
    for m in pv {
        let Some(mv) = common::parse_move(&pos, m) else {
            return false;
        };
        pos.play_unchecked(mv);
    }
    pos.is_checkmate()
}

/// Checks the search's output: the last info line says `mate n` with a PV of 2n−1 plies
/// that mates, and `bestmove` is its first move. Returns the last info line.
fn check_mate_answer(e: &mut Engine, lines: &[String], fen: &str, n: u32) -> String {
    let Some(last) = pv_lines(lines).last().map(|l| l.to_string()) else {
        e.fail("no info line with a score and a pv");
    };
    let score = info_tail(&last, "score");
    e.check(
        score.len() >= 2 && score[0] == "mate" && score[1] == n.to_string(),
        &format!("expected 'score mate {n}' in the last info line '{last}'"),
    );
    let pv = pv_moves(&last);
    e.check(
        pv.len() as u32 == 2 * n - 1 && mates(fen, &pv),
        &format!("the pv of '{last}' is not a mate in {n}"),
    );
    let (best, _) = parse_bestmove(lines.last().unwrap());
    e.check(
        pv.first() == Some(&best.as_str()),
        "bestmove is not the first move of the last pv",
    );
    last
}

#[test]
fn go_mate_is_answered_by_the_prover_with_the_shortest_mate() {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {MATE_IN_3}"));
    let (lines, _) = e.go("go mate 5", SEARCH);
    check_mate_answer(&mut e, &lines, MATE_IN_3, 3);
    // The shortest-mate step disproved the mate in 2: the mate in 3 is proven shortest.
    let said = lines
        .iter()
        .any(|l| l.starts_with("info string mate prover dfpn: no mate in 2 ("));
    e.check(said, "no 'no mate in 2' report from the prover");
    e.check(
        !lines.iter().any(|l| l.contains("no shorter one excluded")),
        "the mate in 3 was not proven shortest",
    );
    e.close();
}

#[test]
fn go_mate_below_the_shortest_mate_reports_no_mate_and_plays_a_legal_move() {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {MATE_IN_4}"));
    let (lines, _) = e.go("go mate 3", SEARCH);
    e.check(
        lines
            .iter()
            .any(|l| l.contains("mate prover dfpn: no mate in 3")),
        "the prover did not report that there is no mate in 3",
    );
    let short_mate = pv_lines(&lines).iter().any(|l| {
        let s = info_tail(l, "score");
        s.len() >= 2 && s[0] == "mate" && s[1].parse::<i32>().is_ok_and(|m| (1..=3).contains(&m))
    });
    e.check(
        !short_mate,
        "a mate in 3 or less was claimed where none exists",
    );
    let (best, _) = parse_bestmove(lines.last().unwrap());
    let legal = common::legal_uci(&board(MATE_IN_4));
    e.check(legal.contains(&best), "bestmove is not legal");
    e.close();
}

#[test]
fn the_prover_runs_beside_a_node_limited_search_only_in_analysis_mode() {
    for analysis in [false, true] {
        let (mut e, _) = Engine::start_uci();
        e.send(&format!("setoption name UCI_AnalyseMode value {analysis}"));
        e.send(&format!("position fen {MATE_IN_3}"));
        let (lines, _) = e.go("go nodes 100000", SEARCH);
        e.set_label(&format!("UCI_AnalyseMode {analysis}"));
        check_mate_answer(&mut e, &lines, MATE_IN_3, 3);
        let prover_spoke = lines.iter().any(|l| l.contains("mate prover"));
        e.check(
            prover_spoke == analysis,
            "the prover's reports should appear exactly in analysis mode",
        );
        e.close();
    }
}

#[test]
fn stop_during_go_mate_answers_at_once_with_a_legal_move() {
    let (mut e, _) = Engine::start_uci();
    // No mate anywhere near: the prover would search for a long time.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go mate 30");
    e.collect_for(Duration::from_millis(300));
    let t0 = std::time::Instant::now();
    e.send("stop");
    let line = e.expect("bestmove", QUICK);
    e.check(
        t0.elapsed() < Duration::from_millis(1500),
        &format!("bestmove came {:?} after stop", t0.elapsed()),
    );
    let (best, _) = parse_bestmove(&line);
    let pos = common::position_after(None, &["e2e4", "e7e5", "g1f3", "b8c6"]);
    e.check(
        common::legal_uci(&pos).contains(&best),
        "bestmove is not legal",
    );
    // The engine keeps working.
    e.send(&format!("position fen {MATE_IN_3}"));
    let (lines, _) = e.go("go mate 3", SEARCH);
    check_mate_answer(&mut e, &lines, MATE_IN_3, 3);
    e.close();
}

#[test]
fn the_prover_beside_alpha_beta_in_infinite_analysis_keeps_its_mate_until_stop() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name UCI_AnalyseMode value true");
    e.send(&format!("position fen {MATE_IN_4}"));
    e.send("go infinite");
    let mut lines = e.read_until("info string mate prover dfpn: no mate in 3", SEARCH);
    lines.extend(e.collect_for(Duration::from_millis(500)));
    e.check(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop in infinite mode",
    );
    e.send("stop");
    lines.extend(e.read_until("bestmove", QUICK));
    check_mate_answer(&mut e, &lines, MATE_IN_4, 4);
    e.close();
}

#[test]
fn a_node_limit_is_shared_between_the_prover_and_alpha_beta() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name UCI_AnalyseMode value true");
    e.send(&format!("position fen {MATE_IN_3}"));
    let (lines, _) = e.go("go nodes 200000", SEARCH);
    let last = check_mate_answer(&mut e, &lines, MATE_IN_3, 3);
    let nodes: u64 = info_field(&last, "nodes").unwrap().parse().unwrap();
    e.check(
        nodes <= 200_000 + 5_000,
        &format!("{nodes} nodes reported under a 200000-node limit"),
    );
    e.close();
}

#[test]
fn xboard_analyze_reports_the_provers_mate() {
    let (mut e, _) = Engine::start_xboard();
    for cmd in [
        "new",
        "force",
        "post",
        &format!("setboard {MATE_IN_4}"),
        "analyze",
    ] {
        e.send(cmd);
    }
    // Thinking lines are `ply score time nodes pv`; a mate in 4 scores 100004.
    let mut lines = Vec::new();
    let deadline = std::time::Instant::now() + SEARCH;
    while std::time::Instant::now() < deadline {
        lines.extend(e.collect_for(Duration::from_millis(200)));
        let mate = lines
            .iter()
            .any(|l| l.split_whitespace().nth(1) == Some("100004"));
        if mate && lines.iter().any(|l| l.contains("no mate in 3")) {
            break;
        }
    }
    e.check(
        lines
            .iter()
            .any(|l| l.split_whitespace().nth(1) == Some("100004")),
        "no thinking line with the mate in 4 (score 100004)",
    );
    e.check(
        lines
            .iter()
            .any(|l| l.contains("mate prover dfpn: no mate in 3")),
        "the prover did not run beside α-β",
    );
    e.send("exit");
    e.send("quit");
    e.expect_exit(QUICK);
}

/// Searches `fen` until the exact tables (generated on first use into a fresh directory)
/// answer with a mate score; returns the last search's lines.
fn table_answer(e: &mut Engine, fen: &str) -> Vec<String> {
    e.send(&format!("position fen {fen}"));
    for _ in 0..100 {
        let (lines, _) = e.go("go nodes 2000", SEARCH);
        if pv_lines(&lines)
            .last()
            .is_some_and(|l| l.contains(" score mate "))
        {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    e.fail("the exact tables never answered with a mate score");
}

#[test]
fn table_positions_are_answered_with_the_tables_shortest_mate() {
    let dir = std::env::temp_dir().join(format!("nosce-go-mate-tables-{}", std::process::id()));
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"));
    cmd.env("NOSCE_TABLES", &dir);
    let mut e = Engine::start_command(cmd);
    e.send("uci");
    e.read_until("uciok", QUICK);
    // KRvK, mate in 7 (Gaviota's DTM through python-chess, matches/2026-11-27-mate-prover).
    let fen = "8/8/8/7R/8/5K2/8/3k4 w - - 0 1";
    let lines = table_answer(&mut e, fen);
    check_mate_answer(&mut e, &lines, fen, 7);
    // The mated side: the longest defence, 14 plies to mate.
    let fen = "8/2k5/8/2K5/8/8/1R6/8 b - - 0 1";
    let lines = table_answer(&mut e, fen);
    let last = pv_lines(&lines).last().unwrap().to_string();
    e.check(
        info_tail(&last, "score")[..2] == ["mate", "-7"],
        &format!("expected 'score mate -7' in '{last}'"),
    );
    let pv = pv_moves(&last);
    e.check(
        pv.len() == 14 && mates(fen, &pv),
        "the loser's line is not 14 plies to mate",
    );
    // `auto` answers a table root from the table as α-β does.
    e.send("setoption name OM_Mode value auto");
    let fen = "8/8/8/7R/8/5K2/8/3k4 w - - 0 1";
    let lines = table_answer(&mut e, fen);
    check_mate_answer(&mut e, &lines, fen, 7);
    e.close();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_search_cut_short_by_a_proof_claims_nothing_about_the_root() {
    // From matetrack.epd (bm #7). The prover proves the mate while α-β is still in depth 1,
    // whose first move (f6d5) happens to allow mate in one: that cut iteration once came out
    // as an exact "score mate -1" for a root that mates.
    let fen = "2BB4/1PPPPPPP/5Nk1/K1bqnnpb/8/8/p4p2/1r6 w - - 0 1";
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name UCI_AnalyseMode value true");
    e.send(&format!("position fen {fen}"));
    let (lines, _) = e.go("go nodes 1000000", SEARCH);
    for l in pv_lines(&lines) {
        let s = info_tail(l, "score");
        let negative = s.len() >= 2 && s[0] == "mate" && s[1].starts_with('-');
        e.check(
            !negative || l.contains("bound"),
            &format!("an exact mate against the side that mates: '{l}'"),
        );
    }
    check_mate_answer(&mut e, &lines, fen, 7);
    e.close();
}

#[test]
fn a_longer_proof_beside_alpha_beta_never_replaces_its_shorter_mate() {
    // K+Q against K without tables (shortest mates from our exact tables). α-β finds the
    // shortest mate at depth 6-7; the prover beside it once found a mate in 9-12 meanwhile
    // and, stopped when α-β finished, reported that as the final line (in 6 of 91 such
    // positions a run, different ones each time). Whichever finishes first, the answer is
    // never longer than a mate α-β has already reported.
    let positions = [
        ("8/2Q5/8/8/8/1K6/8/5k2 w - - 0 1", 4),
        ("8/8/8/8/7k/3K4/8/6Q1 w - - 0 1", 3),
        ("8/2q5/8/8/8/7K/4k3/8 b - - 0 1", 3),
        ("8/1q6/8/8/8/6K1/4k3/8 b - - 0 1", 4),
        ("K7/8/3q4/1k6/8/8/8/8 b - - 0 1", 3),
    ];
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("setoption name ExactTables value false");
    for (fen, n) in positions {
        for _ in 0..3 {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            let (lines, _) = e.go("go depth 12", SEARCH);
            let pvs = pv_lines(&lines);
            let mate = |l: &str| {
                let s = info_tail(l, "score");
                (s.len() >= 2 && s[0] == "mate" && !l.contains("bound"))
                    .then(|| s[1].parse::<u32>().ok())
                    .flatten()
            };
            // α-β's lines come before the last one (the proof's, when the prover won).
            let shortest_before = pvs[..pvs.len().saturating_sub(1)]
                .iter()
                .filter_map(|l| mate(l))
                .min();
            let last = pvs.last().map(|l| l.to_string()).unwrap_or_default();
            let Some(got) = mate(&last) else {
                e.fail(&format!("no mate in the last info line '{last}'"));
            };
            check_mate_answer(&mut e, &lines, fen, got);
            e.check(
                got >= n && shortest_before.is_none_or(|b| got <= b),
                &format!("a mate in {got} after α-β's {shortest_before:?} (shortest: {n})"),
            );
        }
    }
    e.close();
}
