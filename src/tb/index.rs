//! Position indexing. Pawnless endings use the 8-fold board symmetry: the white king is
//! mapped into the a1–d1–d4 triangle, the two kings share one of 462 king-pair slots, every
//! other piece takes 6 bits. A position's index is the smallest one over the symmetries that
//! keep the white king in the triangle, so each equivalence class has exactly one index, which
//! the retrograde solver relies on (Thompson 1986; Donkers 2003 §5.4 uses such tables for KQKR).
//! Endings with pawns keep only the left–right mirror: the white king on files a–d (5 bits),
//! the black king and every other piece 6 bits each, pawns never on the first or last rank.
//! No castling and no en passant exist in these tables.

use shakmaty::{Piece, Role};

use crate::tb::material::Material;

/// Number of (white king, black king) pairs after symmetry reduction.
pub const KING_PAIRS: usize = 462;

/// Marker for "no king-pair slot" (adjacent kings or outside the canonical region).
const NO_PAIR: u16 = u16::MAX;

/// Maps square `sq` (0 = a1, 63 = h8) by symmetry `t`: bit 0 mirrors files, bit 1 mirrors
/// ranks, bit 2 swaps files and ranks (the a1–h8 diagonal).
const fn transform(t: usize, sq: usize) -> usize {
    let mut x = sq & 7;
    let mut y = sq >> 3;
    if t & 1 != 0 {
        x = 7 - x;
    }
    if t & 2 != 0 {
        y = 7 - y;
    }
    if t & 4 != 0 {
        let tmp = x;
        x = y;
        y = tmp;
    }
    y * 8 + x
}

