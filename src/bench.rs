//! `nosce bench`: searches the positions of `bench.epd` (compiled into the binary) to a
//! fixed depth with one thread, a 16 MB table cleared before each position, no endgame
//! tables and the default evaluation (the embedded net, [`crate::nnue::embedded`]), so the
//! node count depends on nothing but the code and the net. The last line is
//! `N nodes M nps` (OpenBench convention); commits that change the search quote `N` as
//! `Bench: N`.

use std::time::Instant;

use crate::eval::FullEval;
use crate::eval::NnueEval;
use crate::position::Position;
use crate::search::search_depth;
use crate::tt::TranspositionTable;

/// The benchmark positions (one FEN per line; EPD operations after the fourth field are
/// ignored).
pub const BENCH_EPD: &str = include_str!("../bench.epd");

/// Default benchmark depth.
pub const DEFAULT_DEPTH: u32 = 11;

/// The FENs of [`BENCH_EPD`].
pub fn positions() -> Vec<String> {
    BENCH_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        // EPD lines have four fields then operations; FEN lines have six.
        .map(|l| crate::position::epd_fen(l, false).map_or_else(|| l.to_string(), |(f, _)| f))
        .collect()
}

/// Result of a benchmark run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Total nodes.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Per position: FEN, nodes, best move (UCI).
    pub lines: Vec<(String, u64, String)>,
}

/// Runs the benchmark to `depth` with the default evaluation, the embedded net (the
/// `Bench:` signature).
///
/// # Errors
/// A bench position that does not parse (a defect in `bench.epd`), or an embedded net that
/// does not load (a build defect).
pub fn run(depth: u32) -> Result<BenchResult, String> {
    run_with(depth, &NnueEval::new(crate::nnue::embedded::network()?))
}

/// Runs the benchmark to `depth` with the hand-crafted evaluation (`nosce bench --evalfile
/// hce`).
///
/// # Errors
/// A bench position that does not parse (a defect in `bench.epd`).
pub fn run_hce(depth: u32) -> Result<BenchResult, String> {
    run_with(depth, &FullEval::default())
}

/// Runs the benchmark to `depth` with evaluator `eval` (e.g. another network: `nosce bench
/// --evalfile FILE`, whose node count is that network's, not the `Bench:` signature).
///
/// # Errors
/// A bench position that does not parse (a defect in `bench.epd`).
pub fn run_with<E: crate::eval::Evaluator + ?Sized>(
    depth: u32,
    eval: &E,
) -> Result<BenchResult, String> {
    let tt = TranspositionTable::new(16);
    let mut nodes = 0;
    let mut lines = Vec::new();
    let start = Instant::now();
    for fen in positions() {
        let pos = Position::from_fen(&fen)?;
        tt.clear();
        let r = search_depth(eval, &tt, &pos, depth);
        nodes += r.nodes;
        let best = r
            .best
            .map_or_else(|| "0000".to_string(), crate::position::uci);
        lines.push((fen, r.nodes, best));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    Ok(BenchResult {
        nodes,
        nps: (nodes as f64 / secs) as u64,
        lines,
    })
}

/// Time-to-depth comparison for the opponent-model driver: every bench position searched to
/// `depth` through the [`crate::engine::Engine`] with the given options (e.g. `OM_Mode=om`,
/// `OM_SpeculationDepth=2`), tables cleared per position. Returns per position the FEN,
/// nodes, milliseconds and best move.
///
/// # Errors
/// A rejected option or a bench position that does not parse.
pub fn run_with_options(
    depth: u32,
    options: &[(String, String)],
) -> Result<Vec<(String, u64, u128, String)>, String> {
    use crate::engine::Engine;
    use crate::limits::Limits;
    use crate::report::{Reporter, SearchInfo};
    use parking_lot::Mutex;
    use std::sync::Arc;

    #[derive(Default)]
    struct Last(Mutex<(u64, String)>);
    impl Reporter for Last {
        fn info(&self, info: &SearchInfo) {
            self.0.lock().0 = info.nodes;
        }
        fn message(&self, _text: &str) {}
        fn bestmove(&self, best: Option<shakmaty::Move>, _p: Option<shakmaty::Move>) {
            self.0.lock().1 = best.map_or_else(|| "0000".into(), crate::position::uci);
        }
    }
    let mut engine = Engine::new();
    for (k, v) in options {
        engine.set_option(k, Some(v))?;
    }
    let mut out = Vec::new();
    for fen in positions() {
        engine.new_game();
        engine.set_position(Some(&fen), &[])?;
        // Node counts must not depend on how fast a background table load finishes.
        engine.load_tables_now();
        let rep = Arc::new(Last::default());
        let start = Instant::now();
        engine.go(Limits::depth(depth), rep.clone());
        engine.wait();
        let ms = start.elapsed().as_millis();
        let (nodes, best) = rep.0.lock().clone();
        out.push((fen, nodes, ms, best));
    }
    Ok(out)
}
