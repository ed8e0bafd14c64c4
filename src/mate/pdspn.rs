//! PDS-PN (Winands 2004, ch. 5; Winands, Uiterwijk and van den Herik 2003): a two-level
//! search whose first level is PDS ([`super::pds`], §5.1.2) and whose second level is PN
//! search ([`super::pn`], §5.1.3), as in the pseudo code NegaPDSPN of §5.1.4 (Figure 5.3).
//! When the first level is about to search a child that is not in its transposition table,
//! it runs a PN search rooted at that child instead, with immediate evaluation, bounded by
//! y = min(x·f(x), N − x) stored nodes (5.4): x the number of entries in the first level's
//! table, N the memory for nodes ([`ProofLimits::tree_nodes`]) and f the logistic growth
//! function (5.3), with a and b scaled from Winands's (450K, 300K) for 1M nodes (§5.2.1,
//! [`TwoLevel::for_capacity`]). Afterwards only the root of the second-level tree is
//! stored in the table; its children and their subtrees are dropped (§5.1.3). This file
//! owns that second level and PDS-PN as a [`Prover`].
//!
//! Two departures. A second-level tree that proves its root leaves the whole proof in the
//! table (one child at OR nodes, all at AND nodes; each move made for it counts as a node),
//! because the principal line is read from the table after the search (PN² grafts its
//! proofs for the same reason, [`super::pn2`]). And the second level searches a copy of
//! the board without the path above its root, so that it sees only repetitions inside its
//! own tree: its disproofs then rest on no position above its root and are
//! path-independent (the graph-history interaction, [`super::dfs`]), while a line that
//! returns to a position of the first level's path is searched on rather than scored a draw
//! (sound: a forced mate never needs to repeat a position).

use super::dfs::{self, Numbers};
use super::pds::{Pds, prove_keeping_table};
use super::pn::{Search, TwoLevel};
use super::rules::INF;
use super::table::{Entry, Table};
use super::tree::Tree;
use super::{ProofLimits, ProofResult, Prover};
use crate::position::Position;

impl Pds {
    /// The second level at the first-level leaf where the board is (`ply`, not terminal and
    /// not in the table): a PN search of at most y nodes (5.4), whose root's numbers are
    /// stored and returned (with the proof below it when proven).
    pub(crate) fn second_level(&mut self, ply: u32, two: TwoLevel) -> Numbers {
        let start = self.core.nodes;
        let y = two.limit(self.core.table.used());
        let mut rules = self.core.rules;
        // PN's initialisation by mobility (§4.2.1), as the second level of PN² has it.
        rules.mobility = true;
        let mut s = Search {
            pos: Position::from_chess(self.core.pos.chess().clone()),
            rules,
            nodes: self.core.nodes,
            budget: self.core.budget.clone(),
            two_level: None,
            peak: 0,
            fifty_seen: false,
        };
        let mut tree = s.root_tree(ply);
        s.run(&mut tree, ply, y);
        self.stats.searches += 1;
        self.stats.largest = self.stats.largest.max(tree.len());
        let root = tree.root().clone();
        if root.proven() {
            store_proof(&mut self.core.table, &mut s, &tree, 0, ply);
        }
        self.core.nodes = s.nodes;
        self.core.budget = s.budget;
        // A disproof of the second level rests on the 50-move rule if any leaf of its tree
        // was drawn by it (an over-estimate: the leaf may not be part of the disproof).
        let n = Numbers {
            plies: root.plies,
            fifty: root.dn == 0 && s.fifty_seen,
            ..Numbers::plain(root.pn, root.dn)
        };
        if !root.proven() {
            let work = (self.core.nodes - start).min(u64::from(u32::MAX)) as u32;
            let e = self.core.entry_of(ply, &n, work);
            self.core.table.put(e);
        }
        n
    }
}

/// Stores the proof below the proven node `i` of `tree` in `table`, the board of `s` being
/// at that node (`ply`); the moves made count as nodes of `s`. Proven leaves are checkmates
/// (PN proves no other leaf), which need no entry.
fn store_proof(table: &mut Table, s: &mut Search, tree: &Tree, i: usize, ply: u32) {
    let node = &tree.nodes[i];
    if !node.expanded || !node.proven() {
        return;
    }
    table.put(Entry::of(
        dfs::key(&s.pos, &s.rules, ply),
        (0, INF, node.plies),
        s.pos.halfmoves(),
        false,
        1,
    ));
    for c in tree.proof_children(i) {
        let Some(m) = tree.nodes[c].mv else { continue };
        s.pos.play(m);
        s.nodes += 1;
        store_proof(table, s, tree, c, ply + 1);
        s.pos.undo();
    }
}

