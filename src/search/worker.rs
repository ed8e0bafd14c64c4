//! One search thread's state, [`Worker`]: the position, its counters and limits, the
//! move-ordering tables, the principal variations and the per-ply stacks (static evaluations,
//! singular searches' excluded moves), with the helpers every node uses — the abort check,
//! the evaluation through the network's accumulators, table probes, draw values and the
//! reductions. The node itself, the PVS of Winands 2004 §2.6 the driver probes with (Donkers
//! 2003 §3.1), is in [`super::alphabeta`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::{Move, Position as _};

use super::Clock;
use super::busy::BusyMoves;
use super::ordering::OrderingTables;
use super::race::DepthRace;
use crate::eval::Evaluator;
use crate::nnue::AccumulatorStack;
use crate::params::SearchParams;
use crate::position::Position;
use crate::score::{INFINITE, MAX_EVAL, MAX_PLY, Score};
use crate::tb::{Wdl, WdlProbe};
use crate::tt::TranspositionTable;

/// How often (in nodes) the stop flag and the clock are looked at.
const CHECK_INTERVAL: u64 = 1024;

/// One search thread's state: the position, counters, move-ordering tables and references
/// to what it shares (evaluator, transposition table, stop flag).
pub struct Worker<'a, E: Evaluator + ?Sized> {
    /// The evaluation this search uses.
    pub eval: &'a E,
    /// The transposition table of this evaluator.
    pub tt: &'a TranspositionTable,
    /// Search tunables.
    pub params: &'a SearchParams,
    /// Set by anyone to stop the search.
    pub stop: &'a AtomicBool,
    /// Where this thread publishes its node count (for reporting across threads).
    pub node_counter: Option<&'a AtomicU64>,
    /// Deadlines and limits (main thread only).
    pub clock: Option<Clock<'a>>,
    /// Endgame tables for WDL probes inside the tree.
    pub tb: Option<&'a dyn WdlProbe>,
    /// Only probe tables at this remaining depth or more.
    pub tb_probe_depth: i32,
    /// Only probe tables with at most this many pieces.
    pub tb_probe_limit: usize,
    /// The position searched (root plus the moves of the current line).
    pub pos: Position,
    /// Killers, history and counter moves.
    pub tables: OrderingTables,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Tablebase hits of this thread.
    pub tbhits: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Exact node limit of this thread (`u64::MAX` for none); reaching it stops everything.
    pub node_limit: u64,
    /// Node count at which the current probe ends (`u64::MAX` for none); reaching it stops
    /// this worker only (an opponent type's node budget).
    pub local_limit: u64,
    /// Root moves excluded from the search (earlier MultiPV lines).
    pub root_exclude: Vec<Move>,
    /// If not empty, only these root moves are searched (`searchmoves`).
    pub root_only: Vec<Move>,
    /// Root depth of the running iteration (bounds check extensions).
    pub root_depth: i32,
    /// Set when the search was aborted; its results are then not to be trusted.
    pub aborted: bool,
    /// Set when the root PV was replaced during the current iteration.
    pub root_pv_changed: bool,
    /// Root moves searched in the last root search with the score each returned (an upper
    /// bound for moves that did not raise alpha: the search is fail-soft).
    pub root_scores: Vec<(Move, Score)>,
    /// Nodes spent below each root move since the search began (all iterations).
    pub root_effort: Vec<(Move, u64)>,
    /// Where `currmove` lines go in long searches (main thread only).
    pub reporter: Option<&'a dyn crate::report::Reporter>,
    /// What a draw is worth less than 0 to the side to move at this worker's root (the
    /// contempt factor, Donkers 2003 §2.1.7; 0 for a plain search, see `draw_value`).
    pub contempt: Score,
    /// With other threads on the same table: the moves they are searching, which this one
    /// searches last at a node ([`super::busy`]); `None` with one thread.
    pub busy: Option<&'a BusyMoves>,
    /// With other threads: the deepest iteration any of them completed; this worker's
    /// iteration is abandoned once that reaches its depth ([`super::race`]).
    pub race: Option<&'a DepthRace>,
    /// Set with `aborted` when the iteration was abandoned because another thread completed
    /// its depth first (the search as a whole goes on).
    pub race_cut: bool,
    /// Accumulators per ply when the evaluator is a network ([`Evaluator::network`]).
    nnue: Option<AccumulatorStack<'a>>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(super) pv_len: Vec<usize>,
    pub(super) lmr: Vec<[i8; 64]>,
    /// The static evaluation of each ply of the current line (`NO_EVAL` in check).
    pub(super) evals: Vec<Score>,
    /// The move each ply's singular search leaves out.
    pub(super) excluded: Vec<Option<Move>>,
    /// How many double singular extensions the line from the root to each ply holds.
    pub(super) double_exts: Vec<u8>,
}

