//! Training data: the records of `nosce datagen` files, held raw (32 bytes a position),
//! checked once on loading, split into a training part and a held-out validation part, and
//! turned into network inputs and targets on the fly.
//!
//! The validation positions are the **tail** of the data, in file order, not a random
//! sample: a game's positions are contiguous and strongly alike, so a random split would
//! let the net see near-copies of its validation positions. A shuffled order of the
//! training part is drawn for each epoch from (seed, epoch) alone ([`epoch_order`]), so an
//! epoch's order does not depend on earlier epochs and a resumed run shuffles as an
//! uninterrupted one does.
//!
//! [`Sample::fill`] reads the features straight from the record bytes (occupancy bits and
//! piece nibbles) instead of building a `shakmaty::Board`; a test checks that it agrees
//! with [`crate::nnue::features`] on every record of a position set.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

use crate::datagen::{GameRng, RECORD_SIZE, decode};
use crate::nnue::{MAX_ACTIVE, SCALE, fnv1a64};

/// The loaded positions.
pub struct Dataset {
    /// Every record, in file order.
    pub records: Vec<[u8; RECORD_SIZE]>,
    /// `records[..train]` are trained on, `records[train..]` held out.
    pub train: usize,
    /// FNV-1a-64 of the used bytes: a checkpoint resumes only on the same data.
    pub fingerprint: u64,
}

impl Dataset {
    /// The held-out records.
    pub fn validation(&self) -> &[[u8; RECORD_SIZE]] {
        &self.records[self.train..]
    }
}

/// Reads `paths` in order, keeping at most `max` positions, and holds out the last
/// `round(n·val)` of them (at least one when `val > 0`).
///
/// # Errors
/// A missing or unreadable file, an empty one, a length that is not a multiple of 32, a
/// record that does not decode (with its file and number), or too few positions to leave
/// one for training.
pub fn load(paths: &[PathBuf], max: Option<u64>, val: f64) -> Result<Dataset, String> {
    let mut records: Vec<[u8; RECORD_SIZE]> = Vec::new();
    let limit = max.unwrap_or(u64::from(u32::MAX));
    let mut bytes: Vec<u8> = Vec::new();
    for path in paths {
        if records.len() as u64 >= limit {
            break;
        }
        let name = path.display();
        let mut file = File::open(path).map_err(|e| format!("cannot open '{name}': {e}"))?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read '{name}': {e}"))?
            .len();
        if len == 0 {
            return Err(format!("'{name}' is empty"));
        }
        if !len.is_multiple_of(RECORD_SIZE as u64) {
            return Err(format!(
                "'{name}' holds {len} bytes, not a multiple of {RECORD_SIZE}: not a whole \
                 number of records (is it a nosce datagen file?)"
            ));
        }
        let wanted = (len / RECORD_SIZE as u64).min(limit - records.len() as u64);
        bytes.clear();
        bytes.resize(wanted as usize * RECORD_SIZE, 0);
        file.read_exact(&mut bytes)
            .map_err(|e| format!("cannot read '{name}': {e}"))?;
        records.reserve(wanted as usize);
        for (k, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
            let mut rec = [0u8; RECORD_SIZE];
            rec.copy_from_slice(chunk);
            decode(&rec).map_err(|e| format!("'{name}': record {k}: {e}"))?;
            records.push(rec);
        }
    }
    let n = records.len();
    let held = if val > 0.0 {
        ((n as f64 * val).round() as usize).max(1)
    } else {
        0
    };
    if held >= n {
        return Err(format!(
            "{n} position(s) are too few to hold out a share of {val} for validation and \
             train on the rest"
        ));
    }
    let fingerprint = fnv1a64(records.as_flattened());
    Ok(Dataset {
        records,
        train: n - held,
        fingerprint,
    })
}

/// Replaces the score of every record by the hand-crafted evaluation of its position (side
/// to move's view, clamped to ±[`crate::datagen::game::RECORD_LIMIT`]): the target of a
/// net that is to imitate that evaluation (`--score hce`). A record whose position
/// shakmaty refuses keeps its score.
pub fn relabel_hce(records: &mut [[u8; RECORD_SIZE]]) {
    use crate::eval::{Evaluator, FullEval};
    let eval = FullEval::default();
    let limit = crate::datagen::game::RECORD_LIMIT;
    for rec in records.iter_mut() {
        let Some(pos) = decode(rec).ok().and_then(|r| r.position()) else {
            continue;
        };
        let score = eval.evaluate(&pos).clamp(-limit, limit) as i16;
        rec[24..26].copy_from_slice(&score.to_le_bytes());
    }
}

