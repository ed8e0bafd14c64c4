//! `nosce generation`: a lineage of NNUE generations from one command and a seed (issue 41,
//! item 3: "data does not survive between machines: make a generation reproducible from one
//! command and a seed, and record its time").
//!
//! Generation 1 is hand-crafted self-play ([`crate::datagen`]) and a net trained on it in
//! two runs ([`crate::train`]): an imitation of the hand-crafted evaluation, then a fit to
//! the games' scores and results started from it. Generation *k* > 1 plays its games with
//! generation *k* − 1's best net and trains on all the data so far, started from generation
//! *k* − 1's final checkpoint. The best net of a generation is its fit's epoch with the
//! lowest validation loss. This is the recipe of `docs/training.md` that made generations 1
//! and 2 (`nets/README.md`), written down once ([`recipe`]) instead of typed by hand.
//!
//! Every step is one of the lab's own commands, run through its public entry point
//! ([`crate::datagen::run_cli`], [`crate::train::run_cli`]) with an argument list the log
//! shows, so a step can be rerun by hand. Both are deterministic (a game depends only on
//! the seed, its number and the settings; a training run only on its data, settings and
//! `--threads`) and resumable, so the whole lineage is: rerunning the same command after an
//! interruption continues the step it stopped in and ends with the same files. Each step's
//! wall time is appended to `DIR/generation.log`; the summary adds them up per step.
//!
//! Files: [`args`] (command line), [`recipe`] (the steps of a generation), [`run`] (running
//! them, timing, the best epoch, the summary).

pub mod args;
pub mod recipe;
pub mod run;

pub use args::{Command, GenerationConfig};

/// Runs `nosce generation <args>`; returns the text to print (the usage, or the summary).
///
/// # Errors
/// Bad options, or the first step that failed (with its reason).
pub fn run_cli(args: &[String]) -> Result<String, String> {
    match args::parse(args)? {
        Command::Text(text) => Ok(text),
        Command::Run(cfg) => run::run(&cfg),
    }
}
