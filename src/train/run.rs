//! The training run: loads the data, starts from random weights or resumes from the
//! checkpoint, and trains epoch after epoch, each ending with the quantised net, the
//! checkpoint and a line in `train.log` and on stdout.
//!
//! One gradient step per batch: the batch (a slice of the epoch's shuffled order) is cut
//! into `--threads` contiguous parts, each thread adds the gradient of its part into a
//! buffer of its own, and the buffers are summed in thread order before the Adam step.
//! Within a thread positions are taken in order, so the sums — and the whole run — are the
//! same on every run with the same data, settings and `--threads`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::{ScoreSource, TrainConfig};
use super::checkpoint::{Checkpoint, Settings};
use super::data::{self, Dataset, MAX_MIRRORED, MIRROR_BIT, Sample};
use super::model::{FloatNet, param_count};
use super::optim::Adam;
use super::walk::{Walker, draw_rng};
use crate::datagen::RECORD_SIZE;
use crate::nnue::fnv1a64;

/// The checkpoint's file name in the output directory.
pub const CHECKPOINT: &str = "checkpoint.bin";
/// The log's file name in the output directory.
pub const LOG: &str = "train.log";
/// How often a long epoch reports its progress on stderr.
const REPORT_EVERY: Duration = Duration::from_secs(30);

/// One thread's gradient buffer and scratch space.
struct Worker {
    grad: Vec<f32>,
    acc: Vec<f32>,
    sample: Sample,
    loss: f64,
    walker: Walker,
}

/// Where a part of a batch sits in its epoch, for `--walk`'s draws.
#[derive(Clone, Copy)]
struct Place {
    seed: u64,
    epoch: u32,
    /// Index in the epoch's order of the part's first entry.
    first: usize,
    /// `--walk`.
    walk: u32,
}

impl Worker {
    fn new(hidden: usize) -> Worker {
        Worker {
            grad: vec![0.0; param_count(hidden)],
            acc: vec![0.0; 2 * hidden],
            sample: Sample::default(),
            loss: 0.0,
            walker: Walker::default(),
        }
    }

    /// The gradient of the mean loss of a batch (`scale` = 1 / batch size), over the part
    /// `order` of it; the sum of the part's losses in `loss`.
    fn gradient(
        &mut self,
        net: &FloatNet,
        records: &[[u8; RECORD_SIZE]],
        order: &[u32],
        scale: f32,
        wdl: f32,
        place: Place,
    ) {
        self.grad.fill(0.0);
        self.loss = 0.0;
        for (k, &i) in order.iter().enumerate() {
            let rec = &records[(i & !MIRROR_BIT) as usize];
            let mirror = i & MIRROR_BIT != 0;
            if place.walk > 0 {
                let mut rng = draw_rng(place.seed, place.epoch, place.first + k);
                self.walker
                    .fill(&mut self.sample, rec, wdl, place.walk, mirror, &mut rng);
            } else {
                self.sample.fill(rec, wdl, mirror);
            }
            self.loss +=
                f64::from(net.backward(&self.sample, scale, &mut self.grad, &mut self.acc));
        }
    }

    /// The sum of the losses of `records`.
    fn validate(&mut self, net: &FloatNet, records: &[[u8; RECORD_SIZE]], wdl: f32) {
        self.loss = 0.0;
        for rec in records {
            self.sample.fill(rec, wdl, false);
            self.loss += f64::from(net.loss(&self.sample, &mut self.acc));
        }
    }
}

/// Runs `f` on every worker with its share of `0..len` (contiguous, in worker order); the
/// first share on this thread, the others on scoped threads.
fn parallel<F>(workers: &mut [Worker], len: usize, f: F)
where
    F: Fn(&mut Worker, Range<usize>) + Sync,
{
    let t = workers.len();
    let share = |k: usize| k * len / t..(k + 1) * len / t;
    let Some((first, rest)) = workers.split_first_mut() else {
        return;
    };
    if rest.is_empty() {
        f(first, 0..len);
        return;
    }
    std::thread::scope(|s| {
        for (k, w) in rest.iter_mut().enumerate() {
            let f = &f;
            let range = share(k + 1);
            s.spawn(move || f(w, range));
        }
        f(first, share(0));
    });
}

