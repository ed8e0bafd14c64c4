//! The quantised network: its file format, its id, and the reference evaluation by full
//! refresh (every accumulator summed from scratch, in portable integer Rust).
//!
//! File layout (little-endian, `docs/nnue-format.md`): magic `NOSCENN1`, `u32` format
//! version 1, `u32` N, `u32` QA, `u32` QB, `u32` SCALE, `i16 W1[768][N]` (feature-major),
//! `i16 B1[N]`, `i16 W2[2N]` (the side to move's half first), `i32 B2`, then the `u64`
//! FNV-1a-64 of every preceding byte. The net's id is the first 12 hex digits of that
//! checksum, and the trainer names a net `nosce-<id>.nnue`.
//!
//! Loading checks everything — magic, version, N, QA/QB/SCALE, the length, the checksum —
//! and also that no accumulator of up to 32 pieces can overflow `i16` and that the output
//! sum cannot overflow `i32`; so [`Network::evaluate`] is safe for every net that loads, and
//! faster (incremental, vectorised) inference can be tested against it position by
//! position.

use std::path::Path;

use shakmaty::{Board, Chess, Color, Position};

use super::features::{FeatureList, INPUTS};
use super::{EVAL_LIMIT, HIDDEN_STEP, MAX_ACTIVE, MAX_HIDDEN, QA, QB, SCALE, fnv1a64};
use crate::score::Score;

/// The first 8 bytes of every net file.
pub const MAGIC: &[u8; 8] = b"NOSCENN1";
/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the weights: magic and five `u32`s.
const HEADER_BYTES: usize = 8 + 5 * 4;

/// A quantised network (see the module docs of [`crate::nnue`] for the architecture).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
    checksum: u64,
}

/// The length of the file of a net with `hidden` units.
pub fn file_len(hidden: usize) -> usize {
    HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4 + 8
}

fn check_hidden(hidden: usize) -> Result<(), String> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(format!(
            "hidden width {hidden} is not a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to \
             {MAX_HIDDEN}"
        ));
    }
    Ok(())
}

impl Network {
    /// A net from its quantised weights: `w1` is feature-major (`w1[f·N + i]`), `w2` holds
    /// the side to move's N weights, then the other side's.
    ///
    /// # Errors
    /// A hidden width out of range, slices of the wrong lengths, or weights so large that
    /// an accumulator of [`MAX_ACTIVE`] pieces could overflow `i16`, or the output sum `i32`.
    pub fn new(
        hidden: usize,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: i32,
    ) -> Result<Network, String> {
        check_hidden(hidden)?;
        if w1.len() != INPUTS * hidden || b1.len() != hidden || w2.len() != 2 * hidden {
            return Err(format!(
                "weights of the wrong sizes for {hidden} hidden units: W1 {}, B1 {}, W2 {}",
                w1.len(),
                b1.len(),
                w2.len()
            ));
        }
        // The largest |W1| of each unit over all features.
        let mut wmax = vec![0i64; hidden];
        for row in w1.chunks_exact(hidden) {
            for (m, &w) in wmax.iter_mut().zip(row) {
                *m = (*m).max(i64::from(w).abs());
            }
        }
        for (i, (&m, &b)) in wmax.iter().zip(&b1).enumerate() {
            let bound = i64::from(b).abs() + MAX_ACTIVE as i64 * m;
            if bound > i64::from(i16::MAX) {
                return Err(format!(
                    "hidden unit {i}: |B1| + {MAX_ACTIVE}·max|W1| = {bound} exceeds {}: the i16 \
                     accumulator could overflow",
                    i16::MAX
                ));
            }
        }
        let w2max = w2.iter().map(|&w| i64::from(w).abs()).max().unwrap_or(0);
        let out_bound = i64::from(b2).abs() + 2 * hidden as i64 * i64::from(QA) * w2max;
        if out_bound > i64::from(i32::MAX) {
            return Err(format!(
                "|B2| + 2N·QA·max|W2| = {out_bound} exceeds {}: the i32 output could overflow",
                i32::MAX
            ));
        }
        let mut net = Network {
            hidden,
            w1,
            b1,
            w2,
            b2,
            checksum: 0,
        };
        let bytes = net.body_bytes();
        net.checksum = fnv1a64(&bytes);
        Ok(net)
    }

