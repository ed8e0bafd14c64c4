//! Runs a lineage: each generation's steps ([`super::recipe`]) in order, each through the
//! lab command's own entry point, its wall time appended to `DIR/generation.log`; then the
//! generation's best net (its fit's epoch of lowest validation loss, read from the fit's
//! `train.log`), which the next generation plays with; and the summary.
//!
//! The log holds one line per step and run, `gen K STEP SECONDS s: nosce COMMAND ARGS`, so a
//! resumed lineage's time is the sum of its lines; a step that failed is marked `(failed)`.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::args::GenerationConfig;
use super::recipe::{self, Step, Tool};
use crate::datagen::RECORD_SIZE;

/// The log's file name in the output directory.
pub const LOG: &str = "generation.log";

/// A fit's best epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// The epoch (1-based).
    pub epoch: u32,
    /// Its validation loss.
    pub val: f64,
    /// Its net's file name (in the fit's directory).
    pub file: String,
}

/// The epoch of lowest validation loss among epochs `1..=epochs` of a `train.log` text (a
/// later line for the same epoch, from a resumed run, replaces an earlier one; the earliest
/// epoch wins a tie).
pub fn best_epoch(log: &str, epochs: u32) -> Option<Best> {
    let mut by_epoch: Vec<Option<Best>> = vec![None; epochs as usize];
    for line in log.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() != Some(&"epoch") || t.len() < 4 {
            continue;
        }
        let Some(epoch) = t[1].split('/').next().and_then(|e| e.parse::<u32>().ok()) else {
            continue;
        };
        let val = t
            .iter()
            .position(|w| *w == "val")
            .and_then(|i| t.get(i + 1))
            .and_then(|v| v.parse::<f64>().ok());
        let (Some(val), Some(file)) = (val, t.last()) else {
            continue;
        };
        if (1..=epochs).contains(&epoch) && file.ends_with(".nnue") {
            by_epoch[epoch as usize - 1] = Some(Best {
                epoch,
                val,
                file: (*file).to_string(),
            });
        }
    }
    by_epoch
        .into_iter()
        .flatten()
        .fold(None, |best: Option<Best>, b| match best {
            Some(a) if a.val <= b.val => Some(a),
            _ => Some(b),
        })
}

/// An argument as it would be typed in a shell.
fn shell_word(a: &str) -> String {
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,=:+".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', r"'\''"))
    }
}

/// The command line of a step.
pub fn command_line(step: &Step) -> String {
    let tool = match step.tool {
        Tool::Datagen => "datagen",
        Tool::Train => "train",
    };
    let args: Vec<String> = step.args.iter().map(|a| shell_word(a)).collect();
    format!("nosce {tool} {}", args.join(" "))
}

fn append(log: &Path, line: &str) -> Result<(), String> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| format!("cannot write '{}': {e}", log.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("cannot write '{}': {e}", log.display()))
}

/// Runs one step of the lineage in `dir`, printing its output; appends its time to the log.
fn run_step(step: &Step, dir: &Path, log: &Path) -> Result<(), String> {
    std::fs::create_dir_all(recipe::gen_dir(dir, step.generation))
        .map_err(|e| format!("cannot create generation {}'s folder: {e}", step.generation))?;
    println!(
        "generation {} {}: {}",
        step.generation,
        step.name,
        command_line(step)
    );
    let start = Instant::now();
    let result = match step.tool {
        Tool::Datagen => crate::datagen::run_cli(&step.args),
        Tool::Train => crate::train::run_cli(&step.args),
    };
    let secs = start.elapsed().as_secs_f64();
    let mark = if result.is_ok() { "" } else { " (failed)" };
    append(
        log,
        &format!(
            "gen {} {} {secs:.1} s{mark}: {}",
            step.generation,
            step.name,
            command_line(step)
        ),
    )?;
    match result {
        Ok(text) => {
            print!("{text}");
            Ok(())
        }
        Err(e) => Err(format!(
            "generation {}, {}: {e}",
            step.generation, step.name
        )),
    }
}

/// Seconds per (generation, step) in a log text, in order of first appearance.
pub fn step_times(log: &str) -> Vec<(u32, String, f64)> {
    let mut out: Vec<(u32, String, f64)> = Vec::new();
    for line in log.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 5 || t[0] != "gen" {
            continue;
        }
        let (Ok(k), Ok(secs)) = (t[1].parse::<u32>(), t[3].parse::<f64>()) else {
            continue;
        };
        match out.iter_mut().find(|(g, n, _)| *g == k && n == t[2]) {
            Some((_, _, s)) => *s += secs,
            None => out.push((k, t[2].to_string(), secs)),
        }
    }
    out
}

