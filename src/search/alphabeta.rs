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
//! in [`super::qsearch`], the thread's state in [`super::worker`].
//!
//! The refinements on trial for issue 41 are here too, each behind its switch in
//! [`crate::params::SearchFeatures`] (off unless their SPRT kept them): the improving flag
//! in reverse futility, late-move pruning and reductions, history-based reductions and the
//! histories of [`super::history`], the singular extensions of `search/singular.rs`,
//! ProbCut (`search/probcut.rs`), SEE and history pruning of quiet moves, the deeper
//! null-move reduction of `nullr`, and the staged picking of `staged` (the table's move,
//! checked by [`PackedMove::legal_in`], searched before the node's moves are generated),
//! the table's score standing in for the static evaluation when pruning (`tteval`),
//! late-move reductions of quiet moves in check and of quiet checks (`lmrcheck`), late-move
//! pruning of quiet moves in check (`prunecheck`), the null move's table guard
//! (`nullguard`) and the extension of early quiet moves by their histories (`histext`).
//!
//! Determinism: with one thread and a node or depth limit, the same position, table state
//! and limits give the same result.

use shakmaty::{Move, Position as _, Role};

use super::busy::DEFER_DEPTH;
use super::history::Recent;
use super::multicut::MultiCutResult;
use super::ordering::{Picker, TT_SCORE, Tried};
use super::see::see_ge;
use super::singular::Singular;
use super::worker::NO_EVAL;
pub use super::worker::Worker;
use crate::eval::Evaluator;
use crate::score::{
    DRAW, INFINITE, MAX_EVAL, MAX_PLY, Score, TB_WIN, TB_WIN_BOUND, from_tt, is_decisive, is_mate,
    mate_in, mated_in, to_tt,
};
use crate::tb::Wdl;
use crate::tt::{Bound, PackedMove};

