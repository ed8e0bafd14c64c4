//! Probabilistic opponent-model search without pruning — the reference implementations
//! (Donkers 2003, ch. 6): the opponent model (§6.1.3: types `ω_0 … ω_{n−1}` with evaluation
//! functions `V_0 … V_{n−1}`, `ω_0` using MAX's own `V_0`, and probabilities `Pr(ω_i)`),
//! one-pass PrOM search (Alg 6.1), PrOM search with α-β probing (Alg 6.2) and the enhanced
//! version with differing depths and restricted speculation (Alg 6.3). The value of a MIN node
//! is `Σ_i Pr(ω_i) · v_0(child chosen by ω_i)` (formulas 6.4/6.5 via 6.8); each type picks the
//! first child with its minimal value. Every algorithm adds the terms in type order, so values
//! agree bit for bit between implementations.

use super::minimax::alpha_beta;
use super::tree::{
    Ctx, GameTree, INF, MAX_EVALS, MAX_WIDTH, NO_MOVE, PromResult, TreeError, is_max_ply,
};

/// A probabilistic opponent model: `n` opponent types, type `i` evaluating with `V_i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeModel {
    probs: [f64; MAX_EVALS],
    n: usize,
}

impl TreeModel {
    /// A model from the probabilities `Pr(ω_0), …, Pr(ω_{n−1})`: finite, non-negative, summing
    /// to 1 (within 1e-9), `1 ≤ n ≤ MAX_EVALS`.
    pub fn new(probs: &[f64]) -> Result<Self, TreeError> {
        if probs.is_empty() || probs.len() > MAX_EVALS {
            return Err(TreeError(format!(
                "opponent model: need 1..={MAX_EVALS} types, got {}",
                probs.len()
            )));
        }
        if probs.iter().any(|p| !p.is_finite() || *p < 0.0) {
            return Err(TreeError(
                "opponent model: probabilities must be finite and >= 0".into(),
            ));
        }
        let sum: f64 = probs.iter().sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(TreeError(format!(
                "opponent model: probabilities sum to {sum}, not 1"
            )));
        }
        let mut p = [0.0; MAX_EVALS];
        p[..probs.len()].copy_from_slice(probs);
        Ok(TreeModel {
            probs: p,
            n: probs.len(),
        })
    }

    /// `n` types with equal probability.
    pub fn uniform(n: usize) -> Result<Self, TreeError> {
        if n == 0 || n > MAX_EVALS {
            return Err(TreeError(format!("opponent model: {n} types unsupported")));
        }
        Self::new(&vec![1.0 / n as f64; n])
    }

    /// Number of opponent types.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false (a model has at least one type).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `Pr(ω_i)`.
    pub fn prob(&self, i: usize) -> f64 {
        self.probs.get(i).copied().unwrap_or(0.0)
    }

    /// `Σ_i Pr(ω_i) · w_i`, in type order.
    #[inline]
    pub(crate) fn expect(&self, w: &[f64; MAX_EVALS]) -> f64 {
        let mut v = 0.0;
        for (p, x) in self.probs.iter().zip(w.iter()).take(self.n) {
            v += p * x;
        }
        v
    }

    pub(crate) fn check<T: GameTree>(&self, tree: &T, what: &str) -> Result<(), TreeError> {
        if self.n <= tree.num_evals() {
            Ok(())
        } else {
            Err(TreeError(format!(
                "{what}: {} opponent types but the tree has {} evaluation functions",
                self.n,
                tree.num_evals()
            )))
        }
    }
}

/// Alg 6.1 `PromSearch1p(h)`: returns (v_0, [v_ω_i], move).
fn prom_1p<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    model: &TreeModel,
) -> (f64, [i32; MAX_EVALS], usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    let nt = model.len();
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    let mut vals = [0i32; MAX_EVALS];
    if n == 0 {
        for (i, v) in vals.iter_mut().enumerate().take(nt) {
            *v = ctx.eval(node, i);
        }
        return (f64::from(vals[0]), vals, NO_MOVE);
    }
    if is_max_ply(ply) {
        let (mut v0_star, mut best) = (f64::NEG_INFINITY, 0);
        vals = [-INF; MAX_EVALS];
        for (j, kid) in kids.iter().take(n).enumerate() {
            let (v0, v, _) = prom_1p(ctx, kid, model);
            if v0 > v0_star {
                v0_star = v0;
                best = j;
            }
            for i in 0..nt {
                vals[i] = vals[i].max(v[i]);
            }
        }
        (v0_star, vals, best)
    } else {
        vals = [INF; MAX_EVALS];
        let mut w = [0.0f64; MAX_EVALS];
        for kid in kids.iter().take(n) {
            let (v0, v, _) = prom_1p(ctx, kid, model);
            for i in 0..nt {
                if v[i] < vals[i] {
                    vals[i] = v[i];
                    w[i] = v0;
                }
            }
        }
        (model.expect(&w), vals, NO_MOVE)
    }
}

