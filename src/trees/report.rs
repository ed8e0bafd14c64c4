//! The experiments of thesis §5.2 and §7.2 as text: evaluation counts of α-β, `OM^β1p`,
//! `OM^βPb`, `OM^βPb` with a transposition table (also with PVS inside the probes, §3.4.6,
//! beside α-β with the same enhancements), `PrOM^β1p`, `PrOM^βPb` and bounded-sum
//! pruning on random trees, relative to α-β on the same tree, summarised per depth/width row by
//! the 5th percentile, quartiles, median and 95th percentile (the layout of Figs 5.3–5.7 and
//! 7.1–7.5, one block per figure line), and the per-seed CSV (minimax value, OM value,
//! evaluation counts of α-β, `OM^β1p`, `OM^βPb`) under the counting conventions of
//! `random-trees.md`.

use std::fmt::Write as _;

use super::minimax::{alpha_beta_search, alpha_beta_tt_search};
use super::om_beta::{
    om_search_beta_1p, om_search_beta_pb, om_search_beta_pb_tt, om_search_beta_pb_tt_pvs,
};
use super::om_bounded::{om_search_bounded_1p, om_search_bounded_pb};
use super::prom_beta::{prom_search_beta_1p, prom_search_beta_pb};
use super::prom_plain::TreeModel;
use super::random::{BoundedTree, RandomTree};
use super::trans_table::TransTable;
use super::tree::TreeError;

/// Parameters of a report (parsed by [`super::cli`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ReportConfig {
    /// Root seeds, one tree per seed and per (depth, width).
    pub seeds: Vec<u64>,
    /// Depths (one row each).
    pub depths: Vec<usize>,
    /// Widths (one row each).
    pub widths: Vec<usize>,
    /// PrOM opponent model (its length is the number of evaluation slots of the PrOM trees).
    pub model: TreeModel,
    /// Bound `B` of the bounded-difference trees used for bounded-sum pruning.
    pub bound: i32,
    /// Transposition table size: `2^tt_bits` entries.
    pub tt_bits: u32,
    /// Whether the table also stores leaf evaluations.
    pub tt_leaves: bool,
}

/// Evaluation counts of one tree.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TreeCounts {
    /// α-β with `V_0` (Alg 3.1).
    pub alpha_beta: u64,
    /// `OM^β1p` (Alg 3.7).
    pub om_beta_1p: u64,
    /// `OM^βPb` (Alg 3.8).
    pub om_beta_pb: u64,
    /// `OM^βPb` with a transposition table.
    pub om_beta_pb_tt: u64,
    /// `OM^βPb` with a transposition table and PVS inside the probes (§3.4.6).
    pub om_beta_pb_tt_pvs: u64,
    /// α-β with the same enhancements (table and PVS): the like-for-like baseline.
    pub pvs_tt: u64,
    /// α-β with `V_0` on the PrOM tree (differs from `alpha_beta` only with ≠ 2 types).
    pub prom_alpha_beta: u64,
    /// `PrOM^β1p` (Alg 6.4).
    pub prom_beta_1p: u64,
    /// `PrOM^βPb` (Alg 6.5).
    pub prom_beta_pb: u64,
    /// Bounded-sum pruning with probes (Alg 3.10) on the bounded-difference tree.
    pub bounded_pb: u64,
    /// One-pass bounded-sum pruning (Alg 3.9) on the bounded-difference tree.
    pub bounded_1p: u64,
}

