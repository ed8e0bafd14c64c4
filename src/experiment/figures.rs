//! The figures of Donkers 2003 §5.4.3 as SVG files, from the same rows as the summary:
//! Fig. 5.10 (mean game length ± 95 % CI per speculative depth, one line per position),
//! Fig. 5.11 (mean prediction surplus), Fig. 5.12 (share of correct opponent moves, and of
//! errors larger than 2 moves), Fig. 5.13 (game diversity: distinct game prefixes per ply)
//! and Fig. 5.14 (search depth and effective branching factor per move number, OM search
//! versus α-β).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::records::{GameRow, MoveRow, write_atomic};
use super::stats::{ci_half_width, mean};
use super::summary::{cells, positions};
use super::svg::{Plot, Series};

/// File names of the figures, in order.
pub const FIGURES: [&str; 7] = [
    "fig5_10_length.svg",
    "fig5_11_surplus.svg",
    "fig5_12_correct.svg",
    "fig5_12_errors_gt2.svg",
    "fig5_13_diversity.svg",
    "fig5_14_depth.svg",
    "fig5_14_ebf.svg",
];

/// Distinct game prefixes of each length (plies 1..=max) among `lines` (a game shorter
/// than the prefix counts with its whole line).
pub fn diversity(lines: &[Vec<&str>]) -> Vec<usize> {
    let longest = lines.iter().map(Vec::len).max().unwrap_or(0);
    (1..=longest)
        .map(|k| {
            lines
                .iter()
                .map(|l| &l[..k.min(l.len())])
                .collect::<BTreeSet<_>>()
                .len()
        })
        .collect()
}

/// Builds every figure.
pub fn figures(
    games: &[GameRow],
    moves: &[MoveRow],
    config: &[(String, String)],
) -> Vec<(&'static str, Plot)> {
    let cells = cells(games, moves);
    let names = positions(config);
    let pos_ids: BTreeSet<usize> = cells.keys().map(|k| k.0).collect();
    let name = |p: usize| {
        names
            .get(&p)
            .map_or_else(|| format!("position {p}"), |(n, _)| n.clone())
    };
    let per_depth = |f: &dyn Fn(&super::summary::Cell) -> (f64, f64)| -> Vec<Series> {
        pos_ids
            .iter()
            .map(|&p| Series {
                label: name(p),
                points: cells
                    .iter()
                    .filter(|(k, _)| k.0 == p)
                    .map(|(k, c)| {
                        let (y, e) = f(c);
                        (k.1 as f64, y, e)
                    })
                    .collect(),
                dashed: false,
            })
            .collect()
    };
    let depth_axis = "speculative depth s (0 = α-β)";
    let mut out = vec![
        (
            FIGURES[0],
            Plot {
                title: "Fig. 5.10 — mean game length (± 95 % CI)".into(),
                x_label: depth_axis.into(),
                y_label: "moves to conversion (51 = not converted)".into(),
                series: per_depth(&|c| (mean(&c.lengths), ci_half_width(&c.lengths, 0.95))),
            },
        ),
        (
            FIGURES[1],
            Plot {
                title: "Fig. 5.11 — mean prediction surplus".into(),
                x_label: depth_axis.into(),
                y_label: "moves".into(),
                series: per_depth(&|c| (mean(&c.surplus), 0.0)),
            },
        ),
        (
            FIGURES[2],
            Plot {
                title: "Fig. 5.12 (left) — correct opponent moves".into(),
                x_label: depth_axis.into(),
                y_label: "% of K+Q moves with error 0 (DTM)".into(),
                series: per_depth(&|c| (c.pct(false, 0), 0.0)),
            },
        ),
        (
            FIGURES[3],
            Plot {
                title: "Fig. 5.12 (right) — errors larger than 2".into(),
                x_label: depth_axis.into(),
                y_label: "% of K+Q moves losing > 2 moves (DTM)".into(),
                series: per_depth(&|c| (c.pct_at_least(false, 3), 0.0)),
            },
        ),
    ];
    // Fig. 5.13: diversity per position over all its games.
    let diversity_series = pos_ids
        .iter()
        .map(|&p| {
            let lines: Vec<Vec<&str>> = games
                .iter()
                .filter(|g| g.position == p)
                .map(|g| g.moves.split_whitespace().collect())
                .collect();
            Series {
                label: name(p),
                points: diversity(&lines)
                    .into_iter()
                    .enumerate()
                    .map(|(i, n)| ((i + 1) as f64, n as f64, 0.0))
                    .collect(),
                dashed: false,
            }
        })
        .collect();
    out.push((
        FIGURES[4],
        Plot {
            title: "Fig. 5.13 — game diversity".into(),
            x_label: "ply".into(),
            y_label: "distinct game prefixes".into(),
            series: diversity_series,
        },
    ));
    // Fig. 5.14: K+R depth and EBF per move number, α-β (s = 0) against OM (s > 0).
    // Per K+R move number: (depths, branching factors), for α-β and for OM.
    type PerMove = BTreeMap<usize, (Vec<f64>, Vec<f64>)>;
    let mut by_move: [PerMove; 2] = Default::default();
    for m in moves.iter().filter(|m| !m.kq) {
        let slot = by_move[usize::from(m.spec_depth > 0)]
            .entry(m.ply.div_ceil(2))
            .or_default();
        slot.0.extend(m.depth.map(f64::from));
        slot.1.extend(m.ebf);
    }
    for (file, title, ylabel, which) in [
        (FIGURES[5], "Fig. 5.14 — search depth", "plies", 0),
        (
            FIGURES[6],
            "Fig. 5.14 — effective branching factor",
            "nodes^(1/depth)",
            1,
        ),
    ] {
        let series = by_move
            .iter()
            .enumerate()
            .map(|(om, map)| Series {
                label: if om == 1 {
                    "OM search (s > 0)"
                } else {
                    "α-β (s = 0)"
                }
                .into(),
                points: map
                    .iter()
                    .map(|(&n, v)| {
                        let xs = if which == 0 { &v.0 } else { &v.1 };
                        (n as f64, mean(xs), 0.0)
                    })
                    .collect(),
                dashed: om == 0,
            })
            .collect();
        out.push((
            file,
            Plot {
                title: title.into(),
                x_label: "move number of the K+R side".into(),
                y_label: ylabel.into(),
                series,
            },
        ));
    }
    out
}

/// Writes every figure into `dir`.
pub fn write_figures(
    dir: &Path,
    games: &[GameRow],
    moves: &[MoveRow],
    config: &[(String, String)],
) -> Result<(), String> {
    for (file, plot) in figures(games, moves, config) {
        write_atomic(&dir.join(file), &plot.render())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diversity_counts_distinct_prefixes() {
        let a = vec!["a", "b", "c"];
        let b = vec!["a", "b", "d"];
        let c = vec!["a", "x"];
        assert_eq!(diversity(&[a, b, c]), vec![1, 2, 3]);
    }
}
