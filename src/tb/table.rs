//! One solved exact table: per side to move a DTM byte and a DTC byte for every index slot,
//! and the probe of a single placement. Value codes: `0..=250` are plies, [`CODE_DRAW`] and
//! [`CODE_ILLEGAL`] mark draws and unused or illegal slots. Win/loss follows from DTM parity
//! (odd = the side to move wins, even = it loses, 0 = it is mated). DTM is distance to mate,
//! DTC is Thompson's distance to conversion (Donkers 2003 §5.4 and Appendix B; see
//! [`crate::tb::generate`] for the exact definitions).

use shakmaty::Color;

use crate::tb::{index::Layout, material::Material, placement::Placement};

/// Code of a drawn position.
pub const CODE_DRAW: u8 = 254;
/// Code of an illegal or non-canonical index slot.
pub const CODE_ILLEGAL: u8 = 255;

/// Game-theoretic result for the side to move (50-move rule ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Draw with best play.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The result seen from the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// Lower-case name (`win`, `draw`, `loss`).
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

/// A probe result of the exact tables for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TbEntry {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to mate with best play (0 = the side to move is mated); `None` for draws.
    pub dtm: Option<u16>,
    /// Plies to mate or to a converting capture (Thompson's DTC); `None` for draws.
    pub dtc: Option<u16>,
}

impl TbEntry {
    /// Decodes a (DTM, DTC) byte pair; `None` for illegal slots.
    pub fn from_codes(dtm: u8, dtc: u8) -> Option<TbEntry> {
        match dtm {
            CODE_ILLEGAL => None,
            CODE_DRAW => Some(TbEntry {
                wdl: Wdl::Draw,
                dtm: None,
                dtc: None,
            }),
            d => Some(TbEntry {
                wdl: if d % 2 == 1 { Wdl::Win } else { Wdl::Loss },
                dtm: Some(u16::from(d)),
                dtc: Some(u16::from(dtc)),
            }),
        }
    }
}

/// A solved table for one canonical material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    material: Material,
    layout: Layout,
    /// DTM codes, indexed by side to move (0 = White) then index.
    dtm: [Vec<u8>; 2],
    /// DTC codes, same layout as `dtm`.
    dtc: [Vec<u8>; 2],
}

/// Index of `color` in per-side arrays.
#[inline]
pub fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Table {
    /// Builds a table from its code arrays; `None` if the array sizes do not fit the material.
    pub fn from_parts(material: Material, dtm: [Vec<u8>; 2], dtc: [Vec<u8>; 2]) -> Option<Table> {
        let layout = Layout::new(&material);
        let ok = material.is_canonical()
            && [&dtm[0], &dtm[1], &dtc[0], &dtc[1]]
                .iter()
                .all(|v| v.len() == layout.size);
        ok.then_some(Table {
            material,
            layout,
            dtm,
            dtc,
        })
    }

    /// The (canonical) material of this table.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The index layout of this table.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Raw DTM codes for side to move `color`.
    pub fn dtm_codes(&self, color: Color) -> &[u8] {
        &self.dtm[side(color)]
    }

    /// Raw DTC codes for side to move `color`.
    pub fn dtc_codes(&self, color: Color) -> &[u8] {
        &self.dtc[side(color)]
    }

    /// Probes squares already in this table's layout order (`None` if illegal).
    #[inline]
    pub fn probe_squares(&self, squares: &[u8; 4], turn: Color) -> Option<TbEntry> {
        let idx = self.layout.index(squares)? as usize;
        let s = side(turn);
        let dtm = *self.dtm[s].get(idx)?;
        let dtc = *self.dtc[s].get(idx)?;
        TbEntry::from_codes(dtm, dtc)
    }

    /// Probes a placement of this table's material (`None` if another material or illegal).
    #[inline]
    pub fn probe(&self, placement: &Placement) -> Option<TbEntry> {
        if placement.material != self.material {
            return None;
        }
        self.probe_squares(&placement.squares, placement.turn)
    }

    /// Largest DTM and DTC over all decisive positions (plies).
    pub fn max_distances(&self) -> (u8, u8) {
        let max = |arrays: &[Vec<u8>; 2]| {
            arrays
                .iter()
                .flatten()
                .copied()
                .filter(|&c| c < CODE_DRAW)
                .max()
                .unwrap_or(0)
        };
        (max(&self.dtm), max(&self.dtc))
    }

    /// Counts of (wins, draws, losses) for side to move `color` over canonical legal slots.
    pub fn census(&self, color: Color) -> (usize, usize, usize) {
        let mut out = (0, 0, 0);
        for &c in &self.dtm[side(color)] {
            match c {
                CODE_ILLEGAL => {}
                CODE_DRAW => out.1 += 1,
                d if d % 2 == 1 => out.0 += 1,
                _ => out.2 += 1,
            }
        }
        out
    }
}