/// Runs every counted algorithm on the trees of one seed, depth and width.
pub fn count_tree(
    seed: u64,
    depth: usize,
    width: usize,
    cfg: &ReportConfig,
    tt: &mut TransTable,
) -> Result<TreeCounts, TreeError> {
    let om_tree = RandomTree::new(seed, depth, width, 2)?;
    let ab = alpha_beta_search(&om_tree, 0)?.evals.total();
    let nt = cfg.model.len().max(1);
    let prom_ab;
    let (prom_1p, prom_pb) = if nt == 2 {
        prom_ab = ab;
        (
            prom_search_beta_1p(&om_tree, &cfg.model)?,
            prom_search_beta_pb(&om_tree, &cfg.model)?,
        )
    } else {
        let t = RandomTree::new(seed, depth, width, nt)?;
        prom_ab = alpha_beta_search(&t, 0)?.evals.total();
        (
            prom_search_beta_1p(&t, &cfg.model)?,
            prom_search_beta_pb(&t, &cfg.model)?,
        )
    };
    let bd = BoundedTree::new(seed, depth, width, cfg.bound)?;
    Ok(TreeCounts {
        alpha_beta: ab,
        om_beta_1p: om_search_beta_1p(&om_tree, 1)?.evals.total(),
        om_beta_pb: om_search_beta_pb(&om_tree, 1)?.evals.total(),
        om_beta_pb_tt: om_search_beta_pb_tt(&om_tree, 1, tt)?.evals.total(),
        om_beta_pb_tt_pvs: om_search_beta_pb_tt_pvs(&om_tree, 1, tt)?.evals.total(),
        pvs_tt: alpha_beta_tt_search(&om_tree, 0, tt, true)?.evals.total(),
        prom_alpha_beta: prom_ab,
        prom_beta_1p: prom_1p.evals.total(),
        prom_beta_pb: prom_pb.evals.total(),
        bounded_pb: om_search_bounded_pb(&bd, 1, cfg.bound)?.evals.total(),
        bounded_1p: om_search_bounded_1p(&bd, 1, cfg.bound)?.evals.total(),
    })
}

/// The `q`-quantile (0..=1) of sorted data, linearly interpolated; 0 for no data.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Five-number summary: 5th percentile, quartiles, median, 95th percentile.
pub fn summary(mut data: Vec<f64>) -> [f64; 5] {
    data.sort_by(f64::total_cmp);
    [0.05, 0.25, 0.5, 0.75, 0.95].map(|q| quantile(&data, q))
}

