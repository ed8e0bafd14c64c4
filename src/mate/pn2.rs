//! PN² search (Allis 1994, Breuker 1998; Winands 2004, §4.2.2, pseudo code of Appendix
//! B.2): PN search whose expansion of a most-proving node is a second PN search rooted at
//! it, bounded by y = min(x·f(x), N − x) stored nodes, x the size of the first-level tree,
//! N the capacity and f(x) = 1 / (1 + e^((a − x)/b)) the logistic growth function (4.1),
//! (4.2). Afterwards the children of the second-level root are kept in the first-level tree
//! and their subtrees are dropped (delayed evaluation: a kept child is searched by its own
//! second-level search only when it is selected in turn).
//!
//! One departure from B.2: the proof below a kept child that the second level proved is
//! grafted into the first-level tree (only the proof: one child at OR nodes, all at AND
//! nodes), so that the principal line and the mate length can be read after the search.

use super::pn::{Search, TwoLevel};
use super::tree::{Tree, copy_leaf};
use super::{ProofLimits, ProofResult, Prover};
use crate::position::Position;

impl TwoLevel {
    /// The parameters for a capacity of `capacity` nodes; a and b scale with it as the
    /// values that Winands tuned for PDS-PN (a = 450K, b = 300K for about 1M nodes, §5.2.1).
    pub fn for_capacity(capacity: usize) -> TwoLevel {
        let n = capacity.max(16) as f64;
        TwoLevel {
            capacity,
            a: 0.45 * n,
            b: 0.3 * n,
        }
    }

    /// The second-level limit y of (4.2) for a first-level tree of `x` nodes (at least 2,
    /// so that the root of the second level is always expanded).
    pub fn limit(&self, x: usize) -> usize {
        let xf = x as f64;
        let f = 1.0 / (1.0 + ((self.a - xf) / self.b).exp());
        let room = self.capacity.saturating_sub(x) as f64;
        ((xf * f).min(room) as usize).max(2)
    }
}

impl Search {
    /// Expands the first-level leaf `i` by a second-level PN search (Appendix B.2).
    /// Returns false when the second level could not expand its root (budget spent).
    pub(crate) fn expand_two_level(
        &mut self,
        tree: &mut Tree,
        i: usize,
        ply: u32,
        two: TwoLevel,
    ) -> bool {
        let leaf = &tree.nodes[i];
        let mut sub = Tree::with_root(leaf.pn, leaf.dn, leaf.or);
        let y = two.limit(tree.len());
        // The second level expands immediately: switch the first level off meanwhile.
        self.two_level = None;
        self.run(&mut sub, ply, y);
        self.two_level = Some(two);
        self.peak = self.peak.max(tree.len() + sub.len());
        if !sub.root().expanded {
            return false;
        }
        let kids: Vec<usize> = sub.children(0).collect();
        let first = tree.len();
        tree.attach(i, kids.iter().map(|&k| copy_leaf(&sub.nodes[k])));
        for (j, &k) in kids.iter().enumerate() {
            if sub.nodes[k].proven() {
                tree.graft(first + j, &sub, k);
            }
        }
        true
    }
}

/// PN² as a [`Prover`].
pub struct Pn2Prover;

impl Prover for Pn2Prover {
    fn prove(&mut self, pos: &Position, limits: &ProofLimits) -> ProofResult {
        let mut s = Search::new(pos, limits);
        let capacity = limits.tree_nodes.max(16);
        s.two_level = Some(TwoLevel::for_capacity(capacity));
        let mut tree = s.root_tree(0);
        s.run(&mut tree, 0, capacity);
        s.result(&tree)
    }
}