impl<E: Evaluator + ?Sized> Worker<'_, E> {
    /// Searches the current position with window (`alpha`, `beta`) to `depth` plies and
    /// returns its value from the side to move's view. `cut` marks an expected cut node.
    pub fn search(&mut self, mut alpha: Score, mut beta: Score, depth: i32, cut: bool) -> Score {
        let ply = self.pos.ply();
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        let features = self.params.features;
        // A window about a mate score: the evaluation's trend says nothing there.
        let mate_window = is_mate(alpha) || is_mate(beta);
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
        if root {
            // Without room for the histories (memory) the search goes on without them;
            // the root driver reports it ([`super::search`]).
            let _ = self.tables.configure(self.params);
        }
        let excluded = self.excluded[ply];
        // The null move's, ProbCut's and multi-cut's children inherit the node's count of
        // double extensions (the move loop sets it again for each move); only `doubleext`
        // reads it.
        if features.double_ext {
            self.pass_double_exts(ply, false);
        }

        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let tt_move = hit.map_or(PackedMove::default(), |h| h.mv);
        let tt_score = hit.map_or(-INFINITE, |h| from_tt(h.score, ply));
        if let Some(h) = hit
            && excluded.is_none()
            && !pv_node
            && h.depth >= depth
            && let Some(s) = cutoff(h.bound, from_tt(h.score, ply), alpha, beta)
        {
            return s;
        }

        if !root
            && excluded.is_none()
            && let Some(wdl) = self.probe_tb(depth)
        {
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
        let raw_eval = if in_check {
            NO_EVAL
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.evaluate()
        };
        let static_eval = if features.correction && !in_check {
            let fp = &self.params.feature_params;
            (raw_eval + self.tables.hist.correction(self.pos.chess(), fp))
                .clamp(-MAX_EVAL, MAX_EVAL)
        } else {
            raw_eval
        };
        self.evals[ply] = static_eval;
        // Trial switch `tteval`: a table score whose bound puts the position on the far side
        // of its static evaluation stands in for it when pruning (Ethereal's search: the
        // table's value replaces the evaluation when its bound allows; Stockfish adjusts its
        // `eval` the same way). The improving flag and the correction keep the static one.
        let eval = match hit {
            Some(h)
                if features.tt_eval
                    && !in_check
                    && !is_decisive(tt_score)
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => tt_score > static_eval,
                        Bound::Upper => tt_score < static_eval,
                    } =>
            {
                tt_score
            }
            _ => static_eval,
        };
        let improving = if !features.improving {
            None
        } else if in_check {
            Some(false)
        } else {
            self.improving(ply, static_eval)
        };
        // Not improving tightens late-move pruning and reductions (trial refinement).
        let tighten = improving == Some(false) && !mate_window;

        let mut multi_cut_first = None;
        if !pv_node && !in_check && !is_decisive(beta) && excluded.is_none() {
            // Reverse futility pruning (a ply's margin less when improving, on trial).
            let rfp_depth = depth - i32::from(improving == Some(true));
            if depth <= self.params.rfp_max_depth
                && eval - self.params.rfp_margin * rfp_depth >= beta
            {
                return eval;
            }
            // Null move with adaptive R (Heinz; Winands 2004 §2.6) and a zugzwang guard.
            if self.params.null_move
                && depth >= 2
                && eval >= beta
                && self.pos.last_move().is_some()
                && self.has_non_pawn_material()
                && !(features.null_tt_guard
                    && hit.is_some_and(|h| h.bound == Bound::Upper && tt_score < beta))
            {
                let r = if features.null_depth_r {
                    self.deep_null_reduction(depth, eval - beta)
                } else {
                    self.null_reduction(depth)
                        + (eval - beta >= self.params.null_eval_margin) as i32
                };
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
            if features.probcut && !mate_window {
                if let Some(s) = self.probcut(beta, depth, static_eval, raw_eval, hit, cut) {
                    return s;
                }
                if self.aborted {
                    return DRAW;
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
        let depth = if depth >= self.params.iir_min_depth && tt_move.0 == 0 && (pv_node || cut) {
            depth - 1
        } else {
            depth
        };

        // A move that reached β in a failed multi-cut is searched first (Winands 2004 §6.4).
        let tt_move = match multi_cut_first {
            Some(m) if tt_move.0 == 0 => PackedMove::new(m),
            _ => tt_move,
        };
        let recent = Recent::of(&self.pos);
        let prev = recent.prev;
        // Staged picking (trial switch `staged`): a legal table move is searched before the
        // other moves are generated, which a cut-off by it spares.
        let mut first = if features.staged && excluded.is_none() {
            tt_move.legal_in(self.pos.chess())
        } else {
            None
        };
        // Filled where it stays (a picker is a few kilobytes: moving one costs a copy).
        let mut picker: Option<Picker> = None;
        if first.is_none() {
            let p = picker.insert(Picker::empty());
            p.fill(self.pos.chess(), tt_move, &self.tables, ply, &recent);
            if p.is_empty() {
                return if in_check {
                    mated_in(ply)
                } else {
                    self.draw_score()
                };
            }
        }
        let turn = self.pos.turn();
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut n_quiets = 0usize;
        let mut captures: [Option<Move>; 32] = [None; 32];
        let mut n_captures = 0usize;
        let lmp_count = |d: i32| {
            let n = self.params.lmp_base + d * d;
            if tighten { n / 2 } else { n }
        };
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
            let next = match first.take() {
                Some(m) => Some((m, TT_SCORE)),
                None => {
                    if picker.is_none() {
                        let p = picker.insert(Picker::empty());
                        p.fill(self.pos.chess(), tt_move, &self.tables, ply, &recent);
                        p.skip_table_move(tt_move);
                    }
                    picker.as_mut().and_then(Picker::pick)
                }
            };
            let (m, order, late) = if let Some((m, order)) = next {
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
            if excluded == Some(m) {
                continue;
            }
            if root
                && (self.root_exclude.contains(&m)
                    || (!self.root_only.is_empty() && !self.root_only.contains(&m)))
            {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            // Shallow-depth pruning candidates; checking moves are never pruned, nor moves in
            // check, but with the trial switch `prunecheck` late-move pruning also runs in
            // check (Ethereal's quiet-move pruning does; futility needs the static
            // evaluation, which a node in check does not have).
            let mut prune = false;
            if !root && best > -TB_WIN_BOUND && (!in_check || (features.prune_checks && quiet)) {
                if quiet {
                    let late_move = !pv_node
                        && depth <= self.params.lmp_max_depth
                        && n_quiets as i32 >= lmp_count(depth);
                    prune = late_move
                        || (!in_check
                            && ((depth <= self.params.futility_max_depth
                                && !is_decisive(alpha)
                                && eval
                                    + self.params.futility_base
                                    + self.params.futility_per_ply * depth
                                    <= alpha
                                && !killers.contains(&Some(m)))
                                || (features.see_quiets && self.quiet_loses_material(m, depth))
                                || (features.history_pruning
                                    && !pv_node
                                    && self.quiet_history_is_bad(&recent, m, depth))));
                } else if depth <= self.params.see_capture_max_depth
                    && Picker::is_bad_capture(order)
                    && !see_ge(self.pos.chess(), m, -self.params.see_capture_margin * depth)
                {
                    continue;
                }
            }
            let mut extension = 0;
            if count == 0 && self.singular_applies(hit, tt_score, depth) && tt_move.matches(m) {
                match self.singular(m, tt_score, beta, depth, cut, pv_node) {
                    _ if self.aborted => return DRAW,
                    Singular::Cut(s) => return s,
                    Singular::Extend(e) => extension = e,
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
            let nodes_before = self.nodes;
            self.tt.prefetch(self.pos.key());
            if root
                && let (Some(r), Some(c)) = (self.reporter, self.clock.as_ref())
                && c.elapsed() > std::time::Duration::from_secs(3)
            {
                r.currmove(depth as u32, m, count);
            }
            // Trial switch `histext`: an early quiet move with high continuation histories
            // is extended like a check (Ethereal's extensions).
            let hist_ext = features.history_ext
                && quiet
                && n_quiets < self.params.feature_params.history_ext_quiets
                && self.tables.hist.cont_both_at_least(
                    &recent,
                    m,
                    self.params.feature_params.history_ext_min,
                );
            let check_ext = i32::from(
                (gives_check || hist_ext)
                    && (ply as i32) < self.params.extension_plies * self.root_depth,
            );
            let ext = if extension < 0 {
                extension + check_ext
            } else {
                extension.max(check_ext)
            };
            let new_depth = depth - 1 + ext;
            if features.double_ext {
                self.pass_double_exts(ply, extension == 2);
            }
            let mut s;
            if count == 1 {
                s = -self.search(-beta, -alpha, new_depth, !pv_node && !cut);
            } else {
                let mut r = 0;
                // Switch `lmrcheck` (kept by its SPRT, on by default): quiet moves in check
                // and quiet checks are reduced too (Ethereal's quiet late-move reductions
                // exclude neither), a king move out of check one ply more.
                if depth >= self.params.lmr_min_depth
                    && quiet
                    && (features.lmr_checks || (!in_check && !gives_check))
                {
                    r = i32::from(self.lmr[depth.min(63) as usize][count.min(63)]);
                    if in_check && m.role() == Role::King {
                        r += self.params.feature_params.lmr_king_evasion;
                    }
                    r -= i32::from(pv_node);
                    r += i32::from(cut);
                    r += i32::from(tighten);
                    if killers.contains(&Some(m)) {
                        r -= 1;
                    }
                    if features.history_lmr {
                        let h = self.tables.hist.cont_score(&recent, m);
                        r -= h / self.params.feature_params.history_lmr_divisor.max(1);
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
                let spent = self.nodes - nodes_before;
                match self.root_effort.iter_mut().find(|(r, _)| *r == m) {
                    Some((_, n)) => *n += spent,
                    None => self.root_effort.push((m, spent)),
                }
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
                        self.tables.record_histories(
                            self.params,
                            turn,
                            &recent,
                            m,
                            depth,
                            Tried {
                                quiets: &quiets[..n_quiets],
                                captures: &captures[..n_captures],
                            },
                        );
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = Some(m);
                n_quiets += 1;
            } else if m.is_capture() && n_captures < captures.len() {
                captures[n_captures] = Some(m);
                n_captures += 1;
            }
        }
        if count == 0 {
            // Every move was excluded (root, singular search) or pruned: fall back on the
            // static view.
            return if root || excluded.is_some() {
                alpha
            } else {
                static_eval.max(alpha)
            };
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
        if excluded.is_some() {
            return best;
        }
        if features.correction
            && !in_check
            && best_move.is_none_or(|m| !m.is_capture() && !m.is_promotion())
            && !is_decisive(best)
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            let fp = &self.params.feature_params;
            let chess = self.pos.chess();
            self.tables
                .hist
                .update_correction(chess, best - raw_eval, depth, fp);
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    /// SEE pruning of a quiet move (trial switch `seequiet`): near the leaves, a quiet move
    /// that puts a piece where the exchange loses more than `see_quiet_margin` centipawns a
    /// ply of remaining depth is not worth a search. The idea, as Ethereal's search applies
    /// it to quiet moves with a margin linear in depth; the caller spares checking moves.
    fn quiet_loses_material(&self, m: Move, depth: i32) -> bool {
        let fp = &self.params.feature_params;
        depth <= fp.see_quiet_max_depth
            && !see_ge(self.pos.chess(), m, -fp.see_quiet_margin * depth)
    }

    /// History pruning (trial switch `histprune`): near the leaves, a quiet move whose
    /// continuation history says it has kept failing after the same two moves is not searched,
    /// as Stockfish's search prunes quiet moves by their history; the caller spares checks.
    fn quiet_history_is_bad(&self, recent: &Recent, m: Move, depth: i32) -> bool {
        let fp = &self.params.feature_params;
        depth <= fp.history_prune_max_depth
            && self.tables.hist.cont_score(recent, m) < -fp.history_prune_margin * depth
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
