//! Material signatures of pawnless endings ("KQvKR"): parsing with clear errors, the canonical
//! colour orientation (stronger side as White), the fixed piece order used by the table index,
//! and the sub-endings reached by a capture. The retrograde solver (Thompson 1986, as used for
//! the KQKR experiments in Donkers 2003 §5.4 and Appendix B) solves these sub-endings first.

use std::{fmt, str::FromStr};

use shakmaty::{Board, Color, Piece, Role};

use crate::tb::{error::TbError, params::MAX_EXACT_PIECES};

/// Non-king roles in table order (strongest first).
const ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A pawnless material signature: one king per side plus up to
/// [`MAX_EXACT_PIECES`]` - 2` other pieces in total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Material {
    /// `counts[color][r]`: number of pieces of role `ROLES[r]` (queen, rook, bishop, knight).
    counts: [[u8; 4]; 2],
}

fn role_slot(role: Role) -> Option<usize> {
    ROLES.iter().position(|&r| r == role)
}

fn color_slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Material {
    /// Total number of pieces, kings included.
    pub fn count(&self) -> usize {
        2 + self
            .counts
            .iter()
            .flatten()
            .map(|&c| usize::from(c))
            .sum::<usize>()
    }

    /// Material of a board, or `None` if it has pawns, not exactly one king per side, or too
    /// many pieces for the exact tables.
    pub fn from_board(board: &Board) -> Option<Material> {
        if board.occupied().count() > MAX_EXACT_PIECES {
            return None;
        }
        let mut list = [Piece {
            color: Color::White,
            role: Role::King,
        }; MAX_EXACT_PIECES];
        let mut n = 0;
        for (_, piece) in board.iter() {
            list[n] = piece;
            n += 1;
        }
        Material::from_piece_list(&list[..n])
    }

    /// Material of a list of pieces, or `None` if it has pawns, not exactly one king per
    /// side, or more than [`MAX_EXACT_PIECES`] pieces.
    pub fn from_piece_list(pieces: &[Piece]) -> Option<Material> {
        if pieces.len() > MAX_EXACT_PIECES {
            return None;
        }
        let mut counts = [[0u8; 4]; 2];
        let mut kings = [0u8; 2];
        for piece in pieces {
            let side = color_slot(piece.color);
            match piece.role {
                Role::King => kings[side] += 1,
                role => counts[side][role_slot(role)?] += 1,
            }
        }
        (kings == [1, 1]).then_some(Material { counts })
    }

    /// Strength key of one side: more pieces first, then stronger roles.
    fn side_key(&self, side: usize) -> (u8, [u8; 4]) {
        let c = self.counts[side];
        (c.iter().sum(), c)
    }

    /// True if White is at least as strong as Black (the orientation tables are stored in).
    pub fn is_canonical(&self) -> bool {
        self.side_key(0) >= self.side_key(1)
    }

    /// The same material with colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The canonical orientation and whether colours had to be swapped to reach it.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (*self, false)
        } else {
            (self.flipped(), true)
        }
    }

    /// Pieces in table order: white king, black king, then White's and Black's other pieces,
    /// each strongest first.
    pub fn pieces(&self) -> Vec<Piece> {
        let (array, n) = self.piece_array();
        array[..n].to_vec()
    }

    /// [`Material::pieces`] without allocation: the first [`MAX_EXACT_PIECES`] pieces and
    /// their number (unused entries are white kings).
    pub fn piece_array(&self) -> ([Piece; MAX_EXACT_PIECES], usize) {
        let mut out = [Piece {
            color: Color::White,
            role: Role::King,
        }; MAX_EXACT_PIECES];
        out[1] = Piece {
            color: Color::Black,
            role: Role::King,
        };
        let mut n = 2;
        for (side, color) in [(0, Color::White), (1, Color::Black)] {
            for (slot, &role) in ROLES.iter().enumerate() {
                for _ in 0..self.counts[side][slot] {
                    if n < MAX_EXACT_PIECES {
                        out[n] = Piece { color, role };
                    }
                    n += 1;
                }
            }
        }
        (out, n.min(MAX_EXACT_PIECES))
    }

    /// The material after `piece` (not a king) has been captured, or `None` if absent.
    pub fn without(&self, piece: Piece) -> Option<Material> {
        let slot = role_slot(piece.role)?;
        let side = color_slot(piece.color);
        let mut counts = self.counts;
        counts[side][slot] = counts[side][slot].checked_sub(1)?;
        Some(Material { counts })
    }

    /// All canonical pawnless materials with at most `max_pieces` pieces (kings included).
    pub fn all_canonical(max_pieces: usize) -> Vec<Material> {
        let mut out = Vec::new();
        let extras = max_pieces.saturating_sub(2);
        // Each side's non-king pieces as a multiset of role slots: enumerate counts vectors.
        let mut sides: Vec<[u8; 4]> = Vec::new();
        for q in 0..=extras {
            for r in 0..=extras - q {
                for b in 0..=extras - q - r {
                    for n in 0..=extras - q - r - b {
                        sides.push([q as u8, r as u8, b as u8, n as u8]);
                    }
                }
            }
        }
        for &w in &sides {
            for &b in &sides {
                let m = Material { counts: [w, b] };
                if m.count() <= max_pieces && m.is_canonical() {
                    out.push(m);
                }
            }
        }
        out.sort_by_key(|m| (m.count(), m.to_string()));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in 0..2 {
            if side == 1 {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for (slot, role) in ROLES.iter().enumerate() {
                for _ in 0..self.counts[side][slot] {
                    write!(f, "{}", role.upper_char())?;
                }
            }
        }
        Ok(())
    }
}

impl FromStr for Material {
    type Err = TbError;

    /// Parses `KQvKR` (case-insensitive, sides split by `v`). Errors name the problem:
    /// missing `v`, missing or extra kings, pawns, unknown letters, too many pieces.
    fn from_str(s: &str) -> Result<Material, TbError> {
        let bad = |why: String| Err(TbError::Material(format!("{s:?}: {why}")));
        let trimmed = s.trim();
        if trimmed.is_empty() {
            return bad("empty material string (expected e.g. KQvKR)".into());
        }
        let parts: Vec<&str> = trimmed.split(['v', 'V']).collect();
        if parts.len() != 2 {
            return bad("expected exactly one 'v' between the sides, e.g. KQvKR".into());
        }
        let mut counts = [[0u8; 4]; 2];
        for (side, part) in parts.iter().enumerate() {
            let mut kings = 0;
            for ch in part.chars() {
                match ch.to_ascii_uppercase() {
                    'K' => kings += 1,
                    'P' => {
                        return bad("pawns are not covered by the exact tables (use Syzygy)".into());
                    }
                    c => match Role::from_char(c.to_ascii_lowercase()) {
                        Some(role) => match role_slot(role) {
                            Some(slot) => counts[side][slot] += 1,
                            None => return bad(format!("unexpected piece letter {ch:?}")),
                        },
                        None => return bad(format!("unknown piece letter {ch:?}")),
                    },
                }
            }
            if kings != 1 {
                return bad(format!("side {} must have exactly one king", side + 1));
            }
        }
        let material = Material { counts };
        if material.count() > MAX_EXACT_PIECES {
            return bad(format!(
                "{} pieces; the exact tables cover at most {MAX_EXACT_PIECES}",
                material.count()
            ));
        }
        Ok(material)
    }
}
