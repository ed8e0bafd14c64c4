//! Random game trees bit for bit as in Donkers' experiments (thesis §5.2.1, Fig 5.1, §7.2;
//! the `MTRandomGame` procedure of his experiment code), plus two derived trees:
//! bounded-difference trees for bounded-sum pruning (thesis §3.2.4, Algs 3.9/3.10) and a
//! quantising wrapper that makes equal evaluations (ties, thesis §2.3.2) frequent.
//!
//! Every node carries `nopp` cumulative base sums. Expanding a node reseeds MT19937 with the low
//! 32 bits of the IEEE bits of its cumulative `base[0]`, draws the child count with one
//! `nextFloat`, then for each child `i` and each slot `j` draws `u = nextDouble` and sets
//! `child.base[j] = u + parent.base[j]`. `V_j = (short) Math.round(1000 · base[j])`. A tree with
//! `nopp = n` is the multi-evaluator tree of PrOM search (one slot per opponent type, slot 0
//! being MAX's own `V_0`, thesis §6.1.3) and of M* (one slot per model level, §2.4.4).

use super::mt19937::{JavaDraws, LazyMt, Mt19937};
use super::tree::{GameTree, MAX_EVALS, MAX_WIDTH, TreeError};

/// Largest supported depth: a leaf sums `depth + 1` uniforms and `1000 · (depth + 1)` must fit
/// the 16-bit evaluation of the original.
pub const MAX_DEPTH: usize = 31;

const ROOT_KEY: u64 = 0x243F_6A88_85A3_08D3;

