//! Where users meet the mate prover ([`crate::mate`], Winands 2004 ch. 4–5 and Nagai's
//! df-pn): how a search shares its limits between the prover and α-β, and how a proof
//! becomes `info ... score mate N pv ...` and the best move.
//!
//! - `go mate N` ([`Plan::First`]): the prover runs first, "mate in N", then the
//!   shortest-mate step ("mate in L − 1" after a mate in L, until one is disproven: the mate
//!   is then proven shortest, which the report says when the budget ran out first). A proof
//!   answers the search at once; without one (no mate in N, or the budget ran out) α-β
//!   searches with what is left, as before the prover existed. After `stop` without a proof
//!   a depth-1 α-β gives the answer at once.
//! - Searches without a clock (`go infinite`, `go nodes`, `go depth`) in analysis mode
//!   (`UCI_AnalyseMode`, xboard `analyze`; [`Plan::Beside`]): the prover runs on its own
//!   thread beside α-β. With a node limit it gets [`SHARE`] percent of the nodes and α-β the
//!   rest; a proof stops α-β and becomes the answer.
//!   When α-β's last completed iteration scores a shorter mate than an unshortened proof,
//!   α-β's answer stands ([`alpha_beta_is_better`]): the prover beside never makes the
//!   answer worse than α-β alone.
//! - Games on the clock never run the prover (it would take a core from α-β).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::Move;

use crate::limits::Limits;
use crate::mate::{self, Algorithm, Interrupt, Outcome, ProofLimits, ProofResult};
use crate::position::Position;
use crate::report::{Reporter, ScoreBound, SearchInfo};
use crate::score::{Score, is_mate, mate_in, mate_moves};

/// Percent of a node limit that the prover gets beside α-β.
pub(super) const SHARE: u64 = 50;

/// The prover's settings for one search (from `UCI_AnalyseMode` and `Hash`).
#[derive(Clone, Copy, Debug)]
pub(super) struct MateSettings {
    /// The algorithm (df-pn: the fastest of the provers on `mates26.epd`).
    pub algo: Algorithm,
    /// Analysis mode: the prover runs beside α-β in searches without a clock.
    pub beside: bool,
    /// The prover's table in MiB.
    pub hash_mb: usize,
}

/// How a search uses the prover.
#[derive(Debug)]
pub(super) enum Plan {
    /// α-β alone.
    None,
    /// `go mate N`: the prover first, α-β only without a proof.
    First(Algorithm, ProofLimits),
    /// The prover on a thread beside α-β, with these limits; α-β with the last.
    Beside(Algorithm, ProofLimits, Limits),
}

/// What the prover proved: a mate in `moves` along `pv` (legal, ending in checkmate).
#[derive(Clone, Debug)]
pub(super) struct Proof {
    /// Attacker moves to mate.
    pub moves: u32,
    /// The line, cut where a move would be illegal (never, for a sound proof).
    pub pv: Vec<Move>,
    /// No shorter mate exists (proven).
    pub shortest: bool,
    /// Moves the prover made.
    pub nodes: u64,
}

impl MateSettings {
    /// How a search with `limits` uses the prover; `stop` is the flag that `stop` raises.
    pub(super) fn plan(
        &self,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        deadline: Option<Instant>,
    ) -> Plan {
        let algo = self.algo;
        // One search without deepening, then the shortest-mate step: on a sample of the
        // matetrack suite this finds 9 times as many mates as deepening "mate in 1, 2, ...".
        let base = ProofLimits {
            nodes: limits.nodes.unwrap_or(u64::MAX),
            hash_mb: self.hash_mb,
            deepen: false,
            ..ProofLimits::default()
        };
        if let Some(n) = limits.mate {
            return Plan::First(
                algo,
                ProofLimits {
                    max_moves: Some(n),
                    interrupt: Interrupt {
                        flag: Some(Arc::clone(stop)),
                        deadline: if limits.ponder { None } else { deadline },
                    },
                    ..base
                },
            );
        }
        if !self.beside || limits.is_timed() || limits.ponder {
            return Plan::None;
        }
        let mut ab = limits.clone();
        let mut pl = base;
        if let Some(n) = limits.nodes {
            let mine = (u128::from(n) * u128::from(SHARE) / 100) as u64;
            pl.nodes = mine;
            ab.nodes = Some((n - mine).max(1));
        }
        // The thread's own flag is set by the driver (see `run_beside`).
        pl.interrupt = Interrupt::default();
        Plan::Beside(algo, pl, ab)
    }
}

