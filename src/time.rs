//! Time management: turns [`Limits`] into a soft deadline (do not start another iteration
//! after it) and a hard deadline (stop the search at once), with a safety margin for the
//! GUI's communication overhead (`Move Overhead`).
//!
//! Allocation for sudden death and increments: the soft limit is about `time / 25 + inc * 3/4`,
//! the hard limit at most three times that and never more than 35 % of the remaining time
//! (minus the overhead) — see [`crate::params::TimeParams`]. With `movestogo` the remaining time is spread over the moves left.
//! The searcher may stretch the soft limit when the best move changes between iterations and
//! shrink it when it is stable (see [`TimeManager::adjust`]).

use std::time::{Duration, Instant};

use crate::limits::Limits;
use crate::params::TimeParams;

/// Deadlines of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    base_soft: Option<Duration>,
}

impl TimeManager {
    /// Deadlines for `limits`, with `overhead` reserved for communication. Pondering and
    /// infinite searches get no deadline (the clock starts at `ponderhit`: call again then).
    pub fn new(limits: &Limits, overhead: Duration, params: &TimeParams) -> Self {
        let start = Instant::now();
        if limits.infinite || limits.ponder {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                base_soft: None,
            };
        }
        let mut soft = None;
        let mut hard = None;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(time) = limits.time {
            let inc = limits.inc.unwrap_or_default();
            let usable = time.saturating_sub(overhead);
            let mtg = match limits.movestogo {
                Some(n) if n > 0 => (n as f64).min(params.horizon_moves),
                _ => params.horizon_moves,
            };
            let usable_ms = usable.as_secs_f64() * 1000.0;
            let inc_ms = inc.as_secs_f64() * 1000.0;
            let mut soft_ms = usable_ms / mtg + inc_ms * params.inc_fraction;
            let cap = usable_ms * params.max_fraction;
            let mut hard_ms = (soft_ms * params.hard_factor).min(cap);
            soft_ms = soft_ms.min(hard_ms);
            // With a single move to go, use most of the time but keep the margin.
            if limits.movestogo == Some(1) {
                soft_ms = soft_ms.max(usable_ms * 0.5).min(cap);
                hard_ms = hard_ms.max(soft_ms);
            }
            let s = Duration::from_secs_f64((soft_ms.max(1.0)) / 1000.0);
            let h = Duration::from_secs_f64((hard_ms.max(1.0)) / 1000.0);
            soft = Some(soft.map_or(s, |x: Duration| x.min(s)));
            hard = Some(hard.map_or(h, |x: Duration| x.min(h)));
        }
        TimeManager {
            start,
            soft,
            hard,
            base_soft: soft,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the hard deadline has passed: stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// True once the soft deadline has passed: do not start another iteration.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }

    /// The time planned for this move: the soft limit before any [`Self::adjust`].
    pub fn planned(&self) -> Option<Duration> {
        self.base_soft
    }

    /// The instant of the hard deadline, if any.
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard.map(|h| self.start + h)
    }

    /// True if the search has a deadline at all.
    pub fn has_deadline(&self) -> bool {
        self.hard.is_some()
    }

    /// Scales the soft deadline by `factor` of its original value (best-move instability
    /// raises it, a stable best move lowers it), never beyond the hard deadline.
    pub fn adjust(&mut self, factor: f64) {
        if let (Some(base), Some(hard)) = (self.base_soft, self.hard) {
            let s = base.mul_f64(factor.clamp(0.3, 3.0));
            self.soft = Some(s.min(hard));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sudden_death_leaves_time_on_the_clock() {
        let p = TimeParams::default();
        for ms in [50u64, 200, 1000, 10_000, 100_000] {
            let l = Limits {
                time: Some(Duration::from_millis(ms)),
                inc: Some(Duration::from_millis(100)),
                ..Limits::default()
            };
            let tm = TimeManager::new(&l, Duration::from_millis(30), &p);
            let hard = tm.hard.unwrap();
            assert!(hard < Duration::from_millis(ms), "{ms}: {hard:?}");
            assert!(tm.soft.unwrap() <= hard);
        }
    }

    #[test]
    fn movetime_and_infinite() {
        let p = TimeParams::default();
        let l = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, Duration::from_millis(20), &p);
        assert_eq!(tm.hard, Some(Duration::from_millis(480)));
        let inf = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(!TimeManager::new(&inf, Duration::ZERO, &p).has_deadline());
    }

    #[test]
    fn tmflat_spreads_sudden_death_over_more_moves() {
        let flat = TimeParams::for_features(&crate::params::SearchFeatures {
            time_flat: true,
            ..Default::default()
        });
        let default = TimeParams::default();
        let planned = |p: &TimeParams, l: &Limits| {
            TimeManager::new(l, Duration::from_millis(50), p)
                .planned()
                .unwrap()
        };
        let sudden = Limits {
            time: Some(Duration::from_millis(10_050)),
            inc: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        // 10 s / 25 + 75 ms against 10 s / 40 + 75 ms.
        assert_eq!(planned(&default, &sudden).as_millis(), 475);
        assert_eq!(planned(&flat, &sudden).as_millis(), 325);
        // A fixed move time is a fixed move time.
        let fixed = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        assert_eq!(planned(&default, &fixed), planned(&flat, &fixed));
    }
}
