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
//! search below a predicted reply that is α-β's own refutation of the move.

use shakmaty::{Move, Position as _};

use super::SearchResult;
use super::hedge::RootAb;
use super::om::{Driver, MAX_TYPES, OmMode};
use crate::eval::Evaluator;
use crate::eval::score::{INFINITE, Score};
use crate::position::uci;
use crate::report::Reporter;

/// The result of one driver iteration, for reporting.
#[derive(Clone, Debug, Default)]
pub struct OmIteration {
    /// OM (or PrOM) value of the best root move, MAX's view.
    pub value: Score,
    /// Plain α-β value of the root at the same depth.
    pub ab_value: Score,
    /// The speculated line: our move, the predicted reply, ...
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
        let ab_value = self.with_own(|w| {
            w.root_only = root_moves.clone();
            w.root_depth = depth;
            w.aspirated(depth, guess, -INFINITE, INFINITE)
        })?;
        self.last_ab = Some(ab_value);
        let hedge = self.settings.hedge;
        if !self.has_model() || hedge.is_some_and(|h| h.weight >= 1.0) {
            // Every opponent type failed in this search: α-β is all that is left.
            return Some(OmIteration {
                value: ab_value,
                ab_value,
                pv: self.own.root_pv(),
            });
        }
        let mut candidates = match self.settings.root_margin {
            Some(margin) => self.within_margin(root_moves, depth, ab_value - margin)?,
            None => root_moves.clone(),
        };
        // α-β's best move first: its OM value is at least its α-β value (the opponent's
        // choice is one of the replies α-β minimised over), so the bound α for the other
        // moves starts high.
        if let Some(&ab_best) = self.own.root_pv().first()
            && let Some(i) = candidates.iter().position(|&m| m == ab_best)
        {
            candidates[..=i].rotate_right(1);
        }
        let betas = [INFINITE; MAX_TYPES];
        let ab_best = self.own.root_pv().first().copied();
        let mut scored: Vec<(Score, Move)> = Vec::with_capacity(root_moves.len());
        let mut best = -INFINITE;
        let mut best_pv = Vec::new();
        let in_check = self.position().chess().is_check();
        let pass: Vec<(Move, Score)> = if hedge.is_some() {
            self.own.root_scores.clone()
        } else {
            Vec::new()
        };
        for (i, &m) in candidates.iter().enumerate() {
            self.play_move(m);
            // Late quiet moves get the α-β root's late-move reduction, verified at full
            // depth if the reduced value beats the best so far. Under bounded-sum pruning the
            // whole subtree is reduced, as in α-β; under β-pruning only our own search below
            // a predicted reply that is α-β's own refutation (a reply the model predicts
            // differently may be the blunder OM is looking for: that line gets full depth).
            let v = if let Some(h) = hedge {
                let ab = RootAb {
                    value: ab_value,
                    best: ab_best,
                    in_check,
                    pass_bound: pass.iter().find(|&&(pm, _)| pm == m).map(|&(_, v)| v),
                };
                self.hedged_child(h, m, i + 1, depth, best, ab)
            } else {
                let (r, agree) = self.max_move_reduction(m, i + 1, depth, best, in_check, true);
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
            scored.push((v, m));
            if v > best {
                best = v;
                best_pv = vec![m];
                best_pv.extend_from_slice(self.line(1));
            }
        }
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
        })
    }
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// The value of a root child at `depth` given the best root value so far.
    fn root_child(&mut self, depth: i32, best: Score, betas: &[Score; MAX_TYPES]) -> Option<Score> {
        if self.settings.mode != OmMode::Om {
            // PrOM values are expectations: no α bound (see `prom`).
            return self.node(depth, -INFINITE, INFINITE, betas);
        }
        if self.settings.bound.is_some() && best > -INFINITE {
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
    while depth <= max_depth.max(1) {
        let Some(it) = driver.iterate(&mut root_moves, depth as i32) else {
            // An opponent type failed (an external engine): report it, drop it from this
            // search and repeat the iteration without it, time permitting.
            let Some((t, why)) = driver.failure.take() else {
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
        result.score = it.value;
        result.depth = depth;
        result.pv = it.pv.clone();
        report(driver, depth, &it);
        if let Some(p) = it.pv.get(1) {
            reporter.message(&format!(
                "om depth {depth} move {} predicted {} om {} ab {} surplus {}",
                uci(it.pv[0]),
                uci(*p),
                it.value,
                it.ab_value,
                it.value - it.ab_value
            ));
        }
        if let Some(c) = driver.clock.as_mut()
            && c.soft_expired()
        {
            break;
        }
        depth += 1;
    }
    result.nodes = driver.nodes();
    result
}
