//! The search with a network evaluator: its per-ply accumulators (`nnue::AccumulatorStack`,
//! updated move by move) give exactly the search a full refresh at every evaluation gives —
//! same move, score, PV and node count at a fixed depth — on bench positions, from positions
//! reached by a game history, and with a random network (no trained net is needed to check
//! the arithmetic). A counting evaluator shows the search really takes the incremental path.

use std::sync::atomic::{AtomicU64, Ordering};

use nosce::eval::NnueEval;
use nosce::eval::{Evaluator, Score};
use nosce::nnue::Network;
use nosce::position::Position;
use nosce::search::search_depth;
use nosce::tt::TranspositionTable;

/// A network of `hidden` units with seeded random weights.
fn random_net(hidden: usize, seed: u64) -> Network {
    Network::random(hidden, seed, 60, 100).expect("a valid network")
}

/// The same network, but the search sees no network: every evaluation is a full refresh.
struct RefreshOnly(NnueEval);

impl Evaluator for RefreshOnly {
    fn name(&self) -> &str {
        "refresh-only"
    }
    fn evaluate(&self, pos: &shakmaty::Chess) -> Score {
        self.0.evaluate(pos)
    }
}

/// The network evaluator, counting calls of its full-refresh `evaluate`.
struct Counting(NnueEval, AtomicU64);

impl Evaluator for Counting {
    fn name(&self) -> &str {
        "counting"
    }
    fn evaluate(&self, pos: &shakmaty::Chess) -> Score {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.evaluate(pos)
    }
    fn network(&self) -> Option<&Network> {
        self.0.network()
    }
}

fn bench_fens(n: usize) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench.epd");
    let text = std::fs::read_to_string(path).expect("bench.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" ") + " 0 1")
        .collect()
}

fn same_search<A: Evaluator, B: Evaluator>(a: &A, b: &B, pos: &Position, depth: u32, what: &str) {
    let ra = search_depth(a, &TranspositionTable::new(4), pos, depth);
    let rb = search_depth(b, &TranspositionTable::new(4), pos, depth);
    assert!(ra.best.is_some(), "{what}: no move");
    assert_eq!(
        (ra.best, ra.score, ra.nodes, &ra.pv),
        (rb.best, rb.score, rb.nodes, &rb.pv),
        "{what}: incremental and full-refresh searches differ"
    );
}

#[test]
fn incremental_and_full_refresh_searches_agree_on_bench_positions() {
    let net = random_net(32, 7);
    let incremental = Counting(NnueEval::new(net.clone()), AtomicU64::new(0));
    let refresh = RefreshOnly(NnueEval::new(net));
    for fen in bench_fens(12) {
        let pos = Position::from_fen(&fen).expect("bench FEN");
        same_search(&incremental, &refresh, &pos, 6, &fen);
    }
    assert_eq!(
        incremental.1.load(Ordering::Relaxed),
        0,
        "the search called the network's full refresh instead of its accumulators"
    );
}

#[test]
fn incremental_and_full_refresh_searches_agree_after_a_game_history() {
    let net = random_net(64, 11);
    let incremental = NnueEval::new(net.clone());
    let refresh = RefreshOnly(NnueEval::new(net));
    // A game with castling on both sides, an en passant capture and a promotion ahead.
    let mut pos = Position::default();
    let moves = "e2e4 d7d5 e4e5 f7f5 e5f6 g8f6 g1f3 c8g4 f1e2 b8c6 e1g1 d8d7 d2d4 e8c8 c2c4 g7g5";
    for (i, m) in moves.split_whitespace().enumerate() {
        pos.play_uci(m).expect("a legal move");
        if i % 4 == 3 {
            same_search(&incremental, &refresh, &pos, 5, &format!("after {}", i + 1));
        }
    }
    let promo = Position::from_fen("8/1P4k1/8/8/8/8/5pK1/8 w - - 0 1").expect("FEN");
    same_search(&incremental, &refresh, &promo, 7, "promotions");
}

/// Not a check: nodes per second of a depth-8 search over 12 bench positions with the
/// hand-crafted evaluation and with a 256-unit network (random weights, so the trees differ).
/// `cargo test --release --test it nnue_search:: -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a check: run with --ignored --nocapture"]
fn measure_search_speed() {
    fn nps<E: Evaluator>(eval: &E) -> (u64, f64) {
        let t = std::time::Instant::now();
        let mut nodes = 0;
        for fen in bench_fens(12) {
            let pos = Position::from_fen(&fen).expect("bench FEN");
            nodes += search_depth(eval, &TranspositionTable::new(16), &pos, 8).nodes;
        }
        (nodes, nodes as f64 / t.elapsed().as_secs_f64())
    }
    let hce = nosce::eval::FullEval::default();
    let net = NnueEval::new(random_net(256, 3));
    let refresh = RefreshOnly(NnueEval::new(random_net(256, 3)));
    for (name, (n, s)) in [
        ("hand-crafted", nps(&hce)),
        ("nnue 256, incremental", nps(&net)),
        ("nnue 256, full refresh", nps(&refresh)),
    ] {
        println!("{name}: {n} nodes, {s:.0} nodes/s");
    }
}
