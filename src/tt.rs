//! The transposition table: a lock-free hash table shared by the search threads of one
//! evaluator (the opponent-model driver gives every evaluator its own, Donkers 2003 §3.4.1).
//!
//! Buckets of four 16-byte entries (one cache line). Each entry is two `AtomicU64`s, the key
//! stored XOR-ed with the data so that a torn write is detected as a miss (Hyatt's lockless
//! hashing). Replacement is depth-preferred with aging: an entry of the same key is
//! overwritten when the new one is exact or not much shallower, otherwise the bucket's entry
//! with the lowest `depth - 8 × age` is replaced. Mate scores are stored relative to the node
//! ([`crate::score::to_tt`]).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Role, Square};

use crate::eval::Score;

/// The kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// A compact move: from (6 bits), to (6 bits), promotion role (3 bits). Castling is stored
/// as king square to rook square, as shakmaty represents it. Zero means "no move".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PackedMove(pub u16);

impl PackedMove {
    /// Packs a move.
    #[inline]
    pub fn new(m: Move) -> Self {
        let from = m.from().map_or(0, |s| s as u16);
        let to = m.to() as u16;
        let promo = m.promotion().map_or(0, |r| r as u16);
        PackedMove(1 << 15 | promo << 12 | to << 6 | from)
    }

    /// True if this packs `m`.
    #[inline]
    pub fn matches(self, m: Move) -> bool {
        self.0 != 0 && self == PackedMove::new(m)
    }

    /// The legal move of `pos` this packs, if there is one: the table's move tried before
    /// the node's moves are generated (a stored move may come from another position whose key
    /// collided, so it is checked). Cheaper than generating every move: shakmaty's
    /// `UciMove::to_move` builds the one candidate and tests its legality alone.
    pub fn legal_in(self, pos: &Chess) -> Option<Move> {
        let (from, to, promotion) = self.parts()?;
        let m = UciMove::Normal {
            from,
            to,
            promotion,
        }
        .to_move(pos)
        .ok()?;
        // The value must be this move's own packing: no stray promotion bits, and no king
        // move of two squares read as castling (we pack castling as king to rook).
        (PackedMove::new(m) == self).then_some(m)
    }

    /// From square, to square and promotion, for display and tests.
    pub fn parts(self) -> Option<(Square, Square, Option<Role>)> {
        if self.0 == 0 {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from((self.0 >> 6) & 63));
        let promo = match (self.0 >> 12) & 7 {
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            _ => None,
        };
        Some((from, to, promo))
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best (or refutation) move.
    pub mv: PackedMove,
    /// Score, node-relative (convert with `from_tt`).
    pub score: Score,
    /// Static evaluation of the position.
    pub eval: Score,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

const ENTRIES: usize = 4;

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES],
}

/// A shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
    /// Strict tables see only entries of the current search: older ones read as empty, so
    /// [`TranspositionTable::clear_fast`] is an O(1) equivalent of a full clear.
    strict: bool,
}

fn pack(mv: PackedMove, score: Score, eval: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(mv.0)
        | (u64::from(score as i16 as u16) << 16)
        | (u64::from(eval as i16 as u16) << 32)
        | (u64::from(depth.clamp(0, 255) as u8) << 48)
        | (u64::from(bound as u8) << 56)
        | (u64::from(age & 63) << 58)
}

