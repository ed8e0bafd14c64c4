//! The `nosce generation` command line (clap), parsed into a [`GenerationConfig`]. Options
//! that `datagen` or `train` declare (nodes, plies, threads, width) are passed on only when
//! given, so their defaults stay declared once, in those commands.

use std::path::PathBuf;

use clap::Parser;

use crate::lab_args::{self, Parsed};

/// Largest `--gens`.
pub const MAX_GENS: u32 = 100;

/// `nosce generation`.
#[derive(Parser, Debug)]
#[command(
    name = "nosce generation",
    about = "nosce generation - NNUE generations from one command and a seed: self-play, \
             then training, each generation playing with the last one's net",
    after_help = "Rerunning the same command continues where it stopped and ends with the same \
files (the nets also need the same --threads). Each step and its time go to DIR/generation.log. \
The recipe: docs/training.md."
)]
struct Cli {
    /// Output directory: genK/data.bin, genK/imitate/ (K = 1), genK/net/, generation.log
    #[arg(long, value_name = "DIR", value_parser = dir_name)]
    dir: PathBuf,
    /// Generations to make (a larger number extends a finished lineage)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GENS)))]
    gens: u32,
    /// Seed: generation K's games use seed S + K - 1 (the nets are trained with train's seed)
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=u64::MAX / 2))]
    seed: u64,
    /// Games of each generation: one number, or one per generation, comma-separated (the last
    /// repeats)
    #[arg(long, required = true, value_name = "N[,N...]", value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..=u64::MAX / 2))]
    games: Vec<u64>,
    /// Threads of the games and of the training
    #[arg(long, value_name = "T")]
    threads: Option<String>,
    /// datagen's node budget per move
    #[arg(long, value_name = "N")]
    nodes: Option<String>,
    /// datagen's --max-plies
    #[arg(long, value_name = "N")]
    max_plies: Option<String>,
    /// datagen's --random-plies
    #[arg(long, value_name = "P")]
    random_plies: Option<String>,
    /// datagen's start positions (EPD)
    #[arg(long, value_name = "EPD")]
    openings: Option<String>,
    /// Syzygy tables that end the games (datagen's --syzygy)
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
    /// train's --hidden: hidden units per perspective
    #[arg(long, value_name = "N")]
    hidden: Option<String>,
    /// Epochs of generation 1's imitation run
    #[arg(long, value_name = "E", default_value_t = 48, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    imitate_epochs: u32,
    /// Epochs of each generation's fit (its best epoch is the generation's net)
    #[arg(long, value_name = "E", default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
}

/// A directory name that can be passed on in a comma-separated `--data` list.
fn dir_name(s: &str) -> Result<PathBuf, String> {
    if s.is_empty() {
        return Err("needs a directory name".into());
    }
    if s.contains(',') {
        return Err("must not contain ',' (train's --data list is comma-separated)".into());
    }
    Ok(PathBuf::from(s))
}

/// Every setting of a lineage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerationConfig {
    /// Output directory.
    pub dir: PathBuf,
    /// Generations to make.
    pub gens: u32,
    /// Seed of generation 1's games.
    pub seed: u64,
    /// Games per generation (the last repeats).
    pub games: Vec<u64>,
    /// Options passed on to every `datagen` run, as (option, value).
    pub datagen: Vec<(&'static str, String)>,
    /// Options passed on to every `train` run, as (option, value).
    pub train: Vec<(&'static str, String)>,
    /// Epochs of the imitation run.
    pub imitate_epochs: u32,
    /// Epochs of each fit.
    pub epochs: u32,
}

impl GenerationConfig {
    /// The games of generation `k` (1-based).
    pub fn games_of(&self, k: u32) -> u64 {
        let i = (k as usize).saturating_sub(1).min(self.games.len() - 1);
        self.games[i]
    }
}

/// What `nosce generation` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Help text to print (not an error).
    Text(String),
    /// Make the generations.
    Run(Box<GenerationConfig>),
}

/// Parses the arguments after `generation`.
///
/// # Errors
/// clap's message for an unknown option, a missing or malformed value. (The values passed
/// on are checked by `datagen` and `train` when their step runs.)
pub fn parse(args: &[String]) -> Result<Command, String> {
    let a: Cli = match lab_args::parse("nosce generation", args)? {
        Parsed::Args(a) => a,
        Parsed::Text(t) => return Ok(Command::Text(t)),
    };
    let given = |pairs: &[(&'static str, &Option<String>)]| {
        pairs
            .iter()
            .filter_map(|(name, v)| v.as_ref().map(|v| (*name, v.clone())))
            .collect::<Vec<_>>()
    };
    let datagen = given(&[
        ("--threads", &a.threads),
        ("--nodes", &a.nodes),
        ("--max-plies", &a.max_plies),
        ("--random-plies", &a.random_plies),
        ("--openings", &a.openings),
        ("--syzygy", &a.syzygy),
    ]);
    let train = given(&[("--threads", &a.threads), ("--hidden", &a.hidden)]);
    Ok(Command::Run(Box::new(GenerationConfig {
        dir: a.dir,
        gens: a.gens,
        seed: a.seed,
        games: a.games,
        datagen,
        train,
        imitate_epochs: a.imitate_epochs,
        epochs: a.epochs,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(args: &[&str]) -> Result<GenerationConfig, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&args)? {
            Command::Run(c) => Ok(*c),
            Command::Text(t) => Err(format!("text: {t}")),
        }
    }

    #[test]
    fn options_are_passed_on_only_when_given() {
        let c = cfg(&[
            "--dir",
            "d",
            "--games",
            "10,20",
            "--threads",
            "2",
            "--gens",
            "3",
        ])
        .unwrap();
        assert_eq!(c.datagen, vec![("--threads", "2".to_string())]);
        assert_eq!(c.train, vec![("--threads", "2".to_string())]);
        assert_eq!((c.games_of(1), c.games_of(2), c.games_of(3)), (10, 20, 20));
        assert_eq!((c.seed, c.imitate_epochs, c.epochs), (1, 48, 12));
        let c = cfg(&[
            "--dir", "d", "--games", "5", "--hidden", "32", "--nodes", "300",
        ])
        .unwrap();
        assert_eq!(c.train, vec![("--hidden", "32".to_string())]);
        assert_eq!(c.datagen, vec![("--nodes", "300".to_string())]);
    }

    #[test]
    fn bad_input_is_refused_with_the_option_named() {
        for (args, word) in [
            (&["--dir", "d"][..], "--games"),
            (&["--games", "3"][..], "--dir"),
            (&["--dir", "a,b", "--games", "3"][..], "','"),
            (&["--dir", "d", "--games", "0"][..], "--games"),
            (&["--dir", "d", "--games", "3", "--gens", "0"][..], "--gens"),
            (&["--dir", "d", "--games", "3", "--bogus"][..], "--bogus"),
        ] {
            let e = cfg(args).unwrap_err();
            assert!(e.contains(word), "{args:?}: {e}");
        }
        assert!(matches!(
            parse(&["--help".to_string()]),
            Ok(Command::Text(t)) if t.contains("--imitate-epochs")
        ));
    }
}
