//! The `nosce datagen` command line (clap: help, errors and defaults declared once), parsed
//! into a [`DatagenConfig`]; bad input is reported with a reason that names the option,
//! never a panic.

use std::path::PathBuf;

use clap::{CommandFactory, Parser};

use crate::lab_args::{self, Parsed};

/// Every setting of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenConfig {
    /// The data file.
    pub out: PathBuf,
    /// Games in all.
    pub games: u64,
    /// Node budget per searched move.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    /// Master seed.
    pub seed: u64,
    /// Random plies before the searched play.
    pub random_plies: u32,
    /// EPD file of start positions.
    pub openings: Option<PathBuf>,
    /// Syzygy directories (as `SyzygyPath`: separated by the platform's path separator).
    pub syzygy: Option<String>,
    /// Plies after which a game is a draw.
    pub max_plies: u32,
    /// The NNUE file the games are played with (`None`: the hand-crafted evaluation).
    pub evalfile: Option<PathBuf>,
}

/// What `nosce datagen` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Print the usage.
    Help,
    /// Generate data.
    Run(Box<DatagenConfig>),
}

/// Largest `--threads`.
pub const MAX_THREADS: usize = 256;
/// Largest `--random-plies`.
pub const MAX_RANDOM_PLIES: u32 = 200;
/// Largest `--max-plies` (the search's ply limit is far away from a game's length).
pub const MAX_GAME_PLIES: u32 = 100_000;

/// A whole-number option value within `min..=max` (the subcommands' shared check; also
/// `nosce train`'s).
pub(crate) fn number<T>(name: &str, value: &str, min: T, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    match value.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        Ok(_) => Err(format!("{name} must be from {min} to {max}, not '{value}'")),
        Err(_) => Err(format!("{name} needs a whole number, not '{value}'")),
    }
}

/// `nosce datagen` (clap: help, errors and defaults from one declaration).
#[derive(Parser, Debug)]
#[command(
    name = "nosce datagen",
    allow_negative_numbers = true,
    about = "nosce datagen - self-play training data for the NNUE (32-byte records; `nosce train` trains on them)",
    after_help = "Re-running the same command after an interruption continues where the run stopped;\n\
a larger --games extends a finished run. The record format: docs/datagen-format.md."
)]
struct Args {
    /// Data file (records are appended; FILE.progress makes the run resumable)
    #[arg(long, value_name = "FILE", value_parser = non_empty)]
    out: PathBuf,
    /// Games in all (a resumed run plays the ones still missing)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=u64::MAX / 2))]
    games: u64,
    /// Node budget per move
    #[arg(long, value_name = "N", default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=u64::MAX / 2))]
    nodes: u64,
    /// Games played at once, one thread each
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
    /// Master seed: game i depends only on S, i and the settings
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Uniformly random plies before the searched play
    #[arg(long, value_name = "P", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_RANDOM_PLIES)))]
    random_plies: u32,
    /// Start positions (game i takes line i mod count), random plies on top
    #[arg(long, value_name = "EPD")]
    openings: Option<PathBuf>,
    /// Syzygy tables: a covered position ends the game with its WDL
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
    /// A game still running after N plies is a draw
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GAME_PLIES)))]
    max_plies: u32,
    /// Play with this NNUE (a generation's data from the last net); default: the
    /// hand-crafted evaluation
    #[arg(long, value_name = "FILE")]
    evalfile: Option<PathBuf>,
}

/// A file name that is not empty.
fn non_empty(s: &str) -> Result<PathBuf, String> {
    if s.is_empty() {
        return Err("needs a file name".into());
    }
    Ok(PathBuf::from(s))
}

/// The usage text (`nosce datagen --help`).
pub fn usage() -> String {
    Args::command().render_help().to_string()
}

/// Parses the arguments after `datagen`.
///
/// # Errors
/// An unknown option, a missing value, a value that is not a number or out of range, or a
/// missing `--out` or `--games` (clap's message, naming the option).
pub fn parse(args: &[String]) -> Result<Command, String> {
    if args
        .first()
        .is_some_and(|a| matches!(a.as_str(), "--help" | "-h" | "help"))
    {
        return Ok(Command::Help);
    }
    let a: Args = match lab_args::parse("nosce datagen", args)? {
        Parsed::Args(a) => a,
        Parsed::Text(_) => return Ok(Command::Help),
    };
    Ok(Command::Run(Box::new(DatagenConfig {
        out: a.out,
        games: a.games,
        nodes: a.nodes,
        threads: a.threads as usize,
        seed: a.seed,
        random_plies: a.random_plies,
        openings: a.openings,
        syzygy: a.syzygy,
        max_plies: a.max_plies,
        evalfile: a.evalfile,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults_and_every_option() {
        let Ok(Command::Run(c)) = p(&["--out", "x.bin", "--games", "3"]) else {
            panic!("should parse");
        };
        assert_eq!(
            (
                c.games,
                c.nodes,
                c.threads,
                c.seed,
                c.random_plies,
                c.max_plies
            ),
            (3, 5000, 1, 1, 8, 400)
        );
        assert_eq!((c.openings, c.syzygy), (None, None));
        let Ok(Command::Run(c)) = p(&[
            "--out",
            "y",
            "--games",
            "9",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--seed",
            "18446744073709551615",
            "--random-plies",
            "0",
            "--openings",
            "o.epd",
            "--syzygy",
            "/tb",
            "--max-plies",
            "60",
        ]) else {
            panic!("should parse");
        };
        assert_eq!(
            (
                c.games,
                c.nodes,
                c.threads,
                c.seed,
                c.random_plies,
                c.max_plies
            ),
            (9, 300, 2, u64::MAX, 0, 60)
        );
        assert_eq!(c.openings, Some(PathBuf::from("o.epd")));
        assert_eq!(c.syzygy.as_deref(), Some("/tb"));
        assert_eq!(p(&["--help"]), Ok(Command::Help));
    }

    #[test]
    fn bad_input_is_explained() {
        for (args, needle) in [
            (&["--games", "2"][..], "--out"),
            (&["--out", "x"][..], "--games"),
            (&["--out", "x", "--games"][..], "--games"),
            (&["--out", "x", "--games", "two"][..], "'two'"),
            (&["--out", "x", "--games", "0"][..], "--games"),
            (
                &["--out", "x", "--games", "1", "--threads", "0"][..],
                "--threads",
            ),
            (
                &["--out", "x", "--games", "1", "--nodes", "-5"][..],
                "--nodes",
            ),
            (&["--out", "x", "--games", "1", "--frob"][..], "'--frob'"),
            (&["--out", "", "--games", "1"][..], "file name"),
        ] {
            let e = p(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }
}