/// Makes the generations `cfg` asks for (resuming whatever was done); returns the summary.
///
/// # Errors
/// An output directory that cannot be made, the first step that failed, a fit whose log
/// names no epoch.
pub fn run(cfg: &GenerationConfig) -> Result<String, String> {
    std::fs::create_dir_all(&cfg.dir)
        .map_err(|e| format!("cannot create '{}': {e}", cfg.dir.display()))?;
    let log = cfg.dir.join(LOG);
    let mut previous: Option<PathBuf> = None;
    let mut summary = String::new();
    for k in 1..=cfg.gens {
        for step in recipe::steps(cfg, k, previous.as_deref()) {
            run_step(&step, &cfg.dir, &log)?;
        }
        let fit = recipe::fit_dir(&cfg.dir, k);
        let train_log = fit.join("train.log");
        let text = std::fs::read_to_string(&train_log)
            .map_err(|e| format!("cannot read '{}': {e}", train_log.display()))?;
        let best = best_epoch(&text, cfg.epochs).ok_or_else(|| {
            format!(
                "'{}' names no epoch with a validation loss",
                train_log.display()
            )
        })?;
        let net = fit.join(&best.file);
        let data = recipe::data_file(&cfg.dir, k);
        let positions = std::fs::metadata(&data).map_or(0, |m| m.len()) / RECORD_SIZE as u64;
        summary.push_str(&format!(
            "generation {k}: {positions} positions ({} games), net {} (epoch {} of {}, \
             validation loss {:.6})\n",
            cfg.games_of(k),
            net.display(),
            best.epoch,
            cfg.epochs,
            best.val
        ));
        previous = Some(net);
    }
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let times = step_times(&text);
    let total: f64 = times.iter().map(|(_, _, s)| s).sum();
    let steps: Vec<String> = times
        .iter()
        .map(|(k, n, s)| format!("gen {k} {n} {s:.1} s"))
        .collect();
    summary.push_str(&format!(
        "time: {total:.1} s in all ({}), every run in '{}'\n",
        steps.join(", "),
        log.display()
    ));
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG_TEXT: &str = "\
# nosce train: 100 positions
epoch 1/3  lr 1e-3  train 0.040000  val 0.030000  1000 pos/s  0.10 s  nosce-aaaaaaaaaaaa.nnue
epoch 2/3  lr 1e-3  train 0.035000  val 0.020000  1000 pos/s  0.10 s  nosce-bbbbbbbbbbbb.nnue
# resuming after epoch 2
epoch 3/3  lr 1e-3  train 0.030000  val 0.020000  1000 pos/s  0.10 s  nosce-cccccccccccc.nnue
epoch 4/4  lr 1e-3  train 0.030000  val 0.010000  1000 pos/s  0.10 s  nosce-dddddddddddd.nnue
";

    #[test]
    fn the_best_epoch_is_the_lowest_validation_loss_within_the_epochs() {
        let b = best_epoch(LOG_TEXT, 3).unwrap();
        assert_eq!((b.epoch, b.file.as_str()), (2, "nosce-bbbbbbbbbbbb.nnue"));
        assert_eq!(best_epoch(LOG_TEXT, 4).unwrap().epoch, 4);
        assert_eq!(best_epoch(LOG_TEXT, 1).unwrap().epoch, 1);
        assert_eq!(best_epoch("# nothing\n", 3), None);
        // A resumed run's line for the same epoch replaces the first.
        let again = format!(
            "{LOG_TEXT}epoch 2/3  lr 1e-3  train 0.1  val 0.5  1 pos/s  0.1 s  nosce-eeeeeeeeeeee.nnue\n"
        );
        assert_eq!(best_epoch(&again, 3).unwrap().epoch, 3);
    }

    #[test]
    fn step_times_add_up_the_runs_of_each_step() {
        let log = "gen 1 datagen 10.5 s: nosce datagen --out x\n\
                   gen 1 datagen 2.0 s (failed): nosce datagen --out x\n\
                   gen 1 fit 3.0 s: nosce train --data x\n";
        assert_eq!(
            step_times(log),
            vec![
                (1, "datagen".to_string(), 12.5),
                (1, "fit".to_string(), 3.0)
            ]
        );
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(
            shell_word("gen1/data.bin,gen2/data.bin"),
            "gen1/data.bin,gen2/data.bin"
        );
    }
}
