//! M* search with nested (recursive) opponent models (Carmel & Markovitch, "Incorporating
//! Opponent Models into Adversary Search", the M* and M*₁ₚₐₛₛ procedures; Donkers 2003 §2.4.4,
//! formulas 2.17/2.18). Model level `i` evaluates with `V_i` and belongs to MAX for even `i`
//! (`V_0` is MAX's own function, `V_1` MIN's, `V_2` MIN's model of MAX, …); the innermost
//! level `n` is a Minimax player.
//!
//! All evaluation functions score positions from MAX's point of view, as in the rest of the
//! thesis: the player to move maximises (MAX) or minimises (MIN) its own level's value. (2.17
//! writes `max arg v_{i+1}` at the other player's nodes in Carmel & Markovitch's convention of
//! two maximisers; with MAX-viewpoint values that is the mover's own direction.) So
//! `v_i(h)` = best-for-`p(h)` child value of `v_i` when `p(h) = p(V_i)`, otherwise `v_i` of the
//! child that level `i+1` chooses; `v_n` is Minimax on `V_n`. With `n = 1` this is OM search
//! (2.10/2.11) and the multi-pass version is exactly Alg 3.3 (`OmSearchPb`), the innermost
//! level being searched by α-β ("simple pruning").

use super::minimax::alpha_beta;
use super::tree::{
    Ctx, GameTree, INF, MAX_EVALS, MAX_WIDTH, NO_MOVE, TreeError, TreeResult, is_max_ply,
};

/// Whether model level `i` belongs to MAX.
#[inline]
fn level_is_max(i: usize) -> bool {
    i.is_multiple_of(2)
}

/// Multi-pass M*: value `v_i(h)` and the move chosen at `h` by level `i`'s reasoning.
fn mstar_mp<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    i: usize,
    levels: usize,
) -> (i32, usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    if i == levels {
        return alpha_beta(ctx, node, -INF, INF, i, horizon);
    }
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    if n == 0 {
        return (ctx.eval(node, i), NO_MOVE);
    }
    let max = is_max_ply(ply);
    if max == level_is_max(i) {
        let (mut best_v, mut best) = (if max { -INF } else { INF }, 0);
        for (j, kid) in kids.iter().take(n).enumerate() {
            let (v, _) = mstar_mp(ctx, kid, i, levels);
            if (max && v > best_v) || (!max && v < best_v) {
                best_v = v;
                best = j;
            }
        }
        (best_v, best)
    } else {
        // The mover is level i+1: simulate its search, then evaluate its choice with level i.
        let (_, m) = mstar_mp(ctx, node, i + 1, levels);
        let (v, _) = mstar_mp(ctx, &kids[m], i, levels);
        (v, m)
    }
}

/// One-pass M*: the vector `[v_0, …, v_n]` and MAX's move (level 0's choice) at `h`.
fn mstar_1p<T: GameTree>(
    ctx: &mut Ctx<'_, T>,
    node: &T::Node,
    levels: usize,
) -> ([i32; MAX_EVALS], usize) {
    let horizon = ctx.tree.depth();
    let ply = ctx.ply(node);
    let mut kids = [T::Node::default(); MAX_WIDTH];
    let n = if ply >= horizon {
        0
    } else {
        ctx.children(node, &mut kids)
    };
    let mut vals = [0i32; MAX_EVALS];
    if n == 0 {
        for (i, v) in vals.iter_mut().enumerate().take(levels + 1) {
            *v = ctx.eval(node, i);
        }
        return (vals, NO_MOVE);
    }
    let max = is_max_ply(ply);
    let mut child_vals = [[0i32; MAX_EVALS]; MAX_WIDTH];
    // best[k] = first child that is best for the mover by v_k.
    let mut best = [0usize; MAX_EVALS];
    for (j, kid) in kids.iter().take(n).enumerate() {
        child_vals[j] = mstar_1p(ctx, kid, levels).0;
        if j > 0 {
            for k in 0..=levels {
                let (v, b) = (child_vals[j][k], child_vals[best[k]][k]);
                if (max && v > b) || (!max && v < b) {
                    best[k] = j;
                }
            }
        }
    }
    for (i, v) in vals.iter_mut().enumerate().take(levels + 1) {
        // Level i follows its own choice at its own nodes (and Minimax at the innermost level),
        // else the choice of the mover's model, level i+1.
        let chooser = if max == level_is_max(i) || i == levels {
            i
        } else {
            i + 1
        };
        *v = child_vals[best[chooser]][i];
    }
    let root_move = if max == level_is_max(0) {
        best[0]
    } else {
        best[1.min(levels)]
    };
    (vals, root_move)
}

fn check_levels<T: GameTree>(tree: &T, levels: usize, what: &str) -> Result<(), TreeError> {
    if levels < MAX_EVALS && levels < tree.num_evals() {
        Ok(())
    } else {
        Err(TreeError(format!(
            "{what}: {levels} model levels need {} evaluation functions, the tree has {}",
            levels + 1,
            tree.num_evals()
        )))
    }
}

/// Multi-pass M* (Carmel & Markovitch's M*, with α-β at the innermost level) for a player with
/// `levels` nested models using `V_0 … V_levels`. `levels = 0` is α-β, `levels = 1` is Alg 3.3.
pub fn m_star<T: GameTree>(tree: &T, levels: usize) -> Result<TreeResult, TreeError> {
    check_levels(tree, levels, "M*")?;
    let mut ctx = Ctx::new(tree);
    let (v, m) = mstar_mp(&mut ctx, &tree.root(), 0, levels);
    Ok(ctx.result(v, m))
}

/// One-pass M* (Carmel & Markovitch's M*₁ₚₐₛₛ; formulas 2.17/2.18 computed bottom-up).
pub fn m_star_1pass<T: GameTree>(tree: &T, levels: usize) -> Result<TreeResult, TreeError> {
    check_levels(tree, levels, "M*1pass")?;
    let mut ctx = Ctx::new(tree);
    let (vals, m) = mstar_1p(&mut ctx, &tree.root(), levels);
    Ok(ctx.result(vals[0], m))
}
