//! Piece placements as small square arrays, the bridge between `shakmaty` positions and table
//! indices: attack tests on raw bitboards (via `shakmaty::attacks`), colour normalisation (the
//! stronger side is stored as White) and the piece order of a [`Layout`]. Used by the solver and
//! the probe code (Thompson's retrograde method, Donkers 2003 §5.4).

use shakmaty::{Bitboard, Color, Piece, Position, Role, Square, attacks};

use crate::tb::{index::Layout, material::Material};

/// Attack set of `role` on `sq` with occupancy `occ` (pieces only: a pawn's attacks depend on
/// its colour, see [`piece_attacks`]; its moves are not attacks).
#[inline]
pub fn attacks_of(role: Role, sq: u8, occ: u64) -> u64 {
    let s = Square::new(u32::from(sq & 63));
    let occ = Bitboard(occ);
    match role {
        Role::King => attacks::king_attacks(s).0,
        Role::Queen => attacks::queen_attacks(s, occ).0,
        Role::Rook => attacks::rook_attacks(s, occ).0,
        Role::Bishop => attacks::bishop_attacks(s, occ).0,
        Role::Knight => attacks::knight_attacks(s).0,
        Role::Pawn => 0,
    }
}

/// Squares attacked by `piece` on `sq` with occupancy `occ`, pawns included.
#[inline]
pub fn piece_attacks(piece: Piece, sq: u8, occ: u64) -> u64 {
    if piece.role == Role::Pawn {
        attacks::pawn_attacks(piece.color, Square::new(u32::from(sq & 63))).0
    } else {
        attacks_of(piece.role, sq, occ)
    }
}

/// True if a piece of colour `by` among `pieces[..n]` (skipping slot `skip`) attacks `target`.
#[inline]
pub fn attacked(
    pieces: &[Piece; 4],
    sq: &[u8; 4],
    n: usize,
    skip: usize,
    by: Color,
    target: u8,
    occ: u64,
) -> bool {
    let bit = 1u64 << target;
    (0..n).any(|i| {
        i != skip && pieces[i].color == by && piece_attacks(pieces[i], sq[i], occ) & bit != 0
    })
}

/// Occupancy bitboard of `sq[..n]`.
#[inline]
pub fn occupancy(sq: &[u8; 4], n: usize) -> u64 {
    sq[..n].iter().fold(0, |acc, &s| acc | (1u64 << s))
}

/// A position in table coordinates: canonical material, squares in layout order and
/// the side to move (after any colour swap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Canonical material of the position.
    pub material: Material,
    /// Squares in the order of `Layout::new(&material)`.
    pub squares: [u8; 4],
    /// Side to move in table orientation.
    pub turn: Color,
}

impl Placement {
    /// Converts a list of pieces (any order, any colour orientation) into table coordinates.
    /// Returns `None` if the material is not covered or the list does not match it.
    pub fn from_pieces(list: &[(Piece, u8)], turn: Color) -> Option<Placement> {
        if list.len() > 4 {
            return None;
        }
        let mut pieces = [Piece {
            color: Color::White,
            role: Role::King,
        }; 4];
        let mut occ = 0u64;
        for (slot, &(piece, sq)) in pieces.iter_mut().zip(list) {
            *slot = piece;
            occ |= 1u64 << (sq & 63);
        }
        if occ.count_ones() as usize != list.len() {
            return None;
        }
        let material = Material::from_piece_list(&pieces[..list.len()])?;
        let (canonical, flip) = material.canonical();
        let layout = Layout::new(&canonical);
        let mut squares = [0u8; 4];
        let mut used = [false; 4];
        for (square, &want) in squares.iter_mut().zip(&layout.pieces).take(layout.n) {
            let found = list.iter().enumerate().find(|(i, (piece, _))| {
                let piece = if flip {
                    Piece {
                        color: !piece.color,
                        role: piece.role,
                    }
                } else {
                    *piece
                };
                !used[*i] && piece == want
            })?;
            used[found.0] = true;
            let sq = (found.1).1 & 63;
            *square = if flip { sq ^ 56 } else { sq };
        }
        Some(Placement {
            material: canonical,
            squares,
            turn: if flip { !turn } else { turn },
        })
    }

    /// Table coordinates of a `shakmaty` position (`None` if not covered; castling rights
    /// are not covered either).
    pub fn from_position<P: Position>(pos: &P) -> Option<Placement> {
        if pos.castles().any() {
            return None;
        }
        let board = pos.board();
        if board.occupied().count() > 4 {
            return None;
        }
        let mut list = [(
            Piece {
                color: Color::White,
                role: Role::King,
            },
            0u8,
        ); 4];
        let mut n = 0;
        for (sq, piece) in board.iter() {
            list[n] = (piece, sq as u8);
            n += 1;
        }
        Placement::from_pieces(&list[..n], pos.turn())
    }
}
