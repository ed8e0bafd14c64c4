//! Bounded-sum pruning OM search (Donkers 2003, §3.2.4; Carmel & Markovitch's αβ* and
//! αβ*₁ₚₐₛₛ): when `|V_0 − V_op| ≤ B` at every leaf, `|v_0 − v_op| ≤ B` at every node, so the
//! value for one player bounds the value for the other and allows pruning at MIN nodes too.
//!
//! * [`om_search_bounded_pb`] is Alg 3.10 `OmSearchBoundedPb(h, α, β)` as printed (with line 6
//!   read as `h + m`, not `h + m*`): an α-β search on `v_0` whose MIN nodes probe with the
//!   widened window `[α−B, β+B]` and then narrow `[α, β]` to `[v_op−B, v_op+B]`.
//! * [`om_search_bounded_1p`] is our version of Alg 3.9 `OmSearchBounded1p`. The printed
//!   listing is garbled in our copy (parameters and lines 4–8 do not type-check), so we give a
//!   one-pass algorithm whose soundness is shown below and which adds to `OM^β1p` (Alg 3.7)
//!   the two *shallow* bounded-sum cut-offs:
//!   - at a MIN node `h` below a MAX node `p` whose best child so far has the exact value
//!     `L = v_0*(p)`: once `v_op*(h) + B ≤ L`, `v_0(h) ≤ v_op(h) + B ≤ L`, so `h` cannot
//!     improve `p`; its `v_op` cannot raise `v_op(p)` either, because the child that gave `L`
//!     has `v_op ≥ L − B ≥ v_op*(h)`;
//!   - at a MAX node `p` below a MIN node whose best `v_op` so far is `β_op`: once
//!     `v_0*(p) − B ≥ β_op`, `v_op(p) ≥ v_0(p) − B ≥ β_op`, so MIN will not choose `p`.
//!
//!   Deep cut-offs (Carmel & Markovitch's bounds that widen by `2B` per level, their Lemma 1)
//!   are not attempted.

use super::minimax::alpha_beta;
use super::tree::{
    Ctx, GameTree, INF, MAX_WIDTH, NO_MOVE, TreeError, TreeResult, check_eval, is_max_ply,
};

/// Our Alg 3.9 at a MAX node: returns (v_0, v_op, move); `v_op ≥ β_op` means "not chosen".
fn bounded_1p_max<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    beta_op: i32,
    bound: i32,
    op: usize,
) -> (i32, i32, usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    if n == 0 {
        return (ctx.eval(node, 0), ctx.eval(node, op), NO_MOVE);
    }
    let (mut v0_star, mut vop_star, mut best) = (-INF, -INF, 0);
    for (i, kid) in kids.iter().take(n).enumerate() {
        let (v0, vop) = if ctx.ply(kid) >= horizon {
            let vop = ctx.eval(kid, op);
            let v0 = if vop <= beta_op {
                ctx.eval(kid, 0)
            } else {
                -INF
            };
            (v0, vop)
        } else {
            let (v0, vop, _) = bounded_1p_min(ctx, kid, beta_op, v0_star, bound, op);
            (v0, vop)
        };
        if v0 > v0_star {
            v0_star = v0;
            best = i;
        }
        vop_star = vop_star.max(vop);
        if vop_star >= beta_op {
            break; // β-pruning (Alg 3.7 line 10)
        }
        if v0_star > -INF && v0_star - bound >= beta_op {
            // Bounded-sum cut-off: v_op(p) ≥ v_0(p) − B ≥ β_op.
            vop_star = v0_star - bound;
            break;
        }
    }
    (v0_star, vop_star, best)
}

/// Our Alg 3.9 at a MIN node: `lower` is the exact best `v_0` of the parent so far.
fn bounded_1p_min<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    beta_op: i32,
    lower: i32,
    bound: i32,
    op: usize,
) -> (i32, i32, usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    if n == 0 {
        return (ctx.eval(node, 0), ctx.eval(node, op), NO_MOVE);
    }
    let (mut v0_star, mut vop_star, mut best) = (-INF, beta_op, 0);
    let mut chosen = false;
    for (i, kid) in kids.iter().take(n).enumerate() {
        let (v0, vop) = if ctx.ply(kid) >= horizon {
            (-INF, ctx.eval(kid, op))
        } else {
            let (v0, vop, _) = bounded_1p_max(ctx, kid, vop_star, bound, op);
            (v0, vop)
        };
        if vop < vop_star {
            vop_star = vop;
            v0_star = v0;
            best = i;
            chosen = true;
        }
        if lower > -INF && vop_star <= lower - bound {
            // Bounded-sum cut-off: v_0(h) ≤ v_op(h) + B ≤ lower.
            return (-INF, vop_star, best);
        }
    }
    if chosen && ctx.ply(&kids[best]) >= horizon {
        v0_star = ctx.eval(&kids[best], 0);
    }
    (v0_star, vop_star, best)
}

/// Alg 3.10 `OmSearchBoundedPb(h, α, β)`: fail-hard on `v_0`.
fn bounded_pb<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    mut alpha: i32,
    mut beta: i32,
    bound: i32,
    op: usize,
) -> (i32, usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    if n == 0 {
        return (ctx.eval(node, 0), NO_MOVE);
    }
    if is_max_ply(ply) {
        let (mut v0_star, mut best) = (alpha, 0);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = bounded_pb(ctx, kid, alpha, beta, bound, op);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
                alpha = alpha.max(v0_star);
            }
            if alpha >= beta {
                break;
            }
        }
        (v0_star, best)
    } else {
        let (vop, m) = alpha_beta(ctx, node, alpha - bound, beta + bound, op, horizon);
        alpha = alpha.max(vop - bound);
        beta = beta.min(vop + bound);
        if alpha < beta {
            let (v0, _) = bounded_pb(ctx, &kids[m], alpha, beta, bound, op);
            (v0, m)
        } else {
            (alpha, m)
        }
    }
}

fn check_bound<T: GameTree>(tree: &T, op: usize, bound: i32, what: &str) -> Result<(), TreeError> {
    check_eval(tree, op, what)?;
    if (0..=100_000).contains(&bound) {
        Ok(())
    } else {
        Err(TreeError(format!(
            "{what}: bound {bound} must be in 0..=100000"
        )))
    }
}

/// One-pass bounded-sum pruning OM search (our Alg 3.9, see the module text). Returns the
/// plain OM value (Alg 3.2) whenever `|V_0 − V_op| ≤ bound` holds at every leaf.
pub fn om_search_bounded_1p<T: GameTree>(
    tree: &T,
    op: usize,
    bound: i32,
) -> Result<TreeResult, TreeError> {
    check_bound(tree, op, bound, "OmSearchBounded1p")?;
    let mut ctx = Ctx::new(tree);
    let (v, _, m) = bounded_1p_max(&mut ctx, &tree.root(), INF, bound, op);
    Ok(ctx.result(v, m))
}

/// Bounded-sum pruning OM search with α-β probes (Alg 3.10). Returns the plain OM value
/// (Alg 3.3) whenever `|V_0 − V_op| ≤ bound` holds at every leaf.
pub fn om_search_bounded_pb<T: GameTree>(
    tree: &T,
    op: usize,
    bound: i32,
) -> Result<TreeResult, TreeError> {
    check_bound(tree, op, bound, "OmSearchBoundedPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = bounded_pb(&mut ctx, &tree.root(), -INF, INF, bound, op);
    Ok(ctx.result(v, m))
}
