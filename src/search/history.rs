//! The statistics tables of issue 41's trial refinements: continuation history, capture
//! history and correction history, all updated by the "gravity" rule (an entry moves towards
//! the bonus by its size and saturates smoothly at ± the limit).
//!
//! - **Continuation history** scores a quiet move by how often it refuted a node reached by
//!   the same piece-and-target one ply back (the opponent's move) and two plies back (our own
//!   previous move): Stockfish's and Ethereal's "counter-move" and "follow-up" histories.
//!   Added to the relative history (Winands 2004 ch. 7) in the quiet moves' order, and read by
//!   history-based reductions.
//! - **Butterfly history** (switch `quiethist`, kept by its SPRT and on by default) scores a quiet move by side, from- and
//!   to-square with the same gravity rule: a bonus when it reached β, a malus when it was
//!   tried before the move that did. With the continuation history it replaces the relative
//!   history in the quiet moves' order, as Ethereal orders quiet moves by the sum of its
//!   butterfly, counter-move and follow-up histories.
//! - **Capture history** scores a capture by moving piece, target square and captured piece;
//!   it orders captures within the SEE classes.
//! - **Correction history** keeps, per side to move and pawn structure, how far searches
//!   found the position from its static evaluation, and corrects later static evaluations of
//!   the same structure by it (Stockfish's pawn correction history): the pruning margins then
//!   rest on a better estimate.
//!
//! The tables are allocated only when a refinement that needs them is on
//! ([`crate::params::SearchFeatures::needs_histories`]); each is a few megabytes at most.

use shakmaty::{Chess, Color, Move, Position as _};

use crate::params::FeatureParams;
use crate::position::Position;

const PIECE_SQUARES: usize = 12 * 64;

/// The piece-and-target index of `m` played by `color`.
#[inline]
fn piece_square(color: Color, m: Move) -> usize {
    ((color as usize) * 6 + (m.role() as usize - 1)) * 64 + m.to() as usize
}

/// The start of the continuation table's row of zeros, never updated: the row of a move that
/// is missing (after a null move, at the start of the history).
const ZERO_ROW: usize = 2 * PIECE_SQUARES * PIECE_SQUARES;

/// The butterfly table's size: side, from-square, to-square.
const BUTTERFLY: usize = 2 * 64 * 64;

/// The moves that led to a node: one and two plies back (none after a null move or at the
/// start of the history), and their continuation-table rows for the side to move, found once
/// per node rather than once per move scored (the scores are the same; issue 41's profile of
/// candidate 1 found that work at 8 % of the search's instructions).
#[derive(Clone, Copy, Debug)]
pub struct Recent {
    /// The opponent's last move.
    pub prev: Option<Move>,
    /// Our own move before it.
    pub prev2: Option<Move>,
    /// The side to move.
    turn: Color,
    /// The rows of `prev` and `prev2` for a move of `turn` (`ZERO_ROW` where missing).
    rows: [usize; 2],
}

impl Recent {
    /// The moves that led to `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Self {
        Self::new(
            pos.move_back(1),
            pos.move_back(2),
            shakmaty::Position::turn(pos.chess()),
        )
    }

    /// The recent moves `prev` (the opponent's) and `prev2` (our own) before a move of `turn`.
    pub fn new(prev: Option<Move>, prev2: Option<Move>, turn: Color) -> Self {
        let rows = [
            prev.map_or(ZERO_ROW, |p| piece_square(!turn, p) * PIECE_SQUARES),
            prev2.map_or(ZERO_ROW, |p| {
                (PIECE_SQUARES + piece_square(turn, p)) * PIECE_SQUARES
            }),
        ];
        Recent {
            prev,
            prev2,
            turn,
            rows,
        }
    }

    /// The continuation-table rows that exist (the ones an update moves).
    #[inline]
    fn present_rows(&self) -> impl Iterator<Item = usize> + '_ {
        self.rows.iter().copied().filter(|&r| r != ZERO_ROW)
    }
}

/// The gravity update: `e += bonus − e·|bonus| / limit`.
#[inline]
fn gravity(e: &mut i16, bonus: i32, limit: i32) {
    let b = bonus.clamp(-limit, limit);
    let v = i32::from(*e);
    *e = (v + b - v * b.abs() / limit).clamp(-limit, limit) as i16;
}

/// `n` zeros, or None when the allocation fails.
fn zeroed(n: usize) -> Option<Vec<i16>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    v.resize(n, 0);
    Some(v)
}

/// The four tables of one search thread.
pub struct Histories {
    cont: Vec<i16>,
    quiet: Vec<i16>,
    capture: Vec<i16>,
    correction: Vec<i16>,
}

