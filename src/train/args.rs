//! The `nosce train` command line (clap: help, errors and defaults from one declaration),
//! parsed into a [`TrainConfig`]; bad input is reported with a reason that names the
//! option, never a panic.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::lab_args::{self, Parsed};

use crate::datagen::args::number;
use crate::nnue::{DEFAULT_HIDDEN, HIDDEN_STEP, MAX_HIDDEN};

/// `nosce train`.
#[derive(Parser, Debug)]
#[command(
    name = "nosce train",
    allow_negative_numbers = true,
    args_override_self = true,
    about = "Train an NNUE (768->N)x2->1 on `nosce datagen` data, on the CPU",
    after_help = "A run is deterministic for given data, settings and --threads; re-running \
into the same --out resumes after the checkpoint's last epoch. The net format: \
docs/nnue-format.md; training: docs/training.md."
)]
struct Cli {
    /// Data files of 32-byte records (comma-separated; the option may repeat)
    #[arg(long, required = true, value_name = "FILE[,FILE...]", value_delimiter = ',', value_parser = non_empty_path)]
    data: Vec<PathBuf>,
    /// Output directory: nosce-<id>.nnue per epoch, checkpoint.bin, train.log
    #[arg(long, value_name = "DIR", value_parser = non_empty_path)]
    out: PathBuf,
    /// Hidden units per perspective, a multiple of 16
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HIDDEN, value_parser = hidden)]
    hidden: usize,
    /// Epochs in all; a re-run resumes after the checkpoint's last
    #[arg(long, value_name = "E", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=MAX_EPOCHS as i64))]
    epochs: u32,
    /// Positions per gradient step
    #[arg(long, value_name = "B", default_value_t = 16_384, value_parser = batch)]
    batch: usize,
    /// Adam learning rate, above 0 up to 1
    #[arg(long, value_name = "X", default_value_t = 0.001, value_parser = |v: &str| decimal(v, 0.0, 1.0, true))]
    lr: f64,
    /// Multiply the learning rate by --lr-gamma after every E epochs (0: a constant rate)
    #[arg(long, value_name = "E", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=MAX_EPOCHS as i64))]
    lr_drop: u32,
    /// The factor of each drop, above 0 up to 1
    #[arg(long, value_name = "G", default_value_t = 0.3, value_parser = |v: &str| decimal(v, 0.0, 1.0, true))]
    lr_gamma: f64,
    /// Weight of the game result in the target, 0..1
    #[arg(long, value_name = "L", default_value_t = 0.3, value_parser = |v: &str| decimal(v, 0.0, 1.0, false))]
    wdl: f64,
    /// Train on each position or its mirror image (files a<->h), drawn at random per
    /// epoch: twice the distinct positions
    #[arg(long)]
    mirror: bool,
    /// The score in the target: search (the record's) or hce (the hand-crafted evaluation
    /// of the position: with --wdl 0, a net that imitates it, to start a run with --init from)
    #[arg(long, value_name = "S", value_enum, default_value_t = ScoreSource::Search)]
    score: ScoreSource,
    /// Each time a position is drawn, walk 0..=D random legal moves from it and score the
    /// result with the hand-crafted evaluation (needs --score hce)
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = walk)]
    walk: u32,
    /// Start from the weights of another run's checkpoint.bin, or of a net file
    /// (nosce-….nnue, read back into floats), instead of random ones (same --hidden; the
    /// optimiser starts afresh)
    #[arg(long, value_name = "FILE", value_parser = non_empty_path)]
    init: Option<PathBuf>,
    /// Threads computing each batch's gradient
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = threads)]
    threads: usize,
    /// Seed of the initial weights and of the shuffles
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Share of the data held out for validation: the file's tail
    #[arg(long, value_name = "F", default_value_t = 0.02, value_parser = |v: &str| decimal(v, 0.0, MAX_VAL, false))]
    val: f64,
    /// Use only the first N positions of the data
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX)))]
    max_positions: Option<u64>,
}

/// Every setting of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Data files, in order.
    pub data: Vec<PathBuf>,
    /// Output directory.
    pub out: PathBuf,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Epochs in all.
    pub epochs: u32,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f64,
    /// Epochs between two drops of the learning rate (0: none).
    pub lr_drop: u32,
    /// The factor of each drop.
    pub lr_gamma: f64,
    /// λ: the weight of the game result in the target.
    pub wdl: f64,
    /// Train on positions mirrored left to right at random.
    pub mirror: bool,
    /// Where the score part of the target comes from.
    pub score: ScoreSource,
    /// Random moves walked from a drawn position (0: none).
    pub walk: u32,
    /// A checkpoint whose weights the run starts from.
    pub init: Option<PathBuf>,
    /// Threads per batch.
    pub threads: usize,
    /// Seed of the initial weights and of every epoch's shuffle.
    pub seed: u64,
    /// Share of the positions held out for validation.
    pub val: f64,
    /// Use only this many positions (the first ones).
    pub max_positions: Option<u64>,
}

