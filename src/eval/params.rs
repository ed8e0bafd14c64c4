//! Every tunable weight of the evaluation in one place: [`EvalParams`] (with the endgame
//! weights in [`EndgameParams`] and the KQKR weights in [`KqkrParams`]).
//!
//! Middlegame/endgame pairs are packed into one integer, [`S`], so that a term costs one
//! addition; the taper in `full.rs` unpacks them once per evaluation.
//!
//! Sources: material values and piece-square tables are PeSTO's (Ronald Friederich, tables
//! published on the Chess Programming Wiki as public domain, see `pst.rs`). Mobility, pawn,
//! rook, king-safety and endgame weights are hand-set here (shapes after the classical
//! Stockfish 11 terms, magnitudes scaled to sit on top of PeSTO's tables) and are not tuned.
//! The KQKR weights were hand-set, then tuned by coordinate descent against our exact DTM
//! tables on positions from Browne–BELLE games (`examples/tune_kqkr.rs`): the moves lost by
//! depth-5 searches fell from 0.90 to 0.79 per move, and a K+Q side at depth 10 erred in
//! 27 % of its moves instead of 33 %.

use super::pst;

/// A packed (middlegame, endgame) score pair: `mg * 2^16 + eg`.
///
/// Both halves must stay within ±2^15; sums of many terms do, since every evaluation term is
/// far below that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(i32);

impl S {
    /// The zero pair.
    pub const ZERO: S = S(0);

    /// Packs a middlegame and an endgame value.
    pub const fn new(mg: i32, eg: i32) -> S {
        S(mg.wrapping_mul(1 << 16).wrapping_add(eg))
    }

    /// The middlegame half.
    pub const fn mg(self) -> i32 {
        (self.0.wrapping_add(0x8000)) >> 16
    }

    /// The endgame half.
    pub const fn eg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// `self * k` (both halves).
    pub const fn scale(self, k: i32) -> S {
        S(self.0.wrapping_mul(k))
    }

    /// `self + o` (both halves), usable in `const` tables.
    pub const fn plus(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}

impl core::ops::Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}

impl core::ops::Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0.wrapping_sub(o.0))
    }
}

impl core::ops::Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl core::ops::AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 = self.0.wrapping_add(o.0);
    }
}

impl core::ops::SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.0 = self.0.wrapping_sub(o.0);
    }
}

impl core::ops::Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0.wrapping_mul(k))
    }
}

/// A mobility table `[S; N]` linear in the number of safe squares, zero at `centre`.
const fn linear<const N: usize>(centre: i32, mg: i32, eg: i32) -> [S; N] {
    let mut t = [S::ZERO; N];
    let mut i = 0;
    while i < N {
        let d = i as i32 - centre;
        t[i] = S::new(d * mg, d * eg);
        i += 1;
    }
    t
}

