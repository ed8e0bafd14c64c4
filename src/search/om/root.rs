//! The OM driver's root: one iteration over the root moves (Donkers 2003 Alg. 3.8 at the
//! root, MAX's choice among its moves), the root risk control of §5.4.1 (`margin`), and
//! iterative deepening over the whole driver (§3.4.4) with `stop` and the clock respected.
//!
//! Each iteration first runs our own α-β search to the same depth (with the plain search's
//! aspiration window around the previous iteration's value): its value is reported
//! beside the OM value (the prediction surplus), it fills our table, and its best move is
//! tried first, because a root move's OM value is at least its α-β value. Late quiet moves
//! get the α-β root's late-move reduction, verified at full depth if they beat the best
//! value so far: under bounded-sum pruning (which gives MAX a β, and the root becomes a
//! principal-variation search) for the whole subtree, under β-pruning only for our own
//! search below a predicted reply that is α-β's own refutation of the move. With helpers in
//! fast mode the root moves run beside the α-β pass where nothing at the root needs its
//! result first ([`super::overlap`]).

use shakmaty::{Move, Position as _};

use super::hedge::{Hedge, RootAb};
use super::{Driver, MAX_TYPES, OmMode};
use crate::eval::Evaluator;
use crate::report::{OmReport, Reporter};
use crate::score::{INFINITE, Score};
use crate::search::SearchResult;

/// The result of one driver iteration, for reporting.
#[derive(Clone, Debug, Default)]
pub struct OmIteration {
    /// OM (or PrOM) value of the best root move, MAX's view.
    pub value: Score,
    /// Plain α-β value of the root at the same depth.
    pub ab_value: Score,
    /// The speculated line: our move, the predicted reply, ...
    pub pv: Vec<Move>,
    /// With MultiPV: the best root moves by OM value, best first (empty without MultiPV).
    pub lines: Vec<OmLine>,
}

