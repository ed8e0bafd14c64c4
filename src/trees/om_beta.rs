//! β-pruning OM search (Donkers 2003, §3.2.1–3.2.3): the one-pass version `OM^β1p` (Alg 3.7),
//! the version with α-β probes and β-passing `OM^βPb` (Alg 3.8, probe window `[−∞, β]`, then
//! `β = v+1` below the probe's move), and `OM^βPb` with a transposition table in the probes
//! (§3.4.2, §5.2.4), the latter also with principal-variation search inside the probes
//! (§3.4.6). All return the value of plain OM search (Algs 3.2/3.3).
//!
//! Counting follows `random-trees.md`: in `OM^β1p` every `V_op` and every `V_0` call counts,
//! and `V_0` is called at a leaf below a MAX node when `V_op ≤ β` (the original player's test;
//! the thesis' line 6 has `<`); the β passed down at MIN nodes is `min(β, best v_op so far)`.
//! In `OM^βPb` the `V_op` calls inside probes and the `V_0` calls at leaves count.

use super::minimax::{alpha_beta, alpha_beta_tt};
use super::trans_table::TransTable;
use super::tree::{
    Ctx, GameTree, INF, MAX_WIDTH, NO_MOVE, TreeError, TreeResult, check_eval, is_max_ply,
};

/// Alg 3.7 `OmSearchBeta1p(h, β)`: returns (v_0, v_op, move). If the returned `v_op ≥ β` the
/// node is not chosen by its parent and `v_0` is meaningless.
fn beta_1p<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    beta: i32,
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
    let mut best = 0;
    if is_max_ply(ply) {
        let (mut v0_star, mut vop_star) = (-INF, -INF);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, vop) = if ctx.ply(kid) >= horizon {
                // Line 6: V_0 only where this leaf may still be chosen.
                let vop = ctx.eval(kid, op);
                let v0 = if vop <= beta { ctx.eval(kid, 0) } else { -INF };
                (v0, vop)
            } else {
                let (v0, vop, _) = beta_1p(ctx, kid, beta, op);
                (v0, vop)
            };
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
            vop_star = vop_star.max(vop);
            if vop_star >= beta {
                break; // line 10: β-pruning
            }
        }
        (v0_star, vop_star, best)
    } else {
        let (mut v0_star, mut vop_star) = (0, beta);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, vop) = if ctx.ply(kid) >= horizon {
                (0, ctx.eval(kid, op))
            } else {
                let (v0, vop, _) = beta_1p(ctx, kid, vop_star, op);
                (v0, vop)
            };
            if vop < vop_star {
                vop_star = vop;
                v0_star = v0;
                best = i;
            }
        }
        // Line 18 (its `v_0` is the `v_0*` that is returned).
        if ctx.ply(&kids[best]) >= horizon && vop_star < beta {
            v0_star = ctx.eval(&kids[best], 0);
        }
        (v0_star, vop_star, best)
    }
}

/// Alg 3.8 `OmSearchBetaPb(h, β)`, optionally with a transposition table in the probes.
fn beta_pb<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    mut tt: Option<&mut TransTable>,
    node: &T::Node,
    beta: i32,
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
        let (mut v0_star, mut best) = (-INF, 0);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v0, _) = beta_pb(ctx, tt.as_deref_mut(), kid, beta, op);
            if v0 > v0_star {
                v0_star = v0;
                best = i;
            }
        }
        (v0_star, best)
    } else {
        // Line 10: probe with window [−∞, β]; line 11: β-passing with v+1.
        let (vop, m) = match tt.as_deref_mut() {
            Some(table) => alpha_beta_tt(ctx, table, node, -INF, beta, op, horizon, true),
            None => alpha_beta(ctx, node, -INF, beta, op, horizon),
        };
        let (v0, _) = beta_pb(ctx, tt, &kids[m], vop.saturating_add(1), op);
        (v0, m)
    }
}

/// `OM^β1p` (Alg 3.7) with MIN's evaluation `V_op`.
pub fn om_search_beta_1p<T: GameTree>(tree: &T, op: usize) -> Result<TreeResult, TreeError> {
    check_eval(tree, op, "OmSearchBeta1p")?;
    let mut ctx = Ctx::new(tree);
    let (v, _, m) = beta_1p(&mut ctx, &tree.root(), INF, op);
    Ok(ctx.result(v, m))
}

/// `OM^βPb` (Alg 3.8) with MIN's evaluation `V_op`.
pub fn om_search_beta_pb<T: GameTree>(tree: &T, op: usize) -> Result<TreeResult, TreeError> {
    check_eval(tree, op, "OmSearchBetaPb")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = beta_pb(&mut ctx, None, &tree.root(), INF, op);
    Ok(ctx.result(v, m))
}

/// `OM^βPb` (Alg 3.8) whose probes use the transposition table `tt` (cleared first; keyed by
/// path). Reuse one table across trees to avoid reallocating it.
pub fn om_search_beta_pb_tt<T: GameTree>(
    tree: &T,
    op: usize,
    tt: &mut TransTable,
) -> Result<TreeResult, TreeError> {
    beta_pb_tt(tree, op, tt, false)
}

/// `OM^βPb` with a table whose probes are principal-variation searches (thesis §3.4.6: PV
/// search "is appropriate inside the α-β probes ... the information in the transposition
/// tables of a previous probe will lead to a good move ordering and less re-searches").
/// Same value and move as Alg 3.8.
pub fn om_search_beta_pb_tt_pvs<T: GameTree>(
    tree: &T,
    op: usize,
    tt: &mut TransTable,
) -> Result<TreeResult, TreeError> {
    beta_pb_tt(tree, op, tt, true)
}

fn beta_pb_tt<T: GameTree>(
    tree: &T,
    op: usize,
    tt: &mut TransTable,
    pvs: bool,
) -> Result<TreeResult, TreeError> {
    check_eval(tree, op, "OmSearchBetaPb+TT")?;
    tt.clear();
    let mut ctx = Ctx::new(tree);
    ctx.pvs = pvs;
    let (v, m) = beta_pb(&mut ctx, Some(tt), &tree.root(), INF, op);
    Ok(ctx.result(v, m))
}