/// All weights of [`super::FullEval`]. `Default` gives the built-in values.
///
/// Piece arrays are indexed by `Role as usize - 1` (pawn, knight, bishop, rook, queen, king);
/// rank arrays by the rank relative to the piece's owner (0 = own back rank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material per piece type (PeSTO).
    pub material: [S; 6],
    /// Piece-square tables per piece type, PeSTO layout: index 0 is a8, 63 is h1, from
    /// White's point of view (Black uses the vertically mirrored square).
    pub pst: [[S; 64]; 6],
    /// Game-phase weight per piece type; the full phase is [`EvalParams::phase_total`].
    pub phase_weight: [i32; 6],
    /// Sum of phase weights in the start position (phase is clamped to it).
    pub phase_total: i32,
    /// Knight mobility by number of safe squares.
    pub mobility_knight: [S; 9],
    /// Bishop mobility by number of safe squares.
    pub mobility_bishop: [S; 14],
    /// Rook mobility by number of safe squares.
    pub mobility_rook: [S; 15],
    /// Queen mobility by number of safe squares.
    pub mobility_queen: [S; 28],
    /// Passed pawn bonus by relative rank.
    pub passed_rank: [S; 8],
    /// Extra bonus by relative rank when every square in front of a passed pawn is empty.
    pub passed_free_path: [S; 8],
    /// Endgame weight by relative rank for the king distances to a passed pawn's stop square.
    pub passed_king_rank_weight: [i32; 8],
    /// Endgame bonus per square of distance from the enemy king to the stop square (times the
    /// rank weight).
    pub passed_king_their: i32,
    /// Endgame penalty per square of distance from the own king to the stop square (times the
    /// rank weight).
    pub passed_king_own: i32,
    /// Penalty per isolated pawn.
    pub isolated: S,
    /// Penalty per doubled pawn (a pawn with an own pawn in front on its file).
    pub doubled: S,
    /// Penalty per backward pawn.
    pub backward: S,
    /// Bonus for two or more bishops.
    pub bishop_pair: S,
    /// Rook on a file without pawns.
    pub rook_open_file: S,
    /// Rook on a file without own pawns but with enemy pawns.
    pub rook_semi_open_file: S,
    /// Rook or queen on the relative 7th rank with the enemy king on the 8th or enemy pawns on
    /// the 7th.
    pub major_on_seventh: S,
    /// Pawn-shield bonus per own pawn one rank and two ranks in front of the king (files
    /// around the king), while the king is on its first two ranks.
    pub pawn_shield: [S; 2],
    /// King-attack weight per attacking piece type (pieces whose attacks hit the king zone).
    pub king_attacker_weight: [i32; 6],
    /// Percentage of the summed attacker weight that counts, by number of attackers.
    pub king_attack_scale: [i32; 8],
    /// Bonus for the side to move.
    pub tempo: S,
    /// Endgame knowledge weights.
    pub endgame: EndgameParams,
}

/// Weights of the specialised endgame evaluations (`endgame.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameParams {
    /// Bonus on top of material for a won lone-king ending (KQK, KRK, KBBK, KBNK, ...), so that
    /// the search prefers converting into one.
    pub known_win: i32,
    /// Material value per piece type used by the endgame evaluations (endgame values).
    pub value: [i32; 6],
    /// Per step of the defending king's Manhattan distance from the centre (0..6).
    pub edge_manhattan: i32,
    /// Per step of the defending king's Chebyshev distance from the centre (0..3).
    pub edge_chebyshev: i32,
    /// Per step the attacking king is closer to the defending king (7 - Chebyshev distance).
    pub king_close: i32,
    /// KBNK: per step of Manhattan distance the defending king is closer to a corner of the
    /// bishop's colour (14 - distance).
    pub kbnk_corner: i32,
    /// KPK: score of a pawn the defending king cannot catch (rule of the square) or whose
    /// key square the attacking king holds, before the per-rank bonus.
    pub kpk_win: i32,
    /// KPK: bonus per relative rank of the pawn in a won KPK.
    pub kpk_rank: i32,
    /// KQ vs KR weights.
    pub kqkr: KqkrParams,
}

/// Weights of the KQ vs KR evaluation (`kqkr.rs`), from the queen side's point of view
/// (tuned with `examples/tune_kqkr.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KqkrParams {
    /// Base score of KQ vs KR with no other term.
    pub base: i32,
    /// Per step of the defending king's Manhattan distance from the centre (0..6).
    pub edge_manhattan: i32,
    /// Per step of the defending king's Chebyshev distance from the centre (0..3).
    pub edge_chebyshev: i32,
    /// Per step the kings are closer (7 - Chebyshev distance).
    pub king_close: i32,
    /// Per step the kings are closer in Manhattan distance (14 - distance).
    pub king_close_manhattan: i32,
    /// Per step of Chebyshev distance between the rook and its king (capped at 5).
    pub rook_separation: i32,
    /// Penalty per safe square of the defending king.
    pub defender_mobility: i32,
    /// Penalty when the defending king has no safe square and is not in check (stalemate
    /// tricks: the rook can sacrifice itself).
    pub defender_no_moves: i32,
    /// Bonus when the kings stand in opposition (same line, one square between) with the
    /// defender on the edge.
    pub opposition: i32,
    /// Per step the queen is closer to the defending king (7 - Chebyshev distance, with
    /// adjacent counted as distance 2: the queen works next to its king, not on top of the
    /// other).
    pub queen_close: i32,
    /// With the rook side to move and a rook check that forks or skewers the queen, the score
    /// is multiplied by this and divided by 64 (near draw).
    pub rook_tactic_scale: i32,
    /// With the queen side to move, bonus for a queen check that also attacks the rook and
    /// wins it by force (no king defence, no block).
    pub queen_fork: i32,
}

