//! Constant bitboard masks and square metrics shared by the evaluation terms: files, the
//! spans in front of a pawn, whole-set pawn attacks, and distances to the centre.
//!
//! Everything is a `const` table built at compile time from plain `u64` arithmetic, indexed
//! by `Color as usize` (Black = 0, White = 1) and square index (a1 = 0 ... h8 = 63).

use shakmaty::{Bitboard, Color, Square};

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: u64 = FILE_A << 7;

/// Every square of each file.
pub const FILES: [u64; 8] = {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = FILE_A << f;
        f += 1;
    }
    t
};

/// The files next to each file.
pub const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= FILES[f - 1];
        }
        if f < 7 {
            t[f] |= FILES[f + 1];
        }
        f += 1;
    }
    t
};

/// Ranks strictly in front of a rank, from each colour's point of view: `[color][rank]`.
pub const FORWARD_RANKS: [[u64; 8]; 2] = {
    let mut t = [[0; 8]; 2];
    let mut r = 0;
    while r < 8 {
        // White: ranks above r; Black: ranks below r.
        t[1][r] = if r == 7 { 0 } else { !0u64 << (8 * (r + 1)) };
        t[0][r] = if r == 0 { 0 } else { !0u64 >> (8 * (8 - r)) };
        r += 1;
    }
    t
};

/// Squares in front of a square on its file: `[color][square]`.
pub const FORWARD_FILE: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = FILES[sq % 8] & FORWARD_RANKS[c][sq / 8];
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Squares in front of a square on its own and the adjacent files (no enemy pawn there means
/// a pawn on the square is passed): `[color][square]`.
pub const PASSED_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = (FILES[sq % 8] | ADJACENT_FILES[sq % 8]) & FORWARD_RANKS[c][sq / 8];
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Manhattan distance from the centre (0 on d4/e4/d5/e5, 6 in the corners).
pub const CENTRE_MANHATTAN: [i32; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let df = if f < 4 { 3 - f } else { f - 4 };
        let dr = if r < 4 { 3 - r } else { r - 4 };
        t[sq] = df + dr;
        sq += 1;
    }
    t
};

/// Chebyshev distance from the centre (0 on the four centre squares, 3 on the edge).
pub const CENTRE_CHEBYSHEV: [i32; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let df = if f < 4 { 3 - f } else { f - 4 };
        let dr = if r < 4 { 3 - r } else { r - 4 };
        t[sq] = if df > dr { df } else { dr };
        sq += 1;
    }
    t
};

/// All squares attacked by the pawns `pawns` of `color`.
#[inline]
pub const fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// The rank of `sq` from `color`'s point of view (0 = own back rank).
#[inline]
pub const fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.to_usize() / 8;
    match color {
        Color::White => r,
        Color::Black => 7 - r,
    }
}

/// The square in front of `sq` for a pawn of `color` (the same square on the last rank).
#[inline]
pub const fn push_square(color: Color, sq: Square) -> Square {
    let i = sq.to_u32();
    match color {
        Color::White if i < 56 => Square::new(i + 8),
        Color::Black if i >= 8 => Square::new(i - 8),
        _ => sq,
    }
}

/// Chebyshev distance between two squares.
#[inline]
pub const fn dist(a: Square, b: Square) -> i32 {
    a.distance(b) as i32
}

/// Manhattan distance between two squares.
#[inline]
pub const fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().distance(b.file()) + a.rank().distance(b.rank())) as i32
}

/// A `u64` as a [`Bitboard`].
#[inline]
pub const fn bb(v: u64) -> Bitboard {
    Bitboard(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_consistent() {
        assert_eq!(FORWARD_FILE[1][Square::E2.to_usize()].count_ones(), 6);
        assert_eq!(FORWARD_FILE[0][Square::E2.to_usize()].count_ones(), 1);
        assert_eq!(PASSED_SPAN[1][Square::A2.to_usize()].count_ones(), 12);
        assert_eq!(
            pawn_attacks(Color::White, 1 << Square::A2.to_usize()),
            1 << 17
        );
        assert_eq!(
            pawn_attacks(Color::Black, 1 << Square::H7.to_usize()),
            1 << 46
        );
        assert_eq!(CENTRE_MANHATTAN[0], 6);
        assert_eq!(CENTRE_CHEBYSHEV[Square::E4.to_usize()], 0);
        assert_eq!(relative_rank(Color::Black, Square::E7), 1);
        assert_eq!(push_square(Color::Black, Square::E7), Square::E6);
    }
}
