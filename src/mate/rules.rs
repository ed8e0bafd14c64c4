//! The rules of the proof game shared by all provers: which positions are terminal (the
//! values *true*, *false* and *unknown* of Winands 2004, §4.2.1), the initial proof and
//! disproof numbers of an unknown node (1 and the mobility n, §4.2.1 and §4.3.1), and the
//! order in which children are generated (checks first at OR nodes).
//!
//! Repetitions are draws at their first recurrence on the path from the root (the search
//! convention of [`Position::is_repetition`]). This is sound for the attacker: a forced
//! mate can always be played without repeating, so counting a repetition as a failure never
//! turns a mate into a non-mate. It is path-dependent, though; [`Leaf::Disproven`] says when
//! a disproof came from a repetition, so that a transposition table can keep it apart.
//! The 50-move counter is part of a position's state but not of its table key, and two paths
//! of different lengths reach one position with different counters: [`Leaf::Disproven`]
//! also says when a disproof came from the 50-move rule, and [`super::table::Entry`] keeps
//! the counter a result was found at, so that the table hands a result on only where it
//! holds.

use shakmaty::{Color, Move, MoveList, Position as _};

use crate::position::Position;

/// "Infinite" proof or disproof number: only solved nodes have it.
pub const INF: u32 = 1 << 30;

/// Adds proof numbers: [`INF`] if either is, else the sum capped at `INF − 1`, so that a
/// large sum is never mistaken for a solved node.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// Proof and disproof numbers of a node from its children's (pn, dn, plies): OR = (min pn,
/// Σ dn), AND = (Σ pn, min dn) (Winands 2004, §4.2.1), with the proof length in plies when
/// proven: 1 + the shortest proven child at OR nodes, 1 + the longest child at AND nodes.
pub fn combine(or: bool, kids: impl Iterator<Item = (u32, u32, u32)>) -> (u32, u32, u32) {
    let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
    let (mut best, mut worst) = (u32::MAX, 0u32);
    for (kpn, kdn, plies) in kids {
        if or {
            pn = pn.min(kpn);
            dn = add(dn, kdn);
        } else {
            pn = add(pn, kpn);
            dn = dn.min(kdn);
        }
        if kpn == 0 {
            best = best.min(plies);
        }
        worst = worst.max(plies);
    }
    let plies = match (pn, or) {
        (0, true) => 1 + best,
        (0, false) => 1 + worst,
        _ => 0,
    };
    (pn, dn, plies)
}

/// The board and rules of a search rooted at `pos` (which becomes the repetition root).
pub fn root(pos: &Position, max_moves: Option<u32>, checks_only: bool) -> (Position, Rules) {
    let mut pos = pos.clone();
    pos.set_root();
    let rules = Rules::new(&pos, max_moves, checks_only);
    (pos, rules)
}

/// The value of a node as seen before it is expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The defender is checkmated.
    Proven,
    /// No mate from here; `repetition` when only because the path repeats a position,
    /// `fifty` when because the 50-move counter has run out.
    Disproven {
        /// The disproof depends on the path (a repetition).
        repetition: bool,
        /// The disproof depends on the 50-move counter (it may not hold with a lower one).
        fifty: bool,
    },
    /// Not terminal; `moves` is the mobility of the side to move.
    Unknown {
        /// Number of children the node will have.
        moves: u32,
    },
}

impl Leaf {
    /// A disproof that holds on every path and with every 50-move counter (stalemate,
    /// insufficient material, the attacker mated, the move limit reached).
    pub const DRAWN: Leaf = Leaf::Disproven {
        repetition: false,
        fifty: false,
    };
}

/// The attacker, the optional move limit and the checks-only switch.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The side that tries to mate (to move at the root).
    pub attacker: Color,
    /// Mate in at most this many attacker moves, if set.
    pub max_moves: Option<u32>,
    /// The attacker considers checking moves only.
    pub checks_only: bool,
    /// Initialise unknown nodes by mobility (1 and n) instead of 1 and 1.
    pub mobility: bool,
}

impl Rules {
    /// The rules for a search rooted at `pos`.
    pub fn new(pos: &Position, max_moves: Option<u32>, checks_only: bool) -> Rules {
        Rules {
            attacker: pos.turn(),
            max_moves,
            checks_only,
            mobility: true,
        }
    }

    /// True when the attacker is to move in `pos` (an OR node).
    #[inline]
    pub fn is_or(&self, pos: &Position) -> bool {
        pos.turn() == self.attacker
    }

    /// Attacker moves still allowed at `ply` (plies from the root), `None` without limit.
    #[inline]
    pub fn moves_left(&self, ply: u32) -> Option<u32> {
        self.max_moves.map(|n| n.saturating_sub(ply / 2))
    }

