//! Seeded random input for the stress and fuzz tests: the library's generator, so
//! that a failing run is replayed from the seed it prints, and the run's length and seed
//! from the environment.

#![allow(dead_code)] // without the lab, the tests use only part of it

use std::time::Duration;

use nosce::rng::GameRng;

/// The library's generator with the helpers the tests draw with.
pub struct Rng(GameRng);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(GameRng::from_seed(seed))
    }

    /// Uniform in `0..n` (0 if `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.index(n as usize) as u64
    }

    /// Uniform index in `0..n` (0 if `n` is 0).
    pub fn index(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }
}

/// The seed in environment variable `var`, else one from the clock.
pub fn seed(var: &str) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
}

/// The run length in seconds in environment variable `var`, else `default`.
pub fn run_length(var: &str, default: u64) -> Duration {
    let secs = std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    Duration::from_secs(secs)
}
