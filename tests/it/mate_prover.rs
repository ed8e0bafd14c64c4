//! Tests of the mate prover (`nosce::mate`): known mates checked by an independent
//! brute-force search and by the exact KQvK/KRvK tables of `nosce::tb` (retrograde analysis,
//! no proof numbers), disproofs, agreement of PN, PN², PDS, PDS-PN and df-pn, the
//! shortest-mate step, PDS-PN under a tiny memory for nodes, `nosce solve` through the
//! binary, and the prover, α-β and brute force agreeing on positions from random games.

use crate::common;

use common::forces_mate;
use nosce::eval::FullEval;
use nosce::mate::{Algorithm, Outcome, ProofLimits, ProofResult, prove};
use nosce::position::Position;
use nosce::rng::GameRng;
use nosce::score::{is_mate, mate_moves};
use nosce::search::search_depth;
use nosce::tb::exact::ExactTables;
use nosce::tt::TranspositionTable;
use shakmaty::{Chess, Position as _};

/// The shortest mate (moves) of the side to move by brute force, up to `max`.
fn brute_shortest(fen: &str, max: u32) -> Option<u32> {
    let pos = Position::from_fen(fen).expect("test FEN");
    (1..=max).find(|&n| forces_mate(pos.chess(), n))
}

/// Checks that `r` is a proof of mate in `moves` with a legal PV of that length ending in
/// checkmate.
fn check_proof(fen: &str, r: &ProofResult, moves: u32, algo: Algorithm) {
    let Outcome::Proven { mate_in_moves, pv } = &r.outcome else {
        panic!(
            "{algo:?} {fen}: expected a mate in {moves}, got {:?}",
            r.outcome
        );
    };
    assert_eq!(*mate_in_moves, moves, "{algo:?} {fen}: mate length");
    assert_eq!(pv.len() as u32, 2 * moves - 1, "{algo:?} {fen}: PV length");
    let mut pos = Position::from_fen(fen).unwrap();
    for m in pv {
        assert!(
            pos.legal_moves().contains(m),
            "{algo:?} {fen}: illegal PV move"
        );
        pos.play(*m);
    }
    assert!(
        pos.chess().is_checkmate(),
        "{algo:?} {fen}: PV does not mate"
    );
}

fn limits(nodes: u64) -> ProofLimits {
    ProofLimits {
        nodes,
        tree_nodes: 2_000_000,
        hash_mb: 16,
        ..ProofLimits::default()
    }
}

/// Random legal positions K+`piece` v K, white to move, with the table's mate in moves
/// (None when drawn), deterministic for a seed.
fn table_positions(piece: char, seed: u64, count: usize) -> Vec<(String, Option<u32>)> {
    let tables = ExactTables::in_memory();
    let material = format!("K{}vK", piece.to_ascii_uppercase());
    tables.generate(&material).expect("table generation");
    let mut rng = GameRng::from_seed(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let sq: Vec<usize> = (0..3).map(|_| (rng.next_u64() % 64) as usize).collect();
        if sq[0] == sq[1] || sq[0] == sq[2] || sq[1] == sq[2] {
            continue;
        }
        let mut board = ['.'; 64];
        board[sq[0]] = 'K';
        board[sq[1]] = piece.to_ascii_uppercase();
        board[sq[2]] = 'k';
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        let Some(e) = tables.probe(pos.chess()) else {
            continue;
        };
        out.push((fen, e.dtm.map(|d| u32::from(d).div_ceil(2))));
    }
    out
}

/// A table position whose mate is `moves` long.
fn table_mate(piece: char, moves: u32) -> String {
    for seed in 1.. {
        for (fen, m) in table_positions(piece, seed, 200) {
            if m == Some(moves) {
                return fen;
            }
        }
    }
    unreachable!()
}

const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
const MATE_IN_2: &str = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1";

#[test]
fn brute_force_confirms_the_hand_written_mates() {
    assert_eq!(brute_shortest(MATE_IN_1, 3), Some(1));
    assert_eq!(brute_shortest(MATE_IN_2, 3), Some(2));
}