/// No static evaluation (the side to move was in check).
pub(super) const NO_EVAL: Score = -INFINITE;

impl<'a, E: Evaluator + ?Sized> Worker<'a, E> {
    /// Sets what a search's configuration decides for each of its workers: the node counter
    /// `counter` (read by the clock's node limit), the endgame tables `tb` with the
    /// configuration's probe depth and piece limit, and the draw value `contempt` (the root
    /// side's; 0 for an opponent type's probes).
    pub fn configure(
        &mut self,
        config: &super::SearchConfig,
        counter: &'a AtomicU64,
        tb: Option<&'a dyn WdlProbe>,
        contempt: Score,
    ) {
        self.node_counter = Some(counter);
        self.tb = tb;
        self.tb_probe_depth = config.tb_probe_depth;
        self.tb_probe_limit = config.tb_probe_limit;
        self.contempt = contempt;
    }

    /// A worker searching `pos` with `eval` and `tt`.
    pub fn new(
        eval: &'a E,
        tt: &'a TranspositionTable,
        params: &'a SearchParams,
        stop: &'a AtomicBool,
        pos: Position,
    ) -> Self {
        let mut lmr = vec![[0i8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = f64::from(params.lmr_base) / 100.0
                    + (d as f64).ln() * (m as f64).ln() * 100.0 / f64::from(params.lmr_divisor);
                *r = v.max(0.0) as i8;
            }
        }
        Worker {
            eval,
            tt,
            params,
            stop,
            node_counter: None,
            clock: None,
            tb: None,
            tb_probe_depth: 1,
            tb_probe_limit: 7,
            pos,
            tables: OrderingTables::default(),
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            local_limit: u64::MAX,
            root_exclude: Vec::new(),
            root_only: Vec::new(),
            root_depth: 0,
            aborted: false,
            root_pv_changed: false,
            root_scores: Vec::new(),
            root_effort: Vec::new(),
            reporter: None,
            contempt: 0,
            busy: None,
            race: None,
            race_cut: false,
            nnue: eval.network().map(AccumulatorStack::new),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            lmr,
            evals: vec![NO_EVAL; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            double_exts: vec![0; MAX_PLY + 2],
        }
    }

    /// The value of a drawn position (repetition, 50 moves, insufficient material,
    /// stalemate, a table draw) for the side to move: `−contempt` on the root side's turns,
    /// `+contempt` on the other side's.
    pub fn draw_score(&self) -> Score {
        if self.pos.ply().is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The late-move reduction α-β gives the `count`-th move (1-based) searched at `depth`,
    /// at a principal-variation node or elsewhere, if the move is quiet and neither gives
    /// nor escapes check: for drivers that mirror α-β's move loop.
    pub fn late_move_reduction(&self, depth: i32, count: usize, pv_node: bool) -> i32 {
        if depth < self.params.lmr_min_depth || count < 2 {
            return 0;
        }
        let r = i32::from(self.lmr[depth.min(63) as usize][count.min(63)]) - i32::from(pv_node);
        r.clamp(0, (depth - 2).max(0))
    }

    /// The move the singular search at `ply` leaves out.
    pub(super) fn excluded_at(&self, ply: usize) -> Option<Move> {
        self.excluded[ply.min(MAX_PLY)]
    }

    pub(super) fn set_excluded(&mut self, ply: usize, m: Option<Move>) {
        self.excluded[ply.min(MAX_PLY)] = m;
    }

    /// The double singular extensions on the line from the root to `ply`.
    pub(super) fn double_exts_at(&self, ply: usize) -> u8 {
        self.double_exts[ply.min(MAX_PLY)]
    }

    /// Sets the count of double extensions the children of the node at `ply` inherit: its
    /// own, and one more for the child reached by a double extension.
    pub(super) fn pass_double_exts(&mut self, ply: usize, doubled: bool) {
        let own = self.double_exts_at(ply);
        self.double_exts[ply.min(MAX_PLY) + 1] = own.saturating_add(u8::from(doubled));
    }

    /// Whether the static evaluation `eval` at `ply` is above the one two plies earlier (or
    /// four, when the side was in check then); `None` when neither is known (near the root):
    /// then the search neither relaxes nor tightens its pruning for it.
    pub(super) fn improving(&self, ply: usize, eval: Score) -> Option<bool> {
        [2, 4]
            .iter()
            .filter(|&&k| ply >= k)
            .map(|&k| self.evals[ply - k])
            .find(|&e| e != NO_EVAL)
            .map(|e| eval > e)
    }

    /// The principal variation found by the last completed root search.
    pub fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .map_while(|m| *m)
            .collect()
    }

    /// Takes `pv` and `scores` as the result of the last root search (another thread's
    /// search of the same root to the same depth, [`super::race`]).
    pub fn adopt_root(&mut self, pv: &[Move], scores: Vec<(Move, Score)>) {
        let n = pv.len().min(MAX_PLY);
        for (slot, &m) in self.pv[0].iter_mut().zip(&pv[..n]) {
            *slot = Some(m);
        }
        self.pv_len[0] = n;
        self.root_scores = scores;
    }

    /// The principal variation found below the node `ply` plies from the root in the last
    /// search started there.
    pub fn pv_at(&self, ply: usize) -> Vec<Move> {
        let ply = ply.min(MAX_PLY);
        self.pv[ply][ply..self.pv_len[ply].max(ply)]
            .iter()
            .map_while(|m| *m)
            .collect()
    }

    /// Publishes the node count and looks at the stop flag, clock and node limit.
    #[inline]
    pub(super) fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.local_limit {
            self.aborted = true;
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stop.store(true, Ordering::Relaxed);
            self.aborted = true;
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            if let Some(c) = self.node_counter {
                c.store(self.nodes, Ordering::Relaxed);
            }
            if let Some(clock) = self.clock.as_mut()
                && clock.expired()
            {
                self.stop.store(true, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
                return true;
            }
            if let Some(r) = self.race
                && r.completed() >= self.root_depth
            {
                self.aborted = true;
                self.race_cut = true;
                return true;
            }
        }
        false
    }

    #[inline]
    pub(super) fn evaluate(&mut self) -> Score {
        let raw = match self.nnue.as_mut() {
            Some(stack) => stack.evaluate(&self.pos),
            None => self.eval.evaluate(self.pos.chess()),
        };
        raw.clamp(-MAX_EVAL, MAX_EVAL)
    }

    pub(super) fn has_non_pawn_material(&self) -> bool {
        let b = self.pos.chess().board();
        let ours = b.by_color(self.pos.turn());
        !(ours & !(b.pawns() | b.kings())).is_empty()
    }

    /// WDL probe inside the tree, with the probe's conditions (piece count, no castling
    /// rights, right after a capture or pawn move).
    pub(super) fn probe_tb(&mut self, depth: i32) -> Option<Wdl> {
        let tb = self.tb?;
        let chess = self.pos.chess();
        let pieces = chess.board().occupied().count();
        if pieces > tb.max_pieces().min(self.tb_probe_limit)
            || chess.halfmoves() != 0
            || chess.castles().any()
            || (depth < self.tb_probe_depth && pieces == tb.max_pieces())
        {
            return None;
        }
        let r = tb.probe_wdl(chess);
        if r.is_some() {
            self.tbhits += 1;
        }
        r
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = Some(m);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Heinz's adaptive null-move reduction as used by Winands 2004 §2.6: R = 3 above a depth
    /// that depends on the material left, R = 2 below it.
    pub(super) fn null_reduction(&self, depth: i32) -> i32 {
        let b = self.pos.chess().board();
        let pieces = |c| (b.by_color(c) & !(b.pawns() | b.kings())).count();
        let many = pieces(shakmaty::Color::White) >= 3 && pieces(shakmaty::Color::Black) >= 3;
        let threshold = if many {
            self.params.null_depth_many_pieces
        } else {
            self.params.null_depth_few_pieces
        };
        if depth > threshold {
            self.params.null_r_high
        } else {
            self.params.null_r_low
        }
    }

    /// The null-move reduction of the trial switch `nullr`: it grows by a ply every
    /// `null_r_depth_divisor` plies of remaining depth and by a ply for every
    /// `null_r_eval_divisor` centipawns the static evaluation stands above β (`margin`, at
    /// most `null_r_eval_max` plies), as Ethereal's and Stockfish's null moves reduce; at
    /// a remaining depth of 12 it is 5 to 8 plies where Heinz's R gives 3 or 4.
    pub(super) fn deep_null_reduction(&self, depth: i32, margin: i32) -> i32 {
        let fp = &self.params.feature_params;
        fp.null_r_base
            + depth / fp.null_r_depth_divisor.max(1)
            + (margin / fp.null_r_eval_divisor.max(1)).clamp(0, fp.null_r_eval_max)
    }
}
