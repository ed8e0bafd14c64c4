//! The `nosce train` command line, parsed into a [`TrainConfig`] (STYLE.md habit 5: bad
//! input is reported with a reason, never a panic).

use std::path::PathBuf;

use crate::datagen::args::number;
use crate::nnue::{DEFAULT_HIDDEN, HIDDEN_STEP, MAX_HIDDEN};

/// Usage text.
pub const USAGE: &str = "\
nosce train — train an NNUE (768→N)×2→1 on `nosce datagen` data, on the CPU

Usage:
  nosce train --data FILE[,FILE...] --out DIR [options]

Options:
  --data FILES         data files of 32-byte records (comma-separated; the option may repeat)
  --out DIR            output directory: nosce-<id>.nnue per epoch, checkpoint.bin, train.log
  --hidden N           hidden units per perspective, a multiple of 16 (default 256)
  --epochs E           epochs in all; a re-run resumes after the checkpoint's last (default 10)
  --batch B            positions per gradient step (default 16384)
  --lr X               Adam learning rate (default 0.001)
  --lr-drop E          multiply the learning rate by --lr-gamma after every E epochs
                       (default 0: a constant rate)
  --lr-gamma G         the factor of each drop, above 0 up to 1 (default 0.3)
  --wdl L              weight of the game result in the target, 0..1 (default 0.3)
  --mirror             train on each position or its mirror image (files a<->h), drawn
                       at random per epoch: twice the distinct positions (default: off)
  --score S            the score in the target: search (the record's, default) or hce
                       (the hand-crafted evaluation of the position: with --wdl 0, a net
                       that imitates it, to start a run with --init from)
  --walk D             each time a position is drawn, walk 0..=D random legal moves from it
                       and score the result with the hand-crafted evaluation (needs
                       --score hce; default 0)
  --init FILE          start from the weights of another run's checkpoint.bin (same
                       --hidden; the optimiser starts afresh) instead of random ones
  --threads T          threads computing each batch's gradient (default 1)
  --seed S             seed of the initial weights and of the shuffles (default 1)
  --val F              share of the data held out for validation: the file's tail (default 0.02)
  --max-positions N    use only the first N positions of the data

A run is deterministic for given data, settings and --threads. The net format:
docs/nnue-format.md; training: docs/training.md.
";

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Print the usage.
    Help,
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
fn decimal(name: &str, value: &str, min: f64, max: f64, open_min: bool) -> Result<f64, String> {
    let v = value
        .parse::<f64>()
        .map_err(|_| format!("{name} needs a number, not '{value}'"))?;
    let above = if open_min { v > min } else { v >= min };
    if above && v <= max {
        Ok(v)
    } else {
        let lower = if open_min { "above" } else { "from" };
        Err(format!(
            "{name} must be {lower} {min} up to {max}, not '{value}'"
        ))
    }
}

/// Parses the arguments after `train`.
///
/// # Errors
/// An unknown option, a missing value, a value that is not a number or out of range, or a
/// missing `--data` or `--out`.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut cfg = TrainConfig {
        data: Vec::new(),
        out: PathBuf::new(),
        hidden: DEFAULT_HIDDEN,
        epochs: 10,
        batch: 16_384,
        lr: 0.001,
        lr_drop: 0,
        lr_gamma: 0.3,
        wdl: 0.3,
        mirror: false,
        score: ScoreSource::Search,
        walk: 0,
        init: None,
        threads: 1,
        seed: 1,
        val: 0.02,
        max_positions: None,
    };
    let mut out: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let name = a.as_str();
        if matches!(name, "--help" | "-h" | "help") {
            return Ok(Command::Help);
        }
        if name == "--mirror" {
            cfg.mirror = true;
            continue;
        }
        let mut value = || {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match name {
            "--data" => {
                for f in value()?.split(',') {
                    if f.is_empty() {
                        return Err("--data needs file names (FILE[,FILE...])".to_string());
                    }
                    cfg.data.push(PathBuf::from(f));
                }
            }
            "--out" => {
                let v = value()?;
                if v.is_empty() {
                    return Err("--out needs a directory name".to_string());
                }
                out = Some(PathBuf::from(v));
            }
            "--hidden" => {
                let v = value()?;
                let h = number(name, v, HIDDEN_STEP, MAX_HIDDEN)?;
                if !h.is_multiple_of(HIDDEN_STEP) {
                    return Err(format!(
                        "--hidden must be a multiple of {HIDDEN_STEP}, not '{v}'"
                    ));
                }
                cfg.hidden = h;
            }
            "--epochs" => cfg.epochs = number(name, value()?, 1, MAX_EPOCHS)?,
            "--batch" => cfg.batch = number(name, value()?, 1, MAX_BATCH)?,
            "--lr" => cfg.lr = decimal(name, value()?, 0.0, 1.0, true)?,
            "--lr-drop" => cfg.lr_drop = number(name, value()?, 0, MAX_EPOCHS)?,
            "--lr-gamma" => cfg.lr_gamma = decimal(name, value()?, 0.0, 1.0, true)?,
            "--score" => {
                cfg.score = match value()? {
                    "search" => ScoreSource::Search,
                    "hce" => ScoreSource::Hce,
                    v => return Err(format!("--score takes search or hce, not '{v}'")),
                }
            }
            "--walk" => cfg.walk = number(name, value()?, 0, super::walk::MAX_WALK)?,
            "--init" => {
                let v = value()?;
                if v.is_empty() {
                    return Err("--init needs a checkpoint file".to_string());
                }
                cfg.init = Some(PathBuf::from(v));
            }
            "--wdl" => cfg.wdl = decimal(name, value()?, 0.0, 1.0, false)?,
            "--threads" => cfg.threads = number(name, value()?, 1, MAX_THREADS)?,
            "--seed" => cfg.seed = number(name, value()?, 0, u64::MAX)?,
            "--val" => cfg.val = decimal(name, value()?, 0.0, MAX_VAL, false)?,
            "--max-positions" => {
                cfg.max_positions = Some(number(name, value()?, 1, u64::from(u32::MAX))?);
            }
            _ => return Err(format!("unknown option '{name}' (try nosce train --help)")),
        }
    }
    if cfg.data.is_empty() {
        return Err("--data FILE is required (try nosce train --help)".to_string());
    }
    cfg.out = out.ok_or("--out DIR is required (try nosce train --help)")?;
    if cfg.walk > 0 && cfg.score != ScoreSource::Hce {
        return Err(
            "--walk scores its positions with the hand-crafted evaluation: it needs --score hce"
                .to_string(),
        );
    }
    Ok(Command::Run(Box::new(cfg)))
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
        assert_eq!(p(&["--help"]), Ok(Command::Help));
    }

    #[test]
    fn bad_input_is_explained() {
        for (args, needle) in [
            (&["--out", "d"][..], "--data"),
            (&["--data", "a"][..], "--out"),
            (&["--data", "a,", "--out", "d"][..], "file names"),
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
                "search or hce",
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
                "needs a value",
            ),
            (
                &["--data", "a", "--out", "d", "--frob"][..],
                "unknown option",
            ),
        ] {
            let e = p(args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }
}