#[test]
fn known_mates_are_proven_shortest_by_each_algorithm() {
    let m3 = table_mate('R', 3);
    assert_eq!(
        brute_shortest(&m3, 3),
        Some(3),
        "table and brute force agree"
    );
    let m4 = table_mate('Q', 4);
    let cases = [
        (MATE_IN_1.to_string(), 1),
        (MATE_IN_2.to_string(), 2),
        (m3, 3),
        (m4, 4),
    ];
    for algo in Algorithm::ALL {
        for (fen, moves) in &cases {
            let pos = Position::from_fen(fen).unwrap();
            let r = prove(&pos, algo, &limits(3_000_000));
            check_proof(fen, &r, *moves, algo);
            assert!(r.shortest, "{algo:?} {fen}: not proven shortest");
            assert!(r.nodes > 0);
        }
    }
}

#[test]
fn a_long_mate_is_proven_by_each_algorithm_without_deepening() {
    // KRvK, mate in 10 by the table; an unbounded search finds some mate, never a shorter
    // one (PN and PN² find a mate in 21 here, df-pn one in 13).
    let fen = "4k3/8/8/7K/8/8/2R5/8 w - - 0 1";
    let tables = ExactTables::in_memory();
    let dtm = tables
        .probe(Position::from_fen(fen).unwrap().chess())
        .and_then(|e| e.dtm)
        .expect("a won KRvK position");
    let table_moves = u32::from(dtm).div_ceil(2);
    assert_eq!(table_moves, 10);
    for algo in Algorithm::ALL {
        let l = ProofLimits {
            deepen: false,
            shortest: false,
            ..limits(3_000_000)
        };
        let r = prove(&Position::from_fen(fen).unwrap(), algo, &l);
        let Outcome::Proven { mate_in_moves, .. } = r.outcome else {
            panic!("{algo:?}: no proof ({:?})", r.outcome);
        };
        assert!(
            mate_in_moves >= table_moves,
            "{algo:?}: shorter than the table"
        );
        check_proof(fen, &r, mate_in_moves, algo);
    }
}

#[test]
fn the_memory_held_is_reported_and_stays_within_the_limits_given() {
    // The KRvK mate of the test above, unbounded: every prover reports the memory it held,
    // PN and PN² within their tree limit (plus one expansion's children), the depth-first
    // ones within their table; with a small tree PN and PN² hold less than with a large one.
    let pos = Position::from_fen("4k3/8/8/7K/8/8/2R5/8 w - - 0 1").unwrap();
    let node = std::mem::size_of::<nosce::mate::tree::Node>();
    let run = |algo, tree_nodes, hash_mb| {
        let l = ProofLimits {
            deepen: false,
            shortest: false,
            tree_nodes,
            hash_mb,
            ..limits(300_000)
        };
        prove(&pos, algo, &l)
    };
    for algo in Algorithm::ALL {
        let r = run(algo, 2_000_000, 1);
        assert!(r.memory > 0, "{algo:?}: no memory reported");
        assert!(
            r.memory <= 2_000_064 * node + (1 << 20),
            "{algo:?}: {}",
            r.memory
        );
    }
    for algo in [Algorithm::Pn, Algorithm::Pn2] {
        let small = run(algo, 2_000, 1);
        let large = run(algo, 2_000_000, 1);
        assert!(small.memory <= 2_064 * node, "{algo:?}: {}", small.memory);
        assert!(
            large.memory > small.memory,
            "{algo:?}: {} {}",
            small.memory,
            large.memory
        );
    }
}

#[test]
fn no_mate_gives_unknown_or_disproven() {
    for algo in Algorithm::ALL {
        let r = prove(&Position::default(), algo, &limits(20_000));
        assert_eq!(r.outcome, Outcome::Unknown, "{algo:?} start position");
        assert!(
            r.nodes >= 20_000 && r.nodes < 25_000,
            "{algo:?}: {}",
            r.nodes
        );
        for fen in [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/3N4/4K3 w - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ] {
            let r = prove(&Position::from_fen(fen).unwrap(), algo, &limits(10_000));
            assert_eq!(r.outcome, Outcome::Disproven, "{algo:?} {fen}");
        }
    }
}

