//! `checkpoint.bin`: everything a run needs to continue after its last finished epoch —
//! the settings the result depends on, the data's fingerprint, the float weights and Adam's
//! state — written atomically (temporary file, synced, renamed) after every epoch.
//!
//! Layout (little-endian): magic `NOSCECK1`, `u32` version 5, `u32` hidden, `u64` batch,
//! `f64` lr, `f64` wdl, `u64` seed, `f64` val, `u64` max-positions (0: all), `u64`
//! positions, `u64` data fingerprint, `u32` lr-drop (0: none), `f64` lr-gamma, `u32` mirror (0/1), `u32` score (0 search, 1 hce), `u32` walk, `u64` init (FNV-1a-64 of the
//! starting weights' bytes, 0: random), `u32` epochs done, `u32` threads of the last run,
//! `u64` Adam steps, then `f32` parameters, first moments and second moments (each
//! [`param_count`] long), then the `u64` FNV-1a-64 of every preceding byte.
//!
//! Since each epoch's shuffle depends only on (seed, epoch) and nothing else carries over
//! from one epoch to the next, a run resumed from here continues exactly as an
//! uninterrupted one (given the same `--threads`, which decides how each batch's gradient
//! is summed).

use std::path::Path;

use super::args::{ScoreSource, TrainConfig};
use super::data::Dataset;
use super::model::{FloatNet, param_count};
use super::optim::Adam;
use crate::atomic_file::write_atomically;
use crate::nnue::{HIDDEN_STEP, MAX_HIDDEN, fnv1a64};

const MAGIC: &[u8; 8] = b"NOSCECK1";
const VERSION: u32 = 5;

/// The settings the trained weights depend on (all but `--epochs` and `--threads`).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `--hidden`.
    pub hidden: usize,
    /// `--batch`.
    pub batch: u64,
    /// `--lr`.
    pub lr: f64,
    /// `--wdl`.
    pub wdl: f64,
    /// `--seed`.
    pub seed: u64,
    /// `--val`.
    pub val: f64,
    /// `--max-positions` (0: all).
    pub max_positions: u64,
    /// Positions loaded.
    pub positions: u64,
    /// FNV-1a-64 of the loaded records.
    pub fingerprint: u64,
    /// `--lr-drop` (0: none).
    pub lr_drop: u32,
    /// `--lr-gamma`.
    pub lr_gamma: f64,
    /// `--mirror`.
    pub mirror: bool,
    /// `--score`.
    pub score: ScoreSource,
    /// `--walk`.
    pub walk: u32,
    /// FNV-1a-64 of the `--init` weights (0: random weights from the seed).
    pub init: u64,
}

impl Settings {
    /// The settings of a command line and its data.
    pub fn of(cfg: &TrainConfig, data: &Dataset, init: u64) -> Settings {
        Settings {
            hidden: cfg.hidden,
            batch: cfg.batch as u64,
            lr: cfg.lr,
            wdl: cfg.wdl,
            seed: cfg.seed,
            val: cfg.val,
            max_positions: cfg.max_positions.unwrap_or(0),
            positions: data.records.len() as u64,
            fingerprint: data.fingerprint,
            lr_drop: cfg.lr_drop,
            lr_gamma: cfg.lr_gamma,
            mirror: cfg.mirror,
            score: cfg.score,
            walk: cfg.walk,
            init,
        }
    }

    /// `Ok` when `now` equals these (recorded) settings.
    ///
    /// # Errors
    /// The first that differs, with both values.
    pub fn check(&self, now: &Settings, path: &Path) -> Result<(), String> {
        let fields = |s: &Settings| {
            [
                ("--hidden", s.hidden.to_string()),
                ("--batch", s.batch.to_string()),
                ("--lr", s.lr.to_string()),
                ("--lr-drop", s.lr_drop.to_string()),
                ("--lr-gamma", s.lr_gamma.to_string()),
                ("--mirror", s.mirror.to_string()),
                ("--score", s.score.name().to_string()),
                ("--walk", s.walk.to_string()),
                ("the --init weights", format!("{:016x}", s.init)),
                ("--wdl", s.wdl.to_string()),
                ("--seed", s.seed.to_string()),
                ("--val", s.val.to_string()),
                ("--max-positions", s.max_positions.to_string()),
                (
                    "the data",
                    format!(
                        "{} positions, fingerprint {:016x}",
                        s.positions, s.fingerprint
                    ),
                ),
            ]
        };
        for ((name, was), (_, is)) in fields(self).iter().zip(fields(now).iter()) {
            if was != is {
                return Err(format!(
                    "{name} differs from the run in '{}' ({was} there, {is} now): resume with \
                     the same settings and data, or choose another --out",
                    path.display()
                ));
            }
        }
        Ok(())
    }
}

/// The state after a finished epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// What the run was trained with.
    pub settings: Settings,
    /// Epochs finished.
    pub epochs_done: u32,
    /// `--threads` of the run that wrote it.
    pub threads: u32,
    /// The weights.
    pub net: FloatNet,
    /// The optimiser.
    pub adam: Adam,
}

/// Reads little-endian fields one after another.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const K: usize>(&mut self) -> [u8; K] {
        let mut b = [0u8; K];
        b.copy_from_slice(&self.bytes[self.at..self.at + K]);
        self.at += K;
        b
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn f64(&mut self) -> f64 {
        f64::from_le_bytes(self.take())
    }
    fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| f32::from_le_bytes(self.take())).collect()
    }
}

