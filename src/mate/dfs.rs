//! What the depth-first provers share (df-pn [`super::dfpn`], PDS [`super::pds`], and the
//! first level of PDS-PN [`super::pdspn`]): the board with the keys of the current path,
//! the transposition table ([`super::table`]) keyed by position and, in a move-limited
//! search, the attacker moves left; the numbers of a position as seen before it is searched
//! (terminal value, else the table's, else the initialisation of [`Rules::numbers`]); the
//! path dependency of disproofs; and the reading of a proof back from the table.
//!
//! Graph-history interaction (PDS ignores it, Winands 2004, §4.2.3 and §5.1.2): repetitions
//! are disproofs that hold only for the current path. Each result carries the ply of the
//! highest ancestor whose recurrence it relies on (`Numbers::dep`). A disproof that relies
//! on no ancestor above the node itself is path-independent and stored in the table as a
//! disproof; one that relies on a higher ancestor is *not* stored (the searching node keeps
//! it in its local list of children, valid while the path above is unchanged, and passes
//! the dependency up). Proofs never rely on a repetition (a repetition only fails the
//! attacker), so they are stored as they are. A disproof at the root that relies on a
//! position before the root cannot be path-independent; the recursion-depth cap
//! ([`MAX_PLY`]) is treated like such a dependency, so it can never produce a stored or
//! reported disproof.
//!
//! The 50-move counter is the other part of a position's history that its key leaves out:
//! a result is stored with the counter it was found at and read back only where it holds
//! ([`super::table::Entry::usable`]); a disproof carries whether it rests on the rule
//! (`Numbers::fifty`), so that one that does not stays usable with any counter.

use std::collections::HashMap;

use shakmaty::Move;

use super::rules::{self, INF, Leaf, Rules};
use super::table::{Entry, Table};
use super::{Budget, ProofLimits};
use crate::position::Position;

/// Deepest ply searched; deeper nodes count as path-dependent failures.
pub const MAX_PLY: u32 = 400;

/// No dependency on the path (as a `dep` value).
pub(crate) const FREE: u32 = u32::MAX;

/// A child in the local list of a node, or the result of a search of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Numbers {
    pub pn: u32,
    pub dn: u32,
    /// Plies to mate when proven.
    pub plies: u32,
    /// For a disproof: 1 + the ply of the ancestor it relies on (0: a position before the
    /// root, or the depth cap), or [`FREE`].
    pub dep: u32,
    /// For a disproof: it may rest on the 50-move rule (holds only with the counter at
    /// least as high as here).
    pub fifty: bool,
}

impl Numbers {
    /// Proven or disproven.
    #[inline]
    pub fn solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// The numbers of a table entry (path-independent by construction).
    #[inline]
    pub fn of_entry(e: &Entry) -> Numbers {
        Numbers {
            pn: e.pn,
            dn: e.dn,
            plies: u32::from(e.plies),
            dep: FREE,
            fifty: e.fifty,
        }
    }

    /// The numbers (`pn`, `dn`) with no proof length and no dependency.
    #[inline]
    pub fn plain(pn: u32, dn: u32) -> Numbers {
        Numbers {
            pn,
            dn,
            plies: 0,
            dep: FREE,
            fifty: false,
        }
    }
}

/// The numbers of a node from its children: OR = (min pn, Σ dn), AND = (Σ pn, min dn), with
/// the proof length and the path and 50-move dependencies of a disproof.
pub(crate) fn combine<'a>(kids: impl Iterator<Item = &'a Numbers> + Clone, or: bool) -> Numbers {
    let (pn, dn, plies) = rules::combine(or, kids.clone().map(|k| (k.pn, k.dn, k.plies)));
    // OR disproof: every child's dependencies count (the lowest dep, the rule if any child
    // rests on it); AND disproof: the least dependent disproved child suffices (the highest
    // dep, then one that does not rest on the rule).
    let disproved = kids.filter(|k| k.dn == 0);
    let (dep, fifty) = if dn != 0 {
        (FREE, false)
    } else if or {
        disproved.fold((FREE, false), |(d, f), k| (d.min(k.dep), f || k.fifty))
    } else {
        disproved
            .max_by_key(|k| (k.dep, !k.fifty))
            .map_or((FREE, false), |k| (k.dep, k.fifty))
    };
    Numbers {
        pn,
        dn,
        plies,
        dep,
        fifty,
    }
}

