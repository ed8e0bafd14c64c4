//! The retrograde solver's own move generation ([`super::generate`]; Thompson 1986, as in
//! Donkers 2003 §5.4): the pseudo-legal moves of one piece on the index's placement arrays
//! (pushes, double pushes, captures, promotions) for the forward pass, and what the
//! breadth-first passes need to un-make moves (pawn origins, sliders, the squares between
//! two squares). Written on raw squares and bitboards rather than `shakmaty::Position`
//! because the solver visits every slot of a table and builds no position for most of them.

use shakmaty::{Color, Piece, Role, Square};

use crate::tb::{
    material::PROMOTIONS,
    placement::{attacks_of, piece_attacks},
};

/// Capacity of one piece's move list (a queen has at most 27 moves, a pawn 12).
pub(super) const CANDIDATES: usize = 32;

/// The squares a pawn of `color` now on `to` can have come from by a push (single or double),
/// given the occupancy: un-moves for the breadth-first passes. Captures and promotions are
/// conversions and have no un-move inside a table.
pub(super) fn pawn_origins(color: Color, to: u8, occ: u64) -> u64 {
    let rank = to >> 3;
    let free = |s: u8| occ & (1u64 << s) == 0;
    let (one, two) = match color {
        Color::White if rank >= 2 => (to - 8, (rank == 3).then(|| to - 16)),
        Color::Black if rank <= 5 => (to + 8, (rank == 4).then(|| to + 16)),
        _ => return 0,
    };
    if !free(one) {
        return 0;
    }
    let mut out = 1u64 << one;
    if let Some(two) = two.filter(|&s| free(s)) {
        out |= 1u64 << two;
    }
    out
}

pub(super) fn is_slider(role: Role) -> bool {
    matches!(role, Role::Queen | Role::Rook | Role::Bishop)
}

/// Squares strictly between `a` and `b` on a line (empty if not aligned).
pub(super) fn between(a: u8, b: u8) -> u64 {
    shakmaty::attacks::between(
        Square::new(u32::from(a & 63)),
        Square::new(u32::from(b & 63)),
    )
    .0
}

pub(super) fn color_of(s: usize) -> Color {
    if s == 0 { Color::White } else { Color::Black }
}

/// One move of one piece in the forward pass.
#[derive(Clone, Copy, Default)]
pub(super) struct Candidate {
    pub(super) to: u8,
    /// Slot of the captured piece.
    pub(super) captured: Option<usize>,
    /// The role a pawn promotes to.
    pub(super) promotion: Option<Role>,
}

/// The pseudo-legal moves of the piece in slot `i` (pawn pushes, double pushes, captures and
/// promotions included) into `out`; returns their number.
pub(super) fn candidates(
    pieces: &[Piece; 4],
    sq: &[u8; 4],
    n: usize,
    i: usize,
    occ: u64,
    own: u64,
    out: &mut [Candidate; CANDIDATES],
) -> usize {
    let piece = pieces[i];
    let from = sq[i];
    let victim = |to: u8| (0..n).find(|&j| j != i && sq[j] == to);
    let mut count = 0;
    let mut push = |to: u8, captured: Option<usize>, promotion: Option<Role>| {
        out[count] = Candidate {
            to,
            captured,
            promotion,
        };
        count += 1;
    };
    if piece.role != Role::Pawn {
        let mut targets = attacks_of(piece.role, from, occ) & !own;
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            push(to, victim(to), None);
        }
        return count;
    }
    let white = piece.color == Color::White;
    let last = if white { 7 } else { 0 };
    let start = if white { 1 } else { 6 };
    let step = |s: u8| if white { s + 8 } else { s - 8 };
    let mut targets = piece_attacks(piece, from, occ) & occ & !own;
    let one = step(from);
    if occ & (1u64 << one) == 0 {
        targets |= 1u64 << one;
        if from >> 3 == start && occ & (1u64 << step(one)) == 0 {
            push(step(one), None, None);
        }
    }
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        let captured = victim(to);
        if to >> 3 == last {
            for role in PROMOTIONS {
                push(to, captured, Some(role));
            }
        } else {
            push(to, captured, None);
        }
    }
    count
}