/// Alg 6.2 `PromSearchPb(h)`: returns (v_0, move).
fn prom_pb<T: GameTree>(ctx: &mut Ctx<'_, T>, node: &T::Node, model: &TreeModel) -> (f64, usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    if n == 0 {
        return (f64::from(ctx.eval(node, 0)), NO_MOVE);
    }
    if is_max_ply(ply) {
        let (mut v0_star, mut best) = (f64::NEG_INFINITY, 0);
        for (j, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = prom_pb(ctx, kid, model);
            if v0 > v0_star {
                v0_star = v0;
                best = j;
            }
        }
        (v0_star, best)
    } else {
        let mut moves = [NO_MOVE; MAX_EVALS];
        for (i, m) in moves.iter_mut().enumerate().take(model.len()) {
            *m = alpha_beta(ctx, node, -INF, INF, i, horizon).1;
        }
        (
            min_node_expectation(&moves, model, |m| prom_pb(ctx, &kids[m], model).0),
            NO_MOVE,
        )
    }
}

/// The second loop of Algs 6.2/6.3/6.5: visits each distinct selected move once (in type
/// order of first selection) and returns `Σ_i Pr(ω_i) · v_0(h + m_i)`.
pub(crate) fn min_node_expectation(
    moves: &[usize; MAX_EVALS],
    model: &TreeModel,
    mut value_of: impl FnMut(usize) -> f64,
) -> f64 {
    let nt = model.len();
    let mut w = [0.0f64; MAX_EVALS];
    let mut done = [false; MAX_EVALS];
    for i in 0..nt {
        if done[i] {
            continue;
        }
        let v0 = value_of(moves[i]);
        for j in i..nt {
            if moves[j] == moves[i] {
                w[j] = v0;
                done[j] = true;
            }
        }
    }
    model.expect(&w)
}

/// Horizons for the enhanced PrOM search (Alg 6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromDepths {
    /// MAX's horizon (`E_0` = ply `d0`).
    pub d0: usize,
    /// Horizon of each opponent type's probes (`E_ω_i`).
    pub type_depths: [usize; MAX_EVALS],
    /// Speculative depth: `H_spec` = histories of at most `spec` plies (§3.1.4).
    pub spec: usize,
}

/// Alg 6.3 `PromSearchEnh(h)`.
fn prom_enh<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    model: &TreeModel,
    depths: &PromDepths,
) -> (f64, usize) {
    let ply = ctx.ply(node);
    if ply > depths.spec || ply >= depths.d0 {
        let (v, m) = alpha_beta(ctx, node, -INF, INF, 0, depths.d0); // line 1
        return (f64::from(v), m);
    }
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = ctx.children(node, &mut kids);
    if n == 0 {
        return (f64::from(ctx.eval(node, 0)), NO_MOVE);
    }
    if is_max_ply(ply) {
        let (mut v0_star, mut best) = (f64::NEG_INFINITY, 0);
        for (j, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = prom_enh(ctx, kid, model, depths);
            if v0 > v0_star {
                v0_star = v0;
                best = j;
            }
        }
        (v0_star, best)
    } else {
        let mut moves = [NO_MOVE; MAX_EVALS];
        for (i, m) in moves.iter_mut().enumerate().take(model.len()) {
            *m = alpha_beta(ctx, node, -INF, INF, i, depths.type_depths[i]).1;
        }
        let v = min_node_expectation(&moves, model, |m| prom_enh(ctx, &kids[m], model, depths).0);
        (v, NO_MOVE)
    }
}

/// One-pass PrOM search (Alg 6.1): the reference for `PrOM^β1p`.
pub fn prom_search_1p<T: GameTree>(tree: &T, model: &TreeModel) -> Result<PromResult, TreeError> {
    model.check(tree, "PromSearch1p")?;
    let mut ctx = Ctx::new(tree);
    let (v, _, m) = prom_1p(&mut ctx, &tree.root(), model);
    Ok(ctx.prom_result(v, m))
}

/// PrOM search with α-β probing (Alg 6.2): the reference for `PrOM^βPb`.
pub fn prom_search_pb<T: GameTree>(tree: &T, model: &TreeModel) -> Result<PromResult, TreeError> {
    model.check(tree, "PromSearchPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = prom_pb(&mut ctx, &tree.root(), model);
    Ok(ctx.prom_result(v, m))
}

/// Enhanced PrOM search (Alg 6.3): differing depths per type and restricted speculation. Every
/// MIN node inside `H_spec` (and above `d0`) must be an inner node for every type's probe.
pub fn prom_search_enh<T: GameTree>(
    tree: &T,
    model: &TreeModel,
    depths: &PromDepths,
) -> Result<PromResult, TreeError> {
    model.check(tree, "PromSearchEnh")?;
    let what = "PromSearchEnh";
    super::tree::check_horizon(tree, depths.d0, what)?;
    // The deepest MIN ply that is speculated on (odd, at most spec, below d0).
    let last = depths.spec.min(depths.d0.saturating_sub(1));
    let deepest_min = if last % 2 == 1 {
        Some(last)
    } else {
        last.checked_sub(1)
    };
    for i in 0..model.len() {
        let d = depths.type_depths[i];
        super::tree::check_horizon(tree, d, what)?;
        if let Some(p) = deepest_min
            && d <= p
        {
            return Err(TreeError(format!(
                "{what}: type {i} searches to ply {d}, but MIN nodes at ply {p} are speculated on"
            )));
        }
    }
    let mut ctx = Ctx::new(tree);
    let (v, m) = prom_enh(&mut ctx, &tree.root(), model, depths);
    Ok(ctx.prom_result(v, m))
}
