//! NNUE: a small efficiently-updatable neural network evaluation (issue 17), its file
//! format, a reference evaluation of a quantised net, and the trainer (`nosce train`).
//!
//! **Architecture** (768 → N)×2 → 1, the common "simple" perspective net:
//!
//! - *Input*: 768 binary features per perspective, one per (piece colour relative to the
//!   perspective, role, square seen from the perspective). For perspective colour `p` and a
//!   piece of colour `c` and role `r` (pawn..king = 0..5) on square `s` (a1 = 0 … h8 = 63):
//!   `index = (c != p)·384 + r·64 + (s if p is White else s ^ 56)` ([`features`]). Flipping
//!   the ranks for Black makes a position and its colour-mirror (ranks flipped, colours
//!   swapped, the other side to move) the same input.
//! - *Hidden layer*: N units per perspective with weights shared by both perspectives:
//!   `acc_p = B1 + Σ W1[index]` over the perspective's active features (an accumulator
//!   that a move changes by a few rows, hence "efficiently updatable").
//! - *Output*: `out = B2 + Σᵢ crelu(acc_stm[i])·W2[i] + Σᵢ crelu(acc_other[i])·W2[N+i]`, with
//!   `crelu(x) = clamp(x, 0, 1)` and stm the side to move.
//!
//! **Float semantics** (the trainer, `crate::train`): centipawns = `out × SCALE`, `SCALE = 400`;
//! the training target blends the game result with the search score,
//! `t = λ·result + (1 − λ)·sigmoid(score / 400)`, the prediction is `sigmoid(out)` and the
//! loss is the mean squared error.
//!
//! **Quantisation** ([`network`]): `QA = 255`, `QB = 64`; `W1q = round(W1·QA)`,
//! `B1q = round(B1·QA)`, `W2q = round(W2·QB)` (all `i16`), `B2q = round(B2·QA·QB)` (`i32`).
//! The accumulator is a sum of `i16`s in `i16`, crelu clamps it to `[0, QA]`, the output
//! sum is an `i32` and `cp = out_q · SCALE / (QA·QB)`, clamped to ±[`EVAL_LIMIT`]. The
//! trainer keeps every weight within ±[`WEIGHT_CLIP`] so that no accumulator of up to 32
//! pieces can overflow `i16` (32·505 + 505 = 16 665), and loading a net checks the same
//! bound, so the integer arithmetic is safe for every loadable file.
//!
//! Files: [`features`] (input indices), [`network`] (the quantised net: file format, id,
//! full-refresh evaluation — the reference for faster inference), [`accumulator`] (the
//! incrementally updated accumulators and their evaluation), [`simd`] (their inner loops:
//! portable, and AVX2 — compiled out while the crate forbids `unsafe`), [`embedded`] (the
//! default net compiled into the binary, and what `EvalFile` values mean). The trainer is
//! the lab's `crate::train`.
//! The file format is documented in `docs/nnue-format.md`, training in `docs/training.md`.

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod network;
pub mod simd;
pub mod stack;

pub use accumulator::Accumulator;
pub use features::{FeatureList, INPUTS, feature_index};
pub use network::Network;
pub use stack::AccumulatorStack;

use crate::score::{MAX_EVAL, Score};

/// Quantisation factor of the first layer (and of crelu's upper clamp).
pub const QA: i32 = 255;
/// Quantisation factor of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;
/// Hidden width when none is given.
pub const DEFAULT_HIDDEN: usize = 256;
/// Widest hidden layer a net may have (keeps the `i32` output sum far from overflow).
pub const MAX_HIDDEN: usize = 4096;
/// The hidden width must be a multiple of this (one 256-bit vector of `i16`), so vectorised
/// inference needs no remainder loop.
pub const HIDDEN_STEP: usize = 16;
/// Bound on the magnitude of every float weight and bias during training: `1.98·QA`
/// rounds to 505, and 33 such terms (a bias plus 32 pieces) sum to 16 665 < 32 767.
pub const WEIGHT_CLIP: f32 = 1.98;
/// Most active features of one perspective: a position has at most 32 pieces.
pub const MAX_ACTIVE: usize = 32;
/// The evaluation of a net is clamped to ±this: half of [`MAX_EVAL`], far above anything
/// a net is trained on (±3000), below the tablebase-backed static scores near `MAX_EVAL`,
/// and with room for the search to add small terms without leaving ±`MAX_EVAL`.
pub const EVAL_LIMIT: Score = MAX_EVAL / 2;

/// FNV-1a, 64 bits (Fowler, Noll, Vo): the checksum of net and checkpoint files.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
