//! The hedged root of `OM_Mode=auto`: PrOM search (Donkers 2003 §6.2, Alg. 6.3) over two
//! opponent types — our own full-depth search (the *hedge*: the opponent who finds our
//! refutation, i.e. α-β's assumption) with probability `w`, and one fitted type `ω` with
//! probability `1 − w` — computed at α-β's cost instead of a full-depth probe per root move.
//!
//! For root move `m` the PrOM value is `w·v_αβ(m) + (1 − w)·v_ω(m)`, where `v_αβ(m)` is our own
//! α-β value (the hedge type's probe is our own search, so its prediction followed by our
//! own search gives exactly α-β's value; §3.3, Lemma 1) and `v_ω(m)` the OM value below the
//! fitted type's predicted reply (Alg. 3.8 at ply 1, restricted speculation s = 2). Neither
//! needs to be exact for a move that cannot win: α-β's root pass has already bounded every
//! `v_αβ(m)` by the root value `v₀`, so `v_ω(m)` is searched with the lower bound
//! `(best − w·v₀)/(1 − w)`, and only a move that passes it has its α-β value tested with a
//! null window at `(best − (1 − w)·v_ω(m))/w` — and searched exactly only if it passes that.
//!
//! Risk control (§5.4.1, "only moves within a margin"): a move whose α-β value is more than
//! `margin` below `v₀` is never chosen, and is tested for that first (by its fail-soft score
//! in α-β's root pass, else a null window at `v₀ − margin`), before the fitted type is
//! searched below it. `OM_Mode=auto` derives `w` and the margin from the
//! fitted model's measured accuracy ([`super::fit`]). It also caps the *breadth*: besides
//! α-β's best, only the few moves α-β's root pass scored highest are candidates
//! ([`Hedge::candidates`]; `examples/hedge_nodes.rs` at depth 11: 1.73× α-β's nodes with
//! every move, 1.31× with two).

use shakmaty::Move;

use super::{Driver, MAX_TYPES};
use crate::eval::Evaluator;
use crate::score::{INFINITE, Score};

/// The hedge of a hedged root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hedge {
    /// Probability of the hedge type (our own full search, α-β's assumption), 0..=1; the
    /// fitted OM type has the rest.
    pub weight: f64,
    /// The most α-β value (centipawns) a chosen root move may give up against α-β's best.
    pub margin: Score,
    /// The most root moves besides α-β's best that the fitted type is searched below: those
    /// α-β's root pass scored highest ([`Hedge::candidates`]); `usize::MAX` for all.
    pub breadth: usize,
}

/// What a hedged root spent in one search: iterations, those α-β's root pass settled (no
/// candidate besides α-β's best within the margin: nothing more searched), and the time in
/// α-β's root passes and in the hedged root moves after them (`info string om hedge …`).
#[derive(Clone, Copy, Debug, Default)]
pub struct HedgeUse {
    /// Iterations with a hedged root.
    pub iterations: u32,
    /// Of those, the ones α-β's root pass settled.
    pub settled: u32,
    /// Time in α-β's root passes of those iterations.
    pub pass: std::time::Duration,
    /// Time in the hedged root moves (probes, engine calls, margin tests, OM searches).
    pub root: std::time::Duration,
}

/// What α-β's pass of the iteration found at the root.
#[derive(Clone, Copy, Debug)]
pub struct RootAb {
    /// α-β's root value `v₀`.
    pub value: Score,
    /// α-β's best move.
    pub best: Option<Move>,
    /// Whether the root is in check (evasions get no late-move reduction).
    pub in_check: bool,
    /// The move's score in α-β's root pass, if it was searched there: exact for α-β's best,
    /// an upper bound (fail-soft) for a move that did not raise α.
    pub pass_bound: Option<Score>,
    /// α-β's expected reply to its best move (the second move of its principal variation).
    pub reply: Option<Move>,
}

impl Hedge {
    /// The root moves the hedged root searches, in `moves`' order: α-β's best `ab_best` and
    /// the [`Hedge::breadth`] others with the highest scores in α-β's root pass `pass`
    /// (fail-soft: exact for the best, upper bounds for the rest; a move it has no score for
    /// ranks last). The rest are never chosen (the restriction of §5.4.1 taken further: the
    /// speculation looks only where α-β itself sees the closest alternatives), and neither
    /// their margin tests nor the fitted type's probes below them are paid for. With a
    /// `floor` (α-β's value less the margin), a move the pass already bounds below it is left
    /// out as well: it could never be chosen.
    pub fn candidates(
        &self,
        moves: &[Move],
        ab_best: Option<Move>,
        pass: &[(Move, Score)],
        floor: Option<Score>,
    ) -> Vec<Move> {
        best_by_pass(moves, ab_best, pass, self.breadth, floor)
    }

    fn mix(&self, ab: Score, om: Score) -> Score {
        (self.weight * f64::from(ab) + (1.0 - self.weight) * f64::from(om)).round() as Score
    }
}

