//! Uniform well-ordered trees and the best-case evaluation counts of thesis §3.3: formula 3.1
//! (α-β, Knuth & Moore), formula 3.9 (`OM^β1p`, Theorem 1) and formula 3.10 (`OM^βPb`).
//!
//! In a well-ordered tree the children of MAX nodes are sorted by decreasing and the children
//! of MIN nodes by increasing subgame value (§3.3.1). We build one by giving the leaf reached by
//! the move indices `i_0 … i_{d−1}` the value `Σ_k s_k · i_k · w^{d−1−k}` with `s_k = −1` at MAX
//! plies and `+1` at MIN plies: all siblings' subtrees are identical up to the term of the move
//! that leads to them, so every sibling order is strict. All evaluation functions are equal
//! (then OM search coincides with Minimax and every algorithm sees the same best case).

use super::random::child_key;
use super::tree::{GameTree, MAX_WIDTH, TreeError, is_max_ply};

/// A node of a [`WellOrderedTree`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrderedNode {
    /// Partial sum of the leaf-value terms along the path.
    pub acc: i32,
    /// Path key.
    pub key: u64,
    /// Distance from the root.
    pub ply: u8,
}

/// A uniform well-ordered tree of depth `d` and width `w` with `n` identical evaluations.
#[derive(Clone, Debug)]
pub struct WellOrderedTree {
    depth: usize,
    width: usize,
    nopp: usize,
    weights: [i32; 32],
}

impl WellOrderedTree {
    /// Depth `d`, width `w`, `nopp` evaluation functions (all equal). Needs `w^d < 500 000`.
    pub fn new(depth: usize, width: usize, nopp: usize) -> Result<Self, TreeError> {
        if !(2..=MAX_WIDTH).contains(&width) || !(1..=31).contains(&depth) {
            return Err(TreeError(format!(
                "well-ordered tree: need 2 <= width <= {MAX_WIDTH} and 1 <= depth <= 31"
            )));
        }
        if (width as f64).powi(depth as i32) >= 500_000.0 {
            return Err(TreeError(format!(
                "well-ordered tree: width^depth = {width}^{depth} too large"
            )));
        }
        if nopp == 0 || nopp > super::tree::MAX_EVALS {
            return Err(TreeError(format!(
                "{nopp} evaluation functions unsupported"
            )));
        }
        let mut weights = [0i32; 32];
        for (k, wt) in weights.iter_mut().enumerate().take(depth) {
            *wt = (width as i32).pow((depth - 1 - k) as u32);
        }
        Ok(WellOrderedTree {
            depth,
            width,
            nopp,
            weights,
        })
    }
}

impl GameTree for WellOrderedTree {
    type Node = OrderedNode;

    fn root(&self) -> OrderedNode {
        OrderedNode::default()
    }
    fn depth(&self) -> usize {
        self.depth
    }
    fn num_evals(&self) -> usize {
        self.nopp
    }
    fn ply(&self, node: &OrderedNode) -> usize {
        usize::from(node.ply)
    }
    fn key(&self, node: &OrderedNode) -> u64 {
        node.key
    }
    fn children(&self, node: &OrderedNode, out: &mut [OrderedNode; MAX_WIDTH]) -> usize {
        let ply = usize::from(node.ply);
        if ply >= self.depth {
            return 0;
        }
        let sign = if is_max_ply(ply) { -1 } else { 1 };
        for (i, child) in out.iter_mut().take(self.width).enumerate() {
            *child = OrderedNode {
                acc: node.acc + sign * i as i32 * self.weights[ply],
                key: child_key(node.key, i),
                ply: node.ply + 1,
            };
        }
        self.width
    }
    fn evaluate(&self, node: &OrderedNode, _e: usize) -> i32 {
        node.acc
    }
}

fn pow(w: u64, e: u64) -> u64 {
    w.pow(e as u32)
}

/// Formula 3.1: best-case α-β leaf evaluations `w^⌊d/2⌋ + w^⌈d/2⌉ − 1`.
pub fn formula_alpha_beta(d: u64, w: u64) -> u64 {
    pow(w, d / 2) + pow(w, d.div_ceil(2)) - 1
}

/// Formula 3.9: best-case `OM^β1p` evaluations `w^⌈d/2⌉ + w^⌊d/2⌋ + (w−1)·⌈d/2⌉·w^⌊d/2⌋`.
pub fn formula_om_beta_1p(d: u64, w: u64) -> u64 {
    pow(w, d.div_ceil(2)) + pow(w, d / 2) + (w - 1) * d.div_ceil(2) * pow(w, d / 2)
}

/// Formula 3.10 (first line): best-case `OM^βPb` evaluations
/// `w^⌈d/2⌉ + Σ_{i=1}^{⌈d/2⌉} w^i · C_αβ(d−2i+1, w)`. For odd `d` the last term counts a
/// depth-0 probe (one evaluation) at each of the `w^⌈d/2⌉` leaf MIN nodes, which Alg 3.8 does
/// not make (line 1 returns `V_0` at once): the algorithm then needs `w^⌈d/2⌉` fewer.
pub fn formula_om_beta_pb(d: u64, w: u64) -> u64 {
    let half = d.div_ceil(2);
    let mut total = pow(w, half);
    for i in 1..=half {
        total += pow(w, i) * formula_alpha_beta(d + 1 - 2 * i, w);
    }
    total
}

/// Formula 3.10 (closed form, last line), equal to [`formula_om_beta_pb`].
pub fn formula_om_beta_pb_closed(d: u64, w: u64) -> u64 {
    let half = d.div_ceil(2);
    pow(w, half) + half * (pow(w, d.div_ceil(2)) + pow(w, (d + 1).div_ceil(2)))
        - (pow(w, half + 1) - w) / (w - 1)
}
