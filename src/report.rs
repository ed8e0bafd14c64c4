//! What a search tells the outside world, and through what: the [`Reporter`] trait. Each
//! protocol front-end implements it and formats the lines its protocol wants; the search
//! thread calls it directly (no relaying through other threads).

use std::time::Duration;

use shakmaty::Move;

use crate::eval::Score;

/// Kind of score in an info line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The exact score.
    Exact,
    /// Failed high: at least this.
    Lower,
    /// Failed low: at most this.
    Upper,
}

/// A progress report: one principal variation of an iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Index of this line (1 = best) in MultiPV mode.
    pub multipv: u32,
    /// Score of the line, side to move's view.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill, permille.
    pub hashfull: u32,
    /// Endgame-table hits.
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Win/draw/loss expectation in permille (side to move's view).
    pub wdl: [u32; 3],
}

/// Receives the output of a search. Implementations must be cheap and must not block.
pub trait Reporter: Send + Sync {
    /// A principal variation (after an iteration, or a fail high/low).
    fn info(&self, info: &SearchInfo);
    /// The root move being searched now (sent only in long searches).
    fn currmove(&self, _depth: u32, _mv: Move, _number: usize) {}
    /// Free text (UCI `info string`, xboard comment).
    fn message(&self, text: &str);
    /// The final answer: exactly one per search. `None` when there is no legal move.
    fn bestmove(&self, best: Option<Move>, ponder: Option<Move>);
    /// A completed iteration of the opponent-model driver, as data. By default it becomes
    /// the text `om depth D move M predicted R om V ab A surplus S` (when there is a
    /// predicted reply), which the protocols send as `info string` or a comment.
    fn om_iteration(&self, report: &OmReport) {
        if report.predicted.is_some() {
            self.message(&report.to_string());
        }
    }
}

/// One completed iteration of the opponent-model driver (Donkers 2003 §5.4.3, Fig. 5.11:
/// the prediction surplus).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OmReport {
    /// The iteration's depth.
    pub depth: u32,
    /// Our chosen move.
    pub best: Option<Move>,
    /// The reply the model predicts to it.
    pub predicted: Option<Move>,
    /// The OM (PrOM) value of the best move, our view.
    pub om_value: Score,
    /// The plain α-β value of the root at the same depth.
    pub ab_value: Score,
    /// Nodes of our own searches so far.
    pub own_nodes: u64,
    /// Nodes of each opponent type's probes so far.
    pub type_nodes: Vec<u64>,
    /// Probes run so far (answers remembered from earlier in the search not counted).
    pub probes: u64,
    /// Each opponent type's predicted reply to `best` (`None` where the driver keeps none:
    /// an engine type, or a type not probed there).
    pub predicted_by_type: Vec<Option<Move>>,
}

impl OmReport {
    /// What the prediction gains over α-β: `om_value − ab_value`.
    pub fn surplus(&self) -> Score {
        self.om_value - self.ab_value
    }
}

impl OmReport {
    /// The report as an `info string` text, moves in Chess960 form if `chess960`.
    pub fn line(&self, chess960: bool) -> String {
        let mv = |m: Option<Move>| {
            m.map_or_else(
                || "none".to_string(),
                |m| crate::position::uci_in(m, chess960),
            )
        };
        format!(
            "om depth {} move {} predicted {} om {} ab {} surplus {}",
            self.depth,
            mv(self.best),
            mv(self.predicted),
            self.om_value,
            self.ab_value,
            self.surplus()
        )
    }
}

impl std::fmt::Display for OmReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line(false))
    }
}

/// A reporter that keeps nothing (benchmarks, internal probes).
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _info: &SearchInfo) {}
    fn message(&self, _text: &str) {}
    fn bestmove(&self, _best: Option<Move>, _ponder: Option<Move>) {}
}

/// Win/draw/loss permille from a score, with a logistic model of the usual shape (a score
/// of about +100 cp wins half the games at a middling material count).
pub fn wdl_from_score(score: Score) -> [u32; 3] {
    use crate::score::is_decisive;
    if is_decisive(score) {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let s = f64::from(score);
    let (a, b) = (120.0, 60.0);
    let win = 1000.0 / (1.0 + (-(s - a) / b).exp());
    let loss = 1000.0 / (1.0 + (-(-s - a) / b).exp());
    let w = win.round().clamp(0.0, 1000.0) as u32;
    let l = loss.round().clamp(0.0, 1000.0 - f64::from(w)) as u32;
    [w, 1000 - w - l, l]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_sums_to_1000_and_is_monotone() {
        let mut last = 0;
        for s in (-800..=800).step_by(50) {
            let [w, d, l] = wdl_from_score(s);
            assert_eq!(w + d + l, 1000);
            assert!(w >= last);
            last = w;
        }
        assert_eq!(wdl_from_score(0)[0], wdl_from_score(0)[2]);
    }
}