type Column = (&'static str, fn(&TreeCounts) -> f64);

fn ratio(num: u64, den: u64) -> f64 {
    num as f64 / den.max(1) as f64
}

const COLUMNS: [Column; 11] = [
    ("OM^b1p / alpha-beta (Alg 3.7; Figs 5.3-5.5)", |c| {
        ratio(c.om_beta_1p, c.alpha_beta)
    }),
    ("OM^bPb / alpha-beta (Alg 3.8; Figs 5.3-5.5)", |c| {
        ratio(c.om_beta_pb, c.alpha_beta)
    }),
    ("OM^bPb+TT / alpha-beta (Fig 5.6)", |c| {
        ratio(c.om_beta_pb_tt, c.alpha_beta)
    }),
    ("TT saving in OM^bPb, % of evaluations (Fig 5.7)", |c| {
        100.0 * (1.0 - ratio(c.om_beta_pb_tt, c.om_beta_pb))
    }),
    (
        "OM^bPb+TT with PVS in the probes / alpha-beta (3.4.6)",
        |c| ratio(c.om_beta_pb_tt_pvs, c.alpha_beta),
    ),
    (
        "PVS+TT / alpha-beta (alpha-beta with the same enhancements)",
        |c| ratio(c.pvs_tt, c.alpha_beta),
    ),
    (
        "OM^bPb+TT with PVS in the probes / PVS+TT (like for like)",
        |c| ratio(c.om_beta_pb_tt_pvs, c.pvs_tt),
    ),
    ("PrOM^b1p / alpha-beta (Alg 6.4; Figs 7.1-7.4)", |c| {
        ratio(c.prom_beta_1p, c.prom_alpha_beta)
    }),
    ("PrOM^bPb / alpha-beta (Alg 6.5; Figs 7.1-7.4)", |c| {
        ratio(c.prom_beta_pb, c.prom_alpha_beta)
    }),
    (
        "bounded-sum Pb / alpha-beta (Alg 3.10, bounded-difference trees)",
        |c| ratio(c.bounded_pb, c.alpha_beta),
    ),
    (
        "bounded-sum 1p / alpha-beta (Alg 3.9, bounded-difference trees)",
        |c| ratio(c.bounded_1p, c.alpha_beta),
    ),
];

/// The default text report.
pub fn text_report(cfg: &ReportConfig) -> Result<String, TreeError> {
    let mut tt = TransTable::new(cfg.tt_bits, cfg.tt_leaves);
    let mut rows: Vec<(usize, usize, Vec<TreeCounts>)> = Vec::new();
    for &d in &cfg.depths {
        for &w in &cfg.widths {
            let mut counts = Vec::with_capacity(cfg.seeds.len());
            for &s in &cfg.seeds {
                counts.push(count_tree(s, d, w, cfg, &mut tt)?);
            }
            rows.push((d, w, counts));
        }
    }
    let mut out = String::new();
    let probs: Vec<String> = (0..cfg.model.len())
        .map(|i| format!("{}", cfg.model.prob(i)))
        .collect();
    let _ = writeln!(
        out,
        "nosce trees: {} trees per row (seeds {}), MT19937 random trees (Donkers 2003, 5.2.1)",
        cfg.seeds.len(),
        seed_text(&cfg.seeds)
    );
    let _ = writeln!(
        out,
        "PrOM: {} opponent types, Pr = [{}]; bounded-sum: |V0 - Vop| <= {}; TT: 2^{} entries{}",
        cfg.model.len(),
        probs.join(", "),
        cfg.bound,
        cfg.tt_bits.clamp(4, 26),
        if cfg.tt_leaves {
            ", leaves stored"
        } else {
            ", interior nodes only"
        }
    );
    let _ = writeln!(out, "\nalpha-beta leaf evaluations (absolute)");
    write_block(&mut out, &rows, |c| c.alpha_beta as f64, 0);
    for (title, f) in COLUMNS {
        let _ = writeln!(out, "\n{title}");
        write_block(&mut out, &rows, f, 2);
    }
    Ok(out)
}

fn seed_text(seeds: &[u64]) -> String {
    match seeds {
        [] => "none".into(),
        [a] => a.to_string(),
        _ if seeds.windows(2).all(|p| p[1] == p[0] + 1) => {
            format!("{}..{}", seeds[0], seeds[seeds.len() - 1])
        }
        _ => format!("{} given", seeds.len()),
    }
}

fn write_block(
    out: &mut String,
    rows: &[(usize, usize, Vec<TreeCounts>)],
    f: impl Fn(&TreeCounts) -> f64,
    decimals: usize,
) {
    let _ = writeln!(
        out,
        "{:>5} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "depth", "width", "p5", "q1", "median", "q3", "p95"
    );
    for (d, w, counts) in rows {
        let s = summary(counts.iter().map(&f).collect());
        let _ = writeln!(
            out,
            "{d:>5} {w:>5} {:>10.decimals$} {:>10.decimals$} {:>10.decimals$} {:>10.decimals$} {:>10.decimals$}",
            s[0], s[1], s[2], s[3], s[4]
        );
    }
}

/// The `--csv` report: one line per seed (and depth, width) with the minimax value, the OM
/// value and the evaluation counts of α-β, `OM^β1p` and `OM^βPb`.
pub fn csv_report(cfg: &ReportConfig) -> Result<String, TreeError> {
    let mut out = String::from(
        "seed,depth,width,minimax,om,evals_alphabeta,evals_om_beta_1p,evals_om_beta_pb\n",
    );
    for &d in &cfg.depths {
        for &w in &cfg.widths {
            for &s in &cfg.seeds {
                let tree = RandomTree::new(s, d, w, 2)?;
                let ab = alpha_beta_search(&tree, 0)?;
                let b1p = om_search_beta_1p(&tree, 1)?;
                let bpb = om_search_beta_pb(&tree, 1)?;
                let _ = writeln!(
                    out,
                    "{s},{d},{w},{},{},{},{},{}",
                    ab.value,
                    bpb.value,
                    ab.evals.total(),
                    b1p.evals.total(),
                    bpb.evals.total()
                );
            }
        }
    }
    Ok(out)
}
