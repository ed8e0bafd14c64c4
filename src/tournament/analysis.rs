//! The numbers of a tournament report, from the games alone (*OM Search in Bao*, §6, and
//! what its conclusion asked for): South's points per pairing and per row with 95 %
//! intervals (Tables 1–8), deviations from α-β per game (Table 9), the prediction rate of
//! every cell, paired tests of one treatment against another over openings (per row and
//! pooled: the unit is an opening, the difference is South's points on it summed over both
//! colours and every column), and the admissibility of every pair (Donkers 2003 §4.2.2,
//! Definition 7): on the positions kept from the pair's T1 games, the share where South's
//! evaluation overestimates the position against the reference and North's does not
//! overestimate it likewise. Estimates of different evaluators have different scales, so
//! overestimation is measured on ranks (the thesis' estimation errors, §4.1.2, are rank
//! changes): each estimate's rank among the pair's samples against the reference's.

use std::collections::BTreeMap;

use super::game::GameRecord;
use crate::experiment::stats::{Paired, ci_half_width, mean, paired_t, t_sf};

/// A rank overestimation counts when it exceeds this share of the samples.
pub const RANK_MARGIN: f64 = 0.10;

/// One cell: a treatment, a South and a North.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// Games.
    pub games: usize,
    /// South's points.
    pub points: f64,
    /// Wins, draws, losses of South.
    pub wdl: (usize, usize, usize),
    /// Deviations from α-β, summed.
    pub deviations: usize,
    /// South's moves, summed.
    pub south_moves: usize,
    /// Predictions and correct ones.
    pub predictions: (usize, usize),
    /// South's nodes and moves, for the mean per move.
    pub south_nodes: u64,
    /// South's thinking time, ms.
    pub south_ms: u64,
}

impl Cell {
    /// South's score in percent.
    pub fn pct(&self) -> f64 {
        100.0 * self.points / self.games.max(1) as f64
    }

    /// Prediction rate in percent (`NaN` without predictions).
    pub fn prediction_rate(&self) -> f64 {
        if self.predictions.0 == 0 {
            return f64::NAN;
        }
        100.0 * self.predictions.1 as f64 / self.predictions.0 as f64
    }
}

/// The games grouped by (treatment, South, North).
pub fn cells(games: &[GameRecord]) -> BTreeMap<(String, String, String), Cell> {
    let mut out: BTreeMap<(String, String, String), Cell> = BTreeMap::new();
    for g in games {
        let k = &g.key;
        let c = out
            .entry((k.treatment.clone(), k.south.clone(), k.north.clone()))
            .or_default();
        c.games += 1;
        c.points += g.south_score;
        match g.south_score {
            s if s > 0.75 => c.wdl.0 += 1,
            s if s > 0.25 => c.wdl.1 += 1,
            _ => c.wdl.2 += 1,
        }
        c.deviations += g.deviations;
        c.south_moves += g.south_moves;
        c.predictions.0 += g.predictions;
        c.predictions.1 += g.correct;
        c.south_nodes += g.south_nodes;
        c.south_ms += g.south_ms;
    }
    out
}

/// A row of a treatment: South's games against every North.
#[derive(Clone, Debug)]
pub struct RowTotal {
    /// Games.
    pub games: usize,
    /// Points.
    pub points: f64,
    /// Half-width of the 95 % interval of the points (Student t over games).
    pub ci: f64,
    /// Mean deviations per game and their standard deviation.
    pub deviations: (f64, f64),
}

/// South `south`'s total in `treatment`.
pub fn row_total(games: &[GameRecord], treatment: &str, south: &str) -> RowTotal {
    let mine: Vec<&GameRecord> = games
        .iter()
        .filter(|g| g.key.treatment == treatment && g.key.south == south)
        .collect();
    let scores: Vec<f64> = mine.iter().map(|g| g.south_score).collect();
    let devs: Vec<f64> = mine.iter().map(|g| g.deviations as f64).collect();
    let n = scores.len();
    RowTotal {
        games: n,
        points: scores.iter().sum(),
        ci: ci_half_width(&scores, 0.95) * n as f64,
        deviations: (
            mean(&devs),
            crate::experiment::stats::variance(&devs).sqrt(),
        ),
    }
}

/// A paired comparison of treatment `a` against `b` over openings.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Openings with both treatments' games complete.
    pub openings: usize,
    /// Games per opening and treatment.
    pub games_per_opening: usize,
    /// The test on the per-opening differences of South's points (`None`: too few).
    pub test: Option<Paired>,
    /// Score of `a` and `b` in percent over the compared games.
    pub pct: (f64, f64),
}

impl Comparison {
    /// The mean difference in percentage points of score.
    pub fn diff_pct(&self) -> f64 {
        self.pct.0 - self.pct.1
    }

    /// One-sided p-value for `a` > `b`.
    pub fn p_greater(&self) -> Option<f64> {
        self.test.map(|t| t_sf(t.t, t.df))
    }
}

