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
//! Graph-history interaction (PDS ignores it, Winands §4.2.3): repetitions are disproofs
//! that hold only for the current path. Each result carries the ply of the highest
//! ancestor whose recurrence it relies on (`dep`). A disproof that relies on no ancestor
//! above the node itself is path-independent and stored in the table as a disproof; one
//! that relies on a higher ancestor is *not* stored (the node keeps it in its local list
//! of children, valid while the path above is unchanged, and passes the dependency up).
//! Proofs never rely on a repetition (a repetition only fails the attacker), so they are
//! stored as they are. A disproof at the root that relies on a position before the root
//! cannot occur (the root has no history); the recursion-depth cap ([`MAX_PLY`]) is treated
//! like such a dependency, so it can never produce a stored or reported disproof.

use std::collections::HashMap;

use shakmaty::Move;

use super::rules::{self, INF, Leaf, Rules, add};
use super::table::{Entry, Table};
use super::{Budget, ProofLimits, ProofResult, Prover};
use crate::position::Position;

/// Deepest ply searched; deeper nodes count as path-dependent failures.
pub const MAX_PLY: u32 = 400;

/// No dependency on the path (as a `dep` value).
const FREE: u32 = u32::MAX;

/// A child in the local list of a node, or the result of a search of a node.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    pn: u32,
    dn: u32,
    /// Plies to mate when proven.
    plies: u32,
    /// For a disproof: 1 + the ply of the ancestor it relies on (0: any path), or [`FREE`].
    dep: u32,
}

/// A running df-pn search.
pub struct Dfpn {
    pos: Position,
    rules: Rules,
    table: Table,
    /// Keys of the positions on the current path, by ply.
    path: Vec<u64>,
    /// Moves made.
    pub nodes: u64,
    budget: Budget,
}

impl Dfpn {
    /// A search from `pos` (the attacker to move) with `table`.
    pub fn new(pos: &Position, limits: &ProofLimits, table: Table) -> Dfpn {
        let (pos, rules) = rules::root(pos, limits.max_moves, limits.checks_only);
        Dfpn {
            pos,
            rules,
            table,
            path: Vec::new(),
            nodes: 0,
            budget: Budget::new(limits),
        }
    }

