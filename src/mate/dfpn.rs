//! Depth-first proof-number search, df-pn (Nagai 2002): the MID procedure of PDS (Winands
//! 2004, §5.1.2 and Appendix B.3) with one pair of thresholds per node instead of PDS's
//! multiple iterative deepening. A node is searched until its proof number reaches the
//! proof threshold or its disproof number the disproof threshold; at an OR node the child
//! with the smallest proof number gets the proof threshold min(th_pn, pn₂·(1+ε) + 1), pn₂
//! the second smallest (the 1+ε trick of Pawlewicz and Lew, ε = 1/4), and the disproof
//! threshold th_dn − dn + dn_child; AND nodes are the dual. Numbers of children that are
//! not being searched come from the transposition table ([`super::table`]), initialised by
//! mobility (1 and n, Winands §4.2.1) when absent. In a move-limited search ("mate in N")
//! the number of attacker moves left is part of the table key.
//!
//! Graph-history interaction (PDS ignores it, Winands §4.2.3): a disproof that rests on a
//! repetition of a position above the node is not stored as if it held on every path; the
//! mechanism (the `dep` of each result) is shared with PDS and described in [`super::dfs`].

use shakmaty::Move;

use super::dfs::{Core, FREE, Numbers, combine};
use super::rules::{INF, add};
use super::table::Table;
use super::{ProofLimits, ProofResult, Prover};
use crate::position::Position;

pub use super::dfs::MAX_PLY;

/// A running df-pn search.
pub struct Dfpn {
    core: Core,
}

impl Dfpn {
    /// A search from `pos` (the attacker to move) with `table`.
    pub fn new(pos: &Position, limits: &ProofLimits, table: Table) -> Dfpn {
        Dfpn {
            core: Core::new(pos, limits, table),
        }
    }

    /// Moves made so far.
    pub fn nodes(&self) -> u64 {
        self.core.nodes
    }

    /// Searches the current position (not terminal) at `ply` with thresholds.
    fn mid(&mut self, ply: u32, th_pn: u32, th_dn: u32) -> Numbers {
        let c = &mut self.core;
        let start = c.nodes;
        let or = c.rules.is_or(&c.pos);
        c.path.push(c.pos.key());
        let moves: Vec<Move> = c.rules.children(&c.pos).into_iter().collect();
        let mut kids: Vec<Numbers> = Vec::with_capacity(moves.len());
        for &m in &moves {
            c.pos.play(m);
            c.nodes += 1;
            let k = c.look(ply + 1);
            c.pos.undo();
            kids.push(k);
            // A child that decides the node ends the generation (as in Appendix B.1);
            // `kids` is then a prefix of `moves`, which is all the loop below indexes.
            if (or && k.pn == 0) || (!or && k.dn == 0) {
                break;
            }
        }
        let mut me = combine(kids.iter(), or);
        while me.pn < th_pn && me.dn < th_dn && self.core.budget.left(self.core.nodes) {
            let (best, second) = pick(&kids, or);
            let c = kids[best];
            let (cpn, cdn) = if or {
                let eps = add(add(second, second / 4), 1);
                (th_pn.min(eps), add(th_dn - me.dn, c.dn))
            } else {
                let eps = add(add(second, second / 4), 1);
                (add(th_pn - me.pn, c.pn), th_dn.min(eps))
            };
            self.core.pos.play(moves[best]);
            self.core.nodes += 1;
            kids[best] = self.mid(ply + 1, cpn, cdn);
            self.core.pos.undo();
            me = combine(kids.iter(), or);
        }
        self.core.path.pop();
        self.core.finish(ply, me, start)
    }

    /// Searches from the root until it is solved or the budget is spent.
    pub fn run(&mut self) -> ProofResult {
        let root = self.core.look(0);
        let result = if root.solved() {
            root
        } else {
            self.mid(0, INF, INF)
        };
        // Without the whole proof in the table: the root's stored length, no line.
        let proof = (result.pn == 0).then(|| self.core.pv().unwrap_or((result.plies, Vec::new())));
        let disproven = result.dn == 0 && result.dep == FREE && !self.core.rules.checks_only;
        let memory = self.core.table.used() * size_of::<super::table::Entry>();
        ProofResult::of_search(proof, disproven, self.core.nodes, memory)
    }
}

/// The child to search and the second-best number: at OR nodes by proof number, at AND
/// nodes by disproof number (ties: the first in move order).
fn pick(kids: &[Numbers], or: bool) -> (usize, u32) {
    let val = |k: &Numbers| if or { k.pn } else { k.dn };
    let mut best = 0;
    let mut second = INF;
    for (i, k) in kids.iter().enumerate().skip(1) {
        if val(k) < val(&kids[best]) {
            second = val(&kids[best]);
            best = i;
        } else if val(k) < second {
            second = val(k);
        }
    }
    (best, second)
}

/// df-pn as a [`Prover`]. The table is kept from one call to the next (the deepening
/// iterations and the shortest-mate step of one position): entries are keyed by position
/// and attacker moves left, and only path-independent results are stored, so they stay
/// valid for every search from the same root.
#[derive(Default)]
pub struct DfpnProver {
    table: Option<(usize, Table)>,
}

impl Prover for DfpnProver {
    fn prove(&mut self, pos: &Position, limits: &ProofLimits) -> ProofResult {
        let table = match self.table.take() {
            Some((mb, t)) if mb == limits.hash_mb => t,
            _ => Table::new(limits.hash_mb),
        };
        let mut search = Dfpn::new(pos, limits, table);
        let result = search.run();
        self.table = Some((limits.hash_mb, search.core.table));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_results_agree_with_the_exact_tables() {
        // An unbounded KRvK search meets many repetitions; every proof and disproof that it
        // leaves in the table, for the positions up to three plies from the root, must be
        // what the exact KRvK table says (a disproof stored from a repetition of a higher
        // ancestor would show up here as a "draw" that the table calls a win).
        let root = Position::from_fen("8/8/8/3k4/8/8/8/R5K1 w - - 0 1").unwrap();
        let limits = ProofLimits {
            nodes: 300_000,
            hash_mb: 8,
            ..ProofLimits::default()
        };
        let mut s = Dfpn::new(&root, &limits, Table::new(8));
        s.run();
        let (proofs, disproofs) =
            super::super::dfs::check_table_against_exact(&s.core.table, &root, "KRvK");
        assert!(proofs + disproofs > 0, "nothing stored to check");
    }

    #[test]
    fn a_move_limited_disproof_holds_after_another_history() {
        // KRvK has no mate in 2 here; the table filled by that search, reused from the same
        // position reached after a rook and king shuffle, gives the same answer.
        let pos = Position::from_fen("6k1/8/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let limits = ProofLimits {
            nodes: 10_000,
            max_moves: Some(2),
            hash_mb: 1,
            ..ProofLimits::default()
        };
        let mut s = Dfpn::new(&pos, &limits, Table::new(1));
        let r = s.run();
        assert_eq!(r.outcome, super::super::Outcome::Disproven);
        let mut other = pos.clone();
        for m in ["a1a2", "g8h8", "a2a1", "h8g8"] {
            other.play_uci(m).unwrap();
        }
        let r2 = Dfpn::new(&other, &limits, s.core.table).run();
        assert_eq!(r2.outcome, super::super::Outcome::Disproven);
    }
}