#[test]
fn move_limited_searches_disprove_mates_that_are_too_short() {
    let m3 = table_mate('R', 3);
    for algo in Algorithm::ALL {
        for (fen, n) in [(MATE_IN_2, 1), (m3.as_str(), 2)] {
            let l = ProofLimits {
                max_moves: Some(n),
                ..limits(1_000_000)
            };
            let r = prove(&Position::from_fen(fen).unwrap(), algo, &l);
            assert_eq!(r.outcome, Outcome::Disproven, "{algo:?} {fen} mate in {n}");
        }
    }
}

#[test]
fn the_algorithms_agree_with_each_other_and_the_tables() {
    // Mates of at most four moves (longer ones need more than a test's budget in PN).
    let short = |v: Vec<(String, Option<u32>)>, n: usize| -> Vec<(String, Option<u32>)> {
        v.into_iter()
            .filter(|(_, t)| t.is_some_and(|t| t <= 4))
            .take(n)
            .collect()
    };
    let mut cases = short(table_positions('Q', 7, 300), 14);
    cases.extend(short(table_positions('R', 11, 300), 14));
    assert_eq!(cases.len(), 28);
    let mut solved_all = 0;
    for (fen, table) in &cases {
        let pos = Position::from_fen(fen).unwrap();
        let results: Vec<ProofResult> = Algorithm::ALL
            .iter()
            .map(|&a| prove(&pos, a, &limits(1_500_000)))
            .collect();
        for (a, r) in Algorithm::ALL.iter().zip(&results) {
            match (&r.outcome, table) {
                (Outcome::Proven { mate_in_moves, .. }, Some(t)) => {
                    assert!(mate_in_moves >= t, "{a:?} {fen}: shorter than the table");
                    if r.shortest {
                        assert_eq!(mate_in_moves, t, "{a:?} {fen}: proven shortest is wrong");
                    }
                    check_proof(fen, r, *mate_in_moves, *a);
                }
                (Outcome::Proven { .. }, None) => panic!("{a:?} {fen}: mate in a draw"),
                (Outcome::Disproven, Some(_)) => panic!("{a:?} {fen}: disproved a mate"),
                _ => {}
            }
        }
        let exact: Vec<Option<u32>> = results
            .iter()
            .map(|r| match &r.outcome {
                Outcome::Proven { mate_in_moves, .. } if r.shortest => Some(*mate_in_moves),
                Outcome::Disproven => Some(0),
                _ => None,
            })
            .collect();
        if exact.iter().all(Option::is_some) {
            solved_all += 1;
            assert!(exact.windows(2).all(|w| w[0] == w[1]), "{fen}: {exact:?}");
        }
    }
    assert!(
        solved_all >= cases.len() * 3 / 4,
        "only {solved_all} of {} solved exactly by all algorithms",
        cases.len()
    );
}

#[test]
fn the_shortest_step_shortens_a_first_proof() {
    // Positions where an unbounded search (no deepening) reports a longer mate than the
    // table's: the step must never go below the table, and must reach it (proven shortest)
    // in some of them.
    let mut shortened = 0;
    let mut cases = table_positions('Q', 5, 60);
    cases.retain(|(_, t)| t.is_some_and(|t| t <= 3));
    for (fen, table) in cases {
        let Some(t) = table else { continue };
        let pos = Position::from_fen(&fen).unwrap();
        for algo in Algorithm::ALL {
            let unbounded = ProofLimits {
                deepen: false,
                ..limits(2_000_000)
            };
            let first = prove(
                &pos,
                algo,
                &ProofLimits {
                    shortest: false,
                    ..unbounded.clone()
                },
            );
            let Outcome::Proven {
                mate_in_moves: found,
                ..
            } = first.outcome
            else {
                continue;
            };
            assert!(!first.shortest || found == t);
            if found <= t {
                continue;
            }
            let r = prove(&pos, algo, &unbounded);
            let Outcome::Proven { mate_in_moves, .. } = r.outcome else {
                panic!("{algo:?} {fen}: the step lost the proof");
            };
            assert!(
                mate_in_moves >= t && mate_in_moves <= found,
                "{algo:?} {fen}"
            );
            check_proof(&fen, &r, mate_in_moves, algo);
            if r.shortest {
                assert_eq!(mate_in_moves, t, "{algo:?} {fen}");
                shortened += 1;
            }
        }
    }
    assert!(
        shortened >= 3,
        "only {shortened} first proofs were shortened to the table's"
    );
}

