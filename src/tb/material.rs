//! Material signatures of the endings our exact tables cover ("KQvKR", "KQvKP"): parsing with
//! clear errors, the canonical colour orientation (stronger side as White), the fixed piece
//! order used by the table index, and the endings reached by a conversion (a capture or a
//! promotion). The retrograde solver (Thompson 1986, as used for the KQKR experiments in
//! Donkers 2003 §5.4 and Appendix B) solves these sub-endings first. Pawns are covered when
//! only one side has them: with pawns on both sides an en-passant right would be part of a
//! position, which the tables do not store.

use std::{fmt, str::FromStr};

use shakmaty::{Board, Color, Piece, Role};

use crate::tb::{error::TbError, params::MAX_EXACT_PIECES};

/// Non-king roles in table order (strongest first).
const ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// Slot of the pawn in [`ROLES`].
const PAWN: usize = 4;

/// The roles a pawn may promote to.
pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A material signature: one king per side plus up to [`MAX_EXACT_PIECES`]` - 2` other
/// pieces in total, pawns on at most one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Material {
    /// `counts[color][r]`: number of pieces of role `ROLES[r]` (queen, rook, bishop, knight,
    /// pawn).
    counts: [[u8; 5]; 2],
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

    /// Material of a board, or `None` if it has pawns on both sides, not exactly one king per
    /// side, or too many pieces for the exact tables.
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

    /// Material of a list of pieces, or `None` if it has pawns on both sides, not exactly one
    /// king per side, or more than [`MAX_EXACT_PIECES`] pieces.
    pub fn from_piece_list(pieces: &[Piece]) -> Option<Material> {
        if pieces.len() > MAX_EXACT_PIECES {
            return None;
        }
        let mut counts = [[0u8; 5]; 2];
        let mut kings = [0u8; 2];
        for piece in pieces {
            let side = color_slot(piece.color);
            match piece.role {
                Role::King => kings[side] += 1,
                role => counts[side][role_slot(role)?] += 1,
            }
        }
        let one_sided = counts[0][PAWN] == 0 || counts[1][PAWN] == 0;
        (kings == [1, 1] && one_sided).then_some(Material { counts })
    }

    /// True if either side has a pawn.
    pub fn has_pawns(&self) -> bool {
        self.counts[0][PAWN] + self.counts[1][PAWN] > 0
    }

    /// Strength key of one side: more pieces first, then stronger roles.
    fn side_key(&self, side: usize) -> (u8, [u8; 5]) {
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

    /// The material after a pawn of `color` has promoted to `role` (capturing `captured`, if
    /// any), or `None` if there is no such pawn or piece.
    pub fn promoted(&self, color: Color, role: Role, captured: Option<Piece>) -> Option<Material> {
        let side = color_slot(color);
        let mut out = match captured {
            Some(piece) if piece.color != color => self.without(piece)?,
            Some(_) => return None,
            None => *self,
        };
        out.counts[side][PAWN] = out.counts[side][PAWN].checked_sub(1)?;
        out.counts[side][role_slot(role).filter(|&r| r != PAWN)?] += 1;
        Some(out)
    }

    /// The canonical materials one conversion away: every capture of a non-king piece and
    /// every promotion (with or without a capture), each once, sorted by name.
    pub fn conversions(&self) -> Vec<Material> {
        let pieces = self.pieces();
        let targets: Vec<Piece> = pieces.iter().skip(2).copied().collect();
        let mut out: Vec<Material> = targets.iter().filter_map(|&p| self.without(p)).collect();
        for color in [Color::White, Color::Black] {
            for role in PROMOTIONS {
                out.extend(self.promoted(color, role, None));
                for &victim in &targets {
                    out.extend(self.promoted(color, role, Some(victim)));
                }
            }
        }
        let mut out: Vec<Material> = out.into_iter().map(|m| m.canonical().0).collect();
        out.sort_by_key(|m| m.to_string());
        out.dedup();
        out
    }

    /// All canonical materials the exact tables cover with at most `max_pieces` pieces: the
    /// pawnless ones of [`Material::all_canonical`] and those with pawns on one side.
    pub fn all_covered(max_pieces: usize) -> Vec<Material> {
        let mut out = Vec::new();
        for w in Material::all_canonical(max_pieces) {
            for side in 0..2 {
                let mut m = w;
                while m.count() <= max_pieces {
                    let (canonical, _) = m.canonical();
                    if !out.contains(&canonical) {
                        out.push(canonical);
                    }
                    m.counts[side][PAWN] += 1;
                }
            }
        }
        out.sort_by_key(|m| (m.count(), m.has_pawns(), m.to_string()));
        out
    }

    /// All canonical pawnless materials with at most `max_pieces` pieces (kings included).
    pub fn all_canonical(max_pieces: usize) -> Vec<Material> {
        let mut out = Vec::new();
        let extras = max_pieces.saturating_sub(2);
        // Each side's non-king pieces as a multiset of role slots: enumerate counts vectors.
        let mut sides: Vec<[u8; 5]> = Vec::new();
        for q in 0..=extras {
            for r in 0..=extras - q {
                for b in 0..=extras - q - r {
                    for n in 0..=extras - q - r - b {
                        sides.push([q as u8, r as u8, b as u8, n as u8, 0]);
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

    /// Parses `KQvKR` or `KQvKP` (case-insensitive, sides split by `v`). Errors name the
    /// problem: missing `v`, missing or extra kings, pawns on both sides, unknown letters, too
    /// many pieces.
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
        let mut counts = [[0u8; 5]; 2];
        for (side, part) in parts.iter().enumerate() {
            let mut kings = 0;
            for ch in part.chars() {
                match ch.to_ascii_uppercase() {
                    'K' => kings += 1,
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
        if counts[0][PAWN] > 0 && counts[1][PAWN] > 0 {
            return bad(
                "pawns on both sides are not covered by the exact tables (en passant; use Syzygy)"
                    .into(),
            );
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