/// The score in the training target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScoreSource {
    /// The search's score stored in the record.
    Search,
    /// The hand-crafted evaluation of the position, computed when the data is loaded.
    Hce,
}

impl ScoreSource {
    /// The option's value.
    pub fn name(self) -> &'static str {
        match self {
            ScoreSource::Search => "search",
            ScoreSource::Hce => "hce",
        }
    }
}

/// What `nosce train` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Help text to print (not an error).
    Text(String),
    /// Train.
    Run(Box<TrainConfig>),
}

/// Largest `--threads`.
pub const MAX_THREADS: usize = 256;
/// Largest `--batch`.
pub const MAX_BATCH: usize = 1 << 22;
/// Largest `--epochs`.
pub const MAX_EPOCHS: u32 = 100_000;
/// Largest `--val`.
pub const MAX_VAL: f64 = 0.5;

/// A finite decimal in `min..=max` (or `min < v` when `open_min`).
fn decimal(value: &str, min: f64, max: f64, open_min: bool) -> Result<f64, String> {
    let v = value
        .parse::<f64>()
        .map_err(|_| "needs a number".to_string())?;
    let above = if open_min { v > min } else { v >= min };
    if above && v <= max {
        Ok(v)
    } else {
        let lower = if open_min { "above" } else { "from" };
        Err(format!("must be {lower} {min} up to {max}"))
    }
}

fn non_empty_path(v: &str) -> Result<PathBuf, String> {
    if v.is_empty() {
        return Err("needs a file or directory name".into());
    }
    Ok(PathBuf::from(v))
}

fn hidden(v: &str) -> Result<usize, String> {
    let h = number("the width", v, HIDDEN_STEP, MAX_HIDDEN)?;
    if !h.is_multiple_of(HIDDEN_STEP) {
        return Err(format!("must be a multiple of {HIDDEN_STEP}"));
    }
    Ok(h)
}

fn batch(v: &str) -> Result<usize, String> {
    number("the batch", v, 1, MAX_BATCH)
}

fn walk(v: &str) -> Result<u32, String> {
    number("the walk", v, 0, super::walk::MAX_WALK)
}

fn threads(v: &str) -> Result<usize, String> {
    number("the thread count", v, 1, MAX_THREADS)
}

/// Parses the arguments after `train`.
///
/// # Errors
/// An unknown option, a missing value, a value that is not a number or out of range, or a
/// missing `--data` or `--out`.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let a: Cli = match lab_args::parse("nosce train", args)? {
        Parsed::Args(a) => a,
        Parsed::Text(t) => return Ok(Command::Text(t)),
    };
    if a.walk > 0 && a.score != ScoreSource::Hce {
        return Err(
            "--walk scores its positions with the hand-crafted evaluation: it needs --score hce"
                .to_string(),
        );
    }
    Ok(Command::Run(Box::new(TrainConfig {
        data: a.data,
        out: a.out,
        hidden: a.hidden,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_drop: a.lr_drop,
        lr_gamma: a.lr_gamma,
        wdl: a.wdl,
        mirror: a.mirror,
        score: a.score,
        walk: a.walk,
        init: a.init,
        threads: a.threads,
        seed: a.seed,
        val: a.val,
        max_positions: a.max_positions,
    })))
}