/// PDS-PN as a [`Prover`]; the first level's table is kept from one call to the next, as
/// in PDS and df-pn.
#[derive(Default)]
pub struct PdsPnProver {
    table: Option<(usize, Table)>,
}

impl Prover for PdsPnProver {
    fn prove(&mut self, pos: &Position, limits: &ProofLimits) -> ProofResult {
        let two = TwoLevel::for_capacity(limits.tree_nodes.max(16));
        prove_keeping_table(&mut self.table, pos, limits, Some(two))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::Outcome;

    fn limits(nodes: u64, tree_nodes: usize) -> ProofLimits {
        ProofLimits {
            nodes,
            tree_nodes,
            hash_mb: 8,
            ..ProofLimits::default()
        }
    }

    fn pds_pn(pos: &Position, limits: &ProofLimits) -> (Pds, ProofResult) {
        let mut s = Pds::new(pos, limits, Table::new(limits.hash_mb));
        s.two_level = Some(TwoLevel::for_capacity(limits.tree_nodes.max(16)));
        let r = s.run();
        (s, r)
    }

    #[test]
    fn stored_results_agree_with_the_exact_tables() {
        // As for PDS and df-pn: the second level's disproofs are stored, and must not rest
        // on a repetition of the first level's path.
        let root = Position::from_fen("8/8/8/3k4/8/8/8/R5K1 w - - 0 1").unwrap();
        let (s, _) = pds_pn(&root, &limits(300_000, 1_000_000));
        assert!(s.stats.searches > 0);
        let (proofs, disproofs) =
            super::super::dfs::check_table_against_exact(&s.core.table, &root, "KRvK");
        assert!(proofs + disproofs > 0, "nothing stored to check");
    }

    #[test]
    fn second_level_trees_grow_with_the_memory_and_stay_within_it() {
        // The same unbounded KRvK search with N = 16 nodes and N = 1M: with 16, y ≤ N − x
        // keeps each tree at its root plus a few expansions (the last one may overshoot
        // y by its children); with 1M the trees grow with the first level's table.
        let root = Position::from_fen("8/8/8/3k4/8/8/8/R5K1 w - - 0 1").unwrap();
        let (small, _) = pds_pn(&root, &limits(300_000, 16));
        let (large, _) = pds_pn(&root, &limits(300_000, 1_000_000));
        assert!(small.stats.searches > 0 && large.stats.searches > 0);
        assert!(small.stats.largest <= 16 + 32, "{:?}", small.stats);
        assert!(
            large.stats.largest > 100 && large.stats.largest > 4 * small.stats.largest,
            "{:?} {:?}",
            small.stats,
            large.stats
        );
    }

    #[test]
    fn a_proof_is_read_back_from_the_table_with_a_line_that_mates() {
        // KQvK, mate in 4 by the table, and KRvK, mate in 10 (found unbounded, of some
        // length): the second level proves parts of the mates and must leave those proofs
        // in the table, from which the line is read.
        for (fen, max_moves) in [
            ("8/8/8/4K3/7Q/8/k7/8 w - - 0 1", Some(4)),
            ("4k3/8/8/7K/8/8/2R5/8 w - - 0 1", None),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for tree_nodes in [16, 1_000_000] {
                let l = ProofLimits {
                    max_moves,
                    ..limits(3_000_000, tree_nodes)
                };
                let (s, r) = pds_pn(&pos, &l);
                assert!(s.stats.searches > 0);
                let Outcome::Proven { mate_in_moves, pv } = r.outcome else {
                    panic!("{fen} {tree_nodes}: {:?}", r.outcome);
                };
                assert_eq!(pv.len() as u32, 2 * mate_in_moves - 1, "{fen} {tree_nodes}");
                assert!(max_moves.is_none_or(|n| mate_in_moves == n));
                let mut p = pos.clone();
                for m in pv {
                    assert!(p.legal_moves().contains(&m));
                    p.play(m);
                }
                assert!(shakmaty::Position::is_checkmate(p.chess()));
            }
        }
    }
}
