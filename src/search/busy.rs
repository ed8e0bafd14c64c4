//! Which moves other threads are searching right now, for Lazy SMP's helper threads to
//! spread out over the tree instead of searching the same subtrees at once: the "simplified
//! ABDADA" scheme (Weill's ABDADA, 1996, reduced to one shared table of move hashes, as
//! Kerrigan describes it for Lazy SMP engines). A thread about to search a move that is not
//! a node's first marks (node, move) here and unmarks it when done; another thread reaching
//! the same node with the mark set searches that move last instead (it is likely to find the
//! other thread's result in the transposition table by then).
//!
//! Only a scheduling hint: a lost or overwritten mark changes which thread searches what
//! first, never a result. One table is shared by the threads of one search; a search with one
//! thread has none (its order and node counts are unchanged).

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::Move;

use crate::tt::PackedMove;

/// Slots of the table (a power of two; 256 KiB).
const SLOTS: usize = 1 << 15;

/// Below this remaining depth moves are not marked nor deferred (cheap subtrees).
pub const DEFER_DEPTH: i32 = 3;

/// The shared table of (position, move) pairs being searched.
pub struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyMoves {
    fn default() -> Self {
        BusyMoves {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl BusyMoves {
    /// A non-zero tag for `m` played in the position with hash `key`.
    fn tag(key: u64, m: Move) -> u64 {
        let code = u64::from(PackedMove::new(m).0) + 1;
        (key ^ code.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 17) as usize & (SLOTS - 1)]
    }

    /// True if another thread marked `m` at the position `key` and has not unmarked it.
    pub fn is_busy(&self, key: u64, m: Move) -> bool {
        let t = Self::tag(key, m);
        self.slot(t).load(Ordering::Relaxed) == t
    }

    /// Marks `m` at `key` as being searched; returns the tag for [`BusyMoves::leave`].
    pub fn enter(&self, key: u64, m: Move) -> u64 {
        let t = Self::tag(key, m);
        self.slot(t).store(t, Ordering::Relaxed);
        t
    }

    /// Unmarks a move marked by [`BusyMoves::enter`] unless another mark replaced it.
    pub fn leave(&self, tag: u64) {
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn marks_are_seen_until_left_and_only_for_their_move() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let busy = BusyMoves::default();
        assert!(!busy.is_busy(7, a));
        let t = busy.enter(7, a);
        assert!(busy.is_busy(7, a));
        assert!(!busy.is_busy(7, b), "another move of the same position");
        assert!(!busy.is_busy(8, a), "the same move in another position");
        busy.leave(t);
        assert!(!busy.is_busy(7, a));
    }
}
