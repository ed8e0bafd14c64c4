//! Statistics for the sweep's summary (Donkers 2003 §5.4.3: mean game length per
//! speculative depth with a t-test against the base case s = 0, Fig. 5.10 with 95 %
//! confidence intervals): mean, sample standard deviation, Student-t confidence interval,
//! Welch's two-sided t-test, and the paired t-test the report's pooled view uses (a set of
//! positions, each played at every depth: differences by position against s = 0). The t
//! distribution (CDF and quantiles) is the `statrs` crate's, a lab-only dependency; the
//! tests below check it against R's numbers.

/// Arithmetic mean (`NaN` for no data).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample variance (n − 1 in the denominator; `NaN` below two values).
pub fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return f64::NAN;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
}

/// Half-width of the two-sided confidence interval of the mean at `level` (e.g. 0.95),
/// Student t with n − 1 degrees of freedom; 0 for fewer than two values.
pub fn ci_half_width(xs: &[f64], level: f64) -> f64 {
    let n = xs.len();
    if n < 2 {
        return 0.0;
    }
    let se = (variance(xs) / n as f64).sqrt();
    t_quantile(0.5 + level / 2.0, (n - 1) as f64) * se
}

/// Student's t with `df` degrees of freedom, or `None` for a `df` statrs refuses.
fn student(df: f64) -> Option<statrs::distribution::StudentsT> {
    statrs::distribution::StudentsT::new(0.0, 1.0, df).ok()
}

/// CDF of Student's t distribution with `df` degrees of freedom (statrs; NaN for df ≤ 0).
pub fn t_cdf(t: f64, df: f64) -> f64 {
    use statrs::distribution::ContinuousCDF;
    if !t.is_finite() {
        return if t > 0.0 { 1.0 } else { 0.0 };
    }
    student(df).map_or(f64::NAN, |d| d.cdf(t))
}

/// Upper tail `P(T > t)` of Student's t with `df` degrees of freedom, computed as
/// `t_cdf(-t)` (symmetry): `1 - t_cdf(t)` loses every digit below about 1e-16, which made
/// strong results print as p = 0.
pub fn t_sf(t: f64, df: f64) -> f64 {
    t_cdf(-t, df)
}

/// The `p` quantile of Student's t with `df` degrees of freedom (statrs; NaN for df ≤ 0).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    use statrs::distribution::ContinuousCDF;
    student(df).map_or(f64::NAN, |d| d.inverse_cdf(p))
}

/// Result of Welch's t-test of `a` against `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Welch {
    /// mean(a) − mean(b).
    pub diff: f64,
    /// The t statistic.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Welch's two-sided t-test (unequal variances); `None` with fewer than two values on a
/// side or zero variance on both.
pub fn welch(a: &[f64], b: &[f64]) -> Option<Welch> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (va, vb) = (variance(a) / a.len() as f64, variance(b) / b.len() as f64);
    let diff = mean(a) - mean(b);
    let se2 = va + vb;
    if se2 <= 0.0 {
        return None;
    }
    let t = diff / se2.sqrt();
    let df = se2 * se2
        / (va * va / (a.len() - 1) as f64 + vb * vb / (b.len() - 1) as f64).max(f64::MIN_POSITIVE);
    let p = (2.0 * t_sf(t.abs(), df)).clamp(0.0, 1.0);
    Some(Welch { diff, t, df, p })
}

/// Result of a paired t-test: the mean of the differences with its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// Pairs.
    pub n: usize,
    /// Mean difference.
    pub diff: f64,
    /// Half-width of its 95 % confidence interval (Student t, n − 1 df).
    pub ci: f64,
    /// The t statistic.
    pub t: f64,
    /// Degrees of freedom (n − 1).
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// The paired two-sided t-test of the differences `d` (a − b per pair) against 0; `None`
/// with fewer than two pairs or when every difference is the same.
pub fn paired_t(d: &[f64]) -> Option<Paired> {
    let n = d.len();
    if n < 2 {
        return None;
    }
    let se = (variance(d) / n as f64).sqrt();
    if se.is_nan() || se <= 0.0 {
        return None;
    }
    let (diff, df) = (mean(d), (n - 1) as f64);
    let t = diff / se;
    let p = (2.0 * t_sf(t.abs(), df)).clamp(0.0, 1.0);
    let ci = t_quantile(0.975, df) * se;
    Some(Paired {
        n,
        diff,
        ci,
        t,
        df,
        p,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_distribution_matches_tables() {
        // Two-sided 95 % critical values: df 1 → 12.706, 10 → 2.228, 19 → 2.093.
        for (df, crit) in [(1.0, 12.706), (10.0, 2.228), (19.0, 2.093), (1e6, 1.960)] {
            assert!((t_quantile(0.975, df) - crit).abs() < 2e-3, "df {df}");
        }
        assert!((t_cdf(0.0, 5.0) - 0.5).abs() < 1e-12);
        assert!((t_cdf(2.015, 5.0) - 0.95).abs() < 1e-3);
        // The upper tail keeps its digits far out (values from the regularised incomplete
        // beta function, as R's pt(-t, df)).
        assert!((t_sf(10.0, 49.0) / 1.0065817e-13 - 1.0).abs() < 1e-5);
        assert!((t_sf(15.21, 49.0) / 1.7174771e-20 - 1.0).abs() < 1e-5);
        assert!((t_sf(-1.0, 5.0) - (1.0 - t_cdf(-1.0, 5.0))).abs() < 1e-12);
    }

    #[test]
    fn welch_matches_a_worked_example() {
        // R: t.test(c(27.5,21,19,23.6,17,17.9,16.9,20.1,21.9,22.6,23.1,19.6,19,21.7,21.4),
        //           c(27.1,22,20.8,23.4,23.4,23.5,25.8,22,24.8,20.2,21.9,22.1,22.9,20.5,24.4))
        // t = -2.4553, df = 24.988, p-value = 0.02135
        let a = [
            27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7,
            21.4,
        ];
        let b = [
            27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5,
            24.4,
        ];
        let w = welch(&a, &b).unwrap();
        assert!((w.t + 2.4553).abs() < 1e-3, "{w:?}");
        assert!((w.df - 24.988).abs() < 1e-2, "{w:?}");
        assert!((w.p - 0.02135).abs() < 1e-4, "{w:?}");
        assert!(welch(&[1.0], &b).is_none());
        assert!(welch(&[1.0, 1.0], &[1.0, 1.0]).is_none());
    }

    #[test]
    fn paired_t_matches_the_sleep_data() {
        // R: with(sleep, t.test(extra[group == 1], extra[group == 2], paired = TRUE))
        // t = -4.0621, df = 9, p-value = 0.002833, 95 % CI -2.4598858 -0.7001142,
        // mean difference -1.58.
        let a = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
        let b = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
        let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let p = paired_t(&d).unwrap();
        assert!((p.diff + 1.58).abs() < 1e-9, "{p:?}");
        assert!((p.t + 4.0621).abs() < 1e-3, "{p:?}");
        assert_eq!((p.n, p.df), (10, 9.0));
        assert!((p.p - 0.002833).abs() < 1e-5, "{p:?}");
        assert!((p.diff - p.ci + 2.4598858).abs() < 1e-4, "{p:?}");
        assert!((p.diff + p.ci + 0.7001142).abs() < 1e-4, "{p:?}");
        assert!(paired_t(&[1.0]).is_none());
        assert!(paired_t(&[2.0, 2.0, 2.0]).is_none());
    }
}
