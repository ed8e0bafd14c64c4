//! The explicit search tree of PN and PN² (Winands 2004, §4.2.1–4.2.2, Appendix B.1–B.2):
//! an arena of nodes whose children lie side by side, the computation of proof and disproof
//! numbers from the children (`setProofAndDisproofNumbers` of Appendix B.1), the length of
//! the proof below a proven node, the principal line of a proof, and the grafting of a
//! proof from a second-level tree into the first-level tree (so that PN² keeps the proofs
//! that it would otherwise delete with the second-level subtrees).

use shakmaty::Move;

use super::rules::combine;

/// One node of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// Index of the parent (the root is its own parent).
    pub parent: u32,
    /// Index of the first child (children are contiguous).
    pub first: u32,
    /// Number of children.
    pub count: u32,
    /// The move from the parent (`None` at the root).
    pub mv: Option<Move>,
    /// When proven: plies from this node to the mate along the proof.
    pub plies: u32,
    /// An OR node (attacker to move).
    pub or: bool,
    /// Children have been generated.
    pub expanded: bool,
}

impl Node {
    /// A leaf with the given numbers.
    pub fn leaf(mv: Option<Move>, pn: u32, dn: u32, or: bool, parent: u32) -> Node {
        Node {
            pn,
            dn,
            parent,
            first: 0,
            count: 0,
            mv,
            plies: 0,
            or,
            expanded: false,
        }
    }

    /// Proven (proof number 0).
    #[inline]
    pub fn proven(&self) -> bool {
        self.pn == 0
    }

    /// Proven or disproven.
    #[inline]
    pub fn solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// An arena of nodes; index 0 is the root.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The nodes.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree of one root node.
    pub fn with_root(pn: u32, dn: u32, or: bool) -> Tree {
        Tree {
            nodes: vec![Node::leaf(None, pn, dn, or, 0)],
        }
    }

    /// Number of nodes stored.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the tree has no nodes (never after [`Tree::with_root`]).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Indices of the children of `i`.
    #[inline]
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first as usize..(n.first + n.count) as usize
    }

    /// Appends `kids` as the children of `i` and marks `i` expanded.
    pub fn attach(&mut self, i: usize, kids: impl IntoIterator<Item = Node>) {
        let first = self.nodes.len() as u32;
        for mut k in kids {
            k.parent = i as u32;
            self.nodes.push(k);
        }
        let count = self.nodes.len() as u32 - first;
        let n = &mut self.nodes[i];
        n.first = first;
        n.count = count;
        n.expanded = true;
    }

    /// Recomputes the numbers (and the proof length) of the expanded node `i` from its
    /// children: OR = (min pn, Σ dn), AND = (Σ pn, min dn). Returns true if they changed.
    pub fn update(&mut self, i: usize) -> bool {
        let or = self.nodes[i].or;
        let kids = self.children(i).map(|c| {
            let k = &self.nodes[c];
            (k.pn, k.dn, k.plies)
        });
        let (pn, dn, plies) = combine(or, kids);
        let n = &mut self.nodes[i];
        let changed = n.pn != pn || n.dn != dn;
        n.pn = pn;
        n.dn = dn;
        if pn == 0 {
            n.plies = plies;
        }
        changed
    }

    /// The child of `i` that the most-proving path takes: at OR nodes the one with the
    /// node's proof number, at AND nodes the one with its disproof number (Appendix B.1).
    pub fn most_proving_child(&self, i: usize) -> usize {
        let n = &self.nodes[i];
        let range = self.children(i);
        let pick = if n.or {
            range.clone().find(|&c| self.nodes[c].pn == n.pn)
        } else {
            range.clone().find(|&c| self.nodes[c].dn == n.dn)
        };
        pick.unwrap_or(range.start)
    }

    /// The proof's child of a proven node: at an OR node the proven child with the shortest
    /// mate, at an AND node the child with the longest.
    fn proof_child(&self, i: usize) -> Option<usize> {
        let range = self.children(i);
        if self.nodes[i].or {
            range
                .filter(|&c| self.nodes[c].proven())
                .min_by_key(|&c| self.nodes[c].plies)
        } else {
            range.max_by_key(|&c| self.nodes[c].plies)
        }
    }

    /// The children that the proof of the proven node `i` needs: the shortest proven child
    /// at an OR node, all children at an AND node.
    pub fn proof_children(&self, i: usize) -> Vec<usize> {
        if self.nodes[i].or {
            self.proof_child(i).into_iter().collect()
        } else {
            self.children(i).collect()
        }
    }

    /// The principal line of the proof below the proven node `i`.
    pub fn pv(&self, mut i: usize) -> Vec<Move> {
        let mut line = Vec::new();
        while self.nodes[i].expanded && self.nodes[i].proven() {
            let Some(c) = self.proof_child(i) else { break };
            match self.nodes[c].mv {
                Some(m) => line.push(m),
                None => break,
            }
            i = c;
        }
        line
    }

    /// Copies the proof below node `src_i` of `src` to node `dst_i` of `self` (a copy of that
    /// node, still without children): the shortest proven child at OR nodes, all children at
    /// AND nodes.
    pub fn graft(&mut self, dst_i: usize, src: &Tree, src_i: usize) {
        let mut stack = vec![(dst_i, src_i)];
        while let Some((d, s)) = stack.pop() {
            if !src.nodes[s].expanded || !src.nodes[s].proven() {
                continue;
            }
            let kids = src.proof_children(s);
            let first = self.nodes.len();
            self.attach(d, kids.iter().map(|&k| copy_leaf(&src.nodes[k])));
            for (j, &k) in kids.iter().enumerate() {
                stack.push((first + j, k));
            }
        }
    }
}

/// A copy of `n` as an unexpanded leaf (numbers, move, side and proof length kept).
pub fn copy_leaf(n: &Node) -> Node {
    Node {
        first: 0,
        count: 0,
        expanded: false,
        ..n.clone()
    }
}
