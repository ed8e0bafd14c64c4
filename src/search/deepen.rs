//! Iterative deepening, the plain α-β root driver's loop: the main thread deepens with an
//! aspiration window around the previous iteration's score (widened on failure, the
//! window's rules in [`super::window`]), reports each completed iteration and each
//! MultiPV line, and decides between iterations whether to go on (soft deadline, stable
//! best move, a mate searched out); helper threads (Lazy SMP) deepen on their own from
//! staggered depths and take part in the depth race ([`super::race`]). Winands 2004 §2
//! (PVS under iterative deepening) is the probe these loops drive; the shared entry point
//! is [`super::search`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::window::{Aspiration, Fail};
use shakmaty::Move;

use super::{Clock, SearchContext, SearchResult, Worker, mate_searched_out, node_share, race};
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::report::{ScoreBound, SearchInfo, wdl_from_score};
use crate::score::{INFINITE, MAX_PLY, Score, is_decisive, is_mate, mate_moves};

pub(super) fn helper_loop<E: Evaluator + ?Sized>(w: &mut Worker<'_, E>, id: usize) {
    // Odd helpers start a ply ahead; once any thread has completed a depth, every thread
    // goes on from the next one (the race).
    let stagger = (id % 2) as i32;
    let mut depth = 1 + stagger;
    while depth < MAX_PLY as i32 - 10 {
        if let Some(r) = w.race {
            depth = depth.max(r.completed() + 1);
        }
        w.root_depth = depth;
        let s = w.search(-INFINITE, INFINITE, depth, false);
        if w.race_cut {
            // Another thread finished this depth first: go on from there.
            w.aborted = false;
            w.race_cut = false;
            continue;
        }
        if w.aborted {
            break;
        }
        if let Some(r) = w.race {
            r.publish(race::Finished {
                depth,
                score: s,
                pv: w.root_pv(),
                scores: Vec::new(),
            });
        }
        depth += 1;
    }
    if let Some(c) = w.node_counter {
        c.store(w.nodes, Ordering::Relaxed);
    }
}

struct Line {
    score: Score,
    pv: Vec<Move>,
    /// `Lower` for a cut iteration's new best move that failed high (fail-soft score).
    bound: ScoreBound,
}

pub(super) fn main_loop<'a, E: Evaluator + ?Sized>(
    ctx: &SearchContext<'a, E>,
    w: &mut Worker<'a, E>,
    limits: &'a Limits,
    allowed: &[Move],
    counters: &'a [AtomicU64],
) -> SearchResult {
    let cfg = ctx.config;
    let race = w.race;
    w.clock = Some(Clock::new(
        limits,
        cfg.move_overhead,
        &cfg.time_params,
        ctx.control,
        counters,
    ));
    w.reporter = Some(ctx.reporter);
    if counters.len() == 1 {
        w.node_limit = limits.nodes.unwrap_or(u64::MAX);
    }
    let mut result = SearchResult {
        best: allowed.first().copied(),
        ..SearchResult::default()
    };
    if allowed.is_empty() {
        return result;
    }
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 10))
        .unwrap_or(MAX_PLY as u32 - 10);
    // One legal move in a timed game: answer after a shallow look.
    let max_depth = if allowed.len() == 1 && limits.is_timed() && !limits.ponder {
        max_depth.min(4)
    } else {
        max_depth
    };
    let multipv = cfg.multipv.clamp(1, allowed.len());
    let mut prev_best: Option<Move> = None;
    let mut stable = 0u32;
    w.root_effort.clear();

    let mut depth = 0;
    while depth < max_depth as i32 {
        depth += 1;
        w.root_depth = depth;
        w.seldepth = 0;
        let mut lines: Vec<Line> = Vec::with_capacity(multipv);
        w.root_exclude.clear();
        // A helper may have completed this depth (or a deeper one) already.
        let mut taken = race.and_then(|r| r.taken_at(depth));
        if taken.is_none() {
            for pv_idx in 0..multipv {
                let prev_score = if depth > 1 {
                    result_score_hint(&result, pv_idx)
                } else {
                    None
                };
                let line = aspiration(ctx, w, depth, prev_score, pv_idx, counters);
                let Some(line) = line else { break };
                if let Some(&m) = line.pv.first() {
                    w.root_exclude.push(m);
                }
                lines.push(line);
            }
            if w.race_cut {
                // Abandoned for a helper's result of this depth (or deeper).
                w.aborted = false;
                w.race_cut = false;
                lines.clear();
                taken = race.and_then(|r| r.taken_at(depth));
            } else if !w.aborted
                && let Some(r) = race
                && let Some(l) = lines.first()
            {
                r.publish(race::Finished {
                    depth,
                    score: l.score,
                    pv: l.pv.clone(),
                    scores: Vec::new(),
                });
            }
        }
        if let Some(f) = taken {
            depth = f.depth.min(max_depth as i32);
            lines = vec![Line {
                score: f.score,
                pv: f.pv,
                bound: ScoreBound::Exact,
            }];
        }
        let completed = !w.aborted && lines.len() == multipv;
        if lines.is_empty() || (!completed && !w.root_pv_changed) {
            break;
        }
        // A partial iteration still counts when its first line beat the previous best.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let best_line = &lines[0];
        if best_line.pv.is_empty() {
            break;
        }
        result.best = best_line.pv.first().copied();
        result.ponder = best_line.pv.get(1).copied();
        result.own_reply = result.ponder;
        result.score = best_line.score;
        result.pv = best_line.pv.clone();
        if !completed {
            // The new best move of a cut iteration is shown: the last pv a GUI sees starts
            // with the move we play (match runners check it). Other root moves were not
            // searched, so the root's value is only known to be at least this line's: a
            // lower bound (an aborted depth 1 could otherwise claim "mate -1" for a root that
            // mates, as the first move searched happened to be a blunder).
            let bound = match best_line.bound {
                ScoreBound::Upper => ScoreBound::Upper,
                _ => ScoreBound::Lower,
            };
            report(ctx, w, depth, 1, best_line, bound, counters);
            break;
        }
        result.depth = depth as u32;
        for (i, l) in lines.iter().enumerate() {
            report(ctx, w, depth, i as u32 + 1, l, ScoreBound::Exact, counters);
        }
        // Stop conditions between iterations.
        if let Some(mate) = limits.mate
            && is_mate(result.score)
            && result.score > 0
            && mate_moves(result.score) as u32 <= mate
        {
            break;
        }
        if result.best == prev_best {
            stable += 1;
        } else {
            stable = 0;
        }
        prev_best = result.best;
        let mut factor = cfg.time_params.stability_factor(stable);
        if cfg.params.features.node_time
            && let Some(share) = node_share(&w.root_effort, result.best)
        {
            factor *= cfg.time_params.node_share_factor(share);
        }
        let clock = w.clock.as_mut().expect("main thread has a clock");
        clock.adjust(factor);
        if clock.soft_expired() {
            break;
        }
        if mate_searched_out(result.score, depth) {
            break;
        }
    }
    counters[0].store(w.nodes, Ordering::Relaxed);
    result.nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    result
}