/// One MultiPV line of an OM iteration.
#[derive(Clone, Debug, Default)]
pub struct OmLine {
    /// The move's OM (PrOM) value.
    pub value: Score,
    /// The move's own α-β value at the same depth.
    pub ab_value: Score,
    /// The move, the predicted reply, ...
    pub pv: Vec<Move>,
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// One iteration at the root over `root_moves` (in order) to `depth`. Returns the best
    /// move's value and the speculated line; the moves are reordered best first.
    pub fn iterate(&mut self, root_moves: &mut Vec<Move>, depth: i32) -> Option<OmIteration> {
        // Our own α-β search, with an aspiration window around the previous iteration's
        // value as the plain search has (the driver itself has none, §5.4.1).
        let guess = self
            .last_ab
            .filter(|_| depth >= self.own.params.aspiration_min_depth);
        let started = std::time::Instant::now();
        let in_check = self.position().chess().is_check();
        if self.overlap_ready(depth) {
            // With helpers, the root moves beside our α-β pass ([`super::overlap`]).
            let pass = RootPass {
                depth,
                hedge: None,
                ab_value: -INFINITE,
                ab_best: None,
                ab_reply: None,
                in_check,
                pass: Vec::new(),
            };
            // α-β's best of the previous iteration first, as the plain root puts this
            // iteration's (it is rarely another).
            let mut candidates = root_moves.clone();
            self.ab_best_first(&mut candidates);
            let (ab_value, results) = self.overlapped(&candidates, guess, &pass)?;
            self.last_ab = Some(ab_value);
            let ab_best = self.own.root_pv().first().copied();
            return self.conclude(root_moves, &candidates, &results, ab_value, ab_best, depth);
        }
        let ab_value = self.ab_pass(root_moves, depth, guess)?;
        self.last_ab = Some(ab_value);
        self.ab_reached = Some((depth as u32, ab_value, self.own.root_pv()));
        let hedge = self.settings.hedged();
        let passed = std::time::Instant::now();
        if hedge.is_some() {
            self.hedge_use.pass += passed - started;
        }
        if !self.has_model() || hedge.is_some_and(|h| h.weight >= 1.0) {
            // Every opponent type failed in this search: α-β is all that is left.
            return Some(OmIteration {
                value: ab_value,
                ab_value,
                pv: self.own.root_pv(),
                lines: Vec::new(),
            });
        }
        let mut candidates = match self.settings.root_margin {
            Some(margin) => self.within_margin(root_moves, depth, ab_value - margin)?,
            None => root_moves.clone(),
        };
        if self.engine_valued_type().is_some() {
            // Valued by the engine's scores, a move can gain at most the cap on the
            // opponent's loss: only α-β's best and the closest others by α-β's root pass
            // are worth an engine call (as the hedged root does below).
            candidates = super::hedge::best_by_pass(
                &candidates,
                self.own.root_pv().first().copied(),
                &self.own.root_scores,
                super::policy::ENGINE_VALUED_BREADTH,
                Some(ab_value.saturating_sub(super::policy::GIFT_CAP_CP)),
            );
        }
        if let Some(h) = hedge {
            let ab_best = self.own.root_pv().first().copied();
            // A move α-β's root pass already bounds below the margin is never chosen; if
            // that leaves α-β's best alone, the move is α-β's whatever the fitted type
            // predicts below it: no probe, no engine call, no OM search (with MultiPV the
            // other lines still need their values).
            let floor = (self.multipv <= 1).then(|| ab_value.saturating_sub(h.margin));
            candidates = h.candidates(&candidates, ab_best, &self.own.root_scores, floor);
            self.hedge_use.iterations += 1;
            if floor.is_some() && candidates.len() <= 1 {
                self.hedge_use.settled += 1;
                return Some(OmIteration {
                    value: ab_value,
                    ab_value,
                    pv: self.own.root_pv(),
                    lines: Vec::new(),
                });
            }
        }
        // α-β's best move first: its OM value is at least its α-β value (the opponent's
        // choice is one of the replies α-β minimised over), so the bound α for the other
        // moves starts high.
        self.ab_best_first(&mut candidates);
        let pass = RootPass {
            depth,
            hedge,
            ab_value,
            ab_best: self.own.root_pv().first().copied(),
            ab_reply: self.own.root_pv().get(1).copied(),
            in_check,
            pass: if hedge.is_some() {
                self.own.root_scores.clone()
            } else {
                Vec::new()
            },
        };
        let results = if self.helpers.is_empty() {
            let mut out: Vec<RootMoveValue> = Vec::with_capacity(candidates.len());
            let mut exact_values = Vec::new();
            for (i, &m) in candidates.iter().enumerate() {
                let alpha = kth_best(&exact_values, self.multipv);
                let (value, line) = self.root_move(m, i, alpha, &pass)?;
                let exact = value > alpha;
                if exact {
                    exact_values.push(value);
                }
                out.push(RootMoveValue {
                    index: i,
                    value,
                    exact,
                    line,
                });
            }
            out
        } else {
            self.parallel_root(&candidates, &pass)?
        };
        if hedge.is_some() {
            self.hedge_use.root += passed.elapsed();
        }
        self.conclude(
            root_moves,
            &candidates,
            &results,
            ab_value,
            pass.ab_best,
            depth,
        )
    }

    /// Plain α-β passes from `from` to `max_depth` after the OM root gave up on the budget
    /// (graceful degradation): until the clock, the node limit or `stop` ends them. Returns
    /// the deepest completed pass (depth, value, line), if any.
    pub(super) fn ab_continue(
        &mut self,
        root_moves: &[Move],
        from: u32,
        max_depth: u32,
    ) -> Option<(u32, Score, Vec<Move>)> {
        self.aborted = false;
        let mut best = None;
        for depth in from..=max_depth.max(1) {
            let stopped = self.own.stop.load(std::sync::atomic::Ordering::Relaxed);
            if stopped
                || self
                    .clock
                    .as_mut()
                    .is_none_or(|c| c.expired() || c.soft_expired())
            {
                break;
            }
            let guess = self
                .last_ab
                .filter(|_| depth as i32 >= self.own.params.aspiration_min_depth);
            let Some(v) = self.ab_pass(root_moves, depth as i32, guess) else {
                break;
            };
            self.last_ab = Some(v);
            best = Some((depth, v, self.own.root_pv()));
            if crate::search::mate_searched_out(v, depth as i32) {
                break;
            }
        }
        best
    }

