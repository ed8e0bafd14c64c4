//! Adam (Kingma and Ba 2015, Algorithm 1, with the bias correction folded into the step
//! size as in their §2): per parameter, moving averages of the gradient (`m`, β₁ = 0.9)
//! and of its square (`v`, β₂ = 0.999), and the step `lr·m̂/(√v̂ + ε)`.
//!
//! Every parameter is updated at every step, also the W1 rows no position of the batch
//! touched (their moments decay): plain dense Adam, cheap next to a batch's gradient.

/// β₁: decay of the gradient's moving average.
pub const BETA1: f32 = 0.9;
/// β₂: decay of the squared gradient's moving average.
pub const BETA2: f32 = 0.999;
/// ε: keeps the step finite where `v` is zero.
pub const EPSILON: f32 = 1e-8;

/// The optimiser's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub step: u64,
}

impl Adam {
    /// Zero moments for `n` parameters.
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    /// One step of `params` against `grad` with learning rate `lr`.
    pub fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.step += 1;
        let t = self.step.min(i32::MAX as u64) as i32;
        let correction = (1.0 - f64::from(BETA2).powi(t)).sqrt() / (1.0 - f64::from(BETA1).powi(t));
        let step = (f64::from(lr) * correction) as f32;
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= step * *m / (v.sqrt() + EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_quadratic() {
        // f(x) = Σ (x_i − c_i)², gradient 2(x − c).
        let c = [3.0f32, -1.5, 0.25];
        let mut x = [0.0f32; 3];
        let mut adam = Adam::new(3);
        for _ in 0..3000 {
            let g: Vec<f32> = x.iter().zip(&c).map(|(x, c)| 2.0 * (x - c)).collect();
            adam.update(&mut x, &g, 0.01);
        }
        for (x, c) in x.iter().zip(&c) {
            assert!((x - c).abs() < 1e-2, "{x} vs {c}");
        }
        assert_eq!(adam.step, 3000);
    }

    #[test]
    fn the_first_step_has_the_size_of_the_learning_rate() {
        let mut x = [1.0f32, 1.0];
        let mut adam = Adam::new(2);
        adam.update(&mut x, &[0.5, -20.0], 0.1);
        assert!(
            (x[0] - 0.9).abs() < 1e-5 && (x[1] - 1.1).abs() < 1e-5,
            "{x:?}"
        );
    }
}