/// Bytes before the arrays.
const HEAD: usize = 8 + 4 + 4 + 8 * 8 + 4 + 8 + 4 + 4 + 4 + 8 + 4 + 4 + 8;

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.settings;
        let n = param_count(s.hidden);
        let mut out = Vec::with_capacity(HEAD + 12 * n + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(s.hidden as u32).to_le_bytes());
        out.extend_from_slice(&s.batch.to_le_bytes());
        out.extend_from_slice(&s.lr.to_le_bytes());
        out.extend_from_slice(&s.wdl.to_le_bytes());
        out.extend_from_slice(&s.seed.to_le_bytes());
        out.extend_from_slice(&s.val.to_le_bytes());
        out.extend_from_slice(&s.max_positions.to_le_bytes());
        out.extend_from_slice(&s.positions.to_le_bytes());
        out.extend_from_slice(&s.fingerprint.to_le_bytes());
        out.extend_from_slice(&s.lr_drop.to_le_bytes());
        out.extend_from_slice(&s.lr_gamma.to_le_bytes());
        out.extend_from_slice(&u32::from(s.mirror).to_le_bytes());
        out.extend_from_slice(&u32::from(s.score == ScoreSource::Hce).to_le_bytes());
        out.extend_from_slice(&s.walk.to_le_bytes());
        out.extend_from_slice(&s.init.to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.threads.to_le_bytes());
        out.extend_from_slice(&self.adam.step.to_le_bytes());
        for v in [&self.net.params, &self.adam.m, &self.adam.v] {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a checkpoint from its bytes.
    ///
    /// # Errors
    /// Bad magic, another version, a hidden width out of range, a wrong length, a checksum
    /// mismatch.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEAD + 8 {
            return Err(format!("truncated ({} bytes)", bytes.len()));
        }
        if &bytes[..8] != MAGIC {
            return Err("bad magic: not a nosce train checkpoint".to_string());
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32();
        if version != VERSION {
            return Err(format!(
                "checkpoint version {version}; this build reads {VERSION}"
            ));
        }
        let hidden = r.u32() as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
            return Err(format!("bad hidden width {hidden}"));
        }
        let n = param_count(hidden);
        let want = HEAD + 12 * n + 8;
        if bytes.len() != want {
            return Err(format!(
                "{} bytes, a checkpoint of {hidden} hidden units takes {want} (truncated?)",
                bytes.len()
            ));
        }
        let stored = u64::from_le_bytes(bytes[want - 8..].try_into().unwrap_or([0; 8]));
        if stored != fnv1a64(&bytes[..want - 8]) {
            return Err("checksum mismatch (the file is corrupt)".to_string());
        }
        let settings = Settings {
            hidden,
            batch: r.u64(),
            lr: r.f64(),
            wdl: r.f64(),
            seed: r.u64(),
            val: r.f64(),
            max_positions: r.u64(),
            positions: r.u64(),
            fingerprint: r.u64(),
            lr_drop: r.u32(),
            lr_gamma: r.f64(),
            mirror: r.u32() != 0,
            score: if r.u32() == 1 {
                ScoreSource::Hce
            } else {
                ScoreSource::Search
            },
            walk: r.u32(),
            init: r.u64(),
        };
        let epochs_done = r.u32();
        let threads = r.u32();
        let step = r.u64();
        let params = r.f32s(n);
        let m = r.f32s(n);
        let v = r.f32s(n);
        Ok(Checkpoint {
            settings,
            epochs_done,
            threads,
            net: FloatNet { hidden, params },
            adam: Adam { m, v, step },
        })
    }

    /// Reads `path`.
    ///
    /// # Errors
    /// It cannot be read or does not parse; the message names the file.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| {
            format!(
                "'{}': {e}; remove it to start afresh, or choose another --out",
                path.display()
            )
        })
    }

    /// Writes `path` atomically.
    ///
    /// # Errors
    /// An I/O error, naming the file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        let net = FloatNet::random(16, 4);
        let mut adam = Adam::new(net.params.len());
        adam.m[3] = 0.5;
        adam.v[7] = 0.25;
        adam.step = 99;
        Checkpoint {
            settings: Settings {
                hidden: 16,
                batch: 512,
                lr: 0.001,
                wdl: 0.3,
                seed: 5,
                val: 0.02,
                max_positions: 0,
                positions: 1234,
                fingerprint: 0xdead_beef,
                lr_drop: 4,
                lr_gamma: 0.3,
                mirror: true,
                score: ScoreSource::Hce,
                walk: 2,
                init: 77,
            },
            epochs_done: 3,
            threads: 2,
            net,
            adam,
        }
    }

    #[test]
    fn round_trip_and_corruption() {
        let c = sample();
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
        let mut bad = bytes.clone();
        bad[HEAD + 40] ^= 4;
        assert!(
            Checkpoint::from_bytes(&bad)
                .unwrap_err()
                .contains("checksum")
        );
        assert!(
            Checkpoint::from_bytes(&bytes[..bytes.len() - 3])
                .unwrap_err()
                .contains("truncated")
        );
        let mut bad = bytes;
        bad[1] = b'x';
        assert!(Checkpoint::from_bytes(&bad).unwrap_err().contains("magic"));
    }

    #[test]
    fn settings_differences_are_named() {
        let a = sample().settings;
        let mut b = a.clone();
        assert!(a.check(&b, Path::new("c")).is_ok());
        b.lr = 0.002;
        let e = a.check(&b, Path::new("c")).unwrap_err();
        assert!(
            e.contains("--lr") && e.contains("0.001") && e.contains("0.002"),
            "{e}"
        );
        let mut b = a.clone();
        b.fingerprint = 1;
        assert!(
            a.check(&b, Path::new("c"))
                .unwrap_err()
                .contains("the data")
        );
    }
}