    /// Every byte of the file but the checksum.
    fn body_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden));
        out.extend_from_slice(MAGIC);
        for v in [
            FORMAT_VERSION,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// A net of `hidden` units with seeded random weights, |W1| ≤ `w1`, |B1| ≤ `b1`,
    /// |W2| ≤ 127: for tests and benchmarks of the inference, which need no trained net.
    ///
    /// # Errors
    /// As [`Network::new`]: an unsupported width, or weights beyond the loadable bounds.
    pub fn random(hidden: usize, seed: u64, w1: u16, b1: u16) -> Result<Network, String> {
        let mut rng = crate::rng::GameRng::new(seed, 0);
        let mut draw =
            |bound: u16| (rng.below(2 * usize::from(bound) + 1) as i64 - i64::from(bound)) as i16;
        let w1 = (0..INPUTS * hidden).map(|_| draw(w1)).collect();
        let b1 = (0..hidden).map(|_| draw(b1)).collect();
        let w2 = (0..2 * hidden).map(|_| draw(127)).collect();
        Network::new(hidden, w1, b1, w2, 12_345)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.body_bytes();
        out.extend_from_slice(&self.checksum.to_le_bytes());
        out
    }

    /// Reads a net from a file's bytes.
    ///
    /// # Errors
    /// Each with its own message: too short for a header, bad magic, another format
    /// version, a hidden width out of range, QA/QB/SCALE other than this build's, a length
    /// that does not match N (truncated or with trailing bytes), a checksum mismatch, or
    /// weights that could overflow (see [`Network::new`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_BYTES {
            return Err(format!(
                "truncated: {} bytes, shorter than the {HEADER_BYTES}-byte header",
                bytes.len()
            ));
        }
        if &bytes[..8] != MAGIC {
            return Err(format!(
                "bad magic {:?}: not a nosce net file (those start with 'NOSCENN1')",
                String::from_utf8_lossy(&bytes[..8])
            ));
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let version = word(0);
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}; this build reads version {FORMAT_VERSION}"
            ));
        }
        let hidden = word(1) as usize;
        check_hidden(hidden)?;
        for (name, got, want) in [
            ("QA", word(2), QA),
            ("QB", word(3), QB),
            ("SCALE", word(4), SCALE),
        ] {
            if got != want as u32 {
                return Err(format!("{name} is {got}; this build uses {want}"));
            }
        }
        let want = file_len(hidden);
        if bytes.len() < want {
            return Err(format!(
                "truncated: {} bytes, a net with {hidden} hidden units takes {want}",
                bytes.len()
            ));
        }
        if bytes.len() > want {
            return Err(format!(
                "{} bytes after the end of a net with {hidden} hidden units ({want} bytes)",
                bytes.len() - want
            ));
        }
        let body = &bytes[..want - 8];
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[want - 8..]);
        let stored = u64::from_le_bytes(stored);
        let computed = fnv1a64(body);
        if stored != computed {
            return Err(format!(
                "checksum mismatch: the file says {stored:016x}, its bytes give {computed:016x} \
                 (the file is corrupt)"
            ));
        }
        let mut at = HEADER_BYTES;
        let mut take = |count: usize| {
            let v: Vec<i16> = body[at..at + 2 * count]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * count;
            v
        };
        let w1 = take(INPUTS * hidden);
        let b1 = take(hidden);
        let w2 = take(2 * hidden);
        let b2 = i32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        Network::new(hidden, w1, b1, w2, b2)
    }

    /// Reads a net file.
    ///
    /// # Errors
    /// The file cannot be read, or [`Network::from_bytes`] refuses it; the message names
    /// the file.
    pub fn load(path: &Path) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("'{}': {e}", path.display()))
    }

    /// Writes the net to `path` atomically (a temporary file, synced, renamed over it).
    ///
    /// # Errors
    /// An I/O error, with the file's name.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::atomic_file::write_atomically(path, &self.to_bytes())
    }

    /// The FNV-1a-64 checksum of the file's bytes before it.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The net's id: the first 12 hex digits of its checksum.
    pub fn id(&self) -> String {
        format!("{:016x}", self.checksum)[..12].to_string()
    }

    /// The file name the trainer gives the net: `nosce-<id>.nnue`.
    pub fn file_name(&self) -> String {
        format!("nosce-{}.nnue", self.id())
    }

    /// Hidden units per perspective (N).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The first layer's weights, feature-major: feature `f`'s row is `w1[f·N .. (f+1)·N]`.
    pub fn w1(&self) -> &[i16] {
        &self.w1
    }

    /// The first layer's biases (N).
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// The output weights: N for the side to move's accumulator, then N for the other's.
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    /// The output bias (scaled by QA·QB).
    pub fn b2(&self) -> i32 {
        self.b2
    }

    /// Fills `acc` (N values) with the accumulator of `features`: B1 plus their W1 rows.
    /// Sums wrap rather than panic; they cannot overflow for at most [`MAX_ACTIVE`]
    /// features (checked when the net is made), which every chess position satisfies.
    pub fn refresh(&self, features: &FeatureList, acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
        for &f in features.as_slice() {
            let row = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// The raw output (scaled by QA·QB) of the side to move's and the other side's
    /// accumulators.
    pub fn output(&self, stm: &[i16], other: &[i16]) -> i32 {
        let (w_stm, w_other) = self.w2.split_at(self.hidden);
        let half = |acc: &[i16], w: &[i16]| -> i32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| i32::from(a).clamp(0, QA) * i32::from(w))
                .sum()
        };
        self.b2 + half(stm, w_stm) + half(other, w_other)
    }

    /// Centipawns of a raw output, clamped to ±[`EVAL_LIMIT`].
    pub fn centipawns(out: i32) -> Score {
        let cp = i64::from(out) * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as Score
    }

    /// The evaluation of `board` with `turn` to move, side to move's view, by full refresh.
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> Score {
        let mut stm = vec![0i16; self.hidden];
        let mut other = vec![0i16; self.hidden];
        self.refresh(&FeatureList::new(board, turn), &mut stm);
        self.refresh(&FeatureList::new(board, !turn), &mut other);
        Network::centipawns(self.output(&stm, &other))
    }

    /// The evaluation of `pos`, side to move's view, by full refresh: the reference for
    /// incremental and vectorised inference.
    pub fn evaluate(&self, pos: &Chess) -> Score {
        self.evaluate_board(pos.board(), pos.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, FromSetup};

    /// A net with random weights within the trainer's bounds.
    fn random_net(hidden: usize, seed: u64) -> Network {
        Network::random(hidden, seed, 120, 200).unwrap()
    }

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn save_and_load_round_trip_byte_for_byte() {
        let net = random_net(32, 7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(32));
        assert_eq!(&bytes[..8], MAGIC);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        let dir = std::env::temp_dir().join(format!("nosce-nnue-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(net.file_name());
        net.save(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let loaded = Network::load(&path).unwrap();
        assert_eq!(loaded.to_bytes(), bytes);
        assert_eq!(loaded.id().len(), 12);
        assert!(format!("{:016x}", loaded.checksum()).starts_with(&loaded.id()));
        let missing = Network::load(&dir.join("missing.nnue")).unwrap_err();
        assert!(missing.contains("cannot read"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Rewrites the checksum after a change to the body, so that only the change is wrong.
    fn reseal(bytes: &mut [u8]) {
        let n = bytes.len() - 8;
        let sum = fnv1a64(&bytes[..n]);
        bytes[n..].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn bad_files_are_refused_with_distinct_messages() {
        let good = random_net(16, 3).to_bytes();
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "shorter than the"),
            (
                {
                    let mut b = good.clone();
                    b[0] = b'X';
                    b
                },
                "bad magic",
            ),
            (
                {
                    let mut b = good.clone();
                    b[8] = 2;
                    reseal(&mut b);
                    b
                },
                "format version 2",
            ),
            (
                {
                    let mut b = good.clone();
                    b[12] = 17;
                    b
                },
                "hidden width 17",
            ),
            (
                {
                    let mut b = good.clone();
                    b[16] = 127;
                    b
                },
                "QA is 127",
            ),
            (good[..good.len() - 1].to_vec(), "truncated"),
            (good[..1000].to_vec(), "truncated"),
            (
                {
                    let mut b = good.clone();
                    b.push(0);
                    b
                },
                "after the end",
            ),
            (
                {
                    let mut b = good.clone();
                    b[100] ^= 1;
                    b
                },
                "checksum mismatch",
            ),
            (
                {
                    // W1[0][0] = 2000: 32 of those overflow i16.
                    let mut b = good.clone();
                    b[HEADER_BYTES..HEADER_BYTES + 2].copy_from_slice(&2000i16.to_le_bytes());
                    reseal(&mut b);
                    b
                },
                "accumulator could overflow",
            ),
        ];
        for (bytes, needle) in cases {
            let e = Network::from_bytes(&bytes).unwrap_err();
            assert!(e.contains(needle), "expected '{needle}', got '{e}'");
        }
    }

    #[test]
    fn evaluation_is_colour_symmetric_and_bounded() {
        let net = random_net(64, 11);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "4k3/8/5n2/8/3P4/8/8/R3K3 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 8",
        ] {
            let pos = chess(fen);
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.mirror();
            let mir = Chess::from_setup(setup, CastlingMode::Standard).unwrap();
            let e = net.evaluate(&pos);
            assert_eq!(e, net.evaluate(&mir), "{fen}");
            assert!(e.abs() <= EVAL_LIMIT);
        }
        // A large output is clamped, not wrapped.
        assert_eq!(Network::centipawns(i32::MAX), EVAL_LIMIT);
        assert_eq!(Network::centipawns(i32::MIN + 1), -EVAL_LIMIT);
        assert_eq!(Network::centipawns(QA * QB), SCALE);
    }
}
