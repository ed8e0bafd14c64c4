//! Errors of the endgame-table module: bad material strings, unreadable or corrupt table
//! files, internal generation failures and
//! allocation failures. Every failure that depends on input or files is
//! reported through [`TbError`] and never panics (Donkers 2003 §5.4 uses the tables as a
//! root-move oracle, so a broken file must degrade to "no information", not a crash).

use std::fmt;

/// An error from the exact tables (material parsing, file I/O, file verification, generation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TbError {
    /// The material string could not be parsed or is not covered (message says why).
    Material(String),
    /// Reading or writing a table file failed.
    Io(String),
    /// A table file exists but is corrupt, truncated or of another version.
    Corrupt(String),
    /// The retrograde solver found an inconsistency (a bug, not bad input).
    Internal(String),
    /// The memory a table's generation needs cannot be had (message says how much).
    Memory(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Material(msg) => write!(f, "bad material: {msg}"),
            TbError::Io(msg) => write!(f, "table i/o error: {msg}"),
            TbError::Corrupt(msg) => write!(f, "corrupt table file: {msg}"),
            TbError::Internal(msg) => write!(f, "table generation failed: {msg}"),
            TbError::Memory(msg) => write!(f, "cannot allocate memory: {msg}"),
        }
    }
}

impl std::error::Error for TbError {}