/// Treatment `a` against `b` for South `south` (`None`: every South, pooled), paired by
/// opening: only openings where both treatments have every game of the group.
pub fn compare(games: &[GameRecord], a: &str, b: &str, south: Option<&str>) -> Comparison {
    // opening -> (games of a, points of a, games of b, points of b)
    let mut by: BTreeMap<usize, (usize, f64, usize, f64)> = BTreeMap::new();
    for g in games
        .iter()
        .filter(|g| south.is_none_or(|s| g.key.south == s))
    {
        let e = by.entry(g.key.opening).or_default();
        if g.key.treatment == a {
            e.0 += 1;
            e.1 += g.south_score;
        } else if g.key.treatment == b {
            e.2 += 1;
            e.3 += g.south_score;
        }
    }
    let full = by.values().map(|e| e.0.max(e.2)).max().unwrap_or(0);
    let complete: Vec<&(usize, f64, usize, f64)> = by
        .values()
        .filter(|e| full > 0 && e.0 == full && e.2 == full)
        .collect();
    let d: Vec<f64> = complete.iter().map(|e| e.1 - e.3).collect();
    let n_games = (complete.len() * full).max(1) as f64;
    Comparison {
        openings: complete.len(),
        games_per_opening: full,
        test: paired_t(&d),
        pct: (
            100.0 * complete.iter().map(|e| e.1).sum::<f64>() / n_games,
            100.0 * complete.iter().map(|e| e.3).sum::<f64>() / n_games,
        ),
    }
}

/// Ranks of `xs` as shares in [0, 1] (ties share their mean rank).
fn ranks(xs: &[i32]) -> Vec<f64> {
    let n = xs.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by_key(|&i| xs[i]);
    let mut r = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let mid = (i + j) as f64 / 2.0;
        for &k in &idx[i..=j] {
            r[k] = if n > 1 { mid / (n - 1) as f64 } else { 0.5 };
        }
        i = j + 1;
    }
    r
}

/// The admissibility of a pair on its samples.
#[derive(Clone, Copy, Debug)]
pub struct Admissibility {
    /// Samples.
    pub samples: usize,
    /// Share (%) where South overestimates (rank above the reference's by more than
    /// [`RANK_MARGIN`]) and North does not overestimate likewise (its excess is smaller by
    /// more than the margin): the type-I risk of Definition 7.
    pub violations: f64,
    /// Share (%) where South overestimates at all.
    pub south_over: f64,
    /// Share (%) where North underestimates (a type-III chance for South).
    pub north_under: f64,
}

/// Admissibility of (South `south`, North `north`) from the samples of their games.
pub fn admissibility(games: &[GameRecord], south: &str, north: &str) -> Option<Admissibility> {
    let s: Vec<_> = games
        .iter()
        .filter(|g| g.key.south == south && g.key.north == north)
        .flat_map(|g| g.samples.iter())
        .collect();
    if s.len() < 10 {
        return None;
    }
    let rs = ranks(&s.iter().map(|x| x.v_south).collect::<Vec<_>>());
    let rn = ranks(&s.iter().map(|x| x.v_north).collect::<Vec<_>>());
    let rt = ranks(&s.iter().map(|x| x.v_truth).collect::<Vec<_>>());
    let n = s.len() as f64;
    let (mut v, mut over, mut under) = (0.0, 0.0, 0.0);
    for i in 0..s.len() {
        let (es, en) = (rs[i] - rt[i], rn[i] - rt[i]);
        if es > RANK_MARGIN {
            over += 1.0;
            if en < es - RANK_MARGIN {
                v += 1.0;
            }
        }
        if en < -RANK_MARGIN {
            under += 1.0;
        }
    }
    Some(Admissibility {
        samples: s.len(),
        violations: 100.0 * v / n,
        south_over: 100.0 * over / n,
        north_under: 100.0 * under / n,
    })
}

/// Pearson's r of `(x, y)` with its two-sided p-value (t with n − 2 df); `None` below
/// three points or without variance.
pub fn correlation(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n as f64;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n as f64;
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    let r = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let df = (n - 2) as f64;
    let t = r * (df / (1.0 - r * r).max(1e-12)).sqrt();
    Some((r, (2.0 * t_sf(t.abs(), df)).clamp(0.0, 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_span_zero_to_one() {
        assert_eq!(ranks(&[30, 10, 20]), vec![1.0, 0.0, 0.5]);
        assert_eq!(ranks(&[5, 5, 9]), vec![0.25, 0.25, 1.0]);
    }

    #[test]
    fn correlation_of_a_line_is_one() {
        let pts: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 3.0 - 2.0 * i as f64)).collect();
        let (r, p) = correlation(&pts).unwrap();
        assert!((r + 1.0).abs() < 1e-12 && p < 1e-6);
        assert!(correlation(&[(1.0, 1.0), (1.0, 2.0), (1.0, 3.0)]).is_none());
    }
}
