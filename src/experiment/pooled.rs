//! The pooled view of a sweep over a set of positions (`nosce kqkr --positions` with many
//! entries, often one game per cell), for the report and the figures of Donkers 2003
//! §5.4.3 (Fig. 5.10, Tables 5.3/5.4): per speculative depth, a per-position quantity (mean
//! game length, prediction accuracy, …) averaged over the positions with a 95 % interval
//! over positions, and tested against the base case s = 0 by a paired t-test by position.
//! Each position is its own control, which removes the large differences between start
//! positions from the comparison of depths. [`merged_by_depth`] pools the raw counts (error
//! histograms, endings) of all positions of a depth instead.

use std::collections::{BTreeMap, BTreeSet};

use super::stats::{Paired, ci_half_width, mean, paired_t};
use super::summary::Cell;

/// The figures and the report show the pooled view from this many positions on.
pub const POOLED_FROM: usize = 3;

/// One speculative depth of the pooled view.
#[derive(Clone, Debug, PartialEq)]
pub struct PooledRow {
    /// Speculative depth.
    pub s: usize,
    /// The per-position values at this depth: (position id, value).
    pub values: Vec<(usize, f64)>,
    /// Their mean.
    pub mean: f64,
    /// Half-width of the 95 % interval of the mean over positions (0 below two positions).
    pub ci: f64,
    /// Positions with a value at this depth and at s = 0.
    pub pairs: usize,
    /// Paired t-test (this depth − s = 0, by position); `None` at s = 0, below two pairs,
    /// or when every position differs by the same amount.
    pub test: Option<Paired>,
}

/// The pooled view of `f` (a per-cell value; non-finite values are left out).
pub fn pooled(cells: &BTreeMap<(usize, usize), Cell>, f: impl Fn(&Cell) -> f64) -> Vec<PooledRow> {
    let depths: BTreeSet<usize> = cells.keys().map(|k| k.1).collect();
    let value = |p: usize, s: usize| cells.get(&(p, s)).map(&f).filter(|v| v.is_finite());
    depths
        .into_iter()
        .map(|s| {
            let values: Vec<(usize, f64)> = cells
                .keys()
                .filter(|k| k.1 == s)
                .filter_map(|&(p, _)| value(p, s).map(|v| (p, v)))
                .collect();
            let xs: Vec<f64> = values.iter().map(|v| v.1).collect();
            let diffs: Vec<f64> = values
                .iter()
                .filter_map(|&(p, v)| value(p, 0).map(|b| v - b))
                .collect();
            PooledRow {
                s,
                mean: mean(&xs),
                ci: ci_half_width(&xs, 0.95),
                pairs: if s == 0 { 0 } else { diffs.len() },
                test: if s == 0 { None } else { paired_t(&diffs) },
                values,
            }
        })
        .collect()
}

/// Every position's cell of a depth in one: counts and histograms added, samples joined.
pub fn merged_by_depth(cells: &BTreeMap<(usize, usize), Cell>) -> BTreeMap<usize, Cell> {
    let mut out: BTreeMap<usize, Cell> = BTreeMap::new();
    for (&(_, s), c) in cells {
        let m = out.entry(s).or_default();
        m.lengths.extend(&c.lengths);
        for (k, n) in &c.outcomes {
            *m.outcomes.entry(k).or_default() += n;
        }
        m.kq_moves += c.kq_moves;
        for (k, n) in &c.err_dtm {
            *m.err_dtm.entry(*k).or_default() += n;
        }
        for (k, n) in &c.err_dtc {
            *m.err_dtc.entry(*k).or_default() += n;
        }
        m.thrown += c.thrown;
        m.predicted.0 += c.predicted.0;
        m.predicted.1 += c.predicted.1;
        m.surplus.extend(&c.surplus);
        m.kr_depth.extend(&c.kr_depth);
        m.kr_ebf.extend(&c.kr_ebf);
        m.kq_depth.extend(&c.kq_depth);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(lengths: &[f64]) -> Cell {
        Cell {
            lengths: lengths.to_vec(),
            kq_moves: 10,
            ..Cell::default()
        }
    }

    #[test]
    fn pooled_pairs_by_position() {
        // Three positions of very different lengths; s = 1 is longer by 2, 3 and 4 moves.
        let mut cells = BTreeMap::new();
        for (p, base) in [(1, 20.0), (2, 35.0), (3, 50.0)] {
            cells.insert((p, 0), cell(&[base]));
            cells.insert((p, 1), cell(&[base + 1.0 + p as f64]));
        }
        let rows = pooled(&cells, |c| mean(&c.lengths));
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].s, 0);
        assert!(rows[0].test.is_none() && rows[0].pairs == 0);
        assert!((rows[0].mean - 35.0).abs() < 1e-12);
        let t = rows[1].test.expect("a paired test at s = 1");
        assert_eq!((rows[1].pairs, t.df), (3, 2.0));
        assert!((t.diff - 3.0).abs() < 1e-12);
        // d = 2, 3, 4: sd 1, se 1/√3, t = 3√3 ≈ 5.196, two-sided p ≈ 0.0351 (df 2).
        assert!(
            (t.t - 5.196).abs() < 1e-3 && (t.p - 0.0351).abs() < 1e-3,
            "{t:?}"
        );
        let merged = merged_by_depth(&cells);
        assert_eq!(merged[&1].lengths.len(), 3);
        assert_eq!(merged[&1].kq_moves, 30);
    }
}