    /// Moves the best move of our last α-β pass to the front of `moves`, the others keeping
    /// their order (nothing if it is not among them).
    fn ab_best_first(&self, moves: &mut [Move]) {
        if let Some(&ab_best) = self.own.root_pv().first()
            && let Some(i) = moves.iter().position(|&m| m == ab_best)
        {
            moves[..=i].rotate_right(1);
        }
    }

    /// The iteration's result from the values of `candidates` (`results`, in their order)
    /// beside α-β's root value and best move; `root_moves` reordered best first (moves that
    /// were not candidates last).
    pub(super) fn conclude(
        &mut self,
        root_moves: &mut Vec<Move>,
        candidates: &[Move],
        results: &[RootMoveValue],
        ab_value: Score,
        ab_best: Option<Move>,
        depth: i32,
    ) -> Option<OmIteration> {
        // The first of the moves with the highest exact value (a move that failed low has
        // only an upper bound at most the α it was searched with); with MultiPV the best
        // `multipv` of them.
        let mut ranked: Vec<&RootMoveValue> = results.iter().filter(|r| r.exact).collect();
        ranked.sort_by_key(|r| (std::cmp::Reverse(r.value), r.index));
        ranked.truncate(self.multipv.max(1));
        let best = ranked.first().map_or(-INFINITE, |r| r.value);
        let best_pv = ranked.first().map_or_else(Vec::new, |r| r.line.clone());
        let mut lines = Vec::with_capacity(ranked.len());
        if ranked.len() > 1 {
            for r in &ranked {
                let m = r.line[0];
                let ab = if Some(m) == ab_best {
                    ab_value
                } else {
                    self.play_move(m);
                    let v = self.with_own(|w| -w.search(-INFINITE, INFINITE, depth - 1, false));
                    self.undo_move();
                    v?
                };
                lines.push(OmLine {
                    value: r.value,
                    ab_value: ab,
                    pv: r.line.clone(),
                });
            }
        }
        let mut scored: Vec<(Score, Move)> = results
            .iter()
            .map(|r| (r.value, candidates[r.index]))
            .collect();
        // Stable sort: equal values keep the previous order (first found wins ties); moves
        // outside the margin go last.
        scored.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        let mut order: Vec<Move> = scored.iter().map(|&(_, m)| m).collect();
        order.extend(root_moves.iter().filter(|m| !candidates.contains(m)));
        *root_moves = order;
        Some(OmIteration {
            value: best,
            ab_value,
            pv: best_pv,
            lines,
        })
    }
}

/// The bound α a root move must beat to be among the best `k`: the `k`-th best of the exact
/// values so far, −∞ while there are fewer.
pub(super) fn kth_best(exact: &[Score], k: usize) -> Score {
    let k = k.max(1);
    if exact.len() < k {
        return -INFINITE;
    }
    if k == 1 {
        return exact.iter().copied().max().unwrap_or(-INFINITE);
    }
    let mut v = exact.to_vec();
    v.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
    v[k - 1]
}

/// What every root move's search in one iteration shares: α-β's pass of the iteration.
pub(super) struct RootPass {
    /// The iteration's depth.
    pub depth: i32,
    /// The hedged root of `OM_Mode=auto`, if any.
    pub hedge: Option<Hedge>,
    /// α-β's root value.
    pub ab_value: Score,
    /// α-β's best move.
    pub ab_best: Option<Move>,
    /// α-β's expected reply to it.
    pub ab_reply: Option<Move>,
    /// Whether the root is in check.
    pub in_check: bool,
    /// α-β's fail-soft root scores (hedged root only).
    pub pass: Vec<(Move, Score)>,
}

