//! PDS, proof-number and disproof-number search (Nagai 1998; Winands 2004, §4.2.3 and
//! §5.1.2, pseudo code NegaPDS of Appendix B.3): a depth-first proof-number search with
//! *multiple iterative deepening*. Every node is searched with two thresholds, one on its
//! proof number and one on its disproof number, and is searched on while *either* number
//! is below its threshold (df-pn, [`super::dfpn`], stops as soon as one reaches it). Each
//! search of a child is one iteration at the child: its thresholds are its own numbers, one
//! of them raised by one — the proof threshold when the child is "proof-like", the disproof
//! threshold otherwise, by Nagai's conditions (5.1) and (5.2) (`child_thresholds`). The
//! root iterates the same way: its proof threshold grows by one while pn ≤ dn, else its
//! disproof threshold. The child searched is the one of B.3's `selectChild`
//! (`select`). This file owns the procedure MID, the root iteration and PDS as a
//! [`Prover`]; the board, the table and the proof line are shared with df-pn
//! ([`super::dfs`]), and PDS-PN ([`super::pdspn`]) replaces the search of a child that is
//! not in the table by a PN search.
//!
//! The transposition table ([`super::table`]) holds every searched node (the TwoBig table
//! of §5.1.2 with a simpler replacement rule); the children of a node are read from it
//! before each iteration (`findChildrenInTT`), so that what a transposition learnt is used
//! at once. A child not in the table starts with proof and disproof number 1 (B.3; the
//! mobility of §4.2.1 is implicit in PDS, §4.3.2). Departures from B.3: a child is
//! classified when it is generated (checkmate, stalemate, repetition, move limit), since
//! its move is made to read the table anyway; generation stops at a child that decides the
//! node (the addition of Appendix B.1); B.3 stores a node before searching it to avoid
//! cycles, which is not needed here because a repetition of the path is a terminal
//! disproof; and the graph-history interaction, which Winands's PDS ignores (§5.1.2), is
//! handled as in df-pn: a disproof that rests on a repetition of a position above the node
//! is kept in the node's local list of children, never stored ([`super::dfs`]).

use shakmaty::Move;

use super::dfs::{Core, FREE, Numbers, combine};
use super::pn::TwoLevel;
use super::rules::add;
use super::table::Table;
use super::{ProofLimits, ProofResult, Prover};
use crate::position::Position;

/// A child in the local list of a node: its move, table key, 50-move counter and numbers.
#[derive(Clone, Copy, Debug)]
struct Kid {
    mv: Move,
    key: u64,
    clock: u32,
    n: Numbers,
}

/// The number of a node that its own side to move wants to bring to 0 (φ: pn at OR nodes,
/// dn at AND nodes); the negamax form of B.3.
#[inline]
fn phi(n: &Numbers, or: bool) -> u32 {
    if or { n.pn } else { n.dn }
}

/// The other number (δ: dn at OR nodes, pn at AND nodes).
#[inline]
fn delta(n: &Numbers, or: bool) -> u32 {
    if or { n.dn } else { n.pn }
}

/// The thresholds (φ, δ) of the child to search, in the negamax form of B.3: the child's
/// numbers `child` = (φ_c, δ_c), with φ_c + 1 when the node's δ is below its threshold and
/// either the child leans to its own side (φ_c ≤ δ_c) or the node's φ has reached its
/// threshold; δ_c + 1 otherwise. For an OR child of an AND node this is Nagai's condition
/// (5.1) for "proof-like" (pnt_p > pn_p and (pn_n ≤ dn_n or dnt_p ≤ dn_p)), for an AND child
/// of an OR node condition (5.2) for "disproof-like" (Winands 2004, §5.1.2).
pub(crate) fn child_thresholds(th: (u32, u32), me: (u32, u32), child: (u32, u32)) -> (u32, u32) {
    let ((th_phi, th_delta), (phi, delta), (cphi, cdelta)) = (th, me, child);
    if th_delta > delta && (cphi <= cdelta || th_phi <= phi) {
        (add(cphi, 1), cdelta)
    } else {
        (cphi, add(cdelta, 1))
    }
}

/// The child to search (`selectChild` of B.3): the one with the smallest δ_c (the child's
/// share in the node's φ), every δ_c below `proof` counting as `proof`; among equal ones
/// the one with the smallest φ_c, then the first in move order. `proof` is the node's φ as
/// it was when the search of the node began, or larger.
fn select(kids: &[Kid], or: bool, proof: u32) -> usize {
    let mut best = 0;
    let (mut min_delta, mut min_phi) = (u32::MAX, u32::MAX);
    for (i, k) in kids.iter().enumerate() {
        let (cphi, cdelta) = (phi(&k.n, !or), delta(&k.n, !or));
        let d = if cdelta == 0 { 0 } else { cdelta.max(proof) };
        if d < min_delta || (d == min_delta && cphi < min_phi) {
            best = i;
            min_delta = d;
            min_phi = cphi;
        }
    }
    best
}

