//! α-β probes for the opponent-model driver: the engine's own PVS run at a MIN node with an
//! opponent type's evaluator, returning the predicted move — and, for the enhanced
//! algorithms, *all* equally good moves (Donkers 2003 Alg. 3.5 line 10: "instead of
//! returning one best choice, it should return a list of all best choices").
//!
//! The probe temporarily makes the current node the worker's root (so mate distances and
//! the principal variation are counted from it) and restores the driver's root afterwards.
//! Equal-best moves are found by null-window re-searches of the other root moves at the
//! probe value: a move whose value is not below the best is a tie.
//!
//! The driver's side (`Driver::probe_type`) converts the MAX-view window into the
//! opponent's, remembers each probe for the rest of the search, and hands replay types
//! (the opponent's own search, repeated) and engine types to their own paths.

use std::sync::atomic::Ordering;

use shakmaty::Move;

use super::{Driver, ProbeMemo};
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{INFINITE, Score, from_tt, to_tt};
use crate::search::alphabeta::Worker;
use crate::search::window::{Aspiration, Widening};
use crate::search::{SearchConfig, SearchContext, SearchControl};
use crate::tt::Bound;

/// What a probe found, in the probed side's view and relative to the probed node.
#[derive(Clone, Debug)]
pub struct ProbeResult {
    /// The probe value (side to move at the probed node).
    pub value: Score,
    /// The predicted move first, then any moves the probe values equally.
    pub moves: Vec<Move>,
}

impl<E: Evaluator + ?Sized> Worker<'_, E> {
    /// Probes the current position to `depth` with window (`alpha`, `beta`) in the side to
    /// move's view. With `ties`, also returns every move that is exactly as good. `None` if
    /// the search was stopped.
    pub fn probe(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ties: bool,
    ) -> Option<ProbeResult> {
        let saved_root = self.pos.root_index();
        let saved_depth = self.root_depth;
        self.pos.set_root();
        let result = self.probe_at_root(alpha, beta, depth, ties);
        self.pos.set_root_index(saved_root);
        self.root_depth = saved_depth;
        result
    }

    fn probe_at_root(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ties: bool,
    ) -> Option<ProbeResult> {
        let legal = self.pos.legal_moves();
        if legal.is_empty() {
            return Some(ProbeResult {
                value: 0,
                moves: Vec::new(),
            });
        }
        // Iterative deepening inside the probe: cheap with the type's table, it orders the
        // last iteration, and it is how a node-budget opponent searches.
        let mut value = 0;
        let mut best = None;
        let mut completed = 0;
        let last = depth.max(1);
        // Iterations the table already covers (with a move to start from) are skipped.
        let hit = self.tt.probe(self.pos.key());
        let first = match hit {
            Some(h) if h.mv.0 != 0 => h.depth.clamp(1, last),
            _ => 1,
        };
        let tt_guess = hit.filter(|h| h.bound == Bound::Exact).map(|h| h.score);
        for d in first..=last {
            self.root_depth = d;
            // The window of the α-β probe is (alpha, beta); inside it the search starts
            // with an aspiration window around the previous iteration's value (or the
            // table's) and widens on failure until the value is exact within (alpha, beta).
            // Earlier iterations only order moves: with the open window, except under a
            // finite upper bound (bounded-sum pruning), where a bound is all that is asked.
            let (lo, hi) = if d == last || beta < INFINITE {
                (alpha, beta)
            } else {
                (-INFINITE, INFINITE)
            };
            let guess = if d > first { Some(value) } else { tt_guess };
            let mut v = self.aspirated(d, guess.filter(|_| d >= 4), lo, hi);
            if !self.aborted && v <= lo && lo > -INFINITE && hi >= INFINITE {
                // A fail low below a β-passing bound (search instability): the best move is
                // unknown, so search again with an open window. (A probe with a finite
                // upper bound, for bounded-sum pruning, reports the bound instead.)
                self.root_scores.clear();
                v = self.search(-INFINITE, INFINITE, d, false);
            }
            if self.aborted {
                if self.stop.load(Ordering::Relaxed) || self.nodes < self.local_limit {
                    return None;
                }
                // The type's node budget is spent: its last completed iteration decides,
                // or a move that beat the previous one in this iteration.
                self.aborted = false;
                if self.root_pv_changed {
                    best = self.root_pv().first().copied();
                }
                break;
            }
            value = v;
            completed = d;
            best = self.root_pv().first().copied().or(best);
        }
        let best = best.unwrap_or(legal[0]);
        let mut moves = vec![best];
        // Ties only mean something for an exact value.
        if ties && completed > 0 && value < beta && (value > alpha || beta >= INFINITE) {
            // Only moves whose fail-soft score in the last iteration could equal the best
            // need a closer look; a returned upper bound below `value` proves a worse move.
            let candidates: Vec<Move> = self
                .root_scores
                .iter()
                .filter(|&&(m, s)| m != best && s >= value && legal.contains(&m))
                .map(|&(m, _)| m)
                .collect();
            let searched_all = self.root_scores.len() == legal.len();
            let candidates: Vec<Move> = if searched_all {
                candidates
            } else {
                legal.iter().copied().filter(|&m| m != best).collect()
            };
            let saved_limit = std::mem::replace(&mut self.local_limit, u64::MAX);
            for m in candidates {
                self.pos.play(m);
                // Not below `value` for us ⟺ the reply's value is at most `-value`: a null
                // window (-value, -value + 1) that fails low.
                let s = -self.search(-value, -value + 1, completed - 1, false);
                self.pos.undo();
                if self.aborted {
                    self.local_limit = saved_limit;
                    return None;
                }
                if s >= value {
                    moves.push(m);
                }
            }
            self.local_limit = saved_limit;
        }
        Some(ProbeResult { value, moves })
    }

    /// A root search to `depth` whose value is exact within (`lo`, `hi`): it starts with an
    /// aspiration window around `guess` (if any and not a mate score) and widens it on
    /// failure, to (`lo`, `hi`) at last. Returns early if the search is aborted.
    pub(super) fn aspirated(
        &mut self,
        depth: i32,
        guess: Option<Score>,
        lo: Score,
        hi: Score,
    ) -> Score {
        let mut window = Aspiration::new(self.params, guess, lo, hi, Widening::Probe);
        loop {
            self.root_pv_changed = false;
            // A search that returns before its move loop (a table or null-move cut-off
            // under a narrow window) leaves no root scores: never read stale ones.
            self.root_scores.clear();
            let (a, b) = window.window();
            let v = self.search(a, b, depth, false);
            if self.aborted {
                return v;
            }
            match window.outcome(v) {
                Some(fail) => window.widen(v, fail),
                None => return v,
            }
        }
    }
}

