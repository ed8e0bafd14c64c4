//! The `nosce datagen` command line, parsed into a [`DatagenConfig`] (STYLE.md habit 5: bad
//! input is reported with a reason, never a panic).

use std::path::PathBuf;

/// Usage text.
pub const USAGE: &str = "\
nosce datagen — self-play training data for the NNUE (32-byte records; `nosce train` trains on them)

Usage:
  nosce datagen --out FILE --games N [options]

Options:
  --out FILE           data file (records are appended; FILE.progress makes the run resumable)
  --games N            games in all (a resumed run plays the ones still missing)
  --nodes N            node budget per move (default 5000)
  --threads T          games played at once, one thread each (default 1)
  --seed S             master seed: game i depends only on S, i and the settings (default 1)
  --random-plies P     uniformly random plies before the searched play (default 8)
  --openings EPD       start positions (game i takes line i mod count), random plies on top
  --syzygy PATH        Syzygy tables: a covered position ends the game with its WDL
  --max-plies N        a game still running after N plies is a draw (default 400)
  --evalfile FILE      play with this NNUE (a generation's data from the last net);
                       default: the hand-crafted evaluation

Re-running the same command after an interruption continues where the run stopped;
a larger --games extends a finished run. The record format: docs/datagen-format.md.
";

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

/// Parses the arguments after `datagen`.
///
/// # Errors
/// An unknown option, a missing value, a value that is not a number or out of range, or a
/// missing `--out` or `--games`.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut out: Option<PathBuf> = None;
    let mut games: Option<u64> = None;
    let mut cfg = DatagenConfig {
        out: PathBuf::new(),
        games: 0,
        nodes: 5000,
        threads: 1,
        seed: 1,
        random_plies: 8,
        openings: None,
        syzygy: None,
        max_plies: 400,
        evalfile: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let name = a.as_str();
        if matches!(name, "--help" | "-h" | "help") {
            return Ok(Command::Help);
        }
        let mut value = || {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match name {
            "--out" => {
                let v = value()?;
                if v.is_empty() {
                    return Err("--out needs a file name".to_string());
                }
                out = Some(PathBuf::from(v));
            }
            "--games" => games = Some(number(name, value()?, 1, u64::MAX / 2)?),
            "--nodes" => cfg.nodes = number(name, value()?, 1, u64::MAX / 2)?,
            "--threads" => cfg.threads = number(name, value()?, 1, MAX_THREADS)?,
            "--seed" => cfg.seed = number(name, value()?, 0, u64::MAX)?,
            "--random-plies" => cfg.random_plies = number(name, value()?, 0, MAX_RANDOM_PLIES)?,
            "--openings" => cfg.openings = Some(PathBuf::from(value()?)),
            "--syzygy" => cfg.syzygy = Some(value()?.to_string()),
            "--max-plies" => cfg.max_plies = number(name, value()?, 1, MAX_GAME_PLIES)?,
            "--evalfile" => cfg.evalfile = Some(PathBuf::from(value()?)),
            _ => {
                return Err(format!(
                    "unknown option '{name}' (try nosce datagen --help)"
                ));
            }
        }
    }
    cfg.out = out.ok_or("--out FILE is required (try nosce datagen --help)")?;
    cfg.games = games.ok_or("--games N is required (try nosce datagen --help)")?;
    Ok(Command::Run(Box::new(cfg)))
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
            (&["--out", "x", "--games"][..], "needs a value"),
            (&["--out", "x", "--games", "two"][..], "whole number"),
            (&["--out", "x", "--games", "0"][..], "from 1"),
            (
                &["--out", "x", "--games", "1", "--threads", "0"][..],
                "--threads",
            ),
            (
                &["--out", "x", "--games", "1", "--nodes", "-5"][..],
                "--nodes",
            ),
            (
                &["--out", "x", "--games", "1", "--frob"][..],
                "unknown option",
            ),
            (&["--out", "", "--games", "1"][..], "file name"),
        ] {
            let e = p(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }
}
