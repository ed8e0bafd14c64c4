//! The figures of Donkers 2003 §5.4.3 as SVG files, from the same rows as the summary:
//! Fig. 5.10 (mean game length ± 95 % CI per speculative depth, one line per position),
//! Fig. 5.11 (mean prediction surplus), Fig. 5.12 (share of correct opponent moves, and of
//! errors larger than 2 moves), Fig. 5.13 (game diversity: distinct game prefixes per ply)
//! and Fig. 5.14 (search depth and effective branching factor per move number, OM search
//! versus α-β), with what still varies when the K+R depth is fixed: nodes and time per move.
//! From [`POOLED_FROM`] positions on, the per-position figures show the mean over positions
//! with its 95 % interval as a band, each position a faint line ([`super::pooled`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::pooled::{POOLED_FROM, pooled};
use super::records::{GameRow, MoveRow, write_atomic};
use super::stats::{ci_half_width, mean};
use super::summary::{Cell, cells, label_of, position_labels};
use super::svg::{Plot, Series};

/// File names of the figures, in order.
pub const FIGURES: [&str; 9] = [
    "fig5_10_length.svg",
    "fig5_11_surplus.svg",
    "fig5_12_correct.svg",
    "fig5_12_errors_gt2.svg",
    "fig5_13_diversity.svg",
    "fig5_14_depth.svg",
    "fig5_14_ebf.svg",
    "fig5_14_nodes.svg",
    "fig5_14_time.svg",
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

/// The points of a series: (x, y, half-height of the error bar).
type Points = Vec<(f64, f64, f64)>;

/// The series of a figure over positions: one line per position, or, from
/// [`POOLED_FROM`] positions on, the mean over positions with its 95 % band first and the
/// positions as faint lines. `per_pos` gives each position's points (x, y, error); `band`
/// the pooled points if the caller has them (else the mean of the positions at each x).
fn over_positions(per_pos: Vec<(String, Points)>, band: Option<Points>) -> Vec<Series> {
    let pool = per_pos.len() >= POOLED_FROM;
    let mut out = Vec::new();
    if pool {
        let points = band.unwrap_or_else(|| {
            let mut at: BTreeMap<i64, (f64, Vec<f64>)> = BTreeMap::new();
            for (_, pts) in &per_pos {
                for &(x, y, _) in pts.iter().filter(|p| p.1.is_finite()) {
                    let slot = at.entry((x * 1000.0).round() as i64);
                    slot.or_insert((x, Vec::new())).1.push(y);
                }
            }
            at.values()
                .map(|(x, ys)| (*x, mean(ys), ci_half_width(ys, 0.95)))
                .collect()
        });
        out.push(Series {
            label: format!("mean ± 95 % CI, n = {}", per_pos.len()),
            points,
            band: true,
            ..Series::default()
        });
    }
    for (label, pts) in per_pos {
        out.push(Series {
            label,
            points: pts
                .into_iter()
                .map(|(x, y, e)| (x, y, if pool { 0.0 } else { e }))
                .collect(),
            faint: pool,
            ..Series::default()
        });
    }
    out
}

/// Builds every figure.
pub fn figures(
    games: &[GameRow],
    moves: &[MoveRow],
    config: &[(String, String)],
) -> Vec<(&'static str, Plot)> {
    let cells = cells(games, moves);
    let labels = position_labels(config);
    let pos_ids: BTreeSet<usize> = cells.keys().map(|k| k.0).collect();
    let per_depth = |f: &dyn Fn(&Cell) -> (f64, f64)| -> Vec<Series> {
        let per_pos = pos_ids
            .iter()
            .map(|&p| {
                let pts = cells
                    .iter()
                    .filter(|(k, _)| k.0 == p)
                    .map(|(k, c)| {
                        let (y, e) = f(c);
                        (k.1 as f64, y, e)
                    })
                    .collect();
                (label_of(&labels, p), pts)
            })
            .collect();
        // The band is the report's pooled view: per-position values, interval over positions.
        let band = pooled(&cells, |c| f(c).0)
            .iter()
            .map(|r| (r.s as f64, r.mean, r.ci))
            .collect();
        over_positions(per_pos, Some(band))
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
    // Fig. 5.13: diversity per position over all its games (a position's count stays at
    // its number of distinct games after its longest game).
    let per_pos: Vec<(String, Vec<usize>)> = pos_ids
        .iter()
        .map(|&p| {
            let lines: Vec<Vec<&str>> = games
                .iter()
                .filter(|g| g.position == p)
                .map(|g| g.moves.split_whitespace().collect())
                .collect();
            (label_of(&labels, p), diversity(&lines))
        })
        .collect();
    let longest = per_pos.iter().map(|d| d.1.len()).max().unwrap_or(0);
    let diversity_series = over_positions(
        per_pos
            .into_iter()
            .map(|(label, d)| {
                let pts = (0..longest)
                    .filter_map(|i| {
                        d.get(i)
                            .or(d.last())
                            .map(|&n| ((i + 1) as f64, n as f64, 0.0))
                    })
                    .collect();
                (label, pts)
            })
            .collect(),
        None,
    );
    out.push((
        FIGURES[4],
        Plot {
            title: "Fig. 5.13 — game diversity".into(),
            x_label: "ply".into(),
            y_label: "distinct game prefixes".into(),
            series: diversity_series,
        },
    ));
    // Fig. 5.14 per K+R move number, α-β (s = 0) against OM (s > 0): depth, branching
    // factor, and what varies at a fixed depth: nodes (thousands) and time (ms).
    type PerMove = BTreeMap<usize, [Vec<f64>; 4]>;
    let mut by_move: [PerMove; 2] = Default::default();
    for m in moves.iter().filter(|m| !m.kq) {
        let slot = by_move[usize::from(m.spec_depth > 0)]
            .entry(m.ply.div_ceil(2))
            .or_default();
        slot[0].extend(m.depth.map(f64::from));
        slot[1].extend(m.ebf);
        slot[2].extend(m.nodes.map(|n| n as f64 / 1000.0));
        slot[3].extend(m.time_ms);
    }
    for (file, title, ylabel, which) in [
        (FIGURES[5], "Fig. 5.14 — search depth", "plies", 0),
        (
            FIGURES[6],
            "Fig. 5.14 — effective branching factor",
            "nodes^(1/depth)",
            1,
        ),
        (
            FIGURES[7],
            "Fig. 5.14 — nodes per K+R move",
            "thousand nodes (mean)",
            2,
        ),
        (FIGURES[8], "Fig. 5.14 — time per K+R move", "ms (mean)", 3),
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
                    .map(|(&n, v)| (n as f64, mean(&v[which]), 0.0))
                    .collect(),
                dashed: om == 0,
                ..Series::default()
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

/// Writes every figure into `dir`; returns them as (file name, SVG text) for the report.
pub fn write_figures(
    dir: &Path,
    games: &[GameRow],
    moves: &[MoveRow],
    config: &[(String, String)],
) -> Result<Vec<(&'static str, String)>, String> {
    let mut out = Vec::new();
    for (file, plot) in figures(games, moves, config) {
        let svg = plot.render();
        write_atomic(&dir.join(file), &svg)?;
        out.push((file, svg));
    }
    Ok(out)
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