/// The table key of the current position of `pos` at `ply` (the attacker moves left, when
/// limited, are part of it).
pub(crate) fn key(pos: &Position, rules: &Rules, ply: u32) -> u64 {
    let k = pos.key();
    match rules.moves_left(ply + u32::from(!rules.is_or(pos))) {
        Some(n) => k ^ (u64::from(n) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        None => k,
    }
}

/// The board, path, table, move counter and budget of a depth-first search.
pub(crate) struct Core {
    /// The board, at the node being searched.
    pub pos: Position,
    /// The rules of the proof game.
    pub rules: Rules,
    /// The transposition table.
    pub table: Table,
    /// Keys of the positions on the current path, by ply.
    pub path: Vec<u64>,
    /// Moves made.
    pub nodes: u64,
    /// Budget of moves (and the interrupt).
    pub budget: Budget,
}

impl Core {
    /// A search from `pos` (the attacker to move) with `table`.
    pub fn new(pos: &Position, limits: &ProofLimits, table: Table) -> Core {
        let (pos, rules) = rules::root(pos, limits.max_moves, limits.checks_only);
        Core {
            pos,
            rules,
            table,
            path: Vec::new(),
            nodes: 0,
            budget: Budget::new(limits),
        }
    }

    /// The table key of the current position at `ply`.
    #[inline]
    pub fn key(&self, ply: u32) -> u64 {
        key(&self.pos, &self.rules, ply)
    }

    /// The numbers of the current position at `ply`, before searching it: terminal values,
    /// else the table's, else the initialisation of [`Rules::numbers`].
    pub fn look(&self, ply: u32) -> Numbers {
        let leaf = if ply >= MAX_PLY {
            Leaf::Disproven {
                repetition: true,
                fifty: false,
            }
        } else {
            self.rules.classify(&self.pos, ply)
        };
        match leaf {
            Leaf::Proven => Numbers::plain(0, INF),
            Leaf::Disproven { repetition, fifty } => Numbers {
                dep: if repetition {
                    self.ancestor_dep()
                } else {
                    FREE
                },
                fifty,
                ..Numbers::plain(INF, 0)
            },
            Leaf::Unknown { .. } => match self.entry(ply) {
                Some(e) => Numbers::of_entry(&e),
                None => {
                    let (pn, dn) = self.rules.numbers(leaf, self.rules.is_or(&self.pos));
                    Numbers::plain(pn, dn)
                }
            },
        }
    }

    /// The table's entry of the current position at `ply`, if it holds with the position's
    /// 50-move counter.
    #[inline]
    pub fn entry(&self, ply: u32) -> Option<Entry> {
        self.table.get_at(self.key(ply), self.pos.halfmoves())
    }

    /// The entry to store for the current position at `ply` with the numbers `n`.
    pub fn entry_of(&self, ply: u32, n: &Numbers, work: u32) -> Entry {
        Entry::of(
            self.key(ply),
            (n.pn, n.dn, n.plies),
            self.pos.halfmoves(),
            n.fifty,
            work,
        )
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

    /// Ends the search of the current position at `ply` (already taken off the path) with
    /// the numbers `me`, `start` being the move count when it began: a disproof that relies
    /// on no ancestor above this node becomes path-independent; everything but a
    /// path-dependent disproof is stored. Returns the numbers as they are passed up.
    pub fn finish(&mut self, ply: u32, mut me: Numbers, start: u64) -> Numbers {
        if me.dn == 0 && me.dep != FREE && me.dep > ply {
            me.dep = FREE;
        }
        if !(me.dn == 0 && me.dep != FREE) {
            let work = (self.nodes - start).min(u64::from(u32::MAX)) as u32;
            let e = self.entry_of(ply, &me, work);
            self.table.put(e);
        }
        me
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

    /// The principal line of the proof of the root and its length in plies (see
    /// [`Self::proof_len`]); `None` when the table lost part of the proof. The board must be
    /// at the root, and is back there afterwards. These moves are not counted as nodes.
    pub fn pv(&mut self) -> Option<(u32, Vec<Move>)> {
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

/// For tests: checks every proof and disproof that `table` holds for the positions up to
/// three plies below `root` (a position of `material`, e.g. "KRvK", white attacking, no
/// move limit) against the exact table; returns (proofs, disproofs) checked. A disproof stored from a
/// repetition of a higher ancestor shows up as a "draw" that the exact table calls a win.
#[cfg(test)]
pub(crate) fn check_table_against_exact(
    table: &Table,
    root: &Position,
    material: &str,
) -> (usize, usize) {
    use crate::tb::exact::ExactTables;
    use crate::tb::table::Wdl;
    let exact = ExactTables::in_memory();
    exact.generate(material).unwrap();
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
            let Some(e) = table.get(p.key()) else {
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
    (proofs, disproofs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(pn: u32, dn: u32, plies: u32, dep: u32) -> Numbers {
        Numbers {
            pn,
            dn,
            plies,
            dep,
            fifty: false,
        }
    }

    #[test]
    fn disproofs_carry_their_path_dependency() {
        // OR node: disproved only if all children are, relying on the highest ancestor
        // any of them relies on (the smallest dep).
        let kids = [n(INF, 0, 0, FREE), n(INF, 0, 0, 3), n(INF, 0, 0, 5)];
        assert_eq!(combine(kids.iter(), true).dep, 3);
        // AND node: one disproved child suffices; the least dependent one is used.
        let kids = [n(1, 1, 0, FREE), n(INF, 0, 0, 2), n(INF, 0, 0, FREE)];
        let c = combine(kids.iter(), false);
        assert_eq!((c.pn, c.dn, c.dep), (INF, 0, FREE));
        // Not disproved: no dependency.
        assert_eq!(combine([n(2, 3, 0, FREE)].iter(), true).dep, FREE);
    }

    #[test]
    fn disproofs_carry_their_fifty_move_dependency() {
        let rule = Numbers {
            fifty: true,
            ..n(INF, 0, 0, FREE)
        };
        // OR node: resting on the rule if any child does.
        let c = combine([n(INF, 0, 0, FREE), rule].iter(), true);
        assert!(c.dn == 0 && c.fifty);
        // AND node: a child that does not rest on it suffices, at the same path dependency.
        let c = combine([rule, n(INF, 0, 0, FREE), n(1, 1, 0, FREE)].iter(), false);
        assert!(c.dn == 0 && !c.fifty && c.dep == FREE);
        // ... but path independence comes first.
        let c = combine([rule, n(INF, 0, 0, 2)].iter(), false);
        assert!(c.fifty && c.dep == FREE);
        assert!(!combine([rule, n(1, 1, 0, FREE)].iter(), true).fifty);
    }
}
