//! A transposition table for the α-β probes of `OM^βPb` (thesis §3.4.2 and §5.2.4, Figs
//! 5.6/5.7; one table per evaluation function as §3.4.2 and §7.2.3 require). Random trees have
//! no transpositions, so entries are keyed by the node's path key: the table pays because the
//! probes at a MIN node and at its grandchildren search overlapping subtrees.
//!
//! Fixed size (`2^bits` entries, allocated once), one entry per slot, the *deep* replacement
//! scheme of Breuker et al. used in §5.2.4 (keep the entry nearer the root, i.e. the larger
//! subtree), and a generation counter so that a new tree needs no clearing.

/// What an entry's value means (fail-hard α-β bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// Empty slot.
    #[default]
    None,
    /// The exact subgame value.
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// One table entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// Path key of the node.
    pub key: u64,
    /// Stored value (meaning given by `bound`).
    pub value: i32,
    /// Generation that wrote the entry.
    pub generation: u32,
    /// Ply of the node (smaller = larger subtree).
    pub ply: u8,
    /// Bound type.
    pub bound: Bound,
    /// Best move found, or `u8::MAX`.
    pub best: u8,
}

/// Fixed-size transposition table.
#[derive(Clone, Debug)]
pub struct TransTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u32,
    store_leaves: bool,
}

impl TransTable {
    /// A table of `2^bits` entries (`bits` is clamped to 4..=26). With `store_leaves` the table
    /// also keeps leaf evaluations, so that a leaf seen by two probes is evaluated once.
    pub fn new(bits: u32, store_leaves: bool) -> Self {
        let bits = bits.clamp(4, 26);
        TransTable {
            entries: vec![Entry::default(); 1usize << bits],
            mask: (1usize << bits) - 1,
            generation: 1,
            store_leaves,
        }
    }

    /// Forgets every entry (O(1): bumps the generation).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    /// Whether leaves are stored too.
    pub fn stores_leaves(&self) -> bool {
        self.store_leaves
    }

    /// The entry for `key`, if present in this generation.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[(key as usize) & self.mask];
        (e.generation == self.generation && e.key == key && e.bound != Bound::None).then_some(e)
    }

    /// Stores a result, replacing the slot's entry unless that one is nearer the root.
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, value: i32, bound: Bound, best: usize) {
        let slot = &mut self.entries[(key as usize) & self.mask];
        let ply = ply.min(255) as u8;
        if slot.generation != self.generation || slot.key == key || ply <= slot.ply {
            *slot = Entry {
                key,
                value,
                generation: self.generation,
                ply,
                bound,
                best: if best < 255 { best as u8 } else { u8::MAX },
            };
        }
    }
}
