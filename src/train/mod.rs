//! `nosce train`: a CPU trainer for the (768 → N)×2 → 1 net of [`crate::nnue`] on the
//! records of `nosce datagen` (issue 17, item 2).
//!
//! Plain mini-batch training: each epoch shuffles the training positions (seeded by
//! (seed, epoch)), and every batch takes one Adam step on the gradient of the mean squared
//! error between `sigmoid(out)` and the target `λ·result + (1 − λ)·sigmoid(score/400)`.
//! The gradient is computed data-parallel over `--threads` scoped threads and summed in a
//! fixed order, so a run is deterministic for given data, settings and `--threads`. The
//! input is sparse — at most 32 of 768 features per perspective — and forward and backward
//! passes touch only the W1 rows of active features. After every step the weights are
//! clipped to ±[`crate::nnue::WEIGHT_CLIP`] so that the quantised net cannot overflow.
//!
//! Options change the data, not the method: `--mirror` takes each position or its mirror
//! image a↔h at random per epoch, `--score hce` replaces the search's score by the
//! hand-crafted evaluation (a net that imitates it), `--init` starts from another run's
//! weights instead of random ones, `--walk D` draws positions up to D random moves away from
//! the data's, scored by the hand-crafted evaluation ([`walk`]).
//!
//! After each epoch: the validation loss (the held-out tail of the data), the quantised net
//! `DIR/nosce-<id>.nnue`, the resumable `DIR/checkpoint.bin` (atomically replaced) and a
//! line in `DIR/train.log` and on stdout. Re-running the same command resumes after the
//! checkpoint's last epoch, to the same files an uninterrupted run writes.
//!
//! Files: [`args`] (command line), [`data`] (loading, validation split, shuffles, inputs
//! and targets), [`model`] (the float net: forward, backward, quantisation), [`optim`]
//! (Adam), [`checkpoint`] (the resume file), [`run`] (epochs, threads, outputs), [`walk`]
//! (random descendants).

pub mod args;
pub mod checkpoint;
pub mod data;
pub mod model;
pub mod optim;
pub mod run;
pub mod walk;

pub use args::{Command, TrainConfig};

/// Runs `nosce train <args>`: epoch lines are printed as they finish; returns the closing
/// text (the usage, or the final net's path).
///
/// # Errors
/// Bad options, bad data, an unusable output directory, a checkpoint that does not match
/// the command line, an I/O error — each with its reason.
pub fn run_cli(args: &[String]) -> Result<String, String> {
    match args::parse(args)? {
        Command::Text(text) => Ok(text),
        Command::Run(cfg) => run::run(&cfg),
    }
}