/// The path key of child `i` of a node with key `parent` (splitmix64 finaliser).
#[inline]
pub fn child_key(parent: u64, i: usize) -> u64 {
    let mut z = parent ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A node of a [`RandomTree`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RandomNode {
    /// Cumulative base sums, one per evaluation slot (`nopp` of them are used).
    pub base: [f64; MAX_EVALS],
    /// This node's own (non-cumulative) draw of slot 1; used by [`BoundedTree`].
    pub inc1: f64,
    /// Path key.
    pub key: u64,
    /// Distance from the root.
    pub ply: u8,
}

/// Java `(short) Math.round(1000.0 * base)`.
#[inline]
pub fn leaf_value(base: f64) -> i32 {
    // `as` saturates on overflow; the short cast then wraps exactly like Java's.
    i32::from((1000.0 * base).round() as i64 as i16)
}

/// `MTRandomGame(nopp, minw, maxw)` from a root seed, searched to `depth`.
#[derive(Clone, Debug)]
pub struct RandomTree {
    seed: u64,
    depth: usize,
    min_width: usize,
    max_width: usize,
    nopp: usize,
}

impl RandomTree {
    /// A uniform tree of width `width` with `nopp` evaluation slots (2 for OM search).
    pub fn new(seed: u64, depth: usize, width: usize, nopp: usize) -> Result<Self, TreeError> {
        Self::with_widths(seed, depth, width, width, nopp)
    }

    /// A tree whose child counts are drawn uniformly from `min_width..=max_width`.
    pub fn with_widths(
        seed: u64,
        depth: usize,
        min_width: usize,
        max_width: usize,
        nopp: usize,
    ) -> Result<Self, TreeError> {
        if seed as u32 == 0 {
            return Err(TreeError(format!(
                "seed {seed}: the low 32 bits must not be 0 (the generator would output only zeros, \
                 and seed 0 does not reseed in the original)"
            )));
        }
        if depth > MAX_DEPTH {
            return Err(TreeError(format!("depth {depth} exceeds {MAX_DEPTH}")));
        }
        if min_width == 0 || min_width > max_width || max_width > MAX_WIDTH {
            return Err(TreeError(format!(
                "width {min_width}..{max_width} must satisfy 1 <= min <= max <= {MAX_WIDTH}"
            )));
        }
        if nopp == 0 || nopp > MAX_EVALS {
            return Err(TreeError(format!(
                "{nopp} evaluation functions: must be 1..={MAX_EVALS}"
            )));
        }
        Ok(RandomTree {
            seed,
            depth,
            min_width,
            max_width,
            nopp,
        })
    }

    /// The root seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn root_from<R: JavaDraws>(&self, rng: &mut R) -> RandomNode {
        let mut node = RandomNode {
            key: ROOT_KEY,
            ..RandomNode::default()
        };
        for j in 0..self.nopp {
            node.base[j] = rng.next_double();
        }
        node.inc1 = node.base[1];
        node
    }

    fn expand<R: JavaDraws>(
        &self,
        rng: &mut R,
        parent: &RandomNode,
        out: &mut [RandomNode; MAX_WIDTH],
    ) -> usize {
        let span = (self.max_width - self.min_width + 1) as f32;
        // Single-precision product, then widened and floored (Java `(int) Math.floor(...)`).
        let extra = f64::from(rng.next_float() * span).floor() as usize;
        let count = (self.min_width + extra).min(self.max_width);
        for (i, child) in out.iter_mut().take(count).enumerate() {
            child.ply = parent.ply + 1;
            child.key = child_key(parent.key, i);
            for j in 0..self.nopp {
                let u = rng.next_double();
                child.base[j] = u + parent.base[j];
                if j == 1 {
                    child.inc1 = u;
                }
            }
        }
        count
    }
}

impl GameTree for RandomTree {
    type Node = RandomNode;

    fn root(&self) -> RandomNode {
        let mut rng = LazyMt::new(self.seed);
        self.root_from(&mut rng)
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn num_evals(&self) -> usize {
        self.nopp
    }

    #[inline]
    fn ply(&self, node: &RandomNode) -> usize {
        usize::from(node.ply)
    }

    #[inline]
    fn key(&self, node: &RandomNode) -> u64 {
        node.key
    }

    #[inline]
    fn children(&self, node: &RandomNode, out: &mut [RandomNode; MAX_WIDTH]) -> usize {
        if usize::from(node.ply) >= self.depth {
            return 0;
        }
        let seed = node.base[0].to_bits() & 0xFFFF_FFFF;
        if LazyMt::fits(1 + 2 * self.nopp * self.max_width) {
            self.expand(&mut LazyMt::new(seed), node, out)
        } else {
            self.expand(&mut Mt19937::new(seed), node, out)
        }
    }

    #[inline]
    fn evaluate(&self, node: &RandomNode, e: usize) -> i32 {
        leaf_value(node.base[e.min(MAX_EVALS - 1)])
    }
}

/// A bounded-difference tree: `V_0` as in [`RandomTree`] (`nopp = 2`), and
/// `V_op = V_0 + round(B · (2u − 1))` with `u` the node's own slot-1 draw, so that
/// `|V_0 − V_op| ≤ B` everywhere — the precondition of bounded-sum pruning (thesis §3.2.4).
/// (The library's `BDRandomGame` also divides `V_0` by the depth; we keep `V_0` identical to
/// the plain tree so that α-β counts are comparable.)
#[derive(Clone, Debug)]
pub struct BoundedTree {
    inner: RandomTree,
    bound: i32,
}

impl BoundedTree {
    /// A uniform bounded-difference tree with bound `bound ≥ 0`.
    pub fn new(seed: u64, depth: usize, width: usize, bound: i32) -> Result<Self, TreeError> {
        if !(0..=30_000).contains(&bound) {
            return Err(TreeError(format!("bound {bound} must be in 0..=30000")));
        }
        Ok(BoundedTree {
            inner: RandomTree::new(seed, depth, width, 2)?,
            bound,
        })
    }

    /// The bound `B`.
    pub fn bound(&self) -> i32 {
        self.bound
    }
}

impl GameTree for BoundedTree {
    type Node = RandomNode;

    fn root(&self) -> RandomNode {
        self.inner.root()
    }
    fn depth(&self) -> usize {
        self.inner.depth
    }
    fn num_evals(&self) -> usize {
        2
    }
    #[inline]
    fn ply(&self, node: &RandomNode) -> usize {
        usize::from(node.ply)
    }
    #[inline]
    fn key(&self, node: &RandomNode) -> u64 {
        node.key
    }
    #[inline]
    fn children(&self, node: &RandomNode, out: &mut [RandomNode; MAX_WIDTH]) -> usize {
        self.inner.children(node, out)
    }
    #[inline]
    fn evaluate(&self, node: &RandomNode, e: usize) -> i32 {
        let v0 = leaf_value(node.base[0]);
        if e == 0 {
            v0
        } else {
            v0 + (f64::from(self.bound) * (2.0 * node.inc1 - 1.0)).round() as i32
        }
    }
}

/// Wraps a tree and divides every evaluation by `step` (rounding down), so that siblings often
/// tie: the test bed for the tie-breaking rules of enhanced OM search (thesis §2.3.2, Alg 3.4/3.5).
#[derive(Clone, Debug)]
pub struct Quantized<T> {
    inner: T,
    step: i32,
}

impl<T: GameTree> Quantized<T> {
    /// Quantises `inner` with `step ≥ 1`.
    pub fn new(inner: T, step: i32) -> Result<Self, TreeError> {
        if step < 1 {
            return Err(TreeError(format!("quantisation step {step} must be >= 1")));
        }
        Ok(Quantized { inner, step })
    }
}

impl<T: GameTree> GameTree for Quantized<T> {
    type Node = T::Node;

    fn root(&self) -> T::Node {
        self.inner.root()
    }
    fn depth(&self) -> usize {
        self.inner.depth()
    }
    fn num_evals(&self) -> usize {
        self.inner.num_evals()
    }
    #[inline]
    fn ply(&self, node: &T::Node) -> usize {
        self.inner.ply(node)
    }
    #[inline]
    fn key(&self, node: &T::Node) -> u64 {
        self.inner.key(node)
    }
    #[inline]
    fn children(&self, node: &T::Node, out: &mut [T::Node; MAX_WIDTH]) -> usize {
        self.inner.children(node, out)
    }
    #[inline]
    fn evaluate(&self, node: &T::Node, e: usize) -> i32 {
        self.inner.evaluate(node, e).div_euclid(self.step)
    }
}
