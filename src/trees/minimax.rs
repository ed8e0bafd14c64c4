//! α-β search (Donkers 2003, Alg 3.1): fail-hard, MAX starts at α and MIN at β, children in
//! move order, the first strictly better child wins. Also the two probe variants the OM
//! algorithms need: a root probe that returns *all* best moves (Alg 3.5 line 10, "a list of all
//! best choices") and a probe with a transposition table (thesis §3.4.2, §5.2.4), optionally
//! as principal-variation search (PVS, which §3.4.6 calls "appropriate inside the α-β probes").
//! Every evaluation function call is counted (`random-trees.md` conventions).

use super::trans_table::{Bound, TransTable};
use super::tree::{Ctx, GameTree, MAX_WIDTH, NO_MOVE, TreeError, TreeResult, is_max_ply};
use super::tree::{INF, check_eval};

/// Alg 3.1 `AlphaBetaSearch(h, α, β, V)`: returns (value, best move). Nodes at ply `horizon`
/// (or without children) are leaves of this search (the set `E` of the thesis).
pub(crate) fn alpha_beta<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    alpha: i32,
    beta: i32,
    e: usize,
    horizon: usize,
) -> (i32, usize) {
    let ply = ctx.ply(node);
    if ply >= horizon {
        return (ctx.eval(node, e), NO_MOVE);
    }
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = ctx.children(node, &mut kids);
    if n == 0 {
        return (ctx.eval(node, e), NO_MOVE);
    }
    let mut best = 0;
    if is_max_ply(ply) {
        let mut v_star = alpha;
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v, _) = alpha_beta(ctx, kid, v_star, beta, e, horizon);
            if v > v_star {
                v_star = v;
                best = i;
            }
            if v_star >= beta {
                break;
            }
        }
        (v_star, best)
    } else {
        let mut v_star = beta;
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v, _) = alpha_beta(ctx, kid, alpha, v_star, e, horizon);
            if v < v_star {
                v_star = v;
                best = i;
            }
            if v_star <= alpha {
                break;
            }
        }
        (v_star, best)
    }
}

/// Probe at a MIN node that returns the minimal value and *all* moves attaining it, in move
/// order (Alg 3.5 line 10). Each child is searched with window `[−∞, v*+1]`, so children that
/// tie with the best so far come back exact. Returns (value, number of moves in `list`).
pub(crate) fn alpha_beta_all_best<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    e: usize,
    horizon: usize,
    list: &mut [usize; MAX_WIDTH],
) -> (i32, usize) {
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = ctx.children(node, &mut kids);
    if n == 0 || ctx.ply(node) >= horizon {
        return (ctx.eval(node, e), 0);
    }
    let mut best = INF;
    let mut count = 0;
    for (i, kid) in kids.iter().take(n).enumerate() {
        let beta = if best >= INF { INF } else { best + 1 };
        let (v, _) = alpha_beta(ctx, kid, -INF, beta, e, horizon);
        if v < best {
            best = v;
            list[0] = i;
            count = 1;
        } else if v == best {
            list[count] = i;
            count += 1;
        }
    }
    (best, count)
}