/// The bit of an [`epoch_order`] entry that asks for the position mirrored (files a↔h).
pub const MIRROR_BIT: u32 = 1 << 31;
/// Most positions a run with `--mirror` can index (the top bit is the mirror flag).
pub const MAX_MIRRORED: usize = MIRROR_BIT as usize - 1;

/// Indices `0..n` in the shuffled order of epoch `epoch` (Fisher–Yates, drawn from the
/// generator of (`seed`, `epoch`)); with `mirror`, each entry then gets [`MIRROR_BIT`]
/// with probability ½, drawn from the same generator (`n` must not exceed
/// [`MAX_MIRRORED`]).
pub fn epoch_order(n: usize, seed: u64, epoch: u32, mirror: bool, order: &mut Vec<u32>) {
    order.clear();
    order.extend(0..n as u32);
    let mut rng = GameRng::new(seed, u64::from(epoch));
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    if mirror {
        for chunk in order.chunks_mut(64) {
            let bits = rng.next_u64();
            for (k, i) in chunk.iter_mut().enumerate() {
                if bits >> k & 1 == 1 {
                    *i |= MIRROR_BIT;
                }
            }
        }
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One position as the network sees it.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The side to move's active features (`len` of them).
    pub stm: [u16; MAX_ACTIVE],
    /// The other side's active features.
    pub other: [u16; MAX_ACTIVE],
    /// Number of pieces.
    pub len: usize,
    /// The target: `λ·result + (1 − λ)·sigmoid(score / SCALE)`.
    pub target: f32,
}

impl Default for Sample {
    fn default() -> Self {
        Sample {
            stm: [0; MAX_ACTIVE],
            other: [0; MAX_ACTIVE],
            len: 0,
            target: 0.0,
        }
    }
}

impl Sample {
    /// Fills the sample from a record that [`decode`] accepted (at most 32 pieces, valid
    /// piece codes), with `wdl` = λ; with `mirror`, as the position mirrored left to right
    /// (files a↔h: the same value, as a record has no castling rights).
    pub fn fill(&mut self, rec: &[u8; RECORD_SIZE], wdl: f32, mirror: bool) {
        let flip = if mirror { 7 } else { 0 };
        let mut occ = u64::from_le_bytes([
            rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[7],
        ]);
        let black_to_move = rec[27] == 1;
        let mut n = 0;
        while occ != 0 && n < MAX_ACTIVE {
            let at = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let sq = at ^ flip;
            let byte = rec[8 + n / 2];
            let code = if n % 2 == 0 { byte & 0x0f } else { byte >> 4 };
            let black = usize::from(code & 8 != 0);
            let role = usize::from((code & 7).saturating_sub(1));
            let white_view = (black * 384 + role * 64 + sq) as u16;
            let black_view = ((1 - black) * 384 + role * 64 + (sq ^ 56)) as u16;
            if black_to_move {
                self.stm[n] = black_view;
                self.other[n] = white_view;
            } else {
                self.stm[n] = white_view;
                self.other[n] = black_view;
            }
            n += 1;
        }
        self.len = n;
        let score = f32::from(i16::from_le_bytes([rec[24], rec[25]]));
        let result = f32::from(rec[26]) / 2.0;
        self.target = wdl * result + (1.0 - wdl) * sigmoid(score / SCALE as f32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{GameResult, Record, encode};
    use crate::nnue::features::perspectives;
    use crate::position::Position;
    use shakmaty::Position as _;

    fn record(fen: &str, score: i16, result: GameResult) -> [u8; RECORD_SIZE] {
        let pos = Position::from_fen(fen).unwrap();
        encode(&Record {
            board: pos.chess().board().clone(),
            turn: pos.turn(),
            score,
            result,
            fullmove: 1,
        })
    }

    #[test]
    fn samples_agree_with_the_board_features() {
        for (fen, score, result) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                20,
                GameResult::Draw,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                -150,
                GameResult::Loss,
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
                400,
                GameResult::Win,
            ),
            ("4k3/8/5n2/8/3P4/8/8/R3K3 w - - 0 1", 0, GameResult::Win),
        ] {
            let rec = record(fen, score, result);
            let r = decode(&rec).unwrap();
            let (stm, other) = perspectives(&r.board, r.turn);
            let mut s = Sample::default();
            s.fill(&rec, 0.25, false);
            assert_eq!(&s.stm[..s.len], stm.as_slice(), "{fen}");
            assert_eq!(&s.other[..s.len], other.as_slice(), "{fen}");
            // Mirrored: the features of the board with its files reversed.
            let mut mirrored = r.board.clone();
            mirrored.flip_horizontal();
            let (mstm, mother) = perspectives(&mirrored, r.turn);
            let mut m = Sample::default();
            m.fill(&rec, 0.25, true);
            let sorted = |v: &[u16]| {
                let mut v = v.to_vec();
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(&m.stm[..m.len]), sorted(mstm.as_slice()), "{fen}");
            assert_eq!(
                sorted(&m.other[..m.len]),
                sorted(mother.as_slice()),
                "{fen}"
            );
            assert_eq!(m.target, s.target);
            let want =
                0.25 * f32::from(result.to_byte()) / 2.0 + 0.75 * sigmoid(f32::from(score) / 400.0);
            assert!((s.target - want).abs() < 1e-6, "{fen}");
        }
    }

    #[test]
    fn relabelling_writes_the_hand_crafted_evaluation() {
        use crate::eval::{Evaluator, FullEval};
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut recs: Vec<[u8; RECORD_SIZE]> = fens
            .iter()
            .map(|f| record(f, 1234, GameResult::Win))
            .collect();
        relabel_hce(&mut recs);
        for (fen, rec) in fens.iter().zip(&recs) {
            let pos = Position::from_fen(fen).unwrap();
            let want = FullEval::default().evaluate(pos.chess());
            let r = decode(rec).unwrap();
            assert_eq!(i32::from(r.score), want, "{fen}");
            assert_eq!(r.result, GameResult::Win, "{fen}");
        }
        assert_ne!(decode(&recs[0]).unwrap().score, 1234);
    }

    #[test]
    fn epoch_orders_are_permutations_that_depend_on_seed_and_epoch() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        epoch_order(1000, 5, 1, false, &mut a);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
        epoch_order(1000, 5, 1, false, &mut b);
        assert_eq!(a, b);
        epoch_order(1000, 5, 2, false, &mut b);
        assert_ne!(a, b);
        epoch_order(1000, 6, 1, false, &mut b);
        assert_ne!(a, b);
        // Mirrored: the same order, about half the entries flagged.
        epoch_order(1000, 5, 1, true, &mut b);
        let flagged = b.iter().filter(|&&i| i & MIRROR_BIT != 0).count();
        assert!((400..600).contains(&flagged), "{flagged}");
        let unflagged: Vec<u32> = b.iter().map(|&i| i & !MIRROR_BIT).collect();
        assert_eq!(unflagged, a);
    }

    #[test]
    fn loading_checks_files_and_splits_off_the_tail() {
        let dir = std::env::temp_dir().join(format!("nosce-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.bin");
        let recs: Vec<u8> = (0..10)
            .flat_map(|i| record("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", i, GameResult::Draw))
            .collect();
        std::fs::write(&good, &recs).unwrap();
        let d = load(std::slice::from_ref(&good), None, 0.2).unwrap();
        assert_eq!((d.records.len(), d.train, d.validation().len()), (10, 8, 2));
        assert_eq!(
            i16::from_le_bytes([d.validation()[0][24], d.validation()[0][25]]),
            8
        );
        let d = load(&[good.clone(), good.clone()], Some(15), 0.0).unwrap();
        assert_eq!((d.records.len(), d.train), (15, 15));
        assert_eq!(
            load(std::slice::from_ref(&good), None, 0.01).unwrap().train,
            9
        );
        let partial = dir.join("partial.bin");
        std::fs::write(&partial, &recs[..33]).unwrap();
        let empty = dir.join("empty.bin");
        std::fs::write(&empty, b"").unwrap();
        let corrupt = dir.join("corrupt.bin");
        let mut bad = recs.clone();
        bad[32 + 27] = 7;
        std::fs::write(&corrupt, &bad).unwrap();
        let one = dir.join("one.bin");
        std::fs::write(&one, &recs[..32]).unwrap();
        for (path, needle) in [
            (dir.join("missing.bin"), "cannot open"),
            (partial, "not a multiple of 32"),
            (empty, "is empty"),
            (corrupt, "record 1: bad side-to-move"),
            (one, "too few"),
        ] {
            let e = load(std::slice::from_ref(&path), None, 0.02).err().unwrap();
            assert!(e.contains(needle), "{path:?}: {e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
