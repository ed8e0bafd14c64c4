//! Endgame tables. Two sources of perfect play:
//!
//! * our own **exact tables** for endings with up to four pieces and pawns on at most one side
//!   (no en passant), solved by
//!   retrograde analysis (Thompson 1986) with distance to mate (DTM) and Thompson's distance to
//!   conversion (DTC) — the metrics behind the KQKR experiments and the Browne–BELLE lines of
//!   Donkers 2003 §5.4 and Appendix B ([`ExactTables`]);
//! * a wrapper around **Syzygy** tables (WDL and DTZ under the 50-move rule) with a root move
//!   ranking ([`SyzygyTables`]).
//!
//! How the metrics relate (checked position by position in `tests/it/tb_syzygy_compare.rs`): our
//! WDL equals Syzygy's (cursed/blessed counted as win/loss); in KQvKR, KQvK and KRvK our DTC
//! equals |Syzygy DTZ| except that a mated side to move has DTC 0 but DTZ −1, and that KQvKR
//! DTZ values Syzygy stores in full moves read one ply short when the true distance is even
//! (every non-mated White-to-move loss, and every Black win with DTC ≥ 3 that Syzygy derives
//! from those by a one-ply search). DTM equals Gaviota's (`tests/gaviota_check.py`).
//!
//! Module map: [`params`] (tunables), [`material`] (material strings), [`index`] (symmetry
//! index), [`placement`] (positions in table coordinates), [`generate`] (the solver) with `moves` (its move generation),
//! [`table`] (one table and probe values), [`file`](mod@file) (file format), [`exact`] (the lazily
//! loading owner), [`report`] (command text), [`sample`] (positions for checks), [`syzygy`]
//! (Syzygy wrapper), [`trust`] (cross-checks that disable damaged Syzygy tables), [`error`]
//! (errors).

pub mod cli;
pub mod error;
pub mod eval;
pub mod exact;
pub mod file;
pub mod generate;
pub mod index;
pub mod material;
mod moves;
pub mod params;
pub mod placement;
pub mod probe;
pub mod report;
pub mod sample;
pub mod set;
pub mod syzygy;
pub mod table;
pub mod trust;

pub use error::TbError;
pub use eval::TableEval;
pub use exact::{ExactTables, Metric, MoveValue, RankedMove, TableSource, resolve_table_dir};
pub use material::Material;
pub use probe::WdlProbe;
pub use report::{gen_text, parse_fen, probe_text};
pub use set::Tablebases;
pub use syzygy::{RootRanking, SyzygyMove, SyzygyTables};
pub use table::{Table, TbEntry, Wdl};
