//! Quiescence search of the α-β probe (Winands 2004 §2.6; Donkers 2003 §3.4 keeps it in the
//! probes): stand pat, then captures and queen promotions (every evasion in check), with
//! delta pruning and SEE pruning, results stored in the transposition table at depth 0.
//! With the trial switches `corrhist` and `corrqs` the stand-pat score is the static
//! evaluation corrected by the correction history ([`super::history`]), as the main search's
//! is with `corrhist` alone.

use shakmaty::Position as _;

use super::alphabeta::{Worker, cutoff};
use super::ordering::Picker;
use super::see::{SEE_VALUE, see_ge};
use crate::eval::Evaluator;
use crate::score::{DRAW, INFINITE, MAX_EVAL, MAX_PLY, Score, from_tt, mated_in, to_tt};
use crate::tt::Bound;

impl<E: Evaluator + ?Sized> Worker<'_, E> {
    /// Quiescence search: stand pat, then captures and promotions (all evasions in check),
    /// with delta and SEE pruning.
    pub fn qsearch(&mut self, mut alpha: Score, beta: Score) -> Score {
        let ply = self.pos.ply();
        self.pv_len[ply] = ply;
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
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        // The fifty-move rule too: a capture sequence that starts at the hundredth half-move
        // is not played (fastchess: "PV continues after fifty-move rule").
        if self.pos.is_insufficient_material()
            || (self.pos.halfmoves() >= 4 && self.pos.is_repetition())
            || self.pos.is_fifty_move_draw()
        {
            return self.draw_score();
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        if let Some(h) = hit
            && !pv_node
            && let Some(s) = cutoff(h.bound, from_tt(h.score, ply), alpha, beta)
        {
            return s;
        }
        let in_check = self.pos.chess().is_check();
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            stand_pat = -INFINITE;
        } else {
            raw_eval = match hit {
                Some(h) => h.eval,
                None => self.evaluate(),
            };
            let f = &self.params.features;
            stand_pat = if f.correction && f.correction_qsearch {
                let fp = &self.params.feature_params;
                (raw_eval + self.tables.hist.correction(self.pos.chess(), fp))
                    .clamp(-MAX_EVAL, MAX_EVAL)
            } else {
                raw_eval
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let mut picker = Picker::empty();
        picker.fill_captures(self.pos.chess(), in_check);
        if in_check && picker.is_empty() {
            return mated_in(ply);
        }
        let mut best = stand_pat;
        let mut best_move = None;
        while let Some((m, _)) = picker.pick() {
            if !in_check {
                if m.is_capture() && m.promotion().is_none() {
                    let victim = m.capture().map_or(SEE_VALUE[1], |r| SEE_VALUE[r as usize]);
                    if stand_pat + victim + self.params.delta_margin < alpha {
                        continue;
                    }
                }
                if !see_ge(self.pos.chess(), m, 0) {
                    continue;
                }
            }
            self.pos.play(m);
            let s = -self.qsearch(-beta, -alpha);
            self.pos.undo();
            if self.aborted {
                return DRAW;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && best == -INFINITE {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        // The table keeps the evaluation itself, never a corrected one.
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, 0, bound);
        best
    }
}