/// Alg 3.1 with a transposition table: entries cut off when their bound allows it, and the
/// stored best move is tried first. At the probe's own root (`is_root`) the table is not used
/// for a cut-off and the returned move is the *first* best one in move order, exactly as in
/// Alg 3.1 (OM search depends on which move MIN picks among equals).
#[allow(clippy::too_many_arguments)]
pub(crate) fn alpha_beta_tt<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    tt: &mut TransTable,
    node: &T::Node,
    alpha: i32,
    beta: i32,
    e: usize,
    horizon: usize,
    is_root: bool,
) -> (i32, usize) {
    let ply = ctx.ply(node);
    let key = ctx.tree.key(node);
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    if n == 0 {
        if tt.stores_leaves() {
            if let Some(en) = tt.probe(key) {
                return (en.value, NO_MOVE);
            }
            let v = ctx.eval(node, e);
            tt.store(key, ply, v, Bound::Exact, NO_MOVE);
            return (v, NO_MOVE);
        }
        return (ctx.eval(node, e), NO_MOVE);
    }
    let mut hint = NO_MOVE;
    if let Some(en) = tt.probe(key) {
        let best = usize::from(en.best);
        if !is_root {
            match en.bound {
                Bound::Exact => return (en.value, best),
                Bound::Lower if en.value >= beta => return (en.value, best),
                Bound::Upper if en.value <= alpha => return (en.value, best),
                _ => {}
            }
        }
        if best < n {
            hint = best;
        }
    }
    if is_root {
        return alpha_beta_tt_root(ctx, tt, &kids[..n], ply, key, alpha, beta, e, horizon, hint);
    }
    // Move `idx` of the search order: the hinted move first, then the others in order.
    let order = |idx: usize| -> usize {
        if hint == NO_MOVE {
            idx
        } else if idx == 0 {
            hint
        } else if idx <= hint {
            idx - 1
        } else {
            idx
        }
    };
    let mut best = order(0);
    let (v_star, bound) = if is_max_ply(ply) {
        // Fail-soft inside the probe: the stored bounds are as tight as the search found.
        let mut v_star = -INF;
        for idx in 0..n {
            let i = order(idx);
            let a = alpha.max(v_star);
            let v = pvs_child(ctx, tt, &kids[i], a, beta, e, horizon, idx > 0, true);
            if v > v_star {
                v_star = v;
                best = i;
            }
            if v_star >= beta {
                break;
            }
        }
        let bound = if v_star <= alpha {
            Bound::Upper
        } else if v_star >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        (v_star, bound)
    } else {
        let mut v_star = INF;
        for idx in 0..n {
            let i = order(idx);
            let b = beta.min(v_star);
            let v = pvs_child(ctx, tt, &kids[i], alpha, b, e, horizon, idx > 0, false);
            if v < v_star {
                v_star = v;
                best = i;
            }
            if v_star <= alpha {
                break;
            }
        }
        let bound = if v_star >= beta {
            Bound::Lower
        } else if v_star <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        (v_star, bound)
    };
    let stored_best =
        if bound == Bound::Upper && is_max_ply(ply) || bound == Bound::Lower && !is_max_ply(ply) {
            NO_MOVE
        } else {
            best
        };
    tt.store(key, ply, v_star, bound, stored_best);
    (v_star, best)
}

/// The root of a probe with a table: the table's move is searched first, yet the *first* best
/// move in move order is returned, as Alg 3.1 would return it. A move before the current best
/// only has to equal it (window edge `best ± 1`), a move after it has to beat it; values inside
/// these windows are exact because the other window edge is the probe's own.
#[allow(clippy::too_many_arguments)]
fn alpha_beta_tt_root<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    tt: &mut TransTable,
    kids: &[T::Node],
    ply: usize,
    key: u64,
    alpha: i32,
    beta: i32,
    e: usize,
    horizon: usize,
    hint: usize,
) -> (i32, usize) {
    let n = kids.len();
    let max = is_max_ply(ply);
    let first = if hint < n { hint } else { 0 };
    let mut best_idx = NO_MOVE;
    let mut best_v = if max { alpha } else { beta };
    for idx in 0..n {
        let j = if idx == 0 {
            first
        } else if idx <= first {
            idx - 1
        } else {
            idx
        };
        let earlier = best_idx != NO_MOVE && j < best_idx;
        // With PVS, every move after the first is tried with a null window first.
        let null = best_idx != NO_MOVE;
        if max {
            let lo = if earlier { best_v - 1 } else { best_v };
            let v = pvs_child(ctx, tt, &kids[j], lo, beta, e, horizon, null, true);
            if v > lo {
                best_v = v;
                best_idx = j;
            }
            if best_v >= beta {
                break;
            }
        } else {
            let hi = if earlier { best_v + 1 } else { best_v };
            let v = pvs_child(ctx, tt, &kids[j], alpha, hi, e, horizon, null, false);
            if v < hi {
                best_v = v;
                best_idx = j;
            }
            if best_v <= alpha {
                break;
            }
        }
    }
    let bound = if best_v >= beta {
        Bound::Lower
    } else if best_v <= alpha {
        Bound::Upper
    } else {
        Bound::Exact
    };
    tt.store(key, ply, best_v, bound, best_idx);
    (best_v, if best_idx == NO_MOVE { 0 } else { best_idx })
}

/// α-β search of the whole tree with evaluation function `V_e` (Alg 3.1 with window
/// `[−∞, +∞]`): the Minimax value and move. This is the baseline of every count ratio.
pub fn alpha_beta_search<T: GameTree>(tree: &T, e: usize) -> Result<TreeResult, TreeError> {
    check_eval(tree, e, "alpha-beta")?;
    let mut ctx = Ctx::new(tree);
    let root = tree.root();
    let (v, m) = alpha_beta(&mut ctx, &root, -INF, INF, e, tree.depth());
    Ok(ctx.result(v, m))
}