fn result_score_hint(result: &SearchResult, pv_idx: usize) -> Option<Score> {
    if pv_idx == 0 && !result.pv.is_empty() {
        Some(result.score)
    } else {
        None
    }
}

/// One root search with an aspiration window around the previous score, widened on
/// failure. Returns `None` if aborted before any line was found.
fn aspiration<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    w: &mut Worker<'_, E>,
    depth: i32,
    prev: Option<Score>,
    pv_idx: usize,
    counters: &[AtomicU64],
) -> Option<Line> {
    let p = &ctx.config.params;
    let mut window = Aspiration::root(p, prev.filter(|_| depth >= p.aspiration_min_depth));
    w.root_pv_changed = false;
    loop {
        let (alpha, beta) = window.window();
        let s = w.search(alpha, beta, depth, false);
        if w.aborted {
            if !(w.root_pv_changed && pv_idx == 0) {
                return None;
            }
            // The cut search returns no value: the new best move's own score is the one it
            // returned before the cut.
            let pv = w.root_pv();
            let score = pv
                .first()
                .and_then(|m| w.root_scores.iter().find(|(r, _)| r == m))
                .map_or(alpha, |&(_, sc)| sc);
            let bound = if score >= beta {
                ScoreBound::Lower
            } else {
                ScoreBound::Exact
            };
            return Some(Line { score, pv, bound });
        }
        let Some(fail) = window.outcome(s) else {
            return Some(Line {
                score: s,
                pv: w.root_pv(),
                bound: ScoreBound::Exact,
            });
        };
        let long = w
            .clock
            .as_ref()
            .is_some_and(|c| c.elapsed() > Duration::from_secs(2));
        if long {
            let (score, bound) = match fail {
                Fail::Low => (alpha, ScoreBound::Upper),
                Fail::High => (beta, ScoreBound::Lower),
            };
            let l = Line {
                score,
                pv: w.root_pv(),
                bound,
            };
            report(ctx, w, depth, pv_idx as u32 + 1, &l, bound, counters);
        }
        if fail == Fail::Low {
            w.root_pv_changed = false;
        }
        window.widen(s, fail);
    }
}

fn report<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    w: &Worker<'_, E>,
    depth: i32,
    multipv: u32,
    line: &Line,
    bound: ScoreBound,
    counters: &[AtomicU64],
) {
    counters[0].store(w.nodes, Ordering::Relaxed);
    let nodes: u64 = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    let time = w.clock.as_ref().map_or(Duration::ZERO, |c| c.elapsed());
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
    let score = match ctx.root_tb_score {
        Some(tb) if !is_decisive(line.score) => tb,
        _ => line.score,
    };
    ctx.reporter.info(&SearchInfo {
        depth: depth as u32,
        seldepth: w.seldepth.max(depth as usize) as u32,
        multipv,
        score,
        bound,
        nodes,
        nps,
        time,
        hashfull: ctx.tt.hashfull(),
        tbhits: w.tbhits,
        pv: line.pv.clone(),
        wdl: wdl_from_score(score),
    });
}