/// Runs the prover with `algo`, telling `reporter` each "mate in n" disproven on the way.
pub(super) fn run(
    pos: &Position,
    algo: Algorithm,
    limits: &ProofLimits,
    reporter: &dyn Reporter,
) -> (Option<Proof>, ProofResult) {
    let mut on_step = |n: u32, nodes: u64| {
        reporter.message(&format!(
            "mate prover {}: no mate in {n} ({nodes} nodes)",
            algo.name()
        ));
    };
    let r = mate::prove_reporting(pos, algo, limits, &mut on_step);
    let proof = match &r.outcome {
        Outcome::Proven { mate_in_moves, pv } => Some(Proof {
            moves: *mate_in_moves,
            pv: legal_prefix(pos, pv),
            shortest: r.shortest,
            nodes: r.nodes,
        }),
        _ => None,
    };
    (proof, r)
}

/// Runs the prover of `limits` on a thread of its own while `beside` runs here. After
/// `beside` returns the prover goes on while it has a node budget of its own to spend, or
/// (`until_stop`, infinite analysis) until `stop`; otherwise it stops then. A proof raises
/// `halt` (to end `beside` early).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_beside<T>(
    pos: &Position,
    algo: Algorithm,
    limits: ProofLimits,
    reporter: &dyn Reporter,
    stop: &AtomicBool,
    until_stop: bool,
    halt: &AtomicBool,
    beside: impl FnOnce() -> T,
) -> (Option<Proof>, T) {
    let flag = Arc::new(AtomicBool::new(false));
    let bounded = limits.nodes != u64::MAX;
    let limits = ProofLimits {
        interrupt: Interrupt {
            flag: Some(Arc::clone(&flag)),
            deadline: None,
        },
        ..limits
    };
    std::thread::scope(|s| {
        let prover = std::thread::Builder::new()
            .name("mate prover".into())
            .stack_size(super::SEARCH_STACK)
            .spawn_scoped(s, || {
                let (proof, _) = run(pos, algo, &limits, reporter);
                if proof.is_some() {
                    halt.store(true, Ordering::SeqCst);
                }
                proof
            });
        let out = beside();
        if until_stop && let Ok(h) = &prover {
            while !h.is_finished() && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        if !bounded || stop.load(Ordering::SeqCst) {
            flag.store(true, Ordering::SeqCst);
        }
        let proof = match prover {
            Ok(h) => h.join().ok().flatten(),
            Err(e) => {
                reporter.message(&format!("error: cannot start the mate prover: {e}"));
                None
            }
        };
        (proof, out)
    })
}

/// Whether α-β's own answer beats a proof found beside it: α-β's last completed iteration
/// already scores a mate in fewer moves than the proof, and the prover has not shown that
/// no shorter mate exists (a proof of a mate in 12 found beside α-β's mate in 4 must not
/// replace it; a proven-shortest mate overrules an α-β mate that claims to be shorter).
pub(super) fn alpha_beta_is_better(proof: &Proof, alpha_beta_score: Score) -> bool {
    alpha_beta_score > 0
        && is_mate(alpha_beta_score)
        && !proof.shortest
        && (mate_moves(alpha_beta_score) as u32) < proof.moves
}

/// Reports `proof` as a principal variation with a mate score; `nodes` counts all moves
/// made for the search, `start` is when it began.
pub(super) fn report(reporter: &dyn Reporter, proof: &Proof, nodes: u64, start: Instant) {
    let plies = (2 * proof.moves).saturating_sub(1);
    let time = start.elapsed();
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
    if !proof.shortest {
        reporter.message(&format!(
            "mate prover: a mate in {}; no shorter one excluded within the budget",
            proof.moves
        ));
    }
    reporter.info(&SearchInfo {
        depth: plies,
        seldepth: plies,
        multipv: 1,
        score: mate_in(plies as usize),
        bound: ScoreBound::Exact,
        nodes,
        nps,
        time,
        hashfull: 0,
        tbhits: 0,
        pv: proof.pv.clone(),
        wdl: [1000, 0, 0],
    });
}

/// The longest legal prefix of `line` from `pos`.
fn legal_prefix(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !p.legal_moves().contains(&m) {
            break;
        }
        p.play(m);
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::mated_in;

    fn proof(moves: u32, shortest: bool) -> Proof {
        Proof {
            moves,
            pv: Vec::new(),
            shortest,
            nodes: 0,
        }
    }

    #[test]
    fn a_shorter_alpha_beta_mate_beats_an_unshortened_proof_only() {
        // α-β: mate in 4 (7 plies); the proof: mate in 12.
        assert!(alpha_beta_is_better(&proof(12, false), mate_in(7)));
        assert!(!alpha_beta_is_better(&proof(12, true), mate_in(7)));
        assert!(!alpha_beta_is_better(&proof(4, false), mate_in(7)), "equal");
        assert!(
            !alpha_beta_is_better(&proof(3, false), mate_in(7)),
            "longer"
        );
        assert!(!alpha_beta_is_better(&proof(12, false), 900), "no mate");
        assert!(!alpha_beta_is_better(&proof(12, false), mated_in(6)));
    }
}