    /// The table key of the current position at `ply` (the moves left are part of it).
    fn key(&self, ply: u32) -> u64 {
        let k = self.pos.key();
        match self
            .rules
            .moves_left(ply + u32::from(!self.rules.is_or(&self.pos)))
        {
            Some(n) => k ^ (u64::from(n) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            None => k,
        }
    }

    /// The numbers of the current position at `ply`, before searching it: terminal values,
    /// else the table's, else the mobility initialisation.
    fn look(&self, ply: u32) -> Numbers {
        let leaf = if ply >= MAX_PLY {
            Leaf::Disproven { repetition: true }
        } else {
            self.rules.classify(&self.pos, ply)
        };
        match leaf {
            Leaf::Proven => Numbers {
                pn: 0,
                dn: INF,
                plies: 0,
                dep: FREE,
            },
            Leaf::Disproven { repetition } => Numbers {
                pn: INF,
                dn: 0,
                plies: 0,
                dep: if repetition {
                    self.ancestor_dep()
                } else {
                    FREE
                },
            },
            Leaf::Unknown { .. } => match self.table.get(self.key(ply)) {
                Some(e) => Numbers {
                    pn: e.pn,
                    dn: e.dn,
                    plies: e.plies,
                    dep: FREE,
                },
                None => {
                    let (pn, dn) = self.rules.numbers(leaf, self.rules.is_or(&self.pos));
                    Numbers {
                        pn,
                        dn,
                        plies: 0,
                        dep: FREE,
                    }
                }
            },
        }
    }

    /// 1 + the ply of the path position that the current position repeats (0 if none:
    /// the cap, or a position before the root).
    fn ancestor_dep(&self) -> u32 {
        let key = self.pos.key();
        self.path
            .iter()
            .rposition(|&k| k == key)
            .map_or(0, |q| q as u32 + 1)
    }

    /// Searches the current position (not terminal) at `ply` with thresholds.
    fn mid(&mut self, ply: u32, th_pn: u32, th_dn: u32) -> Numbers {
        let start = self.nodes;
        let or = self.rules.is_or(&self.pos);
        self.path.push(self.pos.key());
        let moves: Vec<Move> = self.rules.children(&self.pos).into_iter().collect();
        let mut kids: Vec<Numbers> = Vec::with_capacity(moves.len());
        for &m in &moves {
            self.pos.play(m);
            self.nodes += 1;
            let k = self.look(ply + 1);
            self.pos.undo();
            kids.push(k);
            // A child that decides the node ends the generation (as in Appendix B.1);
            // `kids` is then a prefix of `moves`, which is all the loop below indexes.
            if (or && k.pn == 0) || (!or && k.dn == 0) {
                break;
            }
        }
        let mut me = combine(&kids, or);
        while me.pn < th_pn && me.dn < th_dn && self.budget.left(self.nodes) {
            let (best, second) = pick(&kids, or);
            let c = kids[best];
            let (cpn, cdn) = if or {
                let eps = add(add(second, second / 4), 1);
                (th_pn.min(eps), add(th_dn - me.dn, c.dn))
            } else {
                let eps = add(add(second, second / 4), 1);
                (add(th_pn - me.pn, c.pn), th_dn.min(eps))
            };
            self.pos.play(moves[best]);
            self.nodes += 1;
            kids[best] = self.mid(ply + 1, cpn, cdn);
            self.pos.undo();
            me = combine(&kids, or);
        }
        self.path.pop();
        // A disproof is path-independent here if it relies on no ancestor above this node.
        if me.dn == 0 && me.dep != FREE && me.dep > ply {
            me.dep = FREE;
        }
        if !(me.dn == 0 && me.dep != FREE) {
            let work = (self.nodes - start).min(u64::from(u32::MAX)) as u32;
            self.table.put(Entry {
                key: self.key(ply),
                pn: me.pn,
                dn: me.dn,
                plies: me.plies,
                work,
            });
        }
        me
    }

    /// Searches from the root until it is solved or the budget is spent.
    pub fn run(&mut self) -> ProofResult {
        let root = self.look(0);
        let result = if root.pn == 0 || root.dn == 0 {
            root
        } else {
            self.mid(0, INF, INF)
        };
        // Without the whole proof in the table: the root's stored length, no line.
        let proof = (result.pn == 0).then(|| self.pv().unwrap_or((result.plies, Vec::new())));
        let disproven = result.dn == 0 && result.dep == FREE && !self.rules.checks_only;
        ProofResult::of_search(proof, disproven, self.nodes)
    }

    /// The proven child to follow at the OR node where the board is (`ply`): the one with the
    /// shortest stored proof; `None` if none is proven in the table.
    fn or_choice(&mut self, ply: u32) -> Option<Move> {
        let mut choice: Option<(Move, u32)> = None;
        for m in self.rules.children(&self.pos) {
            self.pos.play(m);
            let n = self.look(ply + 1);
            self.pos.undo();
            if n.pn == 0 && choice.is_none_or(|(_, p)| n.plies < p) {
                choice = Some((m, n.plies));
            }
        }
        choice.map(|(m, _)| m)
    }

    /// The length in plies of the proof below the current position as the table holds it
    /// now, with the move to follow: at OR nodes the proven child with the shortest stored
    /// proof, at AND nodes the child whose proof is longest. Stored lengths are upper bounds
    /// (an OR node keeps the length it was proven with, though a child may have been proven
    /// shorter since), so the length is recomputed along the proof rather than read from the
    /// root entry; this keeps the reported length equal to the principal line's. `None`
    /// when the table has lost an entry of the proof.
    fn proof_len(
        &mut self,
        ply: u32,
        memo: &mut HashMap<u64, Option<(u32, Option<Move>)>>,
    ) -> Option<(u32, Option<Move>)> {
        if matches!(self.rules.classify(&self.pos, ply), Leaf::Proven) {
            return Some((0, None));
        }
        let key = self.key(ply);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        memo.insert(key, None); // a cycle (impossible along a proof) reads as a lost entry
        let result = if self.rules.is_or(&self.pos) {
            self.or_choice(ply).and_then(|m| {
                self.pos.play(m);
                let r = self.proof_len(ply + 1, memo);
                self.pos.undo();
                r.map(|(len, _)| (len + 1, Some(m)))
            })
        } else {
            let mut worst: Option<(u32, Option<Move>)> = None;
            for m in self.rules.children(&self.pos) {
                self.pos.play(m);
                let r = self.proof_len(ply + 1, memo);
                self.pos.undo();
                match r {
                    None => {
                        worst = None;
                        break;
                    }
                    Some((len, _)) => {
                        if worst.is_none_or(|(w, _)| len + 1 > w) {
                            worst = Some((len + 1, Some(m)));
                        }
                    }
                }
            }
            worst
        };
        memo.insert(key, result);
        result
    }

    /// The principal line of the proof and its length in plies (see [`Self::proof_len`]);
    /// `None` when the table lost part of the proof. The board is back at the root.
    fn pv(&mut self) -> Option<(u32, Vec<Move>)> {
        let mut memo = HashMap::new();
        let (len, _) = self.proof_len(0, &mut memo)?;
        let mut line = Vec::new();
        let mut ply = 0;
        while let Some(Some((_, Some(m)))) = memo.get(&self.key(ply)).copied() {
            self.pos.play(m);
            line.push(m);
            ply += 1;
        }
        for _ in 0..line.len() {
            self.pos.undo();
        }
        Some((len, line))
    }
}

/// The numbers of a node from its children: OR = (min pn, Σ dn), AND = (Σ pn, min dn), with
/// the proof length and the path dependency of a disproof.
fn combine(kids: &[Numbers], or: bool) -> Numbers {
    let (pn, dn, plies) = rules::combine(or, kids.iter().map(|k| (k.pn, k.dn, k.plies)));
    // OR disproof: every child's dependency counts (the lowest dep); AND disproof: the
    // least dependent disproved child suffices (the highest dep).
    let deps = kids.iter().filter(|k| k.dn == 0).map(|k| k.dep);
    let dep = if dn != 0 {
        FREE
    } else if or {
        deps.min().unwrap_or(FREE)
    } else {
        deps.max().unwrap_or(FREE)
    };
    Numbers { pn, dn, plies, dep }
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
        self.table = Some((limits.hash_mb, search.table));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(pn: u32, dn: u32, plies: u32, dep: u32) -> Numbers {
        Numbers { pn, dn, plies, dep }
    }

    #[test]
    fn disproofs_carry_their_path_dependency() {
        // OR node: disproved only if all children are, relying on the highest ancestor
        // any of them relies on (the smallest dep).
        let kids = [n(INF, 0, 0, FREE), n(INF, 0, 0, 3), n(INF, 0, 0, 5)];
        assert_eq!(combine(&kids, true).dep, 3);
        // AND node: one disproved child suffices; the least dependent one is used.
        let kids = [n(1, 1, 0, FREE), n(INF, 0, 0, 2), n(INF, 0, 0, FREE)];
        let c = combine(&kids, false);
        assert_eq!((c.pn, c.dn, c.dep), (INF, 0, FREE));
        // Not disproved: no dependency.
        assert_eq!(combine(&[n(2, 3, 0, FREE)], true).dep, FREE);
    }

    #[test]
    fn stored_results_agree_with_the_exact_tables() {
        // An unbounded KRvK search meets many repetitions; every proof and disproof that it
        // leaves in the table, for the positions up to three plies from the root, must be
        // what the exact KRvK table says (a disproof stored from a repetition of a higher
        // ancestor would show up here as a "draw" that the table calls a win).
        use crate::tb::exact::ExactTables;
        use crate::tb::table::Wdl;
        let exact = ExactTables::in_memory();
        exact.generate("KRvK").unwrap();
        let root = Position::from_fen("8/8/8/3k4/8/8/8/R5K1 w - - 0 1").unwrap();
        let limits = ProofLimits {
            nodes: 300_000,
            hash_mb: 8,
            ..ProofLimits::default()
        };
        let mut s = Dfpn::new(&root, &limits, Table::new(8));
        s.run();
        let mut frontier = vec![root.clone()];
        let (mut proofs, mut disproofs) = (0, 0);
        for _ in 0..3 {
            let mut next = Vec::new();
            for p in &frontier {
                for m in p.legal_moves() {
                    let mut c = p.clone();
                    c.play(m);
                    next.push(c);
                }
            }
            for p in &next {
                let Some(e) = s.table.get(p.key()) else {
                    continue;
                };
                let Some(truth) = exact.probe(p.chess()) else {
                    continue;
                };
                let attacker_wins = matches!(
                    (p.turn() == shakmaty::Color::White, truth.wdl),
                    (true, Wdl::Win) | (false, Wdl::Loss)
                );
                if e.pn == 0 {
                    proofs += 1;
                    assert!(attacker_wins, "stored proof of a draw: {}", p.fen());
                }
                if e.dn == 0 {
                    disproofs += 1;
                    assert!(!attacker_wins, "stored disproof of a win: {}", p.fen());
                }
            }
            frontier = next;
        }
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
        let r2 = Dfpn::new(&other, &limits, s.table).run();
        assert_eq!(r2.outcome, super::super::Outcome::Disproven);
    }
}
