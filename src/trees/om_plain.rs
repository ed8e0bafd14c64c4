//! Plain and enhanced OM search without pruning — the reference implementations (Donkers 2003,
//! §3.1): one-pass OM search (Alg 3.2), OM search with α-β probing (Alg 3.3), enhanced one-pass
//! OM search with differing depths and tie-breaking (Alg 3.4, formulas 2.12/2.13), enhanced OM
//! search with probes (Alg 3.5) and probing OM search with restricted speculation (Alg 3.6).
//!
//! `op` is the index of MIN's evaluation function `V_op`; MAX uses `V_0`. Plain OM lets MIN pick
//! the *first* child with the smallest `v_op`; enhanced OM breaks ties at MIN nodes by the
//! lowest own value `v_0` (§2.3.2).

use super::minimax::{alpha_beta, alpha_beta_all_best};
use super::tree::{
    Ctx, GameTree, INF, MAX_WIDTH, NO_MOVE, TreeError, TreeResult, check_eval, check_horizon,
    is_max_ply,
};

/// Alg 3.2 `OmSearch1p(h)`: returns (v_0, v_op, move).
fn om_1p<T: GameTree>(ctx: &mut Ctx<'_, T>, node: &T::Node, op: usize) -> (i32, i32, usize) {
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
    let mut best = 0;
    if is_max_ply(ply) {
        let (mut v0_star, mut vop_star) = (-INF, -INF);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, vop, _) = om_1p(ctx, kid, op);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
            vop_star = vop_star.max(vop);
        }
        (v0_star, vop_star, best)
    } else {
        let (mut v0_star, mut vop_star) = (0, INF);
        for (i, kid) in kids.iter().take(n).enumerate() {
            // Line 13: a leaf child needs only V_op now; V_0 of the chosen one follows (line 17).
            let (v0, vop) = if ctx.ply(kid) >= horizon {
                (0, ctx.eval(kid, op))
            } else {
                let (v0, vop, _) = om_1p(ctx, kid, op);
                (v0, vop)
            };
            if vop < vop_star {
                vop_star = vop;
                v0_star = v0;
                best = i;
            }
        }
        if ctx.ply(&kids[best]) >= horizon {
            v0_star = ctx.eval(&kids[best], 0);
        }
        (v0_star, vop_star, best)
    }
}

/// Alg 3.3 `OmSearchPb(h)`: returns (v_0, move).
fn om_pb<T: GameTree>(ctx: &mut Ctx<'_, T>, node: &T::Node, op: usize) -> (i32, usize) {
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
        let (mut v0_star, mut best) = (-INF, 0);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = om_pb(ctx, kid, op);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
        }
        (v0_star, best)
    } else {
        let (_, m) = alpha_beta(ctx, node, -INF, INF, op, horizon);
        let (v0, _) = om_pb(ctx, &kids[m], op);
        (v0, m)
    }
}

/// `v_0` of a node for the enhanced algorithms: `V_0` at MAX's horizon, else α-β with `V_0`.
fn own_value<T: GameTree>(ctx: &mut Ctx<'_, T>, node: &T::Node, d0: usize) -> i32 {
    if ctx.ply(node) >= d0 {
        ctx.eval(node, 0)
    } else {
        alpha_beta(ctx, node, -INF, INF, 0, d0).0
    }
}

/// Alg 3.4 `OmSearchEnh1p(h)` with `E_0` = ply `d0` and `E_op` = ply `dop`: returns
/// (v_0, v_op, move).
fn enh_1p<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    op: usize,
    d0: usize,
    dop: usize,
) -> (i32, i32, usize) {
    let ply = ctx.ply(node);
    if ply >= d0 && ply >= dop {
        // Line 1a.
        return (ctx.eval(node, 0), ctx.eval(node, op), NO_MOVE);
    }
    if ply >= d0 {
        // Line 1b: MAX's leaf, MIN searches on.
        let (vop, _) = alpha_beta(ctx, node, -INF, INF, op, dop);
        return (ctx.eval(node, 0), vop, NO_MOVE);
    }
    if ply >= dop {
        // Line 1c: MIN's leaf, MAX searches on.
        let (v0, m) = alpha_beta(ctx, node, -INF, INF, 0, d0);
        return (v0, ctx.eval(node, op), m);
    }
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = ctx.children(node, &mut kids);
    if n == 0 {
        return (ctx.eval(node, 0), ctx.eval(node, op), NO_MOVE);
    }
    let mut best = 0;
    if is_max_ply(ply) {
        let (mut v0_star, mut vop_star) = (-INF, -INF);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, vop, _) = enh_1p(ctx, kid, op, d0, dop);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
            vop_star = vop_star.max(vop);
        }
        (v0_star, vop_star, best)
    } else {
        // `None` = v_0 of the best child not computed yet (it is a leaf for MIN, line 13).
        let mut v0_star: Option<i32> = None;
        let mut vop_star = INF;
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, vop) = if ctx.ply(kid) >= dop {
                (None, ctx.eval(kid, op))
            } else {
                let (v0, vop, _) = enh_1p(ctx, kid, op, d0, dop);
                (Some(v0), vop)
            };
            if vop < vop_star {
                vop_star = vop;
                v0_star = v0;
                best = i;
            } else if vop == vop_star {
                // Line 15a: equal v_op — keep the move with the lower v_0. The thesis reads a
                // stale v_0 here when the child is a leaf for MIN; we compute both values.
                let cur = match v0_star {
                    Some(v) => v,
                    None => own_value(ctx, &kids[best], d0),
                };
                let this = match v0 {
                    Some(v) => v,
                    None => own_value(ctx, kid, d0),
                };
                v0_star = Some(cur);
                if this < cur {
                    v0_star = Some(this);
                    best = i;
                }
            }
        }
        // Lines 17-18.
        let v0 = match v0_star {
            Some(v) => v,
            None => own_value(ctx, &kids[best], d0),
        };
        (v0, vop_star, best)
    }
}

