//! Best-case evaluation counts on uniform well-ordered trees (thesis §3.3): formula 3.1 for α-β,
//! formula 3.9 for `OM^β1p` (Alg 3.7), and formula 3.10 for `OM^βPb` (Alg 3.8) — exact for even
//! depth; for odd depth the formula's last term counts a depth-0 probe (one evaluation) at each
//! of the `w^⌈d/2⌉` leaf MIN nodes, which Alg 3.8 does not make (line 1 returns `V_0` at once),
//! so the algorithm needs exactly `w^⌈d/2⌉` evaluations fewer.

use nosce::trees::ordered::{
    formula_alpha_beta, formula_om_beta_1p, formula_om_beta_pb, formula_om_beta_pb_closed,
};
use nosce::trees::*;

#[test]
fn formula_3_1_alpha_beta() {
    for d in 1..=8u64 {
        for w in 2..=5u64 {
            let t = WellOrderedTree::new(d as usize, w as usize, 2).unwrap();
            let r = alpha_beta_search(&t, 0).unwrap();
            assert_eq!(r.evals.total(), formula_alpha_beta(d, w), "d {d} w {w}");
            assert_eq!(r.best, Some(0));
        }
    }
}

#[test]
fn formula_3_9_om_beta_1p() {
    for d in 1..=8u64 {
        for w in 2..=5u64 {
            let t = WellOrderedTree::new(d as usize, w as usize, 2).unwrap();
            let r = om_search_beta_1p(&t, 1).unwrap();
            assert_eq!(r.evals.total(), formula_om_beta_1p(d, w), "d {d} w {w}");
        }
    }
}

#[test]
fn formula_3_10_om_beta_pb() {
    for d in 1..=8u64 {
        for w in 2..=5u64 {
            assert_eq!(
                formula_om_beta_pb(d, w),
                formula_om_beta_pb_closed(d, w),
                "d {d} w {w}"
            );
            let t = WellOrderedTree::new(d as usize, w as usize, 2).unwrap();
            let r = om_search_beta_pb(&t, 1).unwrap();
            let missing_leaf_probes = if d % 2 == 1 {
                w.pow(d.div_ceil(2) as u32)
            } else {
                0
            };
            assert_eq!(
                r.evals.total(),
                formula_om_beta_pb(d, w) - missing_leaf_probes,
                "d {d} w {w}"
            );
        }
    }
}

#[test]
fn well_ordered_trees_are_sorted() {
    // Children of MAX nodes in decreasing, of MIN nodes in increasing Minimax value.
    let t = WellOrderedTree::new(4, 3, 1).unwrap();
    let mut kids = [Default::default(); MAX_WIDTH];
    let n = t.children(&t.root(), &mut kids);
    let vals: Vec<i32> = (0..n)
        .map(|i| {
            let mut g = [Default::default(); MAX_WIDTH];
            let m = t.children(&kids[i], &mut g);
            (0..m).map(|j| subtree_minimax(&t, &g[j])).min().unwrap()
        })
        .collect();
    assert!(vals.windows(2).all(|p| p[0] > p[1]), "{vals:?}");
}

fn subtree_minimax(t: &WellOrderedTree, n: &<WellOrderedTree as GameTree>::Node) -> i32 {
    let mut kids = [Default::default(); MAX_WIDTH];
    let c = t.children(n, &mut kids);
    if c == 0 {
        return t.evaluate(n, 0);
    }
    let vals = (0..c).map(|i| subtree_minimax(t, &kids[i]));
    if t.ply(n) % 2 == 0 {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}
