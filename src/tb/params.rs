//! Tunables of the endgame-table module, kept in one place: file-format constants, table
//! directory resolution, limits of the retrograde solver and the score scale handed to the
//! evaluator. Nothing here is mutable at run time; the engine reads these values and may
//! record them with its experiment output (Donkers 2003 §5.4 restricts root moves with these
//! tables, so their exact settings belong to an experiment's record).

/// Largest number of pieces (kings included) our own exact tables cover.
pub const MAX_EXACT_PIECES: usize = 4;

/// Magic bytes at the start of every exact-table file.
pub const FILE_MAGIC: [u8; 8] = *b"NOSCETB\0";

/// Version of the exact-table file format (bump on any layout or metric change).
pub const FILE_VERSION: u32 = 1;

/// File-name extension of exact-table files (`KQvKR.ntb`).
pub const FILE_EXTENSION: &str = "ntb";

/// Environment variable naming the exact-table directory (first in the resolution order).
pub const TABLES_ENV: &str = "NOSCE_TABLES";

/// Directory under the working directory tried when the cache cannot be written (only if it
/// exists already: the engine never creates it).
pub const LOCAL_TABLES_DIR: &str = "tables";

/// Sub-directory of the user's cache directory, tried after `NOSCE_TABLES`.
pub const CACHE_SUBDIR: &str = "nosce";

/// Environment variable with Syzygy directories, used by tests and the command line.
pub const SYZYGY_ENV: &str = "SYZYGY_PATH";

/// Largest distance (plies) a generated table may hold; values above it are reserved codes.
pub const MAX_DISTANCE: u8 = 250;

/// Halfmove limit of the 50-move rule (in plies), used by the Syzygy root ranking.
pub const FIFTY_MOVE_PLIES: u32 = 100;

/// Default absolute score of "mate now"; [`crate::tb::ExactTables::evaluate`] returns
/// `MATE_SCORE - dtm` for a win and `-(MATE_SCORE - dtm)` for a loss.
pub const MATE_SCORE: i32 = 32_000;

/// Under a clock, the share of our remaining time (or of a fixed move time) that a search may
/// spend reading exact-table files on its own thread before it starts; tables whose files
/// would take longer are read in the background and used from a later move. A four-piece
/// ending with pawns and its sub-endings are about 240 MB: read at the root with a second
/// left, they lost time-odds match O1 a game on time (`matches/2026-11-27-bao-tournaments/`).
pub const SYNC_LOAD_TIME_SHARE: f64 = 0.02;

/// The reading speed assumed with [`SYNC_LOAD_TIME_SHARE`], in bytes a millisecond: a table
/// file is read and its checksum verified at about 90 MB/s on the 2-core development machine
/// (KPPvK, 33 MB, 0.37 s); a third of that leaves room for a loaded machine.
pub const SYNC_LOAD_BYTES_PER_MS: f64 = 30_000.0;