/// α-β's best move `ab_best` and the `breadth` other `moves` with the highest scores in
/// α-β's root pass `pass` (a move without a score ranks last), in `moves`' order; with a
/// `floor`, a move the pass bounds below it is left out (see [`Hedge::candidates`]).
pub fn best_by_pass(
    moves: &[Move],
    ab_best: Option<Move>,
    pass: &[(Move, Score)],
    breadth: usize,
    floor: Option<Score>,
) -> Vec<Move> {
    let score = |m: &Move| pass.iter().find(|(pm, _)| pm == m).map(|&(_, v)| v);
    let mut ranked: Vec<&Move> = moves.iter().filter(|&&m| Some(m) != ab_best).collect();
    if ranked.len() > breadth {
        // Stable: equal bounds keep the iteration's order.
        ranked.sort_by_key(|m| std::cmp::Reverse(score(m).unwrap_or(-INFINITE - 1)));
        ranked.truncate(breadth);
    }
    let open = |m: &Move| floor.is_none_or(|f| score(m).is_none_or(|b| b >= f));
    moves
        .iter()
        .filter(|&&m| Some(m) == ab_best || (ranked.contains(&&m) && open(&m)))
        .copied()
        .collect()
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// The hedged PrOM value of root move `m` (just played; `index` its place in the order)
    /// at `depth`, given the best value so far `best` and α-β's root value and best move. A
    /// move that cannot beat `best` returns a value at most `best`.
    pub(super) fn hedged_child(
        &mut self,
        hedge: Hedge,
        m: Move,
        index: usize,
        depth: i32,
        best: Score,
        ab: RootAb,
    ) -> Option<Score> {
        let RootAb {
            value: ab0,
            best: ab_best,
            in_check,
            pass_bound,
            reply: ab_reply,
        } = ab;
        let w = hedge.weight.clamp(0.0, 1.0);
        let betas = [INFINITE; MAX_TYPES];
        let floor = ab0.saturating_sub(hedge.margin);
        // The bound the fitted type's value must beat for the mixture to beat `best`.
        let om_alpha = if best <= -INFINITE || w >= 1.0 {
            -INFINITE
        } else {
            let a = (f64::from(best) - w * f64::from(ab0)) / (1.0 - w);
            (a.floor() as Score).clamp(-INFINITE, INFINITE - 1)
        };
        // A move other than α-β's best must first be within the margin: α-β's root pass
        // bounds most moves below the floor already (its fail-soft score, an upper bound as
        // far as α-β itself trusts its reductions); a move it leaves open and where the
        // fitted type predicts something else than α-β's refutation gets a null-window test
        // of its α-β value at the floor. With a small margin the fitted type is searched
        // below only a few root moves.
        let other = Some(m) != ab_best && best > -INFINITE;
        if other && pass_bound.is_some_and(|b| b < floor) {
            return Some(best.min(floor - 1));
        }
        // Where the fitted type predicts α-β's own refutation of the move, its OM value is
        // the move's α-β value (the same reply, then our own search): the mixture is that
        // value too, which the root pass has already bounded. Nothing to search then — and
        // this is every move once an engine type's time is spent ([`super::engine_probe`]).
        // Asked before the margin test: the prediction is remembered, the test is a search.
        let t = self.om_type();
        let refutation = if Some(m) == ab_best {
            ab_reply
        } else {
            self.own_table_move()
        };
        if refutation.is_some() {
            let (_, predicted) = self.probe_type(t, -INFINITE, INFINITE, depth - 1)?;
            if predicted.len() == 1 && predicted.first() == refutation.as_ref() {
                if Some(m) == ab_best {
                    // α-β's own line below its best move.
                    let pv = self.own.root_pv();
                    self.set_line(1, pv.get(1..).unwrap_or_default());
                    return Some(ab0);
                }
                self.set_line(1, &[]);
                return Some(best.min(pass_bound.unwrap_or(ab0)));
            }
        }
        if other {
            let test = self.with_own(|own| -own.search(-floor, -floor + 1, depth - 1, false))?;
            if test < floor {
                return Some(best.min(floor - 1));
            }
        }
        let (r, agree) = self.max_move_reduction(m, index, depth, om_alpha, in_check, true);
        self.agree_reduction = agree;
        let mut om = self.node(depth - 1 - r, om_alpha, INFINITE, &betas);
        self.agree_reduction = 0;
        if r > 0 && om.is_some_and(|v| v > om_alpha) {
            om = self.node(depth - 1, om_alpha, INFINITE, &betas);
        }
        let om = om?;
        if om <= om_alpha {
            return Some(hedge.mix(ab0, om).min(best));
        }
        if Some(m) == ab_best {
            return Some(hedge.mix(ab0, om));
        }
        // The α-β value this move needs for the mixture to beat `best` (and the margin).
        let need = if best <= -INFINITE || w <= 0.0 {
            floor
        } else {
            let t = (f64::from(best) - (1.0 - w) * f64::from(om)) / w;
            (t.floor() as Score).max(floor)
        };
        let need = need.clamp(-INFINITE + 1, INFINITE - 1);
        // Null-window test: is α-β's value of the move above `need`?
        let test = self.with_own(|own| -own.search(-(need + 1), -need, depth - 1, false))?;
        if test <= need {
            return Some(hedge.mix(need, om).min(best));
        }
        let ab = self.with_own(|own| -own.search(-(ab0 + 1), -need, depth - 1, false))?;
        Some(hedge.mix(ab.min(ab0), om))
    }
}
