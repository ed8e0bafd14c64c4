//! The α-β probe: principal-variation search with quiescence, generic over the evaluator.
//!
//! This is the search the engine plays with and the *probe* the opponent-model driver calls
//! with an opponent type's evaluator and its own transposition table (Donkers 2003 §3.1,
//! Alg. 3.3/3.5: "the probes can be implemented using any enhanced minimax algorithm"; §3.4
//! lists the enhancements kept). Winands 2004 §2.6 describes the framework: PVS with
//! null-window re-searches, a transposition table, null move with Heinz's adaptive R and a
//! zugzwang guard, quiescence search over captures, promotions and check evasions with SEE
//! pruning, check extension, killer moves and the relative history heuristic (ch. 7), plus
//! late-move reductions, reverse futility and late-move pruning, mate-distance pruning and
//! draw detection (repetition, 50 moves, insufficient material). The quiescence search lives
//! in [`super::qsearch`].
//!
//! Determinism: with one thread and a node or depth limit, the same position, table state
//! and limits give the same result.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::{Move, Position as _};

use super::Clock;
use super::busy::{BusyMoves, DEFER_DEPTH};
use super::multicut::MultiCutResult;
use super::ordering::{OrderingTables, Picker};
use super::race::DepthRace;
use super::see::see_ge;
use crate::eval::Evaluator;
use crate::eval::score::{
    DRAW, INFINITE, MATE_BOUND, MAX_EVAL, MAX_PLY, Score, TB_WIN, TB_WIN_BOUND, from_tt,
    is_decisive, mate_in, mated_in, to_tt,
};
use crate::nnue::AccumulatorStack;
use crate::params::SearchParams;
use crate::position::Position;
use crate::tb::{Wdl, WdlProbe};
use crate::tt::{Bound, PackedMove, TranspositionTable};

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
    lmr: Vec<[i8; 64]>,
}

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
            reporter: None,
            contempt: 0,
            busy: None,
            race: None,
            race_cut: false,
            nnue: eval.network().map(AccumulatorStack::new),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            lmr,
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
        if depth < 3 || count < 2 {
            return 0;
        }
        let r = i32::from(self.lmr[depth.min(63) as usize][count.min(63)]) - i32::from(pv_node);
        r.clamp(0, (depth - 2).max(0))
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

    fn has_non_pawn_material(&self) -> bool {
        let b = self.pos.chess().board();
        let ours = b.by_color(self.pos.turn());
        !(ours & !(b.pawns() | b.kings())).is_empty()
    }

    /// WDL probe inside the tree, with the probe's conditions (piece count, no castling
    /// rights, right after a capture or pawn move).
    fn probe_tb(&mut self, depth: i32) -> Option<Wdl> {
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

    /// Searches the current position with window (`alpha`, `beta`) to `depth` plies and
    /// returns its value from the side to move's view. `cut` marks an expected cut node.
    pub fn search(&mut self, mut alpha: Score, mut beta: Score, depth: i32, cut: bool) -> Score {
        let ply = self.pos.ply();
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(alpha, beta);
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        if !root {
            if self.pos.is_repetition()
                || self.pos.is_fifty_move_draw()
                || self.pos.is_insufficient_material()
            {
                return self.draw_score();
            }
            // Mate-distance pruning.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        // A node entered after the search was stopped (a re-search on the way out) is not
        // counted: a `go nodes N` search reports at most N.
        if self.aborted {
            return DRAW;
        }
        self.nodes += 1;
        if self.check_abort() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);

        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let tt_move = hit.map_or(PackedMove::default(), |h| h.mv);
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
            && let Some(s) = cutoff(h.bound, from_tt(h.score, ply), alpha, beta)
        {
            return s;
        }

        if !root && let Some(wdl) = self.probe_tb(depth) {
            let (s, bound) = match wdl {
                Wdl::Win => (TB_WIN - ply as Score, Bound::Lower),
                Wdl::Loss => (-TB_WIN + ply as Score, Bound::Upper),
                Wdl::Draw => (self.draw_score(), Bound::Exact),
            };
            if cutoff(bound, s, alpha, beta).is_some() {
                // The entry's static evaluation is read back as a stand-pat score by later
                // visits (search and quiescence): it must be the real one, not a placeholder.
                let eval = match hit {
                    Some(h) => h.eval,
                    None => self.evaluate(),
                };
                self.tt
                    .store(key, None, to_tt(s, ply), eval, depth + 6, bound);
                return s;
            }
        }

        let in_check = self.pos.chess().is_check();
        let static_eval = if in_check {
            -INFINITE
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.evaluate()
        };

        let mut multi_cut_first = None;
        if !pv_node && !in_check && !is_decisive(beta) {
            // Reverse futility pruning.
            if depth <= self.params.rfp_max_depth
                && static_eval - self.params.rfp_margin * depth >= beta
            {
                return static_eval;
            }
            // Null move with adaptive R (Heinz; Winands 2004 §2.6) and a zugzwang guard.
            if self.params.null_move
                && depth >= 2
                && static_eval >= beta
                && self.pos.last_move().is_some()
                && self.has_non_pawn_material()
            {
                let r = self.null_reduction(depth) + (static_eval - beta >= 200) as i32;
                if self.pos.play_null() {
                    let s = -self.search(-beta, -beta + 1, depth - 1 - r, !cut);
                    self.pos.undo();
                    if self.aborted {
                        return DRAW;
                    }
                    if s >= beta {
                        return if is_decisive(s) { beta } else { s };
                    }
                }
            }
            if self.params.multi_cut.applies(cut, depth) {
                match self.multi_cut(beta, depth, cut, tt_move) {
                    MultiCutResult::Prune(s) => return s,
                    MultiCutResult::Search(first) => {
                        if self.aborted {
                            return DRAW;
                        }
                        multi_cut_first = first;
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move, search a little shallower.
        let depth = if depth >= 4 && tt_move.0 == 0 && (pv_node || cut) {
            depth - 1
        } else {
            depth
        };

        // A move that reached β in a failed multi-cut is searched first (Winands 2004 §6.4).
        let tt_move = match multi_cut_first {
            Some(m) if tt_move.0 == 0 => PackedMove::new(m),
            _ => tt_move,
        };
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return if in_check {
                mated_in(ply)
            } else {
                self.draw_score()
            };
        }
        let prev = self.pos.last_move();
        let mut picker = Picker::new(self.pos.chess(), moves, tt_move, &self.tables, ply, prev);
        let turn = self.pos.turn();
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut n_quiets = 0usize;
        let mut count = 0usize;
        let killers = self.tables.killers(ply);
        if root {
            self.root_scores.clear();
        }

        // Moves another thread was searching when we reached them, searched after the rest.
        let mut deferred: Vec<(Move, i32)> = Vec::new();
        let mut replayed = 0usize;
        let busy = self.busy.filter(|_| depth >= DEFER_DEPTH && !root);
        loop {
            let (m, order, late) = if let Some((m, order)) = picker.pick() {
                (m, order, false)
            } else if let Some(&(m, order)) = deferred.get(replayed) {
                replayed += 1;
                (m, order, true)
            } else {
                break;
            };
            if let Some(b) = busy
                && !late
                && count > 0
                && b.is_busy(key, m)
            {
                deferred.push((m, order));
                continue;
            }
            if root
                && (self.root_exclude.contains(&m)
                    || (!self.root_only.is_empty() && !self.root_only.contains(&m)))
            {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            // Shallow-depth pruning candidates; checking moves are never pruned.
            let mut prune = false;
            if !root && best > -TB_WIN_BOUND && !in_check {
                if quiet {
                    prune = (!pv_node
                        && depth <= self.params.lmp_max_depth
                        && n_quiets as i32 >= self.params.lmp_base + depth * depth)
                        || (depth <= self.params.futility_max_depth
                            && !is_decisive(alpha)
                            && static_eval
                                + self.params.futility_base
                                + self.params.futility_per_ply * depth
                                <= alpha
                            && !killers.contains(&Some(m)));
                } else if depth <= 6
                    && Picker::is_bad_capture(order)
                    && !see_ge(self.pos.chess(), m, -self.params.see_capture_margin * depth)
                {
                    continue;
                }
            }
            self.pos.play(m);
            let gives_check = self.pos.chess().is_check();
            if prune && !gives_check {
                self.pos.undo();
                if n_quiets < quiets.len() {
                    quiets[n_quiets] = Some(m);
                    n_quiets += 1;
                }
                continue;
            }
            count += 1;
            let mark = busy.filter(|_| count > 1).map(|b| b.enter(key, m));
            self.tt.prefetch(self.pos.key());
            if root
                && let (Some(r), Some(c)) = (self.reporter, self.clock.as_ref())
                && c.elapsed() > std::time::Duration::from_secs(3)
            {
                r.currmove(depth as u32, m, count);
            }
            let ext = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
            let new_depth = depth - 1 + ext;
            let mut s;
            if count == 1 {
                s = -self.search(-beta, -alpha, new_depth, !pv_node && !cut);
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check {
                    r = i32::from(self.lmr[depth.min(63) as usize][count.min(63)]);
                    r -= i32::from(pv_node);
                    r += i32::from(cut);
                    if killers.contains(&Some(m)) {
                        r -= 1;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                s = -self.search(-alpha - 1, -alpha, new_depth - r, true);
                if s > alpha && r > 0 {
                    s = -self.search(-alpha - 1, -alpha, new_depth, !cut);
                }
                if s > alpha && s < beta {
                    s = -self.search(-beta, -alpha, new_depth, false);
                }
            }
            self.pos.undo();
            if let (Some(b), Some(t)) = (busy, mark) {
                b.leave(t);
            }
            if self.aborted {
                return DRAW;
            }
            if root {
                self.root_scores.push((m, s));
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = Some(m);
                    alpha = s;
                    if pv_node || root {
                        self.update_pv(ply, m);
                        if root {
                            self.root_pv_changed = true;
                        }
                    }
                    if s >= beta {
                        if quiet {
                            self.tables.record_cutoff(
                                turn,
                                m,
                                prev,
                                ply,
                                depth,
                                &quiets[..n_quiets],
                            );
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = Some(m);
                n_quiets += 1;
            }
        }
        if count == 0 {
            // Every move was excluded (root) or pruned: fall back on the static view.
            return if root { alpha } else { static_eval.max(alpha) };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Winands 2004 §6.3, addition 4: with MC-A a CUT node that fails low with exactly α
        // may rest on a pruned ALL node's β; it is not stored.
        if self.params.multi_cut.at_all && cut && best == alpha {
            return best;
        }
        let stored_eval = if in_check { 0 } else { static_eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    /// Heinz's adaptive null-move reduction as used by Winands 2004 §2.6: R = 3 above a depth
    /// that depends on the material left, R = 2 below it.
    fn null_reduction(&self, depth: i32) -> i32 {
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
}

/// `Some(s)` if a stored score `s` with this bound settles the window (`alpha`, `beta`).
#[inline]
pub(super) fn cutoff(bound: Bound, s: Score, alpha: Score, beta: Score) -> Option<Score> {
    let usable = match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

/// True if `s` says the side to move is getting mated or mates (not a tablebase score).
pub fn is_mate_score(s: Score) -> bool {
    s.abs() >= MATE_BOUND
}