/// A child searched within (`alpha`, `beta`) for a value beyond its parent's bound: above
/// `alpha` at a MAX parent, below `beta` at a MIN parent. With PVS and `null` (not the first
/// move) a null window at that bound first proves the move no better, and the exact value
/// is searched only if it is better (the table keeps the first pass). Same result either way.
#[allow(clippy::too_many_arguments)]
fn pvs_child<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    tt: &mut TransTable,
    kid: &T::Node,
    alpha: i32,
    beta: i32,
    e: usize,
    horizon: usize,
    null: bool,
    max_parent: bool,
) -> i32 {
    if !(null && ctx.pvs) || alpha + 1 >= beta {
        return alpha_beta_tt(ctx, tt, kid, alpha, beta, e, horizon, false).0;
    }
    let (a, b) = if max_parent {
        (alpha, alpha + 1)
    } else {
        (beta - 1, beta)
    };
    let (t, _) = alpha_beta_tt(ctx, tt, kid, a, b, e, horizon, false);
    if t > alpha && t < beta {
        let (a, b) = if max_parent {
            (t - 1, beta)
        } else {
            (alpha, t + 1)
        };
        alpha_beta_tt(ctx, tt, kid, a, b, e, horizon, false).0
    } else {
        t
    }
}

/// α-β with the probe machinery over the whole tree: a transposition table (cleared first)
/// and, with `pvs`, principal-variation search — the baseline that has the same enhancements
/// as `OM^βPb` with a table and PVS in its probes. Same value and move as Alg 3.1.
pub fn alpha_beta_tt_search<T: GameTree>(
    tree: &T,
    e: usize,
    tt: &mut TransTable,
    pvs: bool,
) -> Result<TreeResult, TreeError> {
    check_eval(tree, e, if pvs { "PVS" } else { "alpha-beta+TT" })?;
    tt.clear();
    let mut ctx = Ctx::new(tree);
    ctx.pvs = pvs;
    let root = tree.root();
    let (v, m) = alpha_beta_tt(&mut ctx, tt, &root, -INF, INF, e, tree.depth(), true);
    Ok(ctx.result(v, m))
}

/// Plain Minimax with `V_e` (no pruning): the reference value for the tests.
pub fn minimax<T: GameTree>(tree: &T, e: usize) -> Result<TreeResult, TreeError> {
    check_eval(tree, e, "minimax")?;
    fn mm<T: GameTree>(ctx: &mut Ctx<'_, T>, node: &T::Node, e: usize) -> (i32, usize) {
        let mut kids = [T::Node::default(); MAX_WIDTH];
        let n = ctx.children(node, &mut kids);
        if n == 0 {
            return (ctx.eval(node, e), NO_MOVE);
        }
        let max = is_max_ply(ctx.ply(node));
        let mut best = (if max { -INF } else { INF }, 0);
        for (i, kid) in kids.iter().take(n).enumerate() {
            let (v, _) = mm(ctx, kid, e);
            if (max && v > best.0) || (!max && v < best.0) {
                best = (v, i);
            }
        }
        best
    }
    let mut ctx = Ctx::new(tree);
    let root = tree.root();
    let (v, m) = mm(&mut ctx, &root, e);
    Ok(ctx.result(v, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::random::{Quantized, RandomTree};

    /// With every value tied, a probe root whose table move is a later one must still return
    /// move 0, the first best in move order — with and without PVS, at MIN and MAX roots.
    #[test]
    fn table_root_returns_the_first_best_move_among_ties() {
        let tree = Quantized::new(RandomTree::new(5, 4, 3, 2).unwrap(), 1 << 20).unwrap();
        let root = tree.root();
        let mut kids = [<_>::default(); MAX_WIDTH];
        let n = tree.children(&root, &mut kids);
        assert_eq!(n, 3);
        for node in [root, kids[1]] {
            let ply = tree.ply(&node);
            for pvs in [false, true] {
                for hint in 0..3 {
                    let mut tt = TransTable::new(10, true);
                    tt.store(tree.key(&node), ply, 0, Bound::Exact, hint);
                    let mut ctx = Ctx::new(&tree);
                    ctx.pvs = pvs;
                    let (v, m) =
                        alpha_beta_tt(&mut ctx, &mut tt, &node, -INF, INF, 1, tree.depth(), true);
                    assert_eq!((v, m), (0, 0), "ply {ply} pvs {pvs} hint {hint}");
                }
            }
        }
    }
}
