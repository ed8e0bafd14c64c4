//! Best-first proof-number search (Allis 1994; Winands 2004, §4.2.1, pseudo code of
//! Appendix B.1): select the most-proving node by walking down from the current node (OR:
//! the child with the smallest proof number, AND: the one with the smallest disproof
//! number), expand it with immediate evaluation of its children (stopping at the first child
//! that decides the node, the "addition to original code" of B.1), and update the ancestors
//! until their numbers no longer change, where the next selection starts (Allis's
//! enhancement). The board follows the walk: moves are played going down and taken back
//! going up, and each move made counts as a node.
//!
//! The tree is bounded by a number of stored nodes (the memory limit of §4.2.1); solved
//! subtrees are kept (not deleted as in B.1), because the principal line of a proof is
//! read from them. The same search is the second level of PN² ([`super::pn2`]): there only
//! the expansion differs (Appendix B.2).

use super::rules::{self, Leaf, Rules};
use super::tree::{Node, Tree};
use super::{Budget, ProofLimits, ProofResult, Prover};
use crate::position::Position;

/// Parameters of the second level of PN² (the growth function (4.1) of Winands 2004).
#[derive(Clone, Copy, Debug)]
pub struct TwoLevel {
    /// Most nodes stored in all, N of (4.2).
    pub capacity: usize,
    /// Transition point a of (4.1).
    pub a: f64,
    /// Stretch b of (4.1).
    pub b: f64,
}

/// A running PN search: the board at the current node, the rules and the move counter.
pub struct Search {
    /// The board, at the node the search is at.
    pub pos: Position,
    /// The rules of the proof game.
    pub rules: Rules,
    /// Moves made so far.
    pub nodes: u64,
    /// Budget of moves (and the interrupt).
    pub(crate) budget: Budget,
    /// Set for the first level of PN².
    pub two_level: Option<TwoLevel>,
    /// The most tree nodes held at once so far (PN²: the first level's and a second-level
    /// tree's together), besides the tree the result is read from.
    pub peak: usize,
    /// A leaf was drawn by the 50-move rule (so a disproof may rest on it).
    pub fifty_seen: bool,
}

impl Search {
    /// A search from `pos` (which becomes the repetition root).
    pub fn new(pos: &Position, limits: &ProofLimits) -> Search {
        let (pos, rules) = rules::root(pos, limits.max_moves, limits.checks_only);
        Search {
            pos,
            rules,
            nodes: 0,
            budget: Budget::new(limits),
            two_level: None,
            peak: 0,
            fifty_seen: false,
        }
    }

    /// Plays the move to child `c` of the tree.
    #[inline]
    pub fn descend(&mut self, tree: &Tree, c: usize) {
        if let Some(m) = tree.nodes[c].mv {
            self.pos.play(m);
            self.nodes += 1;
        }
    }

    /// A tree whose root is the current position, classified at `ply`.
    pub fn root_tree(&self, ply: u32) -> Tree {
        let or = self.rules.is_or(&self.pos);
        let (pn, dn) = self.rules.numbers(self.rules.classify(&self.pos, ply), or);
        Tree::with_root(pn, dn, or)
    }

    /// Runs PN search on `tree`, whose root is the current position at `ply` plies from
    /// the prover's root, until the root is solved, the tree holds `max_tree` nodes or the
    /// budget is spent. The board is back at the tree's root afterwards.
    pub fn run(&mut self, tree: &mut Tree, ply: u32, max_tree: usize) {
        let mut cur = 0usize;
        let mut depth = ply;
        while !tree.root().solved() && tree.len() < max_tree && self.budget.left(self.nodes) {
            // Select the most-proving node, from where the last update stopped.
            while tree.nodes[cur].expanded {
                let c = tree.most_proving_child(cur);
                self.descend(tree, c);
                cur = c;
                depth += 1;
            }
            if !self.expand(tree, cur, depth) {
                break;
            }
            // Update the ancestors until nothing changes.
            loop {
                let changed = tree.update(cur);
                if !changed || cur == 0 {
                    break;
                }
                cur = tree.nodes[cur].parent as usize;
                self.pos.undo();
                depth -= 1;
            }
        }
        while cur != 0 {
            cur = tree.nodes[cur].parent as usize;
            self.pos.undo();
        }
    }

    /// Expands leaf `i` (the board is at it). Returns false when nothing could be expanded.
    fn expand(&mut self, tree: &mut Tree, i: usize, ply: u32) -> bool {
        if let Some(two) = self.two_level {
            return self.expand_two_level(tree, i, ply, two);
        }
        self.expand_immediate(tree, i, ply);
        true
    }

    /// Generates the children of leaf `i` and evaluates each at once (Appendix B.1).
    pub fn expand_immediate(&mut self, tree: &mut Tree, i: usize, ply: u32) {
        let or = tree.nodes[i].or;
        let mut kids = Vec::new();
        for m in self.rules.children(&self.pos) {
            self.pos.play(m);
            self.nodes += 1;
            let leaf = self.rules.classify(&self.pos, ply + 1);
            self.pos.undo();
            self.fifty_seen |= matches!(leaf, Leaf::Disproven { fifty: true, .. });
            let (pn, dn) = self.rules.numbers(leaf, !or);
            kids.push(Node::leaf(Some(m), pn, dn, !or, i as u32));
            let decided = matches!(
                (or, leaf),
                (true, Leaf::Proven) | (false, Leaf::Disproven { .. })
            );
            if decided {
                break;
            }
        }
        tree.attach(i, kids);
    }

    /// The result of a search whose tree is `tree`.
    pub fn result(&self, tree: &Tree) -> ProofResult {
        let root = tree.root();
        let proof = root.proven().then(|| (root.plies, tree.pv(0)));
        let disproven = root.dn == 0 && !self.rules.checks_only;
        let held = self.peak.max(tree.len());
        ProofResult::of_search(proof, disproven, self.nodes, held * size_of::<Node>())
    }
}

/// PN search as a [`Prover`].
pub struct PnProver;

impl Prover for PnProver {
    fn prove(&mut self, pos: &Position, limits: &ProofLimits) -> ProofResult {
        let mut s = Search::new(pos, limits);
        let mut tree = s.root_tree(0);
        s.run(&mut tree, 0, limits.tree_nodes.max(2));
        s.result(&tree)
    }
}