/// Adds every worker's gradient and loss into the first one's, in worker order.
fn reduce(workers: &mut [Worker]) -> Option<&Worker> {
    let (first, rest) = workers.split_first_mut()?;
    for w in rest.iter() {
        for (a, &b) in first.grad.iter_mut().zip(&w.grad) {
            *a += b;
        }
        first.loss += w.loss;
    }
    Some(first)
}

/// The little-endian bytes of `v`.
fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Creates the output directory if needed.
fn prepare_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!("--out '{}' is not a directory", dir.display()));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))
}

/// Writes a line to the log and to stdout.
fn emit(log: &mut File, log_path: &Path, line: &str) -> Result<(), String> {
    println!("{line}");
    writeln!(log, "{line}").map_err(|e| format!("cannot write '{}': {e}", log_path.display()))
}

/// The data files as given, comma-separated.
fn data_names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(",")
}

/// The mean loss of the validation positions, if there are any.
fn validation_loss(
    workers: &mut [Worker],
    net: &FloatNet,
    data: &Dataset,
    wdl: f32,
) -> Option<f64> {
    let val = data.validation();
    if val.is_empty() {
        return None;
    }
    parallel(workers, val.len(), |w, r| w.validate(net, &val[r], wdl));
    let total = reduce(workers).map_or(0.0, |w| w.loss);
    Some(total / val.len() as f64)
}

/// The starting weights of `--init`: a checkpoint's float net, or a net file's
/// ([`crate::nnue::network::MAGIC`]) read back into floats ([`FloatNet::from_network`]).
fn load_init(path: &Path) -> Result<FloatNet, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if bytes.starts_with(crate::nnue::network::MAGIC) {
        let net = crate::nnue::Network::from_bytes(&bytes)
            .map_err(|e| format!("'{}': {e}", path.display()))?;
        Ok(FloatNet::from_network(&net))
    } else {
        Checkpoint::from_bytes(&bytes)
            .map(|ck| ck.net)
            .map_err(|e| format!("--init '{}': {e}", path.display()))
    }
}