/// Statistics of the second level of PDS-PN (for tests and reports).
#[derive(Clone, Copy, Debug, Default)]
pub struct SecondLevelStats {
    /// Second-level PN searches run.
    pub searches: u64,
    /// Most nodes held by one second-level tree.
    pub largest: usize,
}

/// A running PDS (or PDS-PN) search.
pub struct Pds {
    pub(crate) core: Core,
    /// The second level of PDS-PN ([`super::pdspn`]); `None` for plain PDS.
    pub(crate) two_level: Option<TwoLevel>,
    /// What the second level did.
    pub stats: SecondLevelStats,
}

impl Pds {
    /// A PDS search from `pos` (the attacker to move) with `table`.
    pub fn new(pos: &Position, limits: &ProofLimits, table: Table) -> Pds {
        let mut core = Core::new(pos, limits, table);
        // Children not in the table start at 1 and 1 (B.3).
        core.rules.mobility = false;
        Pds {
            core,
            two_level: None,
            stats: SecondLevelStats::default(),
        }
    }

    /// Moves made so far.
    pub fn nodes(&self) -> u64 {
        self.core.nodes
    }

    /// The children of the current position at `ply` with their numbers (each move is made
    /// and counted); stops at a child that decides the node.
    fn expand(&mut self, ply: u32, or: bool) -> Vec<Kid> {
        let c = &mut self.core;
        let moves = c.rules.children(&c.pos);
        let mut kids = Vec::with_capacity(moves.len());
        for m in moves {
            c.pos.play(m);
            c.nodes += 1;
            let n = c.look(ply + 1);
            let key = c.key(ply + 1);
            let clock = c.pos.halfmoves();
            c.pos.undo();
            kids.push(Kid {
                mv: m,
                key,
                clock,
                n,
            });
            if (or && n.pn == 0) || (!or && n.dn == 0) {
                break;
            }
        }
        kids
    }

    /// `findChildrenInTT` of B.3: the numbers of the unsolved children as the table holds
    /// them now (solved ones keep theirs: a path-dependent disproof is only here).
    fn refresh(&self, kids: &mut [Kid]) {
        for k in kids.iter_mut().filter(|k| !k.n.solved()) {
            if let Some(e) = self.core.table.get_at(k.key, k.clock) {
                k.n = Numbers::of_entry(&e);
            }
        }
    }

    /// MID of B.3: searches the current position (not terminal) at `ply` until both of its
    /// numbers reach their thresholds (φ, δ) or it is solved; `proof` is its φ as the
    /// parent saw it. Returns its numbers (stored unless a path-dependent disproof).
    fn mid(&mut self, ply: u32, th_phi: u32, th_delta: u32, mut proof: u32) -> Numbers {
        let start = self.core.nodes;
        let or = self.core.rules.is_or(&self.core.pos);
        self.core.path.push(self.core.pos.key());
        let mut kids = self.expand(ply, or);
        let me = loop {
            let me = combine(kids.iter().map(|k| &k.n), or);
            let (p, d) = (phi(&me, or), delta(&me, or));
            if me.solved()
                || (p >= th_phi && d >= th_delta)
                || !self.core.budget.left(self.core.nodes)
            {
                break me;
            }
            proof = proof.max(p);
            let best = select(&kids, or, proof);
            let k = kids[best];
            let (cphi, cdelta) = (phi(&k.n, !or), delta(&k.n, !or));
            let (tphi, tdelta) = child_thresholds((th_phi, th_delta), (p, d), (cphi, cdelta));
            self.core.pos.play(k.mv);
            self.core.nodes += 1;
            kids[best].n = match self.two_level {
                Some(two) if self.core.table.get_at(k.key, k.clock).is_none() => {
                    self.second_level(ply + 1, two)
                }
                _ => self.mid(ply + 1, tphi, tdelta, cphi),
            };
            self.core.pos.undo();
            self.refresh(&mut kids);
        };
        self.core.path.pop();
        self.core.finish(ply, me, start)
    }

    /// NegaPDS of B.3: iterative deepening at the root until it is solved or the budget is
    /// spent; each iteration raises the proof threshold by one if pn ≤ dn, else the disproof
    /// threshold.
    pub fn run(&mut self) -> ProofResult {
        let mut root = self.core.look(0);
        while !root.solved() && self.core.budget.left(self.core.nodes) {
            let (pn, dn) = (root.pn, root.dn);
            let (th_pn, th_dn) = if pn <= dn {
                (add(pn, 1), dn)
            } else {
                (pn, add(dn, 1))
            };
            root = self.mid(0, th_pn, th_dn, pn);
        }
        // Without the whole proof in the table: the root's stored length, no line.
        let proof = (root.pn == 0).then(|| self.core.pv().unwrap_or((root.plies, Vec::new())));
        let disproven = root.dn == 0 && root.dep == FREE && !self.core.rules.checks_only;
        // The table's entries in use, and PDS-PN's largest second-level tree beside them.
        let memory = self.core.table.used() * size_of::<super::table::Entry>()
            + self.stats.largest * size_of::<super::tree::Node>();
        ProofResult::of_search(proof, disproven, self.core.nodes, memory)
    }

