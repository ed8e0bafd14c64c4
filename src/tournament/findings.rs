//! The paper's seven findings, point by point, in chess: Donkers, van den Herik, Uiterwijk,
//! *Opponent-Model Search in Bao*, §6 ("A summary", Table 8; "Deviations", Table 9) and §7.
//! Each finding is a direction between two treatments (or an order of the evaluators, or of
//! deviation counts); the section gives the Bao evidence (rows of Table 8 or 9 that agree),
//! ours (rows that agree, the pooled paired test over openings) and a verdict:
//! *holds* (one-sided p < 0.05 in the paper's direction), *reversed* (p < 0.05 the other
//! way) or *not separated*. Before the run is complete the verdicts are marked interim.

use std::fmt::Write as _;

use super::analysis::{compare, row_total};
use super::game::GameRecord;
use super::paper;
use super::report_setup::{ReportSetup, p_text};

/// A finding that one treatment scores above another (`hi` > `lo`).
struct Above {
    /// The paper's words, shortened.
    claim: &'static str,
    hi: &'static str,
    lo: &'static str,
}

/// Findings 2–6 (§6, "A summary").
const ABOVE: [Above; 5] = [
    Above {
        claim: "extra own depth alone in OM (T4, inexact prediction) is worse than α-β with the same extra depth",
        hi: "T2",
        lo: "T4",
    },
    Above {
        claim: "perfect prediction alone (T5) is worse than α-β with two more plies",
        hi: "T2",
        lo: "T5",
    },
    Above {
        claim: "both together (T6: exact prediction and extra depth) beat α-β with the same extra depth (claim (a))",
        hi: "T6",
        lo: "T2",
    },
    Above {
        claim: "OM with strict risk management (T7) beats plain α-β (claim (b) asks it of every row)",
        hi: "T7",
        lo: "T1",
    },
    Above {
        claim: "OM with strict risk management (T7) beats plain OM (T3)",
        hi: "T7",
        lo: "T3",
    },
];

/// The treatment index of a code in the paper's tables (T1 → 0).
fn index(code: &str) -> usize {
    code[1..].parse::<usize>().expect("T1..T7") - 1
}

/// The verdict of a pooled comparison of `hi` against `lo`.
fn verdict(games: &[GameRecord], hi: &str, lo: &str) -> String {
    let up = compare(games, hi, lo, None);
    let down = compare(games, lo, hi, None);
    let (Some(p_up), Some(p_down)) = (up.p_greater(), down.p_greater()) else {
        return "no paired openings yet".into();
    };
    let word = if p_up < 0.05 {
        "**holds**"
    } else if p_down < 0.05 {
        "**reversed**"
    } else {
        "**not separated**"
    };
    format!(
        "{word}: {hi} − {lo} = {:+.1} points pooled over {} openings, one-sided p = {}",
        up.diff_pct(),
        up.openings,
        p_text(Some(p_up))
    )
}

