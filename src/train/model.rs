//! The float network the trainer fits: its parameters in one flat vector, the forward pass
//! and the backward pass of one position with sparse inputs, and quantisation into a
//! [`Network`].
//!
//! Parameters, in order: W1 (768 rows of N, feature-major), B1 (N), W2 (2N, the side to
//! move's half first), B2 (1). Gradients and Adam's moments use the same layout.
//!
//! Sparsity: a position has at most 32 active features per perspective, so the forward
//! pass adds at most 32 rows of W1 into each accumulator and the backward pass adds the
//! accumulator's gradient into those same rows of the gradient only; the other 736 rows are
//! not touched. The loss of one position is `(sigmoid(out) − t)²`; its derivative with
//! respect to `out` is `2·(p − t)·p·(1 − p)`, and crelu passes gradient only where
//! `0 < acc < 1`.

use shakmaty::{Board, Color};

use super::data::{Sample, sigmoid};
use crate::nnue::features::{INPUTS, perspectives};
use crate::nnue::{Network, QA, QB, SCALE, WEIGHT_CLIP};
use crate::rng::GameRng;

/// Number of parameters of a net with `hidden` units.
pub fn param_count(hidden: usize) -> usize {
    INPUTS * hidden + hidden + 2 * hidden + 1
}

/// Splits a parameter (or gradient) vector into W1, B1, W2, B2.
fn split(p: &[f32], hidden: usize) -> (&[f32], &[f32], &[f32], f32) {
    let (w1, rest) = p.split_at(INPUTS * hidden);
    let (b1, rest) = rest.split_at(hidden);
    let (w2, b2) = rest.split_at(2 * hidden);
    (w1, b1, w2, b2[0])
}

/// Splits a gradient vector into mutable W1, B1, W2, B2.
fn split_mut(p: &mut [f32], hidden: usize) -> (&mut [f32], &mut [f32], &mut [f32], &mut f32) {
    let (w1, rest) = p.split_at_mut(INPUTS * hidden);
    let (b1, rest) = rest.split_at_mut(hidden);
    let (w2, b2) = rest.split_at_mut(2 * hidden);
    (w1, b1, w2, &mut b2[0])
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden units per perspective.
    pub hidden: usize,
    /// W1, B1, W2, B2 in one vector (see the module docs).
    pub params: Vec<f32>,
}

/// `acc = b1 + Σ w1[f]` over `features`.
#[inline]
fn refresh(w1: &[f32], b1: &[f32], features: &[u16], acc: &mut [f32]) {
    let n = b1.len();
    acc.copy_from_slice(b1);
    for &f in features {
        let row = &w1[usize::from(f) * n..][..n];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// `Σ crelu(acc[i])·w[i]`, in eight interleaved partial sums so that it vectorises (and
/// always in the same order, so it is deterministic).
#[inline]
fn dot_crelu(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += a[k].clamp(0.0, 1.0) * w[k];
        }
    }
    let tail: f32 = acc
        .chunks_exact(8)
        .remainder()
        .iter()
        .zip(w.chunks_exact(8).remainder())
        .map(|(a, w)| a.clamp(0.0, 1.0) * w)
        .sum();
    lanes.iter().sum::<f32>() + tail
}

/// The backward pass through one half of the output layer: adds `gout·crelu(acc)` to the
/// output weights' gradient and turns `acc` into the gradient with respect to it.
#[inline]
fn backward_half(acc: &mut [f32], w2: &[f32], gw2: &mut [f32], gout: f32) {
    for ((a, &w), g) in acc.iter_mut().zip(w2).zip(gw2.iter_mut()) {
        let x = *a;
        *g += gout * x.clamp(0.0, 1.0);
        *a = if x > 0.0 && x < 1.0 { gout * w } else { 0.0 };
    }
}

/// Adds `d` into the rows of `gw1` of `features`.
#[inline]
fn scatter(gw1: &mut [f32], features: &[u16], d: &[f32]) {
    let n = d.len();
    for &f in features {
        let row = &mut gw1[usize::from(f) * n..][..n];
        for (g, &x) in row.iter_mut().zip(d) {
            *g += x;
        }
    }
}