fn unpack(d: u64) -> (TtHit, u8) {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (
        TtHit {
            mv: PackedMove(d as u16),
            score: Score::from((d >> 16) as u16 as i16),
            eval: Score::from((d >> 32) as u16 as i16),
            depth: i32::from((d >> 48) as u8),
            bound,
        },
        ((d >> 58) & 63) as u8,
    )
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
            strict: false,
        }
    }

    /// A table of about `mb` mebibytes, or `None` if the memory cannot be had (the caller
    /// reports it and carries on without).
    pub fn try_new(mb: usize) -> Option<Self> {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).ok()?;
        buckets.resize_with(n, Bucket::default);
        Some(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
            strict: false,
        })
    }

    /// A strict table (see [`TranspositionTable::clear_fast`]): for searches that must
    /// behave exactly as with a freshly cleared table, many times per second.
    pub fn new_strict(mb: usize) -> Self {
        let mut t = TranspositionTable::new(mb);
        t.strict = true;
        t
    }

    /// [`TranspositionTable::try_new`] or [`TranspositionTable::new_strict`]'s table:
    /// `None` if the memory cannot be had.
    pub fn try_new_kind(mb: usize, strict: bool) -> Option<Self> {
        let mut t = TranspositionTable::try_new(mb)?;
        t.strict = strict;
        Some(t)
    }

    /// Makes the table behave as if cleared: O(1) for strict tables (a new generation;
    /// entries of older ones are invisible), a full [`TranspositionTable::clear`] otherwise
    /// and when the generation counter wraps.
    pub fn clear_fast(&self) {
        if !self.strict {
            self.clear();
            return;
        }
        let a = self.age.load(Ordering::Relaxed);
        if a >= 60 {
            self.clear();
        } else {
            // Leave room for the searches' own `new_search` increments.
            self.age.store(a + 2, Ordering::Relaxed);
        }
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.entries {
                e.key.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries age.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let idx = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Hints the CPU to load the bucket of `key`.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let _ = self.bucket(key);
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let age = self.age.load(Ordering::Relaxed);
        for e in &self.bucket(key).entries {
            let d = e.data.load(Ordering::Relaxed);
            if d != 0 && e.key.load(Ordering::Relaxed) ^ d == key {
                let (hit, a) = unpack(d);
                if self.strict && a != age {
                    return None;
                }
                return Some(hit);
            }
        }
        None
    }

    /// Stores a result. `score` must already be node-relative.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in bucket.entries.iter().enumerate() {
            let mut d = e.data.load(Ordering::Relaxed);
            if self.strict && d != 0 && unpack(d).1 != age {
                d = 0; // a stale entry is an empty slot
            }
            let k = e.key.load(Ordering::Relaxed) ^ d;
            if d == 0 || k == key {
                victim = i;
                if k == key && d != 0 {
                    let (old, _) = unpack(d);
                    // Keep a deeper entry of the same position unless this one is exact.
                    if bound != Bound::Exact && depth + 3 < old.depth {
                        return;
                    }
                    let keep_move = mv.is_none();
                    let packed_mv = if keep_move {
                        old.mv
                    } else {
                        mv.map(PackedMove::new).unwrap_or_default()
                    };
                    let data = pack(packed_mv, score, eval, depth, bound, age);
                    e.key.store(key ^ data, Ordering::Relaxed);
                    e.data.store(data, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let (hit, a) = unpack(d);
            let age_diff = i32::from((age + 64 - a) & 63);
            let worth = hit.depth - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(
            mv.map(PackedMove::new).unwrap_or_default(),
            score,
            eval,
            depth,
            bound,
            age,
        );
        let e = &bucket.entries[victim];
        e.key.store(key ^ data, Ordering::Relaxed);
        e.data.store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let d = e.data.load(Ordering::Relaxed);
                if d != 0 && unpack(d).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let pos = Chess::default();
        let m = pos.legal_moves()[3];
        tt.store(42, Some(m), -31_990, 17, 9, Bound::Lower);
        let hit = tt.probe(42).expect("stored entry");
        assert!(hit.mv.matches(m));
        assert_eq!((hit.score, hit.eval, hit.depth), (-31_990, 17, 9));
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn strict_clear_fast_hides_old_entries_like_a_clear() {
        let tt = TranspositionTable::new_strict(1);
        tt.store(5, None, 11, 0, 4, Bound::Exact);
        assert!(tt.probe(5).is_some());
        tt.clear_fast();
        assert!(tt.probe(5).is_none());
        tt.store(5, None, 12, 0, 1, Bound::Upper);
        assert_eq!(tt.probe(5).unwrap().score, 12);
        for _ in 0..100 {
            tt.clear_fast();
        }
        assert!(tt.probe(5).is_none());
        let plain = TranspositionTable::new(1);
        plain.store(5, None, 11, 0, 4, Bound::Exact);
        plain.clear_fast();
        assert!(plain.probe(5).is_none());
    }

    /// Every one of the 32,768 packed values: `legal_in` finds exactly the legal move that
    /// packs to it, and nothing for a value no legal move packs to (castling both ways,
    /// en passant, promotions and under-promotions, a pinned piece, check, Chess960).
    #[test]
    fn legal_in_finds_exactly_the_legal_moves() {
        use shakmaty::CastlingMode;
        use shakmaty::fen::Fen;
        let fens = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                false,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
            ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", false),
            ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", false),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
        ];
        for (fen, chess960) in fens {
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            let legal = pos.legal_moves();
            let mut found = 0;
            for bits in 1u16 << 15..=u16::MAX {
                let p = PackedMove(bits);
                let want = legal.iter().copied().find(|&m| p.matches(m));
                assert_eq!(p.legal_in(&pos), want, "{fen}: {bits:#06x}");
                found += usize::from(want.is_some());
            }
            assert_eq!(found, legal.len(), "{fen}: every legal move packs uniquely");
        }
        assert_eq!(PackedMove(0).legal_in(&Chess::default()), None);
    }

    #[test]
    fn deeper_entry_survives_shallow_store() {
        let tt = TranspositionTable::new(1);
        tt.store(7, None, 10, 0, 12, Bound::Lower);
        tt.store(7, None, 20, 0, 2, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().depth, 12);
        tt.store(7, None, 30, 0, 2, Bound::Exact);
        assert_eq!(tt.probe(7).unwrap().score, 30);
    }
}