    /// Classifies the current position of `pos`, `ply` plies below the root.
    pub fn classify(&self, pos: &Position, ply: u32) -> Leaf {
        let moves = pos.legal_moves();
        let or = self.is_or(pos);
        if moves.is_empty() {
            let mated_defender = pos.chess().is_check() && !or;
            return if mated_defender {
                Leaf::Proven
            } else {
                Leaf::DRAWN
            };
        }
        if pos.chess().has_insufficient_material(self.attacker) {
            return Leaf::DRAWN;
        }
        if pos.halfmoves() >= 100 {
            return Leaf::Disproven {
                repetition: false,
                fifty: true,
            };
        }
        if ply > 0 && pos.is_repetition() {
            return Leaf::Disproven {
                repetition: true,
                fifty: false,
            };
        }
        // The next attacker move is made at `ply` (OR) or `ply + 1` (AND).
        let next_or = if or { ply } else { ply + 1 };
        if self.moves_left(next_or) == Some(0) {
            return Leaf::DRAWN;
        }
        Leaf::Unknown {
            moves: moves.len() as u32,
        }
    }

    /// The initial (proof, disproof) numbers of a leaf at an OR (`or`) or AND node.
    #[inline]
    pub fn numbers(&self, leaf: Leaf, or: bool) -> (u32, u32) {
        match leaf {
            Leaf::Proven => (0, INF),
            Leaf::Disproven { .. } => (INF, 0),
            Leaf::Unknown { moves } => {
                let n = if self.mobility { moves.max(1) } else { 1 };
                if or { (1, n) } else { (n, 1) }
            }
        }
    }

    /// The children of the current position in search order: at OR nodes checking moves
    /// first (only those in checks-only mode), captures and promotions next; at AND nodes
    /// the generator's order.
    pub fn children(&self, pos: &Position) -> MoveList {
        let mut moves = pos.legal_moves();
        if !self.is_or(pos) {
            return moves;
        }
        let chess = pos.chess();
        let rank = |m: &Move| -> u8 {
            let mut after = chess.clone();
            after.play_unchecked(*m);
            if after.is_check() {
                0
            } else if m.is_capture() || m.is_promotion() {
                1
            } else {
                2
            }
        };
        let mut keyed: Vec<(u8, Move)> = moves.iter().map(|m| (rank(m), *m)).collect();
        keyed.sort_by_key(|&(r, _)| r);
        moves.clear();
        for (r, m) in keyed {
            if r == 0 || !self.checks_only {
                moves.push(m);
            }
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(fen: &str, ply: u32, max_moves: Option<u32>) -> Leaf {
        let (pos, rules) = root(&Position::from_fen(fen).unwrap(), max_moves, false);
        rules.classify(&pos, ply)
    }

    #[test]
    fn terminal_positions() {
        // Black to move is mated: proven when black is the defender (white attacks).
        let mated = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
        let (pos, mut rules) = root(&Position::from_fen(mated).unwrap(), None, false);
        rules.attacker = Color::White;
        assert_eq!(rules.classify(&pos, 1), Leaf::Proven);
        // The attacker itself mated, stalemate, lone king: disproven.
        assert_eq!(classify(mated, 0, None), Leaf::DRAWN);
        assert_eq!(
            classify("k7/8/1Q6/8/8/8/8/7K b - - 0 1", 0, None),
            Leaf::DRAWN
        );
        assert_eq!(
            classify("8/8/8/4k3/8/8/8/4K3 w - - 0 1", 0, None),
            Leaf::DRAWN
        );
        // Mate in 1 allowed at ply 0, not when the attacker has no move left.
        let m1 = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert!(matches!(classify(m1, 0, Some(1)), Leaf::Unknown { .. }));
        assert_eq!(classify(m1, 2, Some(1)), Leaf::DRAWN);
    }

    #[test]
    fn repetition_is_a_path_dependent_disproof() {
        let (mut pos, rules) = root(
            &Position::from_fen("6k1/8/8/8/8/8/8/R5K1 w - - 0 1").unwrap(),
            None,
            false,
        );
        for m in ["a1a2", "g8h8", "a2a1", "h8g8"] {
            pos.play_uci(m).unwrap();
        }
        assert_eq!(
            rules.classify(&pos, 4),
            Leaf::Disproven {
                repetition: true,
                fifty: false
            }
        );
    }

    #[test]
    fn the_fifty_move_rule_is_a_counter_dependent_disproof_but_a_mate_on_the_hundredth_halfmove_stands()
     {
        let fifty = Leaf::Disproven {
            repetition: false,
            fifty: true,
        };
        // White to move with the counter at 100: drawn, and only because of the counter.
        assert_eq!(
            classify("6k1/8/8/8/8/8/8/R5K1 w - - 100 80", 0, None),
            fifty
        );
        assert!(matches!(
            classify("6k1/8/8/8/8/8/8/R5K1 w - - 99 80", 0, None),
            Leaf::Unknown { .. }
        ));
        // Black mated by the move that brought the counter to 100.
        let (pos, mut rules) = root(
            &Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").unwrap(),
            None,
            false,
        );
        rules.attacker = Color::White;
        assert_eq!(rules.classify(&pos, 1), Leaf::Proven);
    }

    #[test]
    fn combine_follows_or_and_rules() {
        let kids = [(0, INF, 3), (2, 5, 0)];
        assert_eq!(combine(true, kids.into_iter()), (0, INF, 4));
        assert_eq!(combine(false, kids.into_iter()), (2, 5, 0));
        assert_eq!(
            combine(false, [(0, INF, 3), (0, INF, 1)].into_iter()),
            (0, INF, 4)
        );
        assert_eq!(add(INF - 1, 7), INF - 1);
        assert_eq!(add(INF, 0), INF);
    }
}