impl TrainConfig {
    /// The learning rate of `epoch` (1-based): `--lr`, times `--lr-gamma` for every
    /// `--lr-drop` epochs finished before it.
    pub fn lr_at(&self, epoch: u32) -> f64 {
        if self.lr_drop == 0 {
            return self.lr;
        }
        let drops = epoch.saturating_sub(1) / self.lr_drop;
        self.lr * self.lr_gamma.powi(drops.min(i32::MAX as u32) as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults_and_every_option() {
        let Ok(Command::Run(c)) = p(&["--data", "a.bin", "--out", "d"]) else {
            panic!("should parse");
        };
        assert_eq!(c.data, vec![PathBuf::from("a.bin")]);
        assert_eq!(c.out, PathBuf::from("d"));
        assert_eq!(
            (c.hidden, c.epochs, c.batch, c.threads, c.seed),
            (256, 10, 16384, 1, 1)
        );
        assert_eq!(
            (c.lr, c.wdl, c.val, c.max_positions),
            (0.001, 0.3, 0.02, None)
        );
        assert_eq!(
            (c.lr_drop, c.lr_at(1), c.lr_at(100), c.mirror),
            (0, 0.001, 0.001, false)
        );
        assert_eq!((c.score, c.init.clone()), (ScoreSource::Search, None));
        let Ok(Command::Run(c)) = p(&[
            "--data",
            "a,b",
            "--data",
            "c",
            "--out",
            "o",
            "--hidden",
            "32",
            "--epochs",
            "3",
            "--batch",
            "100",
            "--lr",
            "0.01",
            "--lr-drop",
            "2",
            "--lr-gamma",
            "0.5",
            "--wdl",
            "1",
            "--threads",
            "2",
            "--seed",
            "9",
            "--val",
            "0",
            "--max-positions",
            "1000",
            "--mirror",
            "--score",
            "hce",
            "--init",
            "x/checkpoint.bin",
            "--walk",
            "3",
        ]) else {
            panic!("should parse");
        };
        assert_eq!(c.data.len(), 3);
        assert_eq!(
            (c.hidden, c.epochs, c.batch, c.threads, c.seed),
            (32, 3, 100, 2, 9)
        );
        assert_eq!(
            (c.lr, c.wdl, c.val, c.max_positions),
            (0.01, 1.0, 0.0, Some(1000))
        );
        assert_eq!((c.lr_drop, c.lr_gamma, c.mirror), (2, 0.5, true));
        assert_eq!((c.score, c.walk), (ScoreSource::Hce, 3));
        assert_eq!(c.init, Some(PathBuf::from("x/checkpoint.bin")));
        let rates: Vec<f64> = (1..=5).map(|e| c.lr_at(e)).collect();
        assert_eq!(rates, vec![0.01, 0.01, 0.005, 0.005, 0.0025]);
        assert!(matches!(p(&["--help"]), Ok(Command::Text(t)) if t.contains("--max-positions")));
    }

    #[test]
    fn bad_input_is_explained() {
        for (args, needle) in [
            (&["--out", "d"][..], "--data"),
            (&["--data", "a"][..], "--out"),
            (&["--data", "a,", "--out", "d"][..], "needs a file"),
            (
                &["--data", "a", "--out", "d", "--hidden", "100"][..],
                "multiple of 16",
            ),
            (
                &["--data", "a", "--out", "d", "--hidden", "0"][..],
                "--hidden",
            ),
            (
                &["--data", "a", "--out", "d", "--hidden", "8192"][..],
                "--hidden",
            ),
            (
                &["--data", "a", "--out", "d", "--epochs", "0"][..],
                "--epochs",
            ),
            (
                &["--data", "a", "--out", "d", "--batch", "x"][..],
                "whole number",
            ),
            (&["--data", "a", "--out", "d", "--lr", "0"][..], "--lr"),
            (&["--data", "a", "--out", "d", "--lr", "NaN"][..], "--lr"),
            (&["--data", "a", "--out", "d", "--wdl", "1.5"][..], "--wdl"),
            (
                &["--data", "a", "--out", "d", "--lr-gamma", "0"][..],
                "--lr-gamma",
            ),
            (
                &["--data", "a", "--out", "d", "--lr-gamma", "2"][..],
                "--lr-gamma",
            ),
            (
                &["--data", "a", "--out", "d", "--lr-drop", "-1"][..],
                "--lr-drop",
            ),
            (
                &["--data", "a", "--out", "d", "--score", "eval"][..],
                "possible values: search, hce",
            ),
            (&["--data", "a", "--out", "d", "--init", ""][..], "--init"),
            (
                &["--data", "a", "--out", "d", "--walk", "2"][..],
                "needs --score hce",
            ),
            (
                &[
                    "--data", "a", "--out", "d", "--score", "hce", "--walk", "99",
                ][..],
                "--walk",
            ),
            (&["--data", "a", "--out", "d", "--val", "0.9"][..], "--val"),
            (
                &["--data", "a", "--out", "d", "--val", "x"][..],
                "needs a number",
            ),
            (
                &["--data", "a", "--out", "d", "--threads", "0"][..],
                "--threads",
            ),
            (
                &["--data", "a", "--out", "d", "--max-positions", "0"][..],
                "--max-positions",
            ),
            (
                &["--data", "a", "--out", "d", "--seed"][..],
                "a value is required",
            ),
            (
                &["--data", "a", "--out", "d", "--frob"][..],
                "unexpected argument",
            ),
        ] {
            let e = p(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }
}
