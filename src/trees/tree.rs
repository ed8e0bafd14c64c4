//! The game-tree abstraction every algorithm of this module searches, the evaluation counter
//! and the result types. Trees follow Donkers' notation (thesis §1.2, §3.1.1): histories `h`
//! are nodes, `m(h)` the ordered move list, `p(h)` the player (MAX at even ply, the root being
//! MAX) and `V_j(h)` the evaluation functions (index 0 is MAX's own `V_0`, the others are
//! opponent types `V_op`, `V_ω1`, …). Evaluation counts follow the conventions of
//! `random-trees.md`: every call of an evaluation function counts one.

/// Largest number of children a node may have (children live in a stack array of this size).
pub const MAX_WIDTH: usize = 32;

/// Largest number of evaluation functions a tree may carry (`V_0` plus opponent types).
pub const MAX_EVALS: usize = 8;

/// "Infinity" for integer node values; evaluations stay far inside (they are 16-bit).
pub const INF: i32 = 1_000_000;

/// Marker for "no move" inside the searches (public results use `Option<usize>`).
pub(crate) const NO_MOVE: usize = usize::MAX;

/// A finite game tree whose nodes are generated on demand (nothing is stored).
pub trait GameTree {
    /// A node: small, copied freely, generated from its parent.
    type Node: Copy + Default;

    /// The root (a MAX node at ply 0).
    fn root(&self) -> Self::Node;

    /// Ply of the leaves for the plain algorithms (the set `E` of the thesis).
    fn depth(&self) -> usize;

    /// Number of evaluation functions `V_0 … V_{n−1}` available at every node.
    fn num_evals(&self) -> usize;

    /// Distance of `node` from the root.
    fn ply(&self, node: &Self::Node) -> usize;

    /// A 64-bit key of the node's path from the root (used by transposition tables).
    fn key(&self, node: &Self::Node) -> u64;

    /// Writes the children of `node` in move order into `out` and returns their number
    /// (at most [`MAX_WIDTH`]). Nodes at or beyond [`GameTree::depth`] may return 0.
    fn children(&self, node: &Self::Node, out: &mut [Self::Node; MAX_WIDTH]) -> usize;

    /// Evaluation function `V_e` at `node` (`e < num_evals()`); defined at every node so that
    /// MAX and MIN may use different horizons (thesis §2.3.2, formulas 2.12/2.13).
    fn evaluate(&self, node: &Self::Node, e: usize) -> i32;
}

/// Whether `ply` belongs to MAX (the root is MAX and the players alternate).
#[inline]
pub fn is_max_ply(ply: usize) -> bool {
    ply.is_multiple_of(2)
}

/// Leaf-evaluation counts per evaluation function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalCount {
    /// `per_eval[j]` = number of calls of `V_j`.
    pub per_eval: [u64; MAX_EVALS],
}

impl EvalCount {
    /// All evaluation-function calls together (the count the thesis' figures use).
    pub fn total(&self) -> u64 {
        self.per_eval.iter().sum()
    }
}

/// Result of an algorithm whose root value is an integer (α-β, OM, M*, bounded-sum).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeResult {
    /// Root value for MAX.
    pub value: i32,
    /// MAX's chosen move at the root (index into the move list), `None` at a leaf root.
    pub best: Option<usize>,
    /// Evaluation-function calls made.
    pub evals: EvalCount,
}

/// Result of a PrOM search: the root value is an expected value (thesis formula 6.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PromResult {
    /// Expected root value for MAX.
    pub value: f64,
    /// MAX's chosen move at the root, `None` at a leaf root.
    pub best: Option<usize>,
    /// Evaluation-function calls made.
    pub evals: EvalCount,
}

/// A bad parameter given to one of the searches (never a panic).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeError(pub String);

impl std::fmt::Display for TreeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TreeError {}

/// Search context: the tree, the evaluation counter and the probe style (passed explicitly,
/// no globals).
pub(crate) struct Ctx<'a, T: GameTree> {
    pub tree: &'a T,
    pub evals: EvalCount,
    /// Principal-variation (null-window) search inside the table-backed α-β
    /// ([`super::minimax`]): thesis §3.4.6: "the application of PV search is appropriate
    /// inside the α-β probes".
    pub pvs: bool,
}

impl<'a, T: GameTree> Ctx<'a, T> {
    pub fn new(tree: &'a T) -> Self {
        Ctx {
            tree,
            evals: EvalCount::default(),
            pvs: false,
        }
    }

    /// Calls `V_e(node)` and counts it.
    #[inline]
    pub fn eval(&mut self, node: &T::Node, e: usize) -> i32 {
        self.evals.per_eval[e] += 1;
        self.tree.evaluate(node, e)
    }

    #[inline]
    pub fn ply(&self, node: &T::Node) -> usize {
        self.tree.ply(node)
    }

    #[inline]
    pub fn children(&self, node: &T::Node, out: &mut [T::Node; MAX_WIDTH]) -> usize {
        self.tree.children(node, out).min(MAX_WIDTH)
    }

    pub fn result(&self, value: i32, best: usize) -> TreeResult {
        TreeResult {
            value,
            best: (best != NO_MOVE).then_some(best),
            evals: self.evals,
        }
    }

    pub fn prom_result(&self, value: f64, best: usize) -> PromResult {
        PromResult {
            value,
            best: (best != NO_MOVE).then_some(best),
            evals: self.evals,
        }
    }
}

/// Checks that evaluation function `e` exists on `tree`.
pub(crate) fn check_eval<T: GameTree>(tree: &T, e: usize, what: &str) -> Result<(), TreeError> {
    if e < tree.num_evals() && e < MAX_EVALS {
        Ok(())
    } else {
        Err(TreeError(format!(
            "{what}: evaluation function {e} does not exist (tree has {})",
            tree.num_evals()
        )))
    }
}

/// Checks that a horizon lies within the tree.
pub(crate) fn check_horizon<T: GameTree>(
    tree: &T,
    horizon: usize,
    what: &str,
) -> Result<(), TreeError> {
    if horizon <= tree.depth() {
        Ok(())
    } else {
        Err(TreeError(format!(
            "{what}: horizon {horizon} exceeds the tree depth {}",
            tree.depth()
        )))
    }
}
