//! The budget comparison's numbers (issue 38; `matches/2026-11-27-bao-tournaments/
//! PLAN-budget.md`): the question a clock asks of *OM Search in Bao*'s T6 against T2. North
//! searches N nodes a move; South gets K·N with every probe node counted, as α-β (`B2xK`), as
//! OM whose model replays North's own search (`B6xK`, exact at the first ply), or as that OM
//! with probes only for the root moves within a margin of α-β's value (`B6mxK`: a cheaper
//! exact prediction). The unit is a game pair — the same pairing, opening and colours under
//! the OM treatment and under `B2xK` — and the test Student's paired t. K\* is the smallest K
//! at which the OM treatment beats α-β with one-sided p < 0.05 (pooled), provided no larger K
//! shows it significantly below.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::game::GameRecord;
use super::report_setup::p_text;
use crate::experiment::stats::{Paired, paired_t, t_cdf, t_sf};

/// The significance level of the K\* rule (one-sided).
pub const LEVEL: f64 = 0.05;

/// Treatment `a` against `b` paired game by game.
#[derive(Clone, Debug)]
pub struct GamePairs {
    /// Pairs.
    pub pairs: usize,
    /// Score of `a` and of `b` in percent over the pairs.
    pub pct: (f64, f64),
    /// The test on the per-pair differences (`None`: too few, or all equal).
    pub test: Option<Paired>,
    /// Share of `a`'s South moves played from a completed OM root (`None`: records from
    /// before that was kept).
    pub completed: Option<f64>,
    /// `a`'s and `b`'s mean South nodes a move.
    pub nodes: (f64, f64),
}

impl GamePairs {
    /// The mean difference in percentage points.
    pub fn diff_pct(&self) -> f64 {
        self.pct.0 - self.pct.1
    }

    /// One-sided p for `a` > `b`.
    pub fn p_greater(&self) -> Option<f64> {
        self.test.map(|t| t_sf(t.t, t.df))
    }

    /// One-sided p for `a` < `b`.
    pub fn p_less(&self) -> Option<f64> {
        self.test.map(|t| t_cdf(t.t, t.df))
    }
}

/// `a` against `b` for South `south` (`None`: pooled), on the games both played.
pub fn compare_by_game(games: &[GameRecord], a: &str, b: &str, south: Option<&str>) -> GamePairs {
    type Key<'g> = (&'g str, &'g str, usize, bool);
    let mut by: BTreeMap<Key<'_>, (Option<&GameRecord>, Option<&GameRecord>)> = BTreeMap::new();
    for g in games
        .iter()
        .filter(|g| south.is_none_or(|s| g.key.south == s))
    {
        let k = &g.key;
        let key = (k.south.as_str(), k.north.as_str(), k.opening, k.south_white);
        let e = by.entry(key).or_default();
        if k.treatment == a {
            e.0 = Some(g);
        } else if k.treatment == b {
            e.1 = Some(g);
        }
    }
    let both: Vec<(&GameRecord, &GameRecord)> =
        by.values().filter_map(|&(x, y)| Some((x?, y?))).collect();
    let n = both.len().max(1) as f64;
    let d: Vec<f64> = both
        .iter()
        .map(|(x, y)| x.south_score - y.south_score)
        .collect();
    let moves = |f: fn(&GameRecord) -> usize| both.iter().map(|(x, _)| f(x)).sum::<usize>();
    let per_move = |first: bool| {
        let side = both.iter().map(|&(x, y)| if first { x } else { y });
        let nodes: u64 = side.clone().map(|g| g.south_nodes).sum();
        let m: usize = side.map(|g| g.south_moves).sum();
        nodes as f64 / m.max(1) as f64
    };
    GamePairs {
        pairs: both.len(),
        pct: (
            100.0 * both.iter().map(|(x, _)| x.south_score).sum::<f64>() / n,
            100.0 * both.iter().map(|(_, y)| y.south_score).sum::<f64>() / n,
        ),
        test: paired_t(&d),
        completed: both
            .iter()
            .map(|(x, _)| x.om_moves)
            .sum::<Option<usize>>()
            .map(|m| m as f64 / moves(|g| g.south_moves).max(1) as f64),
        nodes: (per_move(true), per_move(false)),
    }
}

/// The multiples K of a run's budget treatments, and which OM variants (`B6`, `B6m`) it has.
pub fn budget_codes(codes: &[&str]) -> (Vec<u64>, Vec<&'static str>) {
    let k_of = |c: &str, p: &str| c.strip_prefix(p)?.parse::<u64>().ok();
    let mut ks: Vec<u64> = codes.iter().filter_map(|c| k_of(c, "B2x")).collect();
    ks.sort_unstable();
    ks.dedup();
    let variants = ["B6", "B6m"]
        .into_iter()
        .filter(|v| codes.iter().any(|c| k_of(c, &format!("{v}x")).is_some()))
        .collect();
    (ks, variants)
}

/// K\* for one OM variant from its pooled comparisons, K ascending: the smallest K with
/// OM > α-β (one-sided p < [`LEVEL`]) and no larger K with OM significantly below.
pub fn k_star(pooled: &[(u64, GamePairs)]) -> Option<u64> {
    pooled.iter().enumerate().find_map(|(i, (k, c))| {
        let above = c.p_greater().is_some_and(|p| p < LEVEL);
        let later_below = pooled[i + 1..]
            .iter()
            .any(|(_, c)| c.p_less().is_some_and(|p| p < LEVEL));
        (above && !later_below).then_some(*k)
    })
}