#[test]
fn pds_pn_proves_mates_with_a_tiny_memory_for_nodes() {
    // Winands §5.2.4: PDS-PN's first level is depth-first (its table, not the memory for
    // nodes, holds it), so a memory of 16 nodes only shrinks its second-level trees; PN²
    // needs its whole first-level tree in that memory and cannot prove these.
    let tiny = ProofLimits {
        tree_nodes: 16,
        ..limits(3_000_000)
    };
    let cases = [(table_mate('Q', 4), 4), (table_mate('R', 5), 5)];
    for (fen, moves) in &cases {
        let pos = Position::from_fen(fen).unwrap();
        let r = prove(&pos, Algorithm::PdsPn, &tiny);
        check_proof(fen, &r, *moves, Algorithm::PdsPn);
        assert!(r.shortest, "{fen}: not proven shortest");
        let pn2 = prove(&pos, Algorithm::Pn2, &tiny);
        assert_eq!(pn2.outcome, Outcome::Unknown, "{fen}: PN² in 16 nodes");
    }
}

#[test]
fn solve_command_reports_each_line_and_survives_a_bad_one() {
    let dir = std::env::temp_dir().join(format!("nosce-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mates.epd");
    let text = format!(
        "{} bm #1; id \"m1\";\n\
         not a fen at all; id \"bad\";\n\
         {} bm #2; id \"m2\";\n\
         k7/8/1K6/8/8/8/8/7R b - - bm #-1; id \"mated\";\n",
        &MATE_IN_1[..MATE_IN_1.len() - 4],
        &MATE_IN_2[..MATE_IN_2.len() - 4],
    );
    std::fs::write(&file, text).unwrap();
    for algo in ["pn", "pn2", "pds", "pds-pn", "pdspn", "dfpn"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"))
            .args([
                "solve",
                file.to_str().unwrap(),
                "--nodes",
                "100000",
                "--algo",
                algo,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{algo}: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("line 2"), "{algo}: {stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 4, "{algo}: {stdout}");
        assert!(lines[0].starts_with("m1") && lines[0].contains("found #1"));
        assert!(lines[1].starts_with("m2") && lines[1].contains("found #2"));
        assert!(lines[2].starts_with("mated") && lines[2].contains("found #-1"));
        for l in &lines[..3] {
            assert!(
                l.contains("shortest yes") && l.contains(" ok "),
                "{algo}: {l}"
            );
        }
        assert!(
            lines[3].contains("found 3 proven shortest 3 wrong 0 total 3"),
            "{algo}: {}",
            lines[3]
        );
    }
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"))
        .args(["solve", dir.join("missing.epd").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    // The memory flags: accepted, reported per line and in the summary; a bad value refused.
    let small = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"))
        .args([
            "solve",
            file.to_str().unwrap(),
            "--algo",
            "pn",
            "--tree-nodes",
            "500",
        ])
        .args(["--hash", "1", "--unbounded", "--no-shorten"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&small.stdout);
    assert!(small.status.success(), "{small:?}");
    assert!(
        stdout.lines().take(3).all(|l| l.contains(" KiB ")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.contains(" memory ")),
        "{stdout}"
    );
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_nosce"))
        .args(["solve", file.to_str().unwrap(), "--tree-nodes", "many"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--tree-nodes"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_raised_flag_or_a_passed_deadline_stops_every_algorithm_at_once() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    // A quiet middlegame: no mate to find, so only the interrupt can end the search.
    let pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4")
            .unwrap();
    for algo in Algorithm::ALL {
        let raised = ProofLimits {
            nodes: u64::MAX,
            interrupt: nosce::mate::Interrupt {
                flag: Some(Arc::new(AtomicBool::new(true))),
                deadline: None,
            },
            ..limits(0)
        };
        let r = prove(&pos, algo, &raised);
        assert_eq!(r.outcome, Outcome::Unknown, "{algo:?}");
        assert!(
            r.nodes < 10_000,
            "{algo:?}: {} moves after the flag",
            r.nodes
        );
        let start = Instant::now();
        let timed = ProofLimits {
            nodes: u64::MAX,
            interrupt: nosce::mate::Interrupt {
                flag: None,
                deadline: Some(start + Duration::from_millis(200)),
            },
            ..limits(0)
        };
        let r = prove(&pos, algo, &timed);
        assert_eq!(r.outcome, Outcome::Unknown, "{algo:?}");
        assert!(
            r.nodes > 0,
            "{algo:?}: searched nothing before the deadline"
        );
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{algo:?}: stopped {:?} after a 200 ms deadline",
            start.elapsed()
        );
    }
}

/// Positions from seeded random games (uniform legal moves from the start): 25 in which the
/// side to move mates in one or two (found by brute force along the games) and 50 others
/// taken as they come. On each, df-pn ("mate in 2" with deepening), α-β at depth 6 and brute
/// force must agree on the shortest mate up to two moves, or on none.
#[test]
fn the_prover_and_alpha_beta_agree_on_random_positions() {
    let mut rng = GameRng::from_seed(2026);
    let (mut with_mate, mut others) = (Vec::new(), Vec::new());
    for _ in 0..3000 {
        if with_mate.len() >= 25 && others.len() >= 50 {
            break;
        }
        let mut b = Chess::default();
        for ply in 0..120 {
            let moves = b.legal_moves();
            if moves.is_empty() || b.is_insufficient_material() || b.halfmoves() > 80 {
                break;
            }
            if ply >= 10 {
                let mate_now = forces_mate(&b, 1)
                    || (with_mate.len() < 25 && !b.is_check() && forces_mate(&b, 2));
                if mate_now && with_mate.len() < 25 {
                    with_mate.push(b.clone());
                } else if !mate_now && others.len() < 50 && rng.next_u64().is_multiple_of(40) {
                    others.push(b.clone());
                }
            }
            b.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
    assert_eq!(
        (with_mate.len(), others.len()),
        (25, 50),
        "too few positions"
    );
    for b in with_mate.iter().chain(&others) {
        let fen = shakmaty::fen::Fen::from_position(b, shakmaty::EnPassantMode::Legal).to_string();
        let pos = Position::from_fen(&fen).expect("a played position");
        let truth = (1..=2).find(|&n| forces_mate(b, n));
        let r = prove(
            &pos,
            Algorithm::Dfpn,
            &ProofLimits {
                max_moves: Some(2),
                ..limits(200_000)
            },
        );
        let proven = match &r.outcome {
            Outcome::Proven { mate_in_moves, .. } => Some(*mate_in_moves),
            Outcome::Disproven => None,
            Outcome::Unknown => panic!("{fen}: the prover did not decide mate in 2"),
        };
        assert_eq!(proven, truth, "{fen}: prover against brute force");
        let ab = search_depth(&FullEval::default(), &TranspositionTable::new(16), &pos, 6);
        let ab_mate = (is_mate(ab.score) && ab.score > 0)
            .then(|| mate_moves(ab.score) as u32)
            .filter(|&n| n <= 2);
        assert_eq!(ab_mate, truth, "{fen}: α-β at depth 6 against brute force");
    }
}