impl FloatNet {
    /// A net with random weights from `seed`: W1 uniform in ±1/√768, W2 uniform in
    /// ±1/√(2N) (each layer's fan-in), biases zero.
    pub fn random(hidden: usize, seed: u64) -> FloatNet {
        // Stream u64::MAX: the epochs' shuffles use streams 1, 2, ...
        let mut rng = GameRng::new(seed, u64::MAX);
        let mut uniform = |bound: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * bound
        };
        let mut params = vec![0f32; param_count(hidden)];
        let (w1, rest) = params.split_at_mut(INPUTS * hidden);
        let w1_bound = 1.0 / (INPUTS as f32).sqrt();
        w1.iter_mut().for_each(|w| *w = uniform(w1_bound));
        let w2_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        rest[hidden..3 * hidden]
            .iter_mut()
            .for_each(|w| *w = uniform(w2_bound));
        FloatNet { hidden, params }
    }

    /// The float net a quantised one stands for: `W1/QA`, `B1/QA`, `W2/QB`, `B2/(QA·QB)`,
    /// the inverse of [`Self::quantise`] (which gives `net` back exactly). A run can start
    /// from a net file this way (`--init nosce-….nnue`) when its checkpoint is gone.
    pub fn from_network(net: &Network) -> FloatNet {
        let mut params = Vec::with_capacity(param_count(net.hidden()));
        for (v, d) in [(net.w1(), QA), (net.b1(), QA), (net.w2(), QB)] {
            params.extend(v.iter().map(|&x| f32::from(x) / d as f32));
        }
        params.push((f64::from(net.b2()) / f64::from(QA * QB)) as f32);
        FloatNet {
            hidden: net.hidden(),
            params,
        }
    }

    /// The output (in units of [`SCALE`] centipawns) of a position's two feature sets;
    /// `acc` is scratch space of 2N.
    pub fn forward(&self, stm: &[u16], other: &[u16], acc: &mut [f32]) -> f32 {
        let n = self.hidden;
        let (w1, b1, w2, b2) = split(&self.params, n);
        let (acc_s, acc_o) = acc.split_at_mut(n);
        refresh(w1, b1, stm, acc_s);
        refresh(w1, b1, other, acc_o);
        b2 + dot_crelu(acc_s, &w2[..n]) + dot_crelu(acc_o, &w2[n..])
    }

    /// The squared error of one sample's prediction.
    pub fn loss(&self, s: &Sample, acc: &mut [f32]) -> f32 {
        let out = self.forward(&s.stm[..s.len], &s.other[..s.len], acc);
        let e = sigmoid(out) - s.target;
        e * e
    }

    /// Adds `scale` × the gradient of one sample's squared error to `grad`; returns the
    /// squared error. `acc` is scratch space of 2N.
    pub fn backward(&self, s: &Sample, scale: f32, grad: &mut [f32], acc: &mut [f32]) -> f32 {
        let n = self.hidden;
        let (stm, other) = (&s.stm[..s.len], &s.other[..s.len]);
        let out = self.forward(stm, other, acc);
        let p = sigmoid(out);
        let e = p - s.target;
        let gout = 2.0 * e * p * (1.0 - p) * scale;
        let w2 = &self.params[(INPUTS + 1) * n..(INPUTS + 3) * n];
        let (gw1, gb1, gw2, gb2) = split_mut(grad, n);
        *gb2 += gout;
        let (acc_s, acc_o) = acc.split_at_mut(n);
        let (gw2_s, gw2_o) = gw2.split_at_mut(n);
        backward_half(acc_s, &w2[..n], gw2_s, gout);
        backward_half(acc_o, &w2[n..], gw2_o, gout);
        for ((g, &ds), &d_o) in gb1.iter_mut().zip(acc_s.iter()).zip(acc_o.iter()) {
            *g += ds + d_o;
        }
        scatter(gw1, stm, acc_s);
        scatter(gw1, other, acc_o);
        e * e
    }

    /// Keeps every parameter within ±[`WEIGHT_CLIP`] (see [`crate::nnue`]: no `i16`
    /// accumulator overflow after quantisation).
    pub fn clip(&mut self) {
        for p in &mut self.params {
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The float evaluation of `board` with `turn` to move, in centipawns.
    pub fn evaluate_cp(&self, board: &Board, turn: Color) -> f32 {
        let (stm, other) = perspectives(board, turn);
        let mut acc = vec![0f32; 2 * self.hidden];
        self.forward(stm.as_slice(), other.as_slice(), &mut acc) * SCALE as f32
    }

    /// The quantised net: `round(W1·QA)`, `round(B1·QA)`, `round(W2·QB)`, `round(B2·QA·QB)`.
    ///
    /// # Errors
    /// Weights beyond the bounds [`Network::new`] checks (not after [`FloatNet::clip`]).
    pub fn quantise(&self) -> Result<Network, String> {
        let n = self.hidden;
        let (w1, b1, w2, b2) = split(&self.params, n);
        let q = |v: &[f32], f: i32| -> Vec<i16> {
            v.iter().map(|&x| (x * f as f32).round() as i16).collect()
        };
        let b2q = (f64::from(b2) * f64::from(QA * QB)).round() as i32;
        Network::new(n, q(w1, QA), q(b1, QA), q(w2, QB), b2q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use shakmaty::Position as _;

    /// Quiet and tactical positions of every phase.
    const FENS: [&str; 30] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "8/8/4k3/8/8/3QK3/8/8 w - - 0 1",
        "8/8/8/3k4/8/8/2RK4/8 b - - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "2r3k1/pp3ppp/4p3/3p4/3P4/4P3/PP3PPP/2R3K1 w - - 0 20",
        "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 30",
        "8/5pk1/6p1/8/8/6P1/5PK1/8 b - - 0 40",
        "r2qkb1r/ppp2ppp/2n1bn2/3pp3/4P3/2NP1N2/PPP1BPPP/R1BQK2R w KQkq - 0 6",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "3r2k1/pp3pp1/2p4p/8/3P4/2P3P1/PP3P1P/3R2K1 b - - 0 25",
        "8/8/1k6/8/8/1K6/1P6/8 w - - 0 50",
        "8/p7/1p6/2p5/2P5/1P6/P7/k1K5 w - - 0 45",
        "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 14",
        "2kr3r/pp1q1ppp/2n1bn2/3p4/3P4/2NBPN2/PPQ2PPP/R4RK1 w - - 0 12",
        "8/3k4/8/8/8/8/4QK2/8 b - - 0 60",
        "5rk1/5ppp/8/8/8/8/Q4PPP/6K1 w - - 0 35",
        "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3",
        "4r1k1/1p3ppp/p7/3n4/3N4/P7/1P3PPP/4R1K1 b - - 0 28",
        "8/8/8/4p3/4P3/4K3/8/4k3 w - - 0 55",
        "r3r1k1/pp3ppp/2p5/8/8/2P5/PP3PPP/R3R1K1 w - - 0 22",
        "1k6/8/8/8/8/8/6PP/6K1 b - - 0 41",
        "rn1qkbnr/ppp1pppp/8/3p4/6b1/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3",
        "3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 33",
    ];

    /// A random net with larger, more varied weights than the initial ones (as a trained
    /// net has): W1 and B1 in ±0.5, W2 in ±1.5, B2 0.5.
    fn busy_net(hidden: usize, seed: u64) -> FloatNet {
        let mut net = FloatNet::random(hidden, seed);
        let mut rng = GameRng::new(seed, 3);
        let n = hidden;
        for (i, p) in net.params.iter_mut().enumerate() {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
            *p = if i < (INPUTS + 1) * n {
                0.5 * u
            } else if i < (INPUTS + 3) * n {
                1.5 * u
            } else {
                0.5
            };
        }
        net
    }

    /// What rounding can change in the evaluation of a position, in centipawns, by the
    /// triangle inequality over the actual rounding errors: per unit,
    /// `|crelu(â) − crelu(a)|·|ŵ| + crelu(a)·|ŵ − w|` (â, ŵ: the quantised accumulator and
    /// output weight in float units), plus B2's error; then 1 cp for the integer division
    /// and a little for float rounding. Checks on the way that every rounding is within
    /// half a quantisation step (so a wrong scale, order or sign in [`FloatNet::quantise`]
    /// fails here, and one in the integer evaluation fails the bound).
    fn rounding_bound(net: &FloatNet, q: &Network, board: &Board, turn: Color) -> f32 {
        let (stm, other) = perspectives(board, turn);
        let n = net.hidden;
        let mut acc = vec![0f32; 2 * n];
        let out = net.forward(stm.as_slice(), other.as_slice(), &mut acc);
        let mut qacc = vec![0i16; 2 * n];
        q.refresh(&stm, &mut qacc[..n]);
        q.refresh(&other, &mut qacc[n..]);
        let (qa, qb) = (QA as f32, QB as f32);
        let (_, _, w2, b2) = split(&net.params, n);
        // Each rounding is within half a step of its scale.
        let mut bound = (q.b2() as f32 / (qa * qb) - b2).abs();
        assert!(bound <= 0.5 / (qa * qb) + 1e-6, "B2 is off by {bound}");
        for i in 0..2 * n {
            let pieces = if i < n { stm.len() } else { other.len() };
            let aq = f32::from(qacc[i]) / qa;
            let wq = f32::from(q.w2()[i]) / qb;
            assert!(
                (aq - acc[i]).abs() <= (pieces + 1) as f32 * 0.5 / qa + 1e-5,
                "accumulator {i}: {aq} for {}",
                acc[i]
            );
            assert!(
                (wq - w2[i]).abs() <= 0.5 / qb + 1e-6,
                "W2[{i}]: {wq} for {}",
                w2[i]
            );
            let c = acc[i].clamp(0.0, 1.0);
            bound += (aq.clamp(0.0, 1.0) - c).abs() * wq.abs() + c * (wq - w2[i]).abs();
        }
        bound * SCALE as f32 + 1.0 + 0.01 + 1e-5 * (out * SCALE as f32).abs()
    }

    /// The quantised net's evaluation is within the rounding bound of the float one's, for
    /// the initial net and for "busy" nets with trained-like weights (so the scales, the
    /// order of the output halves and B2 are right); for the initial net (small weights)
    /// the mean difference is at most 3 cp. The colour-mirror of every position evaluates
    /// the same in both nets.
    #[test]
    fn a_net_file_reads_back_into_the_float_net_it_came_from() {
        let embedded = crate::nnue::embedded::network().unwrap();
        let float = FloatNet::from_network(&embedded);
        assert_eq!(float.params.len(), param_count(embedded.hidden()));
        assert_eq!(float.quantise().unwrap(), embedded);
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let diff = float.evaluate_cp(pos.chess().board(), pos.turn())
                - embedded.evaluate(pos.chess()) as f32;
            assert!(
                diff.abs() < 5.0,
                "{fen}: float and file differ by {diff} cp"
            );
        }
    }

    #[test]
    fn quantised_evaluation_agrees_with_the_float_one() {
        for (net, mean_limit) in [
            (FloatNet::random(256, 1), 3.0),
            (busy_net(32, 2), f32::INFINITY),
            (busy_net(256, 4), f32::INFINITY),
        ] {
            let q = net.quantise().unwrap();
            let (mut worst, mut sum, mut widest) = (0f32, 0f32, 0f32);
            for fen in FENS {
                let pos = Position::from_fen(fen).unwrap();
                let (board, turn) = (pos.chess().board(), pos.turn());
                let float = net.evaluate_cp(board, turn);
                let int = q.evaluate_board(board, turn);
                let err = (float - int as f32).abs();
                let bound = rounding_bound(&net, &q, board, turn);
                assert!(
                    err <= bound,
                    "{fen}: float {float:.2} cp, quantised {int} cp, bound {bound:.2}"
                );
                worst = worst.max(err);
                widest = widest.max(bound);
                sum += err;
                let mirror = board.clone().into_mirrored();
                assert_eq!(q.evaluate_board(&mirror, !turn), int, "{fen}");
                let fm = net.evaluate_cp(&mirror, !turn);
                assert!((fm - float).abs() <= 1e-3 + 1e-5 * float.abs(), "{fen}");
            }
            let mean = sum / FENS.len() as f32;
            eprintln!(
                "N = {}: mean difference {mean:.2} cp, largest {worst:.2} cp (largest bound \
                 {widest:.2} cp)",
                net.hidden
            );
            assert!(mean <= mean_limit, "mean difference {mean:.2} cp");
        }
    }

    /// The analytic gradient matches finite differences of the loss.
    #[test]
    fn gradient_matches_finite_differences() {
        let net = busy_net(16, 9);
        let pos = Position::from_fen(FENS[2]).unwrap();
        let (stm, other) = perspectives(pos.chess().board(), pos.turn());
        let mut s = Sample {
            len: stm.len(),
            target: 0.3,
            ..Sample::default()
        };
        s.stm[..s.len].copy_from_slice(stm.as_slice());
        s.other[..s.len].copy_from_slice(other.as_slice());
        let mut grad = vec![0f32; net.params.len()];
        let mut acc = vec![0f32; 32];
        net.backward(&s, 1.0, &mut grad, &mut acc);
        let n = 16;
        let f = usize::from(s.stm[3]);
        let g = usize::from(s.other[5]);
        // Parameters: W1 rows of an active feature of each side, an inactive row, B1, W2, B2.
        let probe = [
            f * n + 2,
            g * n + 7,
            f * n + 11,
            767 * n + 1,
            INPUTS * n + 4,
            (INPUTS + 1) * n + 3,
            (INPUTS + 2) * n + 9,
            (INPUTS + 3) * n,
        ];
        for &i in &probe {
            let h = 1e-3f32;
            let at = |d: f32| {
                let mut m = net.clone();
                m.params[i] += d;
                f64::from(m.loss(&s, &mut acc.clone()))
            };
            let numeric = (at(h) - at(-h)) / (2.0 * f64::from(h));
            let analytic = f64::from(grad[i]);
            assert!(
                (numeric - analytic).abs() <= 1e-4 + 0.02 * analytic.abs(),
                "parameter {i}: analytic {analytic:e}, numeric {numeric:e}"
            );
        }
        assert_eq!(
            grad[767 * n + 1],
            0.0,
            "an inactive feature's row is not touched"
        );
    }
}