    /// The table, for the next search from the same root.
    pub fn into_table(self) -> Table {
        self.core.table
    }
}

/// Runs PDS (PDS-PN with `two_level`) from `pos`, reusing the table in `slot` when it has
/// the size asked for, and leaves the table there for the next call.
pub(crate) fn prove_keeping_table(
    slot: &mut Option<(usize, Table)>,
    pos: &Position,
    limits: &ProofLimits,
    two_level: Option<TwoLevel>,
) -> ProofResult {
    let table = match slot.take() {
        Some((mb, t)) if mb == limits.hash_mb => t,
        _ => Table::new(limits.hash_mb),
    };
    let mut search = Pds::new(pos, limits, table);
    search.two_level = two_level;
    let result = search.run();
    *slot = Some((limits.hash_mb, search.into_table()));
    result
}

/// PDS as a [`Prover`]. As with df-pn, the table is kept from one call to the next (the
/// deepening iterations and the shortest-mate step of one position): it holds only
/// path-independent results, keyed by position and attacker moves left.
#[derive(Default)]
pub struct PdsProver {
    table: Option<(usize, Table)>,
}

impl Prover for PdsProver {
    fn prove(&mut self, pos: &Position, limits: &ProofLimits) -> ProofResult {
        prove_keeping_table(&mut self.table, pos, limits, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::Outcome;
    use shakmaty::Position as _;

    #[test]
    fn child_thresholds_follow_the_worked_example_of_figure_5_1() {
        // Iteration 2 at the OR root A (pnt 2, dnt 2; pn 1, dn 2), child B (AND, pn 1, dn 1):
        // dnt_A > dn_A fails, so B is proof-like and its proof threshold becomes 2. In
        // negamax form A has (φ, δ) = (pn, dn), B has (φ, δ) = (dn, pn).
        assert_eq!(child_thresholds((2, 2), (1, 2), (1, 1)), (1, 2));
        // Iteration 3 at the AND node C (pnt 3, dnt 1; pn 2, dn 1), child H (OR, 1, 1):
        // pnt_C > pn_C and pn_H <= dn_H, so H is proof-like: proof threshold 2.
        assert_eq!(child_thresholds((1, 3), (1, 2), (1, 1)), (2, 1));
        // At J (AND) below H (OR; pnt 2, dnt 1; pn 1, dn 2): dnt_H > dn_H fails, proof-like.
        assert_eq!(child_thresholds((2, 1), (1, 2), (1, 1)), (1, 2));
        // Disproof-like AND child: the OR parent's dn below its threshold and the child
        // leaning to the defender (dn_c <= pn_c): its disproof threshold is raised.
        assert_eq!(child_thresholds((1, 5), (1, 3), (2, 4)), (3, 4));
        // ... unless the child leans the other way and the parent's pn is still below its
        // threshold.
        assert_eq!(child_thresholds((3, 5), (1, 3), (4, 2)), (4, 3));
    }

    #[test]
    fn selection_prefers_small_delta_then_small_phi() {
        let mv = Position::default().legal_moves()[0];
        let kid = |pn, dn| Kid {
            mv,
            key: 0,
            clock: 0,
            n: Numbers::plain(pn, dn),
        };
        // OR node: the children's δ is their pn, φ their dn.
        let kids = [kid(3, 1), kid(2, 5), kid(2, 2)];
        assert_eq!(select(&kids, true, 0), 2);
        // With `proof` = 3 every pn up to 3 ties, and the smallest dn decides.
        assert_eq!(select(&kids, true, 3), 0);
        // AND node: δ is dn.
        assert_eq!(select(&kids, false, 0), 0);
    }

    #[test]
    fn stored_results_agree_with_the_exact_tables() {
        // An unbounded KRvK search meets many repetitions; what it leaves in the table must
        // be what the exact table says (see `check_table_against_exact`).
        let root = Position::from_fen("8/8/8/3k4/8/8/8/R5K1 w - - 0 1").unwrap();
        let limits = ProofLimits {
            nodes: 300_000,
            hash_mb: 8,
            ..ProofLimits::default()
        };
        let mut s = Pds::new(&root, &limits, Table::new(8));
        s.run();
        let (proofs, disproofs) =
            super::super::dfs::check_table_against_exact(&s.core.table, &root, "KRvK");
        assert!(proofs + disproofs > 0, "nothing stored to check");
    }

    #[test]
    fn a_proof_comes_with_a_line_that_mates() {
        let fen = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1";
        let pos = Position::from_fen(fen).unwrap();
        let limits = ProofLimits {
            nodes: 100_000,
            hash_mb: 1,
            ..ProofLimits::default()
        };
        let r = Pds::new(&pos, &limits, Table::new(1)).run();
        let Outcome::Proven { mate_in_moves, pv } = r.outcome else {
            panic!("{:?}", r.outcome);
        };
        assert_eq!(pv.len() as u32, 2 * mate_in_moves - 1);
        let mut p = pos.clone();
        for m in pv {
            p.play(m);
        }
        assert!(p.chess().is_checkmate());
    }
}