/// The section: the seven findings with the Bao evidence, ours and a verdict.
pub fn section(setup: &ReportSetup, games: &[GameRecord]) -> String {
    let codes: Vec<&str> = setup.treatments.iter().map(|(c, _)| c.as_str()).collect();
    let has = |c: &str| codes.contains(&c);
    let players = &setup.players;
    let expected = setup.treatments.len() * players.len() * (players.len() - 1) * setup.games;
    let mut s = String::from("## The paper's findings in chess\n\n");
    if games.len() < expected {
        let _ = writeln!(
            s,
            "*Interim: {} of {expected} games; the verdicts below are not the run's result.*\n",
            games.len()
        );
    }
    let _ = writeln!(
        s,
        "| # | the paper (§6–7) | Bao: rows that agree | chess: rows that agree | verdict in chess |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    // 1. The evaluators' order by T1 (Table 1/8).
    if has("T1") {
        let totals: Vec<_> = players.iter().map(|p| row_total(games, "T1", p)).collect();
        let share = |i: usize| totals[i].points / totals[i].games.max(1) as f64;
        let n = players.len();
        let ordered = (1..n).filter(|&i| share(i) > share(i - 1)).count();
        let separated = (1..n)
            .filter(|&i| {
                let lo = &totals[i - 1];
                let hi = &totals[i];
                let g = |r: &super::analysis::RowTotal| r.games.max(1) as f64;
                (hi.points - hi.ci) / g(hi) > (lo.points + lo.ci) / g(lo)
            })
            .count();
        let bao = (1..5)
            .filter(|&i| paper::row_total(0, i) > paper::row_total(0, i - 1))
            .count();
        let _ = writeln!(
            s,
            "| 1 | the evaluators' quality orders South's T1 totals | {bao} of 4 adjacent pairs | {ordered} of {} | {} |",
            n - 1,
            if ordered == n - 1 {
                format!(
                    "**holds**: ordered as listed; {separated} of {} adjacent pairs separated at 95 %",
                    n - 1
                )
            } else {
                format!(
                    "**partly**: {ordered} of {} adjacent pairs in order, {separated} separated at 95 %",
                    n - 1
                )
            }
        );
    }
    // 2–6. One treatment above another.
    for (k, f) in ABOVE.iter().enumerate() {
        if !has(f.hi) || !has(f.lo) {
            continue;
        }
        let (hi, lo) = (index(f.hi), index(f.lo));
        let bao = (0..5)
            .filter(|&r| paper::row_total(hi, r) > paper::row_total(lo, r))
            .count();
        let ours = players
            .iter()
            .filter(|p| compare(games, f.hi, f.lo, Some(p)).diff_pct() > 0.0)
            .count();
        let _ = writeln!(
            s,
            "| {} | {} | {bao} of 5 | {ours} of {} | {} |",
            k + 2,
            f.claim,
            players.len(),
            verdict(games, f.hi, f.lo)
        );
    }
    // 7. Deviations (Table 9): own depth adds more than prediction; T4 deviates more than T6.
    if ["T3", "T4", "T5", "T6"].iter().all(|c| has(c)) {
        let dev = |t: &str, p: &String| row_total(games, t, p).deviations.0;
        let ours = players
            .iter()
            .filter(|p| {
                dev("T4", p) - dev("T3", p) > dev("T5", p) - dev("T3", p)
                    && dev("T4", p) > dev("T6", p)
            })
            .count();
        let d = |t: usize, r: usize| paper::DEVIATIONS[t - 2][r];
        let bao = (0..5)
            .filter(|&r| d(3, r) - d(2, r) > d(4, r) - d(2, r) && d(3, r) > d(5, r))
            .count();
        let mean =
            |t: &str| players.iter().map(|p| dev(t, p)).sum::<f64>() / players.len().max(1) as f64;
        let _ = writeln!(
            s,
            "| 7 | deviations from α-β grow more with own depth (T4 − T3) than with prediction depth (T5 − T3), and T4 deviates more than T6 (Table 9) | {bao} of 5 | {ours} of {} | mean deviations a game: T3 {:.2}, T4 {:.2}, T5 {:.2}, T6 {:.2} (no test planned) |",
            players.len(),
            mean("T3"),
            mean("T4"),
            mean("T5"),
            mean("T6")
        );
    }
    let _ = writeln!(
        s,
        "\nThe paper's conclusion (§7) that plain OM fails where the evaluators are not \
admissible is claim (c), in the admissibility section below.\n"
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(t: &str, south: &str, opening: usize, white: bool, score: f64) -> GameRecord {
        let north = if south == "a" { "b" } else { "a" };
        GameRecord {
            deviations: if t == "T4" { 3 } else { 1 },
            ..GameRecord::for_test(t, south, north, opening, white, score)
        }
    }

    #[test]
    fn verdicts_follow_the_paired_tests() {
        let setup = ReportSetup {
            players: vec!["a".into(), "b".into()],
            treatments: ["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
                .iter()
                .map(|c| (c.to_string(), String::new()))
                .collect(),
            games: 40,
            settings: Vec::new(),
        };
        let mut g = Vec::new();
        for o in 0..20 {
            for white in [true, false] {
                for south in ["a", "b"] {
                    let base = if south == "a" { 0.0 } else { 0.5 };
                    // T6 clearly above T2; T7 clearly below T1; T5 equal to T2.
                    let t2 = if o % 4 == 0 { 1.0 } else { base };
                    let t6 = if o % 4 == 3 { base } else { 1.0 };
                    // T5 above and below T2 on as many openings: no difference.
                    let t5 = match o % 4 {
                        0 => base,
                        1 => 1.0,
                        _ => t2,
                    };
                    let t1 = base + if o % 3 == 0 { 0.0 } else { 0.5 };
                    for (t, score) in [
                        ("T1", t1),
                        ("T2", t2),
                        ("T3", base),
                        ("T4", base),
                        ("T5", t5),
                        ("T6", t6),
                        ("T7", 0.0),
                    ] {
                        g.push(game(t, south, o, white, score));
                    }
                }
            }
        }
        let text = section(&setup, &g);
        let row = |n: &str| {
            text.lines()
                .find(|l| l.starts_with(&format!("| {n} |")))
                .unwrap_or_else(|| panic!("no finding {n} in {text}"))
                .to_string()
        };
        assert!(!text.contains("Interim"), "{text}");
        assert!(row("1").contains("**holds**"), "{}", row("1"));
        assert!(row("3").contains("**not separated**"), "{}", row("3"));
        assert!(row("4").contains("**holds**"), "{}", row("4"));
        assert!(row("5").contains("**reversed**"), "{}", row("5"));
        assert!(row("7").contains("T4 3.00"), "{}", row("7"));
        // The Bao column is the paper's Table 8: T6 above T2 in 4 of 5 rows.
        assert!(row("4").contains("| 4 of 5 |"), "{}", row("4"));
        let interim = section(&setup, &g[..100]);
        assert!(interim.contains("*Interim: 100 of 560 games"), "{interim}");
    }
}
