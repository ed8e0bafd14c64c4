//! The last principal variation a GUI sees starts with the move the engine plays: match
//! runners check it (fastchess: "Bestmove does not match beginning of last PV"), and GUIs
//! show that line as the engine's reason for its move. Through the real binary, for the
//! plain search and the opponent-model driver, with searches cut at every point of an
//! iteration by node limits (where a partial iteration's new best move used to be played
//! without being shown); the node count it reports keeps to the limit.

use crate::common;

use std::time::Duration;

use common::{Engine, info_field, parse_bestmove, pv_lines, pv_moves};

fn bench_positions(n: usize) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench.epd");
    let text = std::fs::read_to_string(path).expect("bench.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect()
}

/// Plays `go nodes N` for each position and limit; returns how many searches were checked.
fn check(e: &mut Engine, positions: &[String], limits: &[u64]) -> usize {
    let mut checked = 0;
    for fen in positions {
        for &nodes in limits {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            let (lines, _) = e.go(&format!("go nodes {nodes}"), Duration::from_secs(30));
            let (best, _) = parse_bestmove(lines.last().expect("a bestmove line"));
            let pvs = pv_lines(&lines);
            let Some(last) = pvs.last() else {
                e.fail(&format!("no pv line for {fen} at {nodes} nodes"));
            };
            let first = info_field(last, "pv").unwrap_or("");
            e.check(
                first == best,
                &format!("{fen}, go nodes {nodes}: bestmove {best}, last pv starts {first}"),
            );
            // And the count it reports keeps to the limit (a re-search on the way out of a
            // stopped search used to count a node or two past it).
            let reported: u64 = lines
                .iter()
                .rev()
                .find_map(|l| info_field(l, "nodes"))
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            e.check(
                reported <= nodes,
                &format!("{fen}, go nodes {nodes}: {reported} nodes reported"),
            );
            checked += 1;
        }
    }
    checked
}

const LIMITS: [u64; 8] = [1_500, 4_000, 9_000, 17_000, 29_000, 41_000, 63_000, 97_000];

#[test]
fn the_last_pv_starts_with_the_bestmove() {
    let (mut e, _) = Engine::start_uci();
    let n = check(&mut e, &bench_positions(24), &LIMITS);
    assert_eq!(n, 24 * LIMITS.len());
    e.close();
}

#[test]
fn the_last_pv_starts_with_the_bestmove_in_om_mode() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name OM_Mode value om");
    e.send("setoption name OM_OpponentTypes value self:1:depth=3");
    let n = check(&mut e, &bench_positions(12), &LIMITS[..5]);
    assert_eq!(n, 12 * 5);
    e.close();
}

/// A mate score is shown only with a line that mates in that many moves, in OM and PrOM
/// mode too (whose values are the speculated line's and an expectation over the types):
/// fastchess's `-check-mate-pvs` warned 144 times in 250 PrOM games of the conformance run.
#[test]
fn mate_scores_come_with_their_mating_line_in_om_and_prom_mode() {
    use common::position_after;
    use shakmaty::Position as _;
    // Black mates in 2 (Re1+ Rxe1 Rxe1#), and a position of the conformance run's first PrOM
    // game, where PrOM (White) was mated in 4 and reported it with a longer line.
    let fens = [
        "4r1k1/4rppp/8/8/8/8/5PPP/2R3K1 b - - 0 1",
        "4r1rk/p1Q2P1p/1p6/1q6/8/P4K2/3n1P1P/R2R4 w - - 1 28",
    ];
    let mut mates = 0;
    for types in ["self:1:depth=4", "self:0.5:depth=4,material:0.5:depth=2"] {
        let (mut e, _) = Engine::start_uci();
        e.send(&format!(
            "setoption name OM_Mode value {}",
            if types.contains(',') { "prom" } else { "om" }
        ));
        e.send(&format!("setoption name OM_OpponentTypes value {types}"));
        for fen in fens {
            for depth in 1..=7 {
                e.send("ucinewgame");
                e.send(&format!("position fen {fen}"));
                let (lines, _) = e.go(&format!("go depth {depth}"), Duration::from_secs(30));
                for line in pv_lines(&lines) {
                    let Some(n) = info_field(line, "mate").and_then(|n| n.parse::<i32>().ok())
                    else {
                        continue;
                    };
                    let pv = pv_moves(line);
                    let plies = if n > 0 { 2 * n - 1 } else { -2 * n } as usize;
                    let end = position_after(Some(fen), &pv);
                    e.check(
                        pv.len() == plies && end.is_checkmate(),
                        &format!("{types}: mate {n} with a pv of {} plies: {line}", pv.len()),
                    );
                    mates += 1;
                }
            }
        }
        e.close();
    }
    assert!(mates > 0, "no mate score shown at all");
}

/// A forced mate found by our own search ends the OM driver's iterations once they are well
/// past its length, as in the plain search (the conformance run's PGNs showed OM depths of
/// 236: the driver went on to the depth limit).
#[test]
fn om_iterations_end_after_a_forced_mate() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name OM_Mode value om");
    e.send("setoption name OM_OpponentTypes value self:1:depth=4");
    e.send("position fen 4r1k1/4rppp/8/8/8/8/5PPP/2R3K1 b - - 0 1");
    let (lines, _) = e.go("go depth 200", Duration::from_secs(60));
    let deepest = pv_lines(&lines)
        .iter()
        .filter_map(|l| info_field(l, "depth")?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    // Mate in 2 is 3 plies: the search stops after depth 2 * 3 + 8 + 1.
    e.check(
        (3..=15).contains(&deepest),
        &format!("deepest OM iteration {deepest}"),
    );
    e.check(
        parse_bestmove(lines.last().unwrap()).0 == "e7e1",
        "the mating move",
    );
    e.close();
}
