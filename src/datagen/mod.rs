//! `nosce datagen`: self-play training data for the NNUE (issue 17, item 1;
//! [`crate::train`] trains on it).
//!
//! nosce plays games against itself with its ordinary α-β search ([`crate::eval::FullEval`],
//! one thread and a node limit per move, a transposition table per game thread cleared at
//! each new game) and writes the quiet positions of those games, with the search's score
//! and the game's result, as fixed 32-byte records ([`record`]; the layout is documented
//! there and in `docs/datagen-format.md`). A trainer fits an evaluation to a blend of score
//! and result.
//!
//! Every game depends only on the seed, its number and the settings: its opening comes from
//! a generator seeded with (seed, game number) ([`crate::rng`], [`opening`]), and node-limited
//! single-thread search from a cleared table is deterministic. So the data file is the same
//! byte for byte whatever `--threads` is, and an interrupted run resumes ([`progress`]) to
//! exactly the file an uninterrupted one writes.
//!
//! Files: [`args`] (command line), [`record`] (format, encode/decode, reader), [`crate::rng`]
//! (per-game generator), [`opening`] (start positions and random plies), [`adjudicate`]
//! (game end and result), [`game`] (one game), [`pool`] (the game threads, games in order),
//! [`progress`] (the resume file), [`run`] (data file, syncs, summary).

pub mod adjudicate;
pub mod args;
pub mod game;
pub mod opening;
pub mod pool;
pub mod progress;
pub mod record;
pub mod run;

pub use crate::rng::GameRng;
pub use args::{Command, DatagenConfig, usage};
pub use game::{GameRecord, GameSettings, GameWorker};
pub use record::{GameResult, RECORD_SIZE, Record, RecordReader, decode, encode};

/// Runs `nosce datagen <args>`; returns the text to print (the usage, or the run's
/// summary).
///
/// # Errors
/// Bad options (with the reason), unreadable openings, a progress file that does not match
/// the command line, a data file that would be overwritten, an I/O error.
pub fn run_cli(args: &[String]) -> Result<String, String> {
    match args::parse(args)? {
        Command::Help => Ok(usage()),
        Command::Run(cfg) => run::run(&cfg),
    }
}