/// Alg 3.5 `OmSearchEnhPb(h)`: returns (v_0, move).
fn enh_pb<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    op: usize,
    d0: usize,
    dop: usize,
) -> (i32, usize) {
    let ply = ctx.ply(node);
    if ply >= d0 {
        return (ctx.eval(node, 0), NO_MOVE); // line 1a
    }
    if ply >= dop {
        return alpha_beta(ctx, node, -INF, INF, 0, d0); // line 1b
    }
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = ctx.children(node, &mut kids);
    if n == 0 {
        return (ctx.eval(node, 0), NO_MOVE);
    }
    if is_max_ply(ply) {
        let (mut v0_star, mut best) = (-INF, 0);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = enh_pb(ctx, kid, op, d0, dop);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
        }
        (v0_star, best)
    } else {
        let mut list = [0usize; MAX_WIDTH];
        let (_, count) = alpha_beta_all_best(ctx, node, op, dop, &mut list);
        let (mut v0_star, mut best) = (INF, list[0]);
        for &m in list.iter().take(count) {
            let (v0, _) = enh_pb(ctx, &kids[m], op, d0, dop);
            if v0 < v0_star {
                v0_star = v0;
                best = m;
            }
        }
        (v0_star, best)
    }
}

/// Alg 3.6 `OmSearchRsPb(h)` with `H_spec` = histories of at most `spec` plies (§3.1.4).
fn rs_pb<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    op: usize,
    spec: usize,
) -> (i32, usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    if ply > spec {
        return alpha_beta(ctx, node, -INF, INF, 0, horizon); // line 1
    }
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
        let (mut v0_star, mut best) = (-INF, 0);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = rs_pb(ctx, kid, op, spec);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
        }
        (v0_star, best)
    } else {
        let (_, m) = alpha_beta(ctx, node, -INF, INF, op, horizon);
        let (v0, _) = rs_pb(ctx, &kids[m], op, spec);
        (v0, m)
    }
}

fn check_op<T: GameTree>(tree: &T, op: usize, what: &str) -> Result<(), TreeError> {
    check_eval(tree, 0, what)?;
    check_eval(tree, op, what)
}

/// One-pass OM search (Alg 3.2) with MIN's evaluation `V_op`: the reference for `OM^β1p`.
pub fn om_search_1p<T: GameTree>(tree: &T, op: usize) -> Result<TreeResult, TreeError> {
    check_op(tree, op, "OmSearch1p")?;
    let mut ctx = Ctx::new(tree);
    let (v, _, m) = om_1p(&mut ctx, &tree.root(), op);
    Ok(ctx.result(v, m))
}

/// OM search with α-β probing (Alg 3.3): the reference for `OM^βPb`.
pub fn om_search_pb<T: GameTree>(tree: &T, op: usize) -> Result<TreeResult, TreeError> {
    check_op(tree, op, "OmSearchPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = om_pb(&mut ctx, &tree.root(), op);
    Ok(ctx.result(v, m))
}

/// Enhanced one-pass OM search (Alg 3.4): MAX's horizon `d0`, MIN's horizon `dop` (both at most
/// the tree depth), ties at MIN nodes broken by the lowest `v_0`.
pub fn om_search_enh_1p<T: GameTree>(
    tree: &T,
    op: usize,
    d0: usize,
    dop: usize,
) -> Result<TreeResult, TreeError> {
    check_op(tree, op, "OmSearchEnh1p")?;
    check_horizon(tree, d0, "OmSearchEnh1p")?;
    check_horizon(tree, dop, "OmSearchEnh1p")?;
    let mut ctx = Ctx::new(tree);
    let (v, _, m) = enh_1p(&mut ctx, &tree.root(), op, d0, dop);
    Ok(ctx.result(v, m))
}

/// Enhanced OM search with α-β probes (Alg 3.5), same parameters as [`om_search_enh_1p`].
pub fn om_search_enh_pb<T: GameTree>(
    tree: &T,
    op: usize,
    d0: usize,
    dop: usize,
) -> Result<TreeResult, TreeError> {
    check_op(tree, op, "OmSearchEnhPb")?;
    check_horizon(tree, d0, "OmSearchEnhPb")?;
    check_horizon(tree, dop, "OmSearchEnhPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = enh_pb(&mut ctx, &tree.root(), op, d0, dop);
    Ok(ctx.result(v, m))
}

/// Probing OM search with restricted speculation (Alg 3.6): MAX speculates only in histories of
/// at most `spec` plies (`H_spec`, §3.1.4) and uses α-β with `V_0` below them.
pub fn om_search_rs_pb<T: GameTree>(
    tree: &T,
    op: usize,
    spec: usize,
) -> Result<TreeResult, TreeError> {
    check_op(tree, op, "OmSearchRsPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = rs_pb(&mut ctx, &tree.root(), op, spec);
    Ok(ctx.result(v, m))
}