/// One root move's result in an iteration.
pub(super) struct RootMoveValue {
    /// Its place in the iteration's order.
    pub index: usize,
    /// Its OM (PrOM, hedged) value, or an upper bound if it failed low.
    pub value: Score,
    /// Whether `value` is exact (it beat the α its search started with).
    pub exact: bool,
    /// The move and the line below it.
    pub line: Vec<Move>,
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// Root move `m` (the `index`-th in the iteration's order) searched given the best
    /// value so far `best`: its value (at most `best` if it cannot beat it) and its line.
    pub(super) fn root_move(
        &mut self,
        m: Move,
        index: usize,
        best: Score,
        pass: &RootPass,
    ) -> Option<(Score, Vec<Move>)> {
        self.play_move(m);
        // Late quiet moves get the α-β root's late-move reduction, verified at full depth if
        // the reduced value beats the best so far. Under bounded-sum pruning the whole
        // subtree is reduced, as in α-β; under β-pruning only our own search below a
        // predicted reply that is α-β's own refutation (a reply the model predicts
        // differently may be the blunder OM is looking for: that line gets full depth).
        let v = if let Some(h) = pass.hedge {
            let ab = RootAb {
                value: pass.ab_value,
                best: pass.ab_best,
                in_check: pass.in_check,
                pass_bound: pass.pass.iter().find(|&&(pm, _)| pm == m).map(|&(_, v)| v),
                reply: pass.ab_reply,
            };
            self.hedged_child(h, m, index + 1, pass.depth, best, ab)
        } else if let Some(t) = self.engine_valued_type() {
            self.engine_valued_child(t, pass.depth, best)
        } else {
            let betas = [INFINITE; MAX_TYPES];
            let depth = pass.depth;
            let (r, agree) =
                self.max_move_reduction(m, index + 1, depth, best, pass.in_check, true);
            self.agree_reduction = agree;
            let mut v = self.root_child(depth - 1 - r, best, &betas);
            self.agree_reduction = 0;
            if r > 0 && v.is_some_and(|v| v > best) {
                v = self.root_child(depth - 1, best, &betas);
            }
            v
        };
        self.undo_move();
        let v = v?;
        let mut line = vec![m];
        line.extend_from_slice(self.line(1));
        Some((v, line))
    }

    /// The value of a root child at `depth` given the best root value so far.
    fn root_child(&mut self, depth: i32, best: Score, betas: &[Score; MAX_TYPES]) -> Option<Score> {
        if self.settings.mode != OmMode::Om {
            // PrOM values are expectations: no α bound (see `prom`).
            return self.node(depth, -INFINITE, INFINITE, betas);
        }
        if self.settings.bound_sum().is_some() && best > -INFINITE {
            // Bounded-sum pruning gives MAX a β: principal-variation search at the root, a
            // null window first and the open window only for a move that beats it.
            match self.node(depth, best, best + 1, betas) {
                Some(v) if v > best => self.node(depth, best, INFINITE, betas),
                v => v,
            }
        } else {
            self.node(depth, best, INFINITE, betas)
        }
    }

    /// Root moves whose own α-β value at `depth` is at least `floor` (null-window tests).
    fn within_margin(&mut self, moves: &[Move], depth: i32, floor: Score) -> Option<Vec<Move>> {
        let mut out = Vec::new();
        for &m in moves {
            self.play_move(m);
            let v = self.with_own(|w| -w.search(-floor, -floor + 1, depth - 1, false));
            self.undo_move();
            if v? >= floor {
                out.push(m);
            }
        }
        if out.is_empty() {
            out = moves.to_vec();
        }
        Some(out)
    }
}