impl<'a, E: Evaluator + ?Sized> Driver<'a, E> {
    /// Probes opponent type `t` at the current node with the MAX-view, root-frame window
    /// (`alpha`, `beta`): [−∞, β] for β-passing, (α − B, β + B) for bounded-sum pruning.
    /// Returns the probe value in MAX's view and root frame (a bound if it falls outside
    /// the window), and the predicted moves.
    pub(super) fn probe_type(
        &mut self,
        t: usize,
        alpha: Score,
        beta: Score,
        remaining: i32,
    ) -> Option<(Score, Vec<Move>)> {
        let ply = self.pos.ply();
        let spec = &self.specs[t];
        let depth = match spec.depth {
            Some(n) => (n as i32 - (ply as i32 - 1)).max(1),
            None => remaining.max(1),
        };
        let depth = if spec.nodes.is_some() { 64 } else { depth };
        let node_budget = spec.nodes;
        // The opponent maximises -v (MAX view); the bound v < β becomes -v > -β.
        let alpha_opp = if beta >= INFINITE {
            -INFINITE
        } else {
            (-to_tt(beta, ply)).max(-INFINITE)
        };
        let beta_opp = if alpha <= -INFINITE {
            INFINITE
        } else {
            (-to_tt(alpha, ply)).min(INFINITE)
        };
        if spec.engine.is_some() {
            self.probes_run += 1;
            let _in_flight = self.thread_use.map(|u| u.probes.enter());
            return self.engine_probe(t);
        }
        if spec.replay {
            return self.replay_type(t, depth);
        }
        let ties = self.settings.ties;
        // A probe is the opponent's decision at this position with this depth and window;
        // iterative deepening asks again for the same one whenever the type's depth is
        // fixed (`depth=N`, nodes), so it is remembered for the rest of the search.
        let cache_key = (t, self.pos.key(), depth, alpha_opp, beta_opp);
        let known = match self.shared_probes {
            Some(shared) => shared.0.lock().get(&cache_key).cloned(),
            None => self.probes.get(&cache_key).cloned(),
        };
        if let Some(memo) = known {
            self.probe_line = memo.line;
            return Some((from_tt(-memo.value, ply), memo.moves));
        }
        self.probes_run += 1;
        let _in_flight = self.thread_use.map(|u| u.probes.enter());
        let w = &mut self.opps[t];
        std::mem::swap(&mut self.pos, &mut w.pos);
        w.clock = self.clock.take();
        if let Some(n) = node_budget {
            w.local_limit = w.nodes.saturating_add(n);
        }
        let r = w.probe(alpha_opp, beta_opp, depth, ties);
        w.local_limit = u64::MAX;
        self.clock = w.clock.take();
        std::mem::swap(&mut self.pos, &mut w.pos);
        if w.aborted {
            self.aborted = true;
            return None;
        }
        let r = r?;
        self.probe_line = self.opps[t].root_pv();
        let memo = ProbeMemo {
            value: r.value,
            moves: r.moves.clone(),
            line: self.probe_line.clone(),
        };
        match self.shared_probes {
            Some(shared) => {
                shared.0.lock().insert(cache_key, memo);
            }
            None => {
                self.probes.insert(cache_key, memo);
            }
        }
        Some((from_tt(-r.value, ply), r.moves))
    }