const fn build_sym() -> [[u8; 64]; 8] {
    let mut out = [[0u8; 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut sq = 0;
        while sq < 64 {
            out[t][sq] = transform(t, sq) as u8;
            sq += 1;
        }
        t += 1;
    }
    out
}

/// `SYM[t][sq]`: the image of `sq` under symmetry `t`.
static SYM: [[u8; 64]; 8] = build_sym();

const fn in_triangle(sq: usize) -> bool {
    let x = sq & 7;
    let y = sq >> 3;
    x <= 3 && y <= x
}

/// The symmetries that bring a white king on `sq` into the triangle (one or two).
#[derive(Clone, Copy)]
struct KingSyms {
    count: u8,
    t: [u8; 2],
}

const fn build_king_syms() -> [KingSyms; 64] {
    let mut out = [KingSyms {
        count: 0,
        t: [0; 2],
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut t = 0;
        while t < 8 {
            if in_triangle(transform(t, sq)) && out[sq].count < 2 {
                out[sq].t[out[sq].count as usize] = t as u8;
                out[sq].count += 1;
            }
            t += 1;
        }
        sq += 1;
    }
    out
}

static KING_SYMS: [KingSyms; 64] = build_king_syms();

const fn kings_apart(a: usize, b: usize) -> bool {
    let dx = (a & 7) as i32 - (b & 7) as i32;
    let dy = (a >> 3) as i32 - (b >> 3) as i32;
    dx * dx > 1 || dy * dy > 1
}

const fn build_pairs() -> ([[u16; 64]; 64], [(u8, u8); KING_PAIRS]) {
    let mut index = [[NO_PAIR; 64]; 64];
    let mut squares = [(0u8, 0u8); KING_PAIRS];
    let mut n = 0;
    let mut wk = 0;
    while wk < 64 {
        if in_triangle(wk) {
            let on_diag = (wk & 7) == (wk >> 3);
            let mut bk = 0;
            while bk < 64 {
                let below = (bk >> 3) <= (bk & 7);
                if kings_apart(wk, bk) && (!on_diag || below) {
                    index[wk][bk] = n as u16;
                    squares[n] = (wk as u8, bk as u8);
                    n += 1;
                }
                bk += 1;
            }
        }
        wk += 1;
    }
    assert!(n == KING_PAIRS);
    (index, squares)
}

static PAIRS: ([[u16; 64]; 64], [(u8, u8); KING_PAIRS]) = build_pairs();

/// The piece layout of one material: piece order, index size, identical-piece handling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Number of pieces (2 to 4), kings first.
    pub n: usize,
    /// Pieces in index order (white king, black king, others; unused slots are white kings).
    pub pieces: [Piece; 4],
    /// True if slots 2 and 3 hold the same piece (their squares are stored sorted).
    pub identical: bool,
    /// True if the material has pawns (left–right mirror only).
    pub pawns: bool,
    /// Number of index slots per side to move.
    pub size: usize,
}

/// Number of white-king squares of a pawn layout (files a–d).
const PAWN_KING_SQUARES: usize = 32;

impl Layout {
    /// The layout of a canonical material.
    pub fn new(material: &Material) -> Layout {
        let (pieces, n) = material.piece_array();
        let pawns = material.has_pawns();
        Layout {
            n,
            pieces,
            identical: n == 4 && pieces[2] == pieces[3],
            pawns,
            size: if pawns {
                PAWN_KING_SQUARES << (6 * (n - 1))
            } else {
                KING_PAIRS << (6 * (n - 2))
            },
        }
    }

    /// The canonical index of the squares `sq[..n]` (in layout order), or `None` if the
    /// kings touch or coincide. Other collisions are not checked here.
    #[inline]
    pub fn index(&self, sq: &[u8; 4]) -> Option<u32> {
        self.index_flagged(sq).map(|(idx, _)| idx)
    }

    /// Like [`Layout::index`], also telling whether the squares were used as they are (the
    /// white king already in the triangle, off the diagonal). Distinct placements that are all
    /// "direct" have distinct indices, which lets the solver skip de-duplication.
    #[inline]
    pub fn index_flagged(&self, sq: &[u8; 4]) -> Option<(u32, bool)> {
        if self.pawns {
            return self.pawn_index(sq);
        }
        let wk = usize::from(sq[0] & 63);
        let syms = KING_SYMS[wk];
        if syms.count == 1 && syms.t[0] == 0 {
            let pair = PAIRS.0[wk][usize::from(sq[1] & 63)];
            if pair == NO_PAIR {
                return None;
            }
            return Some((self.compose(pair, sq[2] & 63, sq[3] & 63), true));
        }
        let mut best = u32::MAX;
        for &t in &syms.t[..usize::from(syms.count)] {
            let map = &SYM[usize::from(t)];
            let wk = usize::from(map[wk]);
            let bk = usize::from(map[usize::from(sq[1] & 63)]);
            let pair = PAIRS.0[wk][bk];
            if pair == NO_PAIR {
                continue;
            }
            let idx = self.compose(
                pair,
                map[usize::from(sq[2] & 63)],
                map[usize::from(sq[3] & 63)],
            );
            best = best.min(idx);
        }
        (best != u32::MAX).then_some((best, false))
    }

    /// The index of a pawn layout: mirrored left–right when the white king is on files e–h.
    #[inline]
    fn pawn_index(&self, sq: &[u8; 4]) -> Option<(u32, bool)> {
        let mirror = sq[0] & 4 != 0;
        let flip = if mirror { 7 } else { 0 };
        let (wk, bk) = (
            usize::from((sq[0] ^ flip) & 63),
            usize::from((sq[1] ^ flip) & 63),
        );
        if wk == bk || !kings_apart(wk, bk) {
            return None;
        }
        let kings = (((wk >> 3) * 4 + (wk & 3)) << 6 | bk) as u32;
        Some((
            self.compose(kings, (sq[2] ^ flip) & 63, (sq[3] ^ flip) & 63),
            !mirror,
        ))
    }

    /// Index from a king slot (pair, or two squares of a pawn layout) and the (already mapped)
    /// squares of slots 2 and 3.
    #[inline]
    fn compose(&self, kings: impl Into<u32>, a: u8, b: u8) -> u32 {
        let idx = kings.into();
        match self.n {
            3 => (idx << 6) | u32::from(a),
            4 => {
                let (a, b) = if self.identical && a > b {
                    (b, a)
                } else {
                    (a, b)
                };
                (((idx << 6) | u32::from(a)) << 6) | u32::from(b)
            }
            _ => idx,
        }
    }

    /// The squares stored at `idx` (no validity check beyond the king pair).
    #[inline]
    pub fn decode(&self, idx: u32) -> [u8; 4] {
        let extra = 6 * (self.n as u32 - 2);
        let pair = (idx >> extra) as usize;
        let (wk, bk) = if self.pawns {
            let k = (pair >> 6) & 31;
            (((k >> 2) * 8 + (k & 3)) as u8, (pair & 63) as u8)
        } else {
            PAIRS.1[pair.min(KING_PAIRS - 1)]
        };
        let mut sq = [wk, bk, 0, 0];
        match self.n {
            3 => sq[2] = (idx & 63) as u8,
            4 => {
                sq[2] = ((idx >> 6) & 63) as u8;
                sq[3] = (idx & 63) as u8;
            }
            _ => {}
        }
        sq
    }

    /// True if `idx` holds a canonical placement (distinct squares, sorted identical pieces,
    /// smallest index of its symmetry class). Legality (check) is not tested here.
    pub fn is_canonical(&self, idx: u32) -> bool {
        let sq = self.decode(idx);
        for i in 0..self.n {
            for j in 0..i {
                if sq[i] == sq[j] {
                    return false;
                }
            }
        }
        if self.identical && sq[2] > sq[3] {
            return false;
        }
        let pawn_on_edge =
            (2..self.n).any(|i| self.pieces[i].role == Role::Pawn && matches!(sq[i] >> 3, 0 | 7));
        if pawn_on_edge {
            return false;
        }
        self.index(&sq) == Some(idx)
    }
}