/// Runs the driver with iterative deepening until `max_depth`, the clock or `stop`, reporting
/// each completed iteration; returns the result of the last completed one.
pub fn run<E: Evaluator + ?Sized>(
    driver: &mut Driver<'_, E>,
    allowed: &[Move],
    max_depth: u32,
    reporter: &dyn Reporter,
    report: &mut dyn FnMut(&Driver<'_, E>, u32, &OmIteration),
) -> SearchResult {
    let mut root_moves = allowed.to_vec();
    let mut result = SearchResult {
        best: allowed.first().copied(),
        ..SearchResult::default()
    };
    if allowed.is_empty() {
        return result;
    }
    let mut depth = 1;
    let (mut prev_best, mut stable) = (None, 0);
    while depth <= max_depth.max(1) {
        let Some(it) = driver.iterate(&mut root_moves, depth as i32) else {
            // An opponent type failed (an external engine): report it, drop it from this
            // search and repeat the iteration without it, time permitting.
            let Some((t, why)) = driver.failure.take() else {
                // The budget (clock, nodes or `stop`) ended inside this iteration. If our
                // α-β pass of this depth completed, its move is deeper than the last OM
                // iteration's: an OM search that cannot afford its probes plays what α-β
                // reached, never a shallower speculative move (graceful degradation).
                // What is left of the budget goes on to plain α-β iterations.
                let reached = driver.ab_reached.take();
                let more = reached
                    .as_ref()
                    .and_then(|r| driver.ab_continue(&root_moves, r.0 + 1, max_depth));
                if let Some((d, v, pv)) = more.or(reached)
                    && d > result.depth
                    && let Some(&best) = pv.first()
                {
                    reporter.message(&format!(
                        "om: no budget left for the OM root at depth {}: playing alpha-beta's depth-{d} move{}",
                        d.min(depth),
                        if result.depth > 0 {
                            format!(" (OM completed depth {})", result.depth)
                        } else {
                            String::new()
                        }
                    ));
                    report(
                        driver,
                        d,
                        &OmIteration {
                            value: v,
                            ab_value: v,
                            pv: pv.clone(),
                            lines: Vec::new(),
                        },
                    );
                    result.best = Some(best);
                    result.ponder = pv.get(1).copied();
                    result.own_reply = result.ponder;
                    result.score = v;
                    result.depth = d;
                    result.pv = pv;
                }
                break;
            };
            reporter.message(&format!(
                "om: opponent type {} fails and leaves this search ({why}); {}",
                t + 1,
                if driver
                    .specs
                    .iter()
                    .enumerate()
                    .any(|(i, s)| i != t && s.probability > 0.0)
                {
                    "the other types share its probability"
                } else {
                    "searching with alpha-beta"
                }
            ));
            driver.drop_type(t);
            driver.aborted = false;
            if driver.clock.as_mut().is_some_and(|c| c.expired())
                || driver.own.stop.load(std::sync::atomic::Ordering::Relaxed)
            {
                break;
            }
            continue;
        };
        result.best = it.pv.first().copied().or(result.best);
        result.ponder = it.pv.get(1).copied();
        result.own_reply = result.best.and_then(|m| driver.own_reply_to(m));
        result.score = it.value;
        result.depth = depth;
        result.pv = it.pv.clone();
        report(driver, depth, &it);
        reporter.om_iteration(&OmReport {
            depth,
            best: it.pv.first().copied(),
            predicted: it.pv.get(1).copied(),
            om_value: it.value,
            ab_value: it.ab_value,
            own_nodes: driver.own_nodes(),
            type_nodes: driver.type_nodes(),
            probes: driver.probes_run(),
            predicted_by_type: it
                .pv
                .first()
                .map(|&m| driver.predictions_after(m))
                .unwrap_or_default(),
        });
        // The plain search's time rule: a settled best move gives time back.
        if it.pv.first().copied() == prev_best {
            stable += 1;
        } else {
            stable = 0;
        }
        prev_best = it.pv.first().copied();
        if let Some(c) = driver.clock.as_mut() {
            c.adjust_for_stability(stable);
            if c.soft_expired() {
                break;
            }
        }
        // A forced mate by our own α-β value, as in the plain search (the conformance run saw
        // OM depths of 236 reported).
        if crate::search::mate_searched_out(it.ab_value, depth as i32) {
            break;
        }
        depth += 1;
    }
    result.nodes = driver.nodes();
    result
}
