//! The transposition table of df-pn, PDS and PDS-PN: proof and disproof numbers, the proof
//! length of proven positions and the work spent, in buckets of four entries, with a count
//! of the entries in use (the size x of the first level of PDS-PN, Winands 2004, §5.1.3).
//! The table plays the part of the TwoBig table of PDS (§4.2.3, §5.1.2) with a simpler
//! replacement rule:
//! a new position goes to an empty entry, else replaces the unproven entry of the bucket
//! with the least work, else (all four proven) the proven one with the least work. Proofs
//! are kept preferentially because the principal line is read back from them.
//!
//! The key leaves out the 50-move counter, so each entry keeps the counter it was found
//! at and [`Entry::usable`] says whether it holds with another: with a lower counter the
//! attacker has at least the mates he had, with a higher one at most those.

/// One stored position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The key (0 for an empty entry).
    pub key: u64,
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// Moves made below this position when it was last stored (at least 1).
    pub work: u32,
    /// Plies to mate along the proof when proven (at most [`super::dfs::MAX_PLY`]).
    pub plies: u16,
    /// The 50-move counter of the position when it was stored (capped at 255).
    pub clock: u8,
    /// A disproof that may rest on the 50-move rule.
    pub fifty: bool,
}

impl Entry {
    /// The entry of a position with numbers `pn`, `dn`, proof length `plies` (capped at
    /// `u16::MAX`), found with the 50-move counter at `clock` (capped at 255); `fifty` for a
    /// disproof that may rest on the rule.
    pub fn of(
        key: u64,
        (pn, dn, plies): (u32, u32, u32),
        clock: u32,
        fifty: bool,
        work: u32,
    ) -> Entry {
        Entry {
            key,
            pn,
            dn,
            work,
            plies: plies.min(u32::from(u16::MAX)) as u16,
            clock: clock.min(255) as u8,
            fifty,
        }
    }

    /// Whether the entry holds for its position with the 50-move counter at `clock`: a
    /// proof with the counter no higher than when it was found, or low enough that its
    /// longest line mates before the counter reaches 100 (the position before the mate
    /// is at `clock + plies − 1` at most); a disproof that rests on the rule with the
    /// counter no lower than when it was found, any other disproof always; unsolved
    /// numbers always (they only guide the search).
    #[inline]
    pub fn usable(&self, clock: u32) -> bool {
        if self.pn == 0 {
            clock <= u32::from(self.clock) || clock + u32::from(self.plies) <= 100
        } else if self.dn == 0 && self.fifty {
            clock >= u32::from(self.clock)
        } else {
            true
        }
    }
}

const WAYS: usize = 4;

/// A fixed-size table of [`Entry`].
pub struct Table {
    buckets: Vec<[Entry; WAYS]>,
    /// Entries in use.
    used: usize,
}

impl Table {
    /// A table of about `mb` MiB, or of half that (a quarter, ...) when the memory cannot
    /// be had; at least one bucket.
    pub fn new(mb: usize) -> Table {
        let mut want = mb.max(1);
        loop {
            if let Some(t) = Table::try_new(want) {
                return t;
            }
            if want == 1 {
                return Table {
                    buckets: vec![[Entry::default(); WAYS]; 1],
                    used: 0,
                };
            }
            want /= 2;
        }
    }

    /// A table of about `mb` MiB, or `None` when the memory cannot be had.
    pub fn try_new(mb: usize) -> Option<Table> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<[Entry; WAYS]>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).ok()?;
        buckets.resize(n, [Entry::default(); WAYS]);
        Some(Table { buckets, used: 0 })
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry of `key` if stored and usable with the 50-move counter at `clock`
    /// ([`Entry::usable`]).
    pub fn get_at(&self, key: u64, clock: u32) -> Option<Entry> {
        self.get(key).filter(|e| e.usable(clock))
    }

    /// The entry of `key`, if stored, whatever the 50-move counter.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let key = key.max(1);
        self.buckets[self.bucket(key)]
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores an entry (key 0 is mapped to 1, the empty marker being 0).
    pub fn put(&mut self, mut e: Entry) {
        e.key = e.key.max(1);
        e.work = e.work.max(1);
        let b = self.bucket(e.key);
        let bucket = &mut self.buckets[b];
        let slot = bucket
            .iter()
            .position(|x| x.key == e.key)
            .or_else(|| bucket.iter().position(|x| x.key == 0))
            .unwrap_or_else(|| {
                let mut best = 0;
                let rank = |x: &Entry| (x.pn == 0, x.work);
                for (i, x) in bucket.iter().enumerate() {
                    if rank(x) < rank(&bucket[best]) {
                        best = i;
                    }
                }
                best
            });
        if bucket[slot].key == 0 {
            self.used += 1;
        }
        bucket[slot] = e;
    }

    /// Number of entries in use.
    #[inline]
    pub fn used(&self) -> usize {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::rules::INF;

    #[test]
    fn keeps_proofs_over_unproven_entries() {
        let mut t = Table::new(1);
        // Keys with the same high bits fall into the same bucket.
        let base = 5u64 << 40;
        let proof = Entry {
            key: base,
            pn: 0,
            dn: INF,
            plies: 3,
            work: 1,
            ..Entry::default()
        };
        t.put(proof);
        for k in 1..=8u64 {
            t.put(Entry {
                key: base + k,
                pn: 1,
                dn: 1,
                work: 100,
                ..Entry::default()
            });
        }
        assert_eq!(t.get(base), Some(proof));
        // Four ways: the fifth and later keys replace entries, the count stays at four.
        assert_eq!(t.used(), 4);
        let scanned = t.buckets.iter().flatten().filter(|e| e.key != 0).count();
        assert_eq!(scanned, t.used());
    }

    #[test]
    fn entries_hold_only_where_the_fifty_move_counter_allows() {
        // A mate in 2 (3 plies) found with the counter at 10: it holds up to 97, where the
        // mate lands on the hundredth halfmove, and not from 98 on.
        let proof = Entry {
            key: 7,
            pn: 0,
            dn: INF,
            plies: 3,
            clock: 10,
            ..Entry::default()
        };
        assert!(proof.usable(0) && proof.usable(97));
        assert!(!proof.usable(98));
        // Found with the counter at 98 (possible after a capture in the line): holds
        // there and below.
        assert!(Entry { clock: 98, ..proof }.usable(98));
        assert!(!Entry { clock: 98, ..proof }.usable(99));
        // A disproof by the rule at 98 says nothing with the counter at 97; one that does
        // not rest on the rule holds at any counter.
        let disproof = Entry {
            key: 7,
            pn: INF,
            dn: 0,
            work: 1,
            clock: 98,
            fifty: true,
            ..Entry::default()
        };
        assert!(disproof.usable(98) && disproof.usable(120));
        assert!(!disproof.usable(97));
        assert!(
            Entry {
                fifty: false,
                ..disproof
            }
            .usable(0)
        );
        let mut t = Table::new(1);
        t.put(disproof);
        assert_eq!(t.get_at(7, 99), Some(disproof));
        assert_eq!(t.get_at(7, 0), None);
        assert_eq!(t.get(7), Some(disproof));
        // The counter and the flag fit beside the other fields: no more memory an entry.
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }
}
