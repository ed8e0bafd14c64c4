//! [`WdlProbe`]: endgame tables as the search sees them — the win/draw/loss ([`Wdl`]) of a
//! small position, or nothing. The tables own this interface and the search uses it (inside
//! the tree, as the K+R side of Donkers 2003 §5.4.1 uses its database); any table source
//! (our exact tables, Syzygy) implements it.

use super::table::Wdl;

/// Endgame tables as the search sees them: WDL probes of small positions.
pub trait WdlProbe: Send + Sync {
    /// Largest number of pieces (kings included) the tables cover.
    fn max_pieces(&self) -> usize;
    /// The WDL value of `pos` for the side to move, or `None` when unknown (any probe error
    /// means "no information"). A win or loss that the 50-move rule turns into a draw is a
    /// draw.
    fn probe_wdl(&self, pos: &shakmaty::Chess) -> Option<Wdl>;
}
