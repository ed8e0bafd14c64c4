//! β-pruning PrOM search (Donkers 2003, §6.3.3–6.3.5): one-pass `PrOM^β1p` (Alg 6.4; shallow
//! pruning only — a MAX node is cut once *every* type's value exceeds that type's β, deep
//! pruning being unsound, Fig 6.3) and `PrOM^βPb` with α-β probes and β-passing per opponent
//! type (Alg 6.5: a type's probe gets `β_i = v_i + 1` below the move that type selected, `+∞`
//! elsewhere). Both return the values of Algs 6.1/6.2 bit for bit.

use super::minimax::alpha_beta;
use super::prom_plain::{TreeModel, min_node_expectation};
use super::tree::{
    Ctx, GameTree, INF, MAX_EVALS, MAX_WIDTH, NO_MOVE, PromResult, TreeError, is_max_ply,
};

/// Alg 6.4 `PromSearchBeta1p(h, β̄)`: returns (v_0, [v_ω_i], move).
fn prom_beta_1p<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    model: &TreeModel,
    betas: &[i32; MAX_EVALS],
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
            let (v0, v, _) = prom_beta_1p(ctx, kid, model, betas);
            if v0 > v0_star {
                v0_star = v0;
                best = j;
            }
            for i in 0..nt {
                vals[i] = vals[i].max(v[i]);
            }
            // Lines 9-10: prune when no type can select this MAX node any more.
            if (0..nt).all(|i| vals[i] >= betas[i]) {
                break;
            }
        }
        (v0_star, vals, best)
    } else {
        vals = [INF; MAX_EVALS];
        let mut w = [0.0f64; MAX_EVALS];
        for kid in kids.iter().take(n) {
            let current = vals;
            let (v0, v, _) = prom_beta_1p(ctx, kid, model, &current);
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

/// Alg 6.5 `PromSearchBetaPb(h, β̄)`: returns (v_0, move).
fn prom_beta_pb<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    model: &TreeModel,
    betas: &[i32; MAX_EVALS],
) -> (f64, usize) {
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
            let (v0, _) = prom_beta_pb(ctx, kid, model, betas);
            if v0 > v0_star {
                v0_star = v0;
                best = j;
            }
        }
        (v0_star, best)
    } else {
        let nt = model.len();
        let mut moves = [NO_MOVE; MAX_EVALS];
        let mut vals = [INF; MAX_EVALS];
        for i in 0..nt {
            let (v, m) = alpha_beta(ctx, node, -INF, betas[i], i, horizon);
            vals[i] = v;
            moves[i] = m;
        }
        let v = min_node_expectation(&moves, model, |m| {
            // Line 16: β-passing for the types that selected m.
            let mut child_betas = [INF; MAX_EVALS];
            for i in 0..nt {
                if moves[i] == m {
                    child_betas[i] = vals[i].saturating_add(1);
                }
            }
            prom_beta_pb(ctx, &kids[m], model, &child_betas).0
        });
        (v, NO_MOVE)
    }
}

/// `PrOM^β1p` (Alg 6.4).
pub fn prom_search_beta_1p<T: GameTree>(
    tree: &T,
    model: &TreeModel,
) -> Result<PromResult, TreeError> {
    model.check(tree, "PromSearchBeta1p")?;
    let mut ctx = Ctx::new(tree);
    let (v, _, m) = prom_beta_1p(&mut ctx, &tree.root(), model, &[INF; MAX_EVALS]);
    Ok(ctx.prom_result(v, m))
}

/// `PrOM^βPb` (Alg 6.5).
pub fn prom_search_beta_pb<T: GameTree>(
    tree: &T,
    model: &TreeModel,
) -> Result<PromResult, TreeError> {
    model.check(tree, "PromSearchBetaPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = prom_beta_pb(&mut ctx, &tree.root(), model, &[INF; MAX_EVALS]);
    Ok(ctx.prom_result(v, m))
}