/// Trains as `cfg` asks; epoch lines go to stdout and the log as they finish. Returns the
/// closing line (the final net).
///
/// # Errors
/// An output directory that cannot be made or written, bad data, a checkpoint that does
/// not load or was made with other settings or data.
pub fn run(cfg: &TrainConfig) -> Result<String, String> {
    let dir = &cfg.out;
    prepare_dir(dir)?;
    let mut data = data::load(&cfg.data, cfg.max_positions, cfg.val)?;
    if cfg.score == ScoreSource::Hce {
        data::relabel_hce(&mut data.records);
    }
    let init = match &cfg.init {
        None => None,
        Some(path) => {
            let net = load_init(path)?;
            if net.hidden != cfg.hidden {
                return Err(format!(
                    "--init '{}' has {} hidden units, this run {} (set --hidden {})",
                    path.display(),
                    net.hidden,
                    cfg.hidden,
                    net.hidden
                ));
            }
            Some(net)
        }
    };
    let init_sum = init.as_ref().map_or(0, |n| fnv1a64(&f32_bytes(&n.params)));
    if cfg.mirror && data.train > MAX_MIRRORED {
        return Err(format!(
            "--mirror takes at most {MAX_MIRRORED} training positions, not {} (use \
             --max-positions)",
            data.train
        ));
    }
    let settings = Settings::of(cfg, &data, init_sum);
    let ck_path = dir.join(CHECKPOINT);
    let (mut net, mut adam, done, threads_before) = if ck_path.exists() {
        let ck = Checkpoint::load(&ck_path)?;
        ck.settings.check(&settings, &ck_path)?;
        (ck.net, ck.adam, ck.epochs_done, Some(ck.threads))
    } else {
        let net = init.unwrap_or_else(|| FloatNet::random(cfg.hidden, cfg.seed));
        let adam = Adam::new(net.params.len());
        (net, adam, 0, None)
    };
    if done >= cfg.epochs {
        let name = net.quantise()?.file_name();
        return Ok(format!(
            "nothing to train: '{}' has {done} epochs done (--epochs {}); the last net is \
             '{}'\n",
            ck_path.display(),
            cfg.epochs,
            dir.join(name).display()
        ));
    }
    let log_path = dir.join(LOG);
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| format!("cannot write '{}': {e}", log_path.display()))?;
    let held = data.validation().len();
    emit(
        &mut log,
        &log_path,
        &format!(
            "# nosce train: {} positions from {} ({} training, {held} validation); hidden {}, \
             batch {}, lr {} (drop x{} every {} epochs; 0: never), wdl {}, mirror {}, score {}, \
             walk {}, init {}, seed {}, threads {}",
            data.records.len(),
            data_names(&cfg.data),
            data.train,
            cfg.hidden,
            cfg.batch,
            cfg.lr,
            cfg.lr_gamma,
            cfg.lr_drop,
            cfg.wdl,
            if cfg.mirror { "on" } else { "off" },
            cfg.score.name(),
            cfg.walk,
            cfg.init
                .as_ref()
                .map_or("random".to_string(), |p| p.display().to_string()),
            cfg.seed,
            cfg.threads
        ),
    )?;
    if let Some(before) = threads_before {
        let mut line = format!("# resuming after epoch {done} from '{}'", ck_path.display());
        if before as usize != cfg.threads {
            line.push_str(&format!(
                " (written with --threads {before}: sums are rounded differently with {}, so \
                 the result will differ slightly from an uninterrupted run)",
                cfg.threads
            ));
        }
        emit(&mut log, &log_path, &line)?;
    }
    let wdl = cfg.wdl as f32;
    let mut workers: Vec<Worker> = (0..cfg.threads).map(|_| Worker::new(cfg.hidden)).collect();
    let mut order: Vec<u32> = Vec::new();
    let mut last_name = String::new();
    for epoch in done + 1..=cfg.epochs {
        let start = Instant::now();
        let mut reported = start;
        let lr = cfg.lr_at(epoch) as f32;
        data::epoch_order(data.train, cfg.seed, epoch, cfg.mirror, &mut order);
        let mut train_loss = 0f64;
        let batches = order.len().div_ceil(cfg.batch);
        for (b, batch) in order.chunks(cfg.batch).enumerate() {
            let scale = 1.0 / batch.len() as f32;
            parallel(&mut workers, batch.len(), |w, r| {
                let place = Place {
                    seed: cfg.seed,
                    epoch,
                    first: b * cfg.batch + r.start,
                    walk: cfg.walk,
                };
                w.gradient(&net, &data.records, &batch[r], scale, wdl, place);
            });
            if let Some(sum) = reduce(&mut workers) {
                train_loss += sum.loss;
                adam.update(&mut net.params, &sum.grad, lr);
            }
            net.clip();
            if reported.elapsed() >= REPORT_EVERY {
                reported = Instant::now();
                eprintln!("epoch {epoch}: batch {}/{batches}", b + 1);
            }
        }
        let train_secs = start.elapsed().as_secs_f64().max(1e-9);
        let val_loss = validation_loss(&mut workers, &net, &data, wdl);
        let quantised = net.quantise()?;
        last_name = quantised.file_name();
        quantised.save(&dir.join(&last_name))?;
        Checkpoint {
            settings: settings.clone(),
            epochs_done: epoch,
            threads: cfg.threads as u32,
            net: net.clone(),
            adam: adam.clone(),
        }
        .save(&ck_path)?;
        let val = val_loss.map_or("-".to_string(), |v| format!("{v:.6}"));
        emit(
            &mut log,
            &log_path,
            &format!(
                "epoch {epoch}/{}  lr {lr:e}  train {:.6}  val {val}  {:.0} pos/s  {:.2} s  \
                 {last_name}",
                cfg.epochs,
                train_loss / data.train as f64,
                data.train as f64 / train_secs,
                start.elapsed().as_secs_f64()
            ),
        )?;
    }
    Ok(format!("final net: {}\n", dir.join(last_name).display()))
}
