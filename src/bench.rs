//! `nosce bench`: searches the positions of `bench.epd` (compiled into the binary) to a
//! fixed depth with one thread, a 16 MB table cleared before each position and no endgame
//! tables, so the node count depends on nothing but the code. The last line is
//! `N nodes M nps` (OpenBench convention); commits that change the search quote `N` as
//! `Bench: N`.

use std::time::Instant;

use crate::eval::FullEval;
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
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            // EPD lines have four fields then operations; FEN lines have six.
            let take = if fields.len() >= 6
                && fields[4].parse::<u32>().is_ok()
                && fields[5].trim_end_matches(';').parse::<u32>().is_ok()
            {
                6
            } else {
                4.min(fields.len())
            };
            fields[..take].join(" ")
        })
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

/// Runs the benchmark to `depth`.
///
/// # Errors
/// A bench position that does not parse (a defect in `bench.epd`).
pub fn run(depth: u32) -> Result<BenchResult, String> {
    let eval = FullEval::default();
    let tt = TranspositionTable::new(16);
    let mut nodes = 0;
    let mut lines = Vec::new();
    let start = Instant::now();
    for fen in positions() {
        let pos = Position::from_fen(&fen)?;
        tt.clear();
        let r = search_depth(&eval, &tt, &pos, depth);
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