    /// A replay probe (see [`super::ProbeSpec::replay`]): the opponent's own search, repeated.
    fn replay_type(&mut self, t: usize, depth: i32) -> Option<(Score, Vec<Move>)> {
        let ply = self.pos.ply();
        let cache_key = (t, self.pos.key(), depth);
        if let Some(&(v, m)) = self.replays.get(&cache_key) {
            return Some((from_tt(-v, ply), vec![m]));
        }
        self.probes_run += 1;
        let _in_flight = self.thread_use.map(|u| u.probes.enter());
        let spec = &self.specs[t];
        let spec_nodes = spec.nodes;
        // The replay must fit in what is left of our own budget: a replay cut short is not
        // the opponent's search, so the probe aborts and the root falls back on α-β's
        // deepest pass ([`super::root::run`]).
        let share = self.own.params.om_replay_share_pct.clamp(1, 100);
        let left = self
            .clock
            .as_ref()
            .and_then(|c| c.nodes_left())
            .map(|l| l.saturating_mul(share) / 100);
        let now = std::time::Instant::now();
        let deadline = self
            .clock
            .as_ref()
            .and_then(|c| c.hard_deadline())
            .map(|d| {
                now + d
                    .saturating_duration_since(now)
                    .mul_f64(share as f64 / 100.0)
            });
        let mut limits = match spec.nodes {
            Some(n) if left.is_some_and(|l| l < n) => {
                self.aborted = true;
                return None;
            }
            Some(n) => Limits::nodes(n),
            None => Limits {
                nodes: left,
                ..Limits::depth(depth.max(1) as u32)
            },
        };
        if let Some(d) = deadline {
            limits.movetime = Some(d.saturating_duration_since(now));
        }
        let w = &self.opps[t];
        w.tt.clear_fast();
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext {
            eval: w.eval,
            tt: w.tt,
            control: &control,
            tb: w.tb,
            config: &config,
            reporter: &crate::report::Silent,
            root_tb_score: None,
            pool: None,
        };
        let mut pos = self.pos.clone();
        pos.set_root();
        let allowed = crate::search::root_moves(&pos, &limits);
        let r = crate::search::search(&ctx, &pos, &limits, &allowed);
        // The replayed search is work of this type's probes: count it (node limits, reports).
        let w = &mut self.opps[t];
        w.nodes += r.nodes;
        if let Some(c) = w.node_counter {
            c.store(w.nodes, std::sync::atomic::Ordering::Relaxed);
        }
        // Cut short by our budget: a depth type that ran into the node cap, or the clock.
        // (A search that ends early by itself — a mate found — is the opponent's own.)
        let capped = spec_nodes.is_none() && left.is_some_and(|cap| r.nodes >= cap);
        // The replay's own clock stops it up to its move overhead before the deadline.
        let margin = config.move_overhead + std::time::Duration::from_millis(5);
        let cut = capped || deadline.is_some_and(|d| std::time::Instant::now() + margin >= d);
        if cut || self.own.stop.load(std::sync::atomic::Ordering::Relaxed) {
            self.aborted = true;
            return None;
        }
        let best = r.best?;
        self.replays.insert(cache_key, (r.score, best));
        Some((from_tt(-r.score, ply), vec![best]))
    }

    /// Our own α-β search's reply to root move `m`: the second move of its principal
    /// variation when `m` is α-β's best, else the move our table keeps for the position
    /// after `m` (α-β's root pass searched it); `None` if the table has lost it.
    pub fn own_reply_to(&self, m: Move) -> Option<Move> {
        let pv = self.own.root_pv();
        if pv.first() == Some(&m) {
            return pv.get(1).copied();
        }
        let mut pos = self.position().clone();
        pos.play(m);
        self.own_table_move_at(&pos)
    }

    /// Each opponent type's predicted reply to root move `m`, as its deepest remembered probe
    /// of the position after `m` says (any participant's); `None` for a type without one
    /// (an engine type, whose answers its engine keeps, or a type not probed there).
    pub fn predictions_after(&self, m: Move) -> Vec<Option<Move>> {
        let mut pos = self.position().clone();
        pos.play(m);
        let key = pos.key();
        let mut best: Vec<Option<(i32, Move)>> = vec![None; self.specs.len()];
        let mut note = |t: usize, depth: i32, mv: Option<Move>| {
            if let (Some(slot), Some(mv)) = (best.get_mut(t), mv)
                && slot.is_none_or(|(d, _)| depth > d)
            {
                *slot = Some((depth, mv));
            }
        };
        if let Some(shared) = self.shared_probes {
            for (&(t, k, depth, _, _), memo) in shared.0.lock().iter() {
                if k == key {
                    note(t, depth, memo.moves.first().copied());
                }
            }
        }
        for d in std::iter::once(self).chain(self.helpers.iter()) {
            for (&(t, k, depth, _, _), memo) in &d.probes {
                if k == key {
                    note(t, depth, memo.moves.first().copied());
                }
            }
            for (&(t, k, depth), &(_, mv)) in &d.replays {
                if k == key {
                    note(t, depth, Some(mv));
                }
            }
        }
        best.into_iter().map(|b| b.map(|(_, mv)| mv)).collect()
    }
}