impl Default for EvalParams {
    fn default() -> Self {
        let mut pst_table = [[S::ZERO; 64]; 6];
        let mut role = 0;
        while role < 6 {
            let mut sq = 0;
            while sq < 64 {
                pst_table[role][sq] = S::new(pst::MG[role][sq], pst::EG[role][sq]);
                sq += 1;
            }
            role += 1;
        }
        EvalParams {
            material: [
                S::new(82, 94),
                S::new(337, 281),
                S::new(365, 297),
                S::new(477, 512),
                S::new(1025, 936),
                S::ZERO,
            ],
            pst: pst_table,
            phase_weight: [0, 1, 1, 2, 4, 0],
            phase_total: 24,
            mobility_knight: linear(4, 4, 4),
            mobility_bishop: linear(6, 4, 4),
            mobility_rook: linear(7, 2, 4),
            mobility_queen: linear(13, 1, 2),
            passed_rank: [
                S::ZERO,
                S::new(0, 5),
                S::new(2, 8),
                S::new(5, 15),
                S::new(15, 30),
                S::new(30, 60),
                S::new(50, 90),
                S::ZERO,
            ],
            passed_free_path: [
                S::ZERO,
                S::ZERO,
                S::new(0, 2),
                S::new(0, 5),
                S::new(5, 12),
                S::new(10, 25),
                S::new(20, 40),
                S::ZERO,
            ],
            passed_king_rank_weight: [0, 0, 0, 1, 2, 3, 4, 0],
            passed_king_their: 5,
            passed_king_own: 2,
            isolated: S::new(-5, -10),
            doubled: S::new(-8, -18),
            backward: S::new(-6, -8),
            bishop_pair: S::new(25, 45),
            rook_open_file: S::new(25, 10),
            rook_semi_open_file: S::new(10, 5),
            major_on_seventh: S::new(10, 20),
            pawn_shield: [S::new(12, 0), S::new(6, 0)],
            king_attacker_weight: [0, 20, 20, 40, 80, 0],
            king_attack_scale: [0, 0, 50, 75, 88, 94, 97, 99],
            tempo: S::new(15, 5),
            endgame: EndgameParams::default(),
        }
    }
}

impl Default for EndgameParams {
    fn default() -> Self {
        EndgameParams {
            known_win: 2_000,
            value: [100, 300, 320, 500, 950, 0],
            edge_manhattan: 20,
            edge_chebyshev: 20,
            king_close: 15,
            kbnk_corner: 20,
            kpk_win: 600,
            kpk_rank: 20,
            kqkr: KqkrParams::default(),
        }
    }
}

impl Default for KqkrParams {
    fn default() -> Self {
        KqkrParams {
            base: 550,
            edge_manhattan: 33,
            edge_chebyshev: 20,
            king_close: 21,
            king_close_manhattan: 6,
            rook_separation: 10,
            defender_mobility: 4,
            defender_no_moves: 25,
            opposition: 11,
            queen_close: 4,
            rook_tactic_scale: 8,
            queen_fork: 312,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_pairs_round_trip() {
        for (mg, eg) in [
            (0, 0),
            (5, -7),
            (-300, 200),
            (-1, -1),
            (1200, -1500),
            (-9000, 9000),
        ] {
            let s = S::new(mg, eg);
            assert_eq!((s.mg(), s.eg()), (mg, eg));
            assert_eq!(((-s).mg(), (-s).eg()), (-mg, -eg));
            assert_eq!(((s * 3).mg(), (s * 3).eg()), (3 * mg, 3 * eg));
            let t = s + S::new(10, -20) - S::new(3, 4);
            assert_eq!((t.mg(), t.eg()), (mg + 7, eg - 24));
        }
    }
}