fn line(label: &str, c: &GamePairs) -> String {
    let ci = c
        .test
        .map_or("–".into(), |t| format!("±{:.1}", 100.0 * t.ci));
    format!(
        "| {label} | {} | {:.1} | {:.1} | {:+.1} | {ci} | {} | {} | {} | {:.0} / {:.0} |",
        c.pairs,
        c.pct.0,
        c.pct.1,
        c.diff_pct(),
        p_text(c.test.map(|t| t.p)),
        p_text(c.p_greater()),
        c.completed
            .map_or("–".into(), |c| format!("{:.0} %", 100.0 * c)),
        c.nodes.0,
        c.nodes.1,
    )
}

/// The report's budget section (empty when the run has no budget treatments).
pub fn section(players: &[String], codes: &[&str], games: &[GameRecord]) -> String {
    let (ks, variants) = budget_codes(codes);
    let mut s = String::new();
    if ks.is_empty() || variants.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "## The budget comparison: OM with exact prediction against α-β with the same nodes\n\n\
Unit: a game pair (the same pairing, opening and colours under both treatments); difference: \
South's points under the OM treatment minus under `B2xK`, in percentage points with its 95 % \
interval; Student's paired t, two-sided p and one-sided p for 'OM > α-β'. `completed`: the \
share of the OM treatment's moves played from a completed OM root (the others are α-β's \
fallback when the budget cannot complete one); nodes: \
South's mean nodes a move, OM / α-β.\n"
    );
    for v in &variants {
        let mut pooled = Vec::new();
        for &k in &ks {
            let (a, b) = (format!("{v}x{k}"), format!("B2x{k}"));
            if !codes.contains(&a.as_str()) {
                continue;
            }
            let _ = writeln!(s, "### {a} against {b}\n");
            let _ = writeln!(
                s,
                "| South | pairs | {a} % | {b} % | diff | ±95 % | p | p (>) | completed | nodes |"
            );
            let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
            for p in players {
                let _ = writeln!(s, "{}", line(p, &compare_by_game(games, &a, &b, Some(p))));
            }
            let c = compare_by_game(games, &a, &b, None);
            let _ = writeln!(s, "{}\n", line("pooled", &c));
            pooled.push((k, c));
        }
        let verdict = match k_star(&pooled) {
            Some(k) => format!("K* = {k}"),
            None => format!(
                "K* not reached up to {}",
                pooled.last().map_or(0, |(k, _)| *k)
            ),
        };
        let _ = writeln!(
            s,
            "**{v}: {verdict}** (the smallest K with {v}xK > B2xK, pooled one-sided p < {LEVEL}, \
and no larger K significantly below).\n"
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(t: &str, south: &str, opening: usize, white: bool, score: f64) -> GameRecord {
        let om = t.starts_with("B6");
        GameRecord {
            predictions: if om { 4 } else { 0 },
            south_nodes: 500,
            om_moves: Some(if om { 4 } else { 0 }),
            ..GameRecord::for_test(t, south, "n", opening, white, score)
        }
    }

    #[test]
    fn pairs_are_games_and_k_star_needs_no_later_loss() {
        let mut g = Vec::new();
        for o in 0..20 {
            for white in [true, false] {
                g.push(game("B2x3", "a", o, white, 0.5));
                g.push(game(
                    "B6x3",
                    "a",
                    o,
                    white,
                    if o % 2 == 0 { 1.0 } else { 0.5 },
                ));
                g.push(game("B2x10", "a", o, white, 0.5));
                g.push(game(
                    "B6x10",
                    "a",
                    o,
                    white,
                    if o % 3 == 0 { 0.0 } else { 0.5 },
                ));
            }
        }
        g.push(game("B6x3", "a", 99, true, 1.0)); // no partner: not a pair
        let c = compare_by_game(&g, "B6x3", "B2x3", None);
        assert_eq!(c.pairs, 40);
        assert!((c.diff_pct() - 25.0).abs() < 1e-9);
        assert!((c.completed.unwrap() - 0.8).abs() < 1e-9);
        assert!(c.p_greater().unwrap() < 0.05);
        let (ks, vs) = budget_codes(&["B2x10", "B6x10", "B2x3", "B6x3"]);
        assert_eq!((ks, vs), (vec![3, 10], vec!["B6"]));
        let pooled: Vec<(u64, GamePairs)> = [3, 10]
            .iter()
            .map(|&k| {
                (
                    k,
                    compare_by_game(&g, &format!("B6x{k}"), &format!("B2x{k}"), None),
                )
            })
            .collect();
        // K = 3 is above, but K = 10 is significantly below: no K*.
        assert!(pooled[1].1.p_less().unwrap() < 0.05);
        assert_eq!(k_star(&pooled), None);
        assert_eq!(k_star(&pooled[..1]), Some(3));
        let text = section(&["a".into()], &["B2x3", "B6x3", "B2x10", "B6x10"], &g);
        assert!(text.contains("**B6: K* not reached up to 10**"), "{text}");
    }
}
