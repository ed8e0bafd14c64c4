//! `nosce kqkr calibrate`: the opponent budget at which the base case (s = 0, the K+R side
//! playing the first DTM-optimal move α-β prefers) looks like the thesis' (Donkers 2003
//! §5.4.3: the opponent erred in 20–25 % of its moves; mean game length 37.4 and 40.3 moves
//! in the two positions). Plays the base case at each candidate depth and picks the one
//! closest to an error rate of 22.5 % and a mean length of 38.5 moves.

use std::fmt::Write as _;

use super::config::{KqkrConfig, ModelConfig, OpponentConfig, SideLimit};
use super::stats::mean;
use super::sweep::{Progress, load_tables, play_all};

/// The target error rate (% of K+Q moves) and mean length (moves).
pub const TARGET: (f64, f64) = (22.5, 38.5);

/// Distance of a measurement from [`TARGET`] (error points count 1/2.5, length 1/1.5).
pub fn distance(err_pct: f64, length: f64) -> f64 {
    ((err_pct - TARGET.0) / 2.5).abs() + ((length - TARGET.1) / 1.5).abs()
}

/// Runs the calibration; returns the report.
pub fn calibrate(cfg: &KqkrConfig, candidates: &[u32]) -> Result<String, String> {
    let exact = load_tables(cfg, cfg.progress)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Calibration: base case (s = 0), {} games per position, K+R {}; target {:.1} % \
         errors (DTM), mean length {:.1}\n",
        cfg.games, cfg.kr_limit, TARGET.0, TARGET.1
    );
    let _ = writeln!(
        out,
        "| opponent | games | errors % | mean length | converted | s/game | distance |\n|---|---|---|---|---|---|---|"
    );
    let mut best: Option<(f64, u32, f64, f64)> = None;
    for &d in candidates {
        let mut c = cfg.clone();
        c.spec_depths = vec![0];
        match &mut c.opponent {
            OpponentConfig::Builtin { limit, .. } | OpponentConfig::Uci { limit, .. } => {
                *limit = SideLimit::Depth(d);
            }
        }
        c.model = ModelConfig::perfect(&c.opponent);
        let todo = c.jobs_list();
        if c.progress {
            eprintln!("opponent depth {d}:");
        }
        let mut progress = Progress::new(todo.len(), c.progress);
        let (mut lengths, mut kq, mut errs, mut converted, mut secs) = (vec![], 0, 0, 0, 0.0);
        play_all(&c, &exact, &todo, |rec| {
            progress.tick();
            if let Some(e) = rec.error {
                return Err(e);
            }
            lengths.push(rec.row.length as f64);
            kq += rec.row.kq_moves;
            errs += rec.row.errors_dtm + rec.row.thrown;
            converted += usize::from(rec.row.outcome.kq_won());
            secs += rec.row.time_s;
            Ok(())
        })?;
        let err_pct = 100.0 * errs as f64 / kq.max(1) as f64;
        let len = mean(&lengths);
        let dist = distance(err_pct, len);
        let _ = writeln!(
            out,
            "| depth={d} | {} | {err_pct:.1} | {len:.1} | {converted} | {:.1} | {dist:.2} |",
            lengths.len(),
            secs / lengths.len().max(1) as f64
        );
        if best.is_none_or(|b| dist < b.0) {
            best = Some((dist, d, err_pct, len));
        }
    }
    if let Some((_, d, e, l)) = best {
        let _ = writeln!(
            out,
            "\ncalibrated: --opp-depth {d} (errors {e:.1} %, mean length {l:.1} moves)"
        );
    }
    Ok(out)
}