impl Histories {
    /// Tables without room (the refinements are off).
    pub fn empty() -> Self {
        Histories {
            cont: Vec::new(),
            quiet: Vec::new(),
            capture: Vec::new(),
            correction: Vec::new(),
        }
    }

    /// True when the tables have room.
    pub fn is_allocated(&self) -> bool {
        !self.cont.is_empty()
    }

    /// Gives the tables room (cleared) unless they have it. False when the memory could
    /// not be had: the tables are then left without room, and every refinement reads them
    /// as empty (as if it were off) instead of the process aborting.
    pub fn allocate(&mut self, fp: &FeatureParams) -> bool {
        let corr = 2 * fp.correction_size.max(1);
        if self.is_allocated() && self.correction.len() == corr {
            return true;
        }
        match (
            zeroed(ZERO_ROW + PIECE_SQUARES),
            zeroed(BUTTERFLY),
            zeroed(PIECE_SQUARES * 6),
            zeroed(corr),
        ) {
            (Some(cont), Some(quiet), Some(capture), Some(correction)) => {
                *self = Histories {
                    cont,
                    quiet,
                    capture,
                    correction,
                };
                true
            }
            _ => {
                *self = Histories::empty();
                false
            }
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.cont.iter_mut().for_each(|e| *e = 0);
        self.quiet.iter_mut().for_each(|e| *e = 0);
        self.capture.iter_mut().for_each(|e| *e = 0);
        self.correction.iter_mut().for_each(|e| *e = 0);
    }

    /// True when nothing is recorded.
    pub fn is_clear(&self) -> bool {
        self.cont.iter().all(|&e| e == 0)
            && self.quiet.iter().all(|&e| e == 0)
            && self.capture.iter().all(|&e| e == 0)
            && self.correction.iter().all(|&e| e == 0)
    }

    /// The continuation history of the quiet move `m` of the side to move after `recent`
    /// (the sum over both plies; 0 when the tables have no room).
    #[inline]
    pub fn cont_score(&self, recent: &Recent, m: Move) -> i32 {
        if self.cont.is_empty() {
            return 0;
        }
        let i = piece_square(recent.turn, m);
        i32::from(self.cont[recent.rows[0] + i]) + i32::from(self.cont[recent.rows[1] + i])
    }

    /// True when the continuation history of the quiet move `m` after each of the two last
    /// moves, both present, is at least `min` (the `histext` extension's test).
    #[inline]
    pub fn cont_both_at_least(&self, recent: &Recent, m: Move, min: i32) -> bool {
        if self.cont.is_empty() || recent.rows.contains(&ZERO_ROW) {
            return false;
        }
        let i = piece_square(recent.turn, m);
        recent
            .rows
            .iter()
            .all(|&r| i32::from(self.cont[r + i]) >= min)
    }

    /// Moves the continuation history of `m` by `bonus` (negative: a malus).
    pub fn update_cont(&mut self, recent: &Recent, m: Move, bonus: i32, limit: i32) {
        if self.cont.is_empty() {
            return;
        }
        let i = piece_square(recent.turn, m);
        for row in recent.present_rows() {
            gravity(&mut self.cont[row + i], bonus, limit);
        }
    }

    /// The butterfly index of `m` played by `color`.
    #[inline]
    fn quiet_index(color: Color, m: Move) -> usize {
        let from = m.from().map_or(0, |s| s as usize);
        (color as usize) * 4096 + from * 64 + m.to() as usize
    }

    /// The butterfly history of the quiet move `m` of `color` (0 when the tables have no
    /// room).
    #[inline]
    pub fn quiet_score(&self, color: Color, m: Move) -> i32 {
        self.quiet
            .get(Self::quiet_index(color, m))
            .map_or(0, |&e| i32::from(e))
    }

    /// Moves the butterfly history of `m` by `bonus` (negative: a malus).
    pub fn update_quiet(&mut self, color: Color, m: Move, bonus: i32, limit: i32) {
        if let Some(e) = self.quiet.get_mut(Self::quiet_index(color, m)) {
            gravity(e, bonus, limit);
        }
    }

    fn capture_index(color: Color, m: Move) -> usize {
        let victim = m.capture().map_or(0, |r| r as usize - 1);
        piece_square(color, m) * 6 + victim
    }

    /// The capture history of `m` of `color` (0 when the tables have no room).
    #[inline]
    pub fn capture_score(&self, color: Color, m: Move) -> i32 {
        self.capture
            .get(Self::capture_index(color, m))
            .map_or(0, |&e| i32::from(e))
    }

    /// Moves the capture history of `m` by `bonus`.
    pub fn update_capture(&mut self, color: Color, m: Move, bonus: i32, limit: i32) {
        if let Some(e) = self.capture.get_mut(Self::capture_index(color, m)) {
            gravity(e, bonus, limit);
        }
    }

    fn correction_index(&self, chess: &Chess) -> Option<usize> {
        if self.correction.is_empty() {
            return None;
        }
        let b = chess.board();
        let w = (b.pawns() & b.white()).0;
        let k = (b.pawns() & b.black()).0;
        let h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = h ^ (h >> 31);
        let half = self.correction.len() / 2;
        Some(chess.turn() as usize * half + (h % half as u64) as usize)
    }

    /// The correction (centipawns) to add to the static evaluation of `chess`.
    #[inline]
    pub fn correction(&self, chess: &Chess, fp: &FeatureParams) -> i32 {
        self.correction_index(chess).map_or(0, |i| {
            i32::from(self.correction[i]) / fp.correction_grain.max(1)
        })
    }

    /// Records that a search to `depth` found `chess` `diff` centipawns from its static
    /// evaluation (a running average weighted by depth).
    pub fn update_correction(&mut self, chess: &Chess, diff: i32, depth: i32, fp: &FeatureParams) {
        let Some(i) = self.correction_index(chess) else {
            return;
        };
        let grain = fp.correction_grain.max(1);
        let cap = (fp.correction_max * grain).min(i32::from(i16::MAX));
        let w = (depth + 1).clamp(1, 16);
        let old = i32::from(self.correction[i]);
        let target = (diff * grain).clamp(-cap, cap);
        self.correction[i] = ((old * (256 - w) + target * w) / 256).clamp(-cap, cap) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Histories {
        let mut h = Histories::empty();
        assert!(h.allocate(&FeatureParams::default()));
        h
    }

    #[test]
    fn gravity_saturates_at_the_limit() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1600, 16384);
        }
        assert!((16000..=16384).contains(&i32::from(e)), "{e}");
        for _ in 0..1000 {
            gravity(&mut e, -1600, 16384);
        }
        assert!((-16384..=-16000).contains(&i32::from(e)), "{e}");
    }

    #[test]
    fn a_continuation_is_scored_after_its_own_moves_only() {
        let mut pos = Position::default();
        pos.play_uci("e2e4").unwrap();
        pos.play_uci("e7e5").unwrap();
        let nf3 = pos.parse_uci("g1f3").unwrap();
        let d4 = pos.parse_uci("d2d4").unwrap();
        let recent = Recent::of(&pos);
        let mut h = tables();
        h.update_cont(&recent, nf3, 500, 16384);
        assert_eq!(h.cont_score(&recent, nf3), 1000, "both plies");
        assert_eq!(h.cont_score(&recent, d4), 0);
        let other = Recent::new(recent.prev, None, Color::White);
        assert_eq!(h.cont_score(&other, nf3), 500);
        assert_eq!(Histories::empty().cont_score(&recent, nf3), 0);
        h.clear();
        assert!(h.is_clear());
    }

    #[test]
    fn corrections_follow_the_pawns_and_the_side() {
        let fp = FeatureParams::default();
        let mut h = tables();
        let a = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        let b = Position::from_fen("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1").unwrap();
        let c = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1").unwrap();
        for _ in 0..200 {
            h.update_correction(a.chess(), 60, 10, &fp);
        }
        let got = h.correction(a.chess(), &fp);
        assert!((55..=60).contains(&got), "{got}");
        assert_eq!(h.correction(b.chess(), &fp), got, "same pawns, same side");
        assert_eq!(h.correction(c.chess(), &fp), 0, "the other side's entry");
        for _ in 0..200 {
            h.update_correction(a.chess(), 1000, 10, &fp);
        }
        assert!(h.correction(a.chess(), &fp) <= fp.correction_max);
    }

    #[test]
    fn butterfly_history_is_per_side_and_squares() {
        let pos = Position::default();
        let nf3 = pos.parse_uci("g1f3").unwrap();
        let nc3 = pos.parse_uci("b1c3").unwrap();
        let mut h = tables();
        h.update_quiet(Color::White, nf3, 700, 16384);
        h.update_quiet(Color::White, nc3, -300, 16384);
        assert_eq!(h.quiet_score(Color::White, nf3), 700);
        assert_eq!(h.quiet_score(Color::White, nc3), -300);
        assert_eq!(
            h.quiet_score(Color::Black, nf3),
            0,
            "the other side's entry"
        );
        assert_eq!(Histories::empty().quiet_score(Color::White, nf3), 0);
        h.clear();
        assert!(h.is_clear());
    }
}
