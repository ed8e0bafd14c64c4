//! How the KQ vs KR weights of `KqkrParams` were set: coordinate descent against our exact
//! DTM tables (the oracle of Donkers 2003 §5.4 / Appendix B).
//!
//! Positions come from games the K+Q side plays from the two Browne–BELLE positions (nosce
//! without tables at `--game-depth`, perturbed per game, against a K+R side playing a random
//! DTM-optimal move), so they are the positions the sweep's fallible side meets. The loss of
//! a weight vector is the mean number of moves a `--depth` search with those weights loses
//! against DTM-optimal play on them (a move that gives the win away costs 20). Each weight is
//! tried at ±1/2, ±1/4, ±1/8 of its value and the first improvement kept, round after round,
//! until a round finds none.
//!
//! ```sh
//! cargo run --release --example tune_kqkr -- --positions 1500 --depth 5 --game-depth 7
//! ```
//!
//! Prints the loss and error rate of the start weights and of each improvement, then the
//! final weights in `KqkrParams` order.

use std::sync::Arc;

use nosce::eval::{EvalParams, FullEval, KqkrParams, Perturbed};
use nosce::experiment::config::BROWNE_BELLE;
use nosce::position::Position;
use nosce::rng::GameRng;
use nosce::search::search_depth;
use nosce::tb::{ExactTables, Metric, Wdl};
use nosce::tt::TranspositionTable;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position as _};

/// A position and the DTM (plies) of each legal move; `None` if it gives the win away.
struct Case {
    pos: Chess,
    moves: Vec<(Move, Option<u16>)>,
}

/// The tunable weights, by name (the base score is left alone).
const NAMES: [&str; 11] = [
    "edge_manhattan",
    "edge_chebyshev",
    "king_close",
    "king_close_manhattan",
    "rook_separation",
    "defender_mobility",
    "defender_no_moves",
    "opposition",
    "queen_close",
    "rook_tactic_scale",
    "queen_fork",
];

fn weight(p: &mut KqkrParams, i: usize) -> &mut i32 {
    match i {
        0 => &mut p.edge_manhattan,
        1 => &mut p.edge_chebyshev,
        2 => &mut p.king_close,
        3 => &mut p.king_close_manhattan,
        4 => &mut p.rook_separation,
        5 => &mut p.defender_mobility,
        6 => &mut p.defender_no_moves,
        7 => &mut p.opposition,
        8 => &mut p.queen_close,
        9 => &mut p.rook_tactic_scale,
        _ => &mut p.queen_fork,
    }
}

/// The K+Q positions (won, not a conversion in one) of games from both start positions.
fn game_positions(exact: &ExactTables, count: usize, depth: u32) -> Result<Vec<Case>, String> {
    let mut rng = GameRng::from_seed(12345);
    let tt = TranspositionTable::new(1);
    let mut cases = Vec::new();
    let mut game = 0u64;
    while cases.len() < count {
        let (_, fen) = BROWNE_BELLE[(game % 2) as usize];
        let mut pos: Chess = fen
            .parse::<Fen>()
            .map_err(|e| e.to_string())?
            .into_position(CastlingMode::Standard)
            .map_err(|e| e.to_string())?;
        let eval = Perturbed::new(FullEval::default(), game * 31 + 7, 20);
        for _ in 0..100 {
            let Some(ranked) = exact.rank_moves(&pos, Metric::Dtm) else {
                break;
            };
            let Some(top) = ranked.first().map(|r| r.value) else {
                break;
            };
            let m = if pos.turn() == Color::White {
                if top.wdl != Wdl::Win || top.conversion {
                    break;
                }
                let moves = ranked
                    .iter()
                    .map(|r| {
                        (
                            r.mv,
                            (r.value.wdl == Wdl::Win).then_some(r.value.dtm).flatten(),
                        )
                    })
                    .collect();
                cases.push(Case {
                    pos: pos.clone(),
                    moves,
                });
                tt.clear();
                match search_depth(&eval, &tt, &Position::from_chess(pos.clone()), depth).best {
                    Some(m) => m,
                    None => break,
                }
            } else {
                let ties: Vec<Move> = ranked
                    .iter()
                    .filter(|r| r.value == top)
                    .map(|r| r.mv)
                    .collect();
                ties[rng.below(ties.len())]
            };
            pos.play_unchecked(m);
        }
        game += 1;
    }
    cases.truncate(count);
    Ok(cases)
}

/// Mean moves lost per position and the error rate (%) of `depth` searches with `p`.
fn loss(cases: &[Case], p: &KqkrParams, depth: u32) -> (f64, f64) {
    let half = cases.len().div_ceil(2).max(1);
    let parts: Vec<(f64, usize)> = std::thread::scope(|scope| {
        let jobs: Vec<_> = cases
            .chunks(half)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut params = EvalParams::default();
                    params.endgame.kqkr = p.clone();
                    let eval = FullEval::new(params);
                    let tt = TranspositionTable::new(1);
                    let (mut lost, mut errors) = (0.0, 0);
                    for c in chunk {
                        tt.clear();
                        let pos = Position::from_chess(c.pos.clone());
                        let chosen = search_depth(&eval, &tt, &pos, depth).best;
                        let best = c.moves.iter().filter_map(|m| m.1).min().unwrap_or(0);
                        match c
                            .moves
                            .iter()
                            .find(|m| Some(m.0) == chosen)
                            .and_then(|m| m.1)
                        {
                            Some(d) if d > best => {
                                lost += f64::from((d - best) / 2);
                                errors += 1;
                            }
                            Some(_) => {}
                            None => {
                                lost += 20.0;
                                errors += 1;
                            }
                        }
                    }
                    (lost, errors)
                })
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().unwrap_or((0.0, 0)))
            .collect()
    });
    let n = cases.len().max(1) as f64;
    let (lost, errors) = parts.iter().fold((0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (lost / n, 100.0 * errors as f64 / n)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |flag: &str, default: u32| -> Result<u32, String> {
        match args.iter().position(|a| a == flag) {
            Some(i) => args
                .get(i + 1)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{flag} needs a number")),
            None => Ok(default),
        }
    };
    let (count, depth, game_depth) = (
        get("--positions", 1500)?,
        get("--depth", 5)?,
        get("--game-depth", 7)?,
    );
    let exact = Arc::new(ExactTables::from_env());
    for m in ["KQvKR", "KQvK", "KRvK"] {
        exact.generate(m).map_err(|e| format!("{m}: {e}"))?;
    }
    let cases = game_positions(&exact, count as usize, game_depth)?;
    let mut p = KqkrParams::default();
    let mut best = loss(&cases, &p, depth);
    println!("start: {:.4} moves lost, {:.1} % errors", best.0, best.1);
    loop {
        let mut improved = false;
        for (i, name) in NAMES.iter().enumerate() {
            let v = *weight(&mut p, i);
            let steps = [
                (v.abs() / 2).max(4),
                (v.abs() / 4).max(2),
                (v.abs() / 8).max(1),
            ];
            for cand in steps
                .iter()
                .flat_map(|&s| [v + s, v - s])
                .filter(|&c| c >= 0)
            {
                let mut q = p.clone();
                *weight(&mut q, i) = cand;
                let l = loss(&cases, &q, depth);
                if l.0 < best.0 - 1e-9 {
                    println!(
                        "{name} {v} -> {cand}: {:.4} moves lost, {:.1} % errors",
                        l.0, l.1
                    );
                    (best, p, improved) = (l, q, true);
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    println!("final: {p:?}");
    Ok(())
}
