//! `Threads` in the OM driver (`search::om::parallel`): in deterministic mode a depth-limited
//! OM or PrOM search returns the same value and move with 1, 2 and 3 threads, on bench
//! positions and on random positions; in fast mode through the real binary, `Threads=2` plays
//! legal moves, keeps the clock and reports the probes of every participant and how many ran
//! at once. (Helpers whose
//! private tables do not fit: `tests/it/memory_limits.rs`.)

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::Engine;
use nosce::eval::{Evaluator, FullEval, MaterialEval};
use nosce::limits::Limits;
use nosce::position::Position;
use nosce::report::{OmReport, Reporter, SearchInfo};
use nosce::search::om::OmMode;
use nosce::search::om::config::{OmConfig, TypeSetup};
use nosce::search::om::model::search_model;
use nosce::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves};
use nosce::tt::TranspositionTable;
use shakmaty::Position as _;

fn om_type(eval: Arc<dyn Evaluator>, probability: f64, depth: u32) -> TypeSetup {
    TypeSetup {
        eval,
        tt: Arc::new(TranspositionTable::new(4)),
        probability,
        depth: Some(depth),
        nodes: None,
        tablebases: false,
        replay: false,
        engine: None,
    }
}

/// A deterministic OM (one type) or PrOM (two types) search of `pos` to `depth` with
/// `threads`, from fresh tables.
fn search_det(pos: &Position, prom: bool, threads: usize, depth: u32) -> SearchResult {
    let material: Arc<dyn Evaluator> = Arc::new(MaterialEval);
    let full: Arc<dyn Evaluator> = Arc::new(FullEval::default());
    let (mode, types) = if prom {
        (
            OmMode::Prom,
            vec![om_type(material, 0.4, 2), om_type(full, 0.6, 3)],
        )
    } else {
        (OmMode::Om, vec![om_type(material, 1.0, 3)])
    };
    let setup = OmConfig {
        ties: true,
        deterministic: true,
        ..OmConfig::new(mode, 2, types)
    };
    let own = FullEval::default();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::default();
    let config = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    let ctx = SearchContext::silent(&own, &tt, &control, &config);
    let limits = Limits::depth(depth);
    let allowed = root_moves(pos, &limits);
    search_model(&ctx, &setup, pos, &limits, &allowed)
}

/// Positions reached by `plies` pseudo-random legal moves from the start (a fixed LCG).
fn random_positions(count: usize, plies: usize) -> Vec<Position> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::default();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            pos.play(m);
        }
        if !pos.legal_moves().is_empty() && !pos.chess().is_check() {
            out.push(pos);
        }
    }
    out
}

fn check_equal(pos: &Position, label: &str, depth: u32) {
    for prom in [false, true] {
        let one = search_det(pos, prom, 1, depth);
        assert!(one.best.is_some(), "{label}: no move");
        for threads in [2, 3] {
            let many = search_det(pos, prom, threads, depth);
            assert_eq!(
                (one.score, one.best),
                (many.score, many.best),
                "{label} ({}): Threads=1 and Threads={threads} differ in deterministic mode",
                if prom { "PrOM" } else { "OM" }
            );
        }
    }
}

#[test]
fn deterministic_mode_gives_the_same_value_and_move_with_any_threads_on_bench_positions() {
    let fens = nosce::bench::positions();
    assert!(fens.len() >= 8);
    for fen in fens.iter().step_by(fens.len() / 8).take(8) {
        let pos = Position::from_fen(fen).expect(fen);
        if pos.legal_moves().len() < 2 {
            continue;
        }
        check_equal(&pos, fen, 4);
    }
}

#[test]
fn deterministic_mode_gives_the_same_value_and_move_with_any_threads_on_random_positions() {
    for (i, pos) in random_positions(8, 12).iter().enumerate() {
        check_equal(pos, &format!("random position {i} ({})", pos.fen()), 4);
    }
}

fn om_engine(threads: u32, deterministic: bool) -> Engine {
    let (mut e, _) = Engine::start_uci();
    for (name, value) in [
        ("Threads", threads.to_string()),
        ("OM_Mode", "om".to_string()),
        ("OM_OpponentTypes", "material:1:depth=3".to_string()),
        ("OM_Search", format!("deterministic={deterministic}")),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.sync();
    e
}

/// The last `info depth N ... score cp V` line's (depth, score) and the `bestmove`.
fn outcome(lines: &[String]) -> (Option<(String, String)>, String) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |k: &str| {
                w.iter()
                    .position(|&x| x == k)
                    .map(|i| w[i + 1..i + 3].join(" "))
            };
            (
                at("depth").unwrap_or_default(),
                at("score").unwrap_or_default(),
            )
        });
    let best = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .cloned()
        .unwrap_or_default();
    (info, best)
}

#[test]
fn uci_threads_in_om_deterministic_equal_and_fast_mode_legal_and_on_time() {
    let position = "position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut e = om_engine(threads, true);
        e.send(position);
        let (lines, _) = e.go("go depth 5", Duration::from_secs(120));
        let (info, best) = outcome(&lines);
        e.check(info.is_some(), "no scored info line");
        results.push((info, best));
    }
    assert_eq!(
        results[0], results[1],
        "OM_Deterministic: Threads=1 and Threads=2 differ"
    );
    assert!(results[0].1.starts_with("bestmove "), "{:?}", results[0]);

    // Fast mode under a clock: legal moves, on time, and node counts from both threads.
    let mut e = om_engine(2, false);
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    let (lines, elapsed) = e.go("go movetime 300", Duration::from_secs(10));
    let (_, best) = outcome(&lines);
    e.check(best.starts_with("bestmove "), "no bestmove");
    e.check(
        elapsed < Duration::from_millis(1500),
        &format!("bestmove after {elapsed:?} with movetime 300"),
    );
    let mv = best.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut pos = Position::default();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        pos.play_uci(m).unwrap();
    }
    e.check(
        pos.play_uci(&mv).is_ok(),
        &format!("illegal move {mv} in fast mode"),
    );
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("info string om nodes own")),
        "no node report",
    );
    // The probe parallelism: at most one probe and one root move per participant at a time,
    // some at all, and root phases taking part of the search's time.
    let line = lines
        .iter()
        .find(|l| l.starts_with("info string om threads 2 probes in flight mean "))
        .cloned()
        .unwrap_or_default();
    // "... threads 2 probes in flight mean P max PM root moves in flight mean R max RM root
    // phases Z % of the time": its numbers in order.
    let numbers: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    e.check(numbers.len() == 6, &format!("thread use line {line:?}"));
    let [_, probes, probes_max, roots, roots_max, phases] = numbers[..] else {
        return;
    };
    e.check(
        probes > 0.0
            && probes <= 2.0
            && (1.0..=2.0).contains(&probes_max)
            && roots > 0.0
            && roots <= 2.0
            && (1.0..=2.0).contains(&roots_max)
            && phases > 0.0
            && phases <= 100.0,
        &format!("thread use line {line:?}: means in (0, 2], maxima 1 or 2, root phases in (0, 100] % expected"),
    );
    // With a fixed-depth model the root moves run beside our α-β pass (`overlap.rs`): every
    // iteration but the first is a root phase (after the pass they took well under half).
    e.check(
        phases >= 80.0,
        &format!(
            "thread use line {line:?}: root phases under 80 % of the time with a fixed-depth model"
        ),
    );
}

/// Keeps the search's output as data.
#[derive(Default)]
struct Collect {
    infos: parking_lot::Mutex<Vec<SearchInfo>>,
    om: parking_lot::Mutex<Vec<OmReport>>,
}

impl Reporter for Collect {
    fn info(&self, info: &SearchInfo) {
        self.infos.lock().push(info.clone());
    }
    fn message(&self, _text: &str) {}
    fn bestmove(&self, _best: Option<shakmaty::Move>, _ponder: Option<shakmaty::Move>) {}
    fn om_iteration(&self, report: &OmReport) {
        self.om.lock().push(report.clone());
    }
}

/// An OM search (type `material` at depth 3) of `fen` to `depth` with `threads` and
/// `multipv`, its output kept.
fn collect(fen: &str, depth: u32, threads: usize, multipv: usize) -> (SearchResult, Collect) {
    let pos = Position::from_fen(fen).expect(fen);
    let material: Arc<dyn Evaluator> = Arc::new(MaterialEval);
    // Without equal-best sets the predicted reply is the probe's one move.
    let setup = OmConfig::new(OmMode::Om, 2, vec![om_type(material, 1.0, 3)]);
    let own = FullEval::default();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::default();
    let config = SearchConfig {
        threads,
        multipv,
        ..SearchConfig::default()
    };
    let out = Collect::default();
    let ctx = SearchContext {
        reporter: &out,
        ..SearchContext::silent(&own, &tt, &control, &config)
    };
    let limits = Limits::depth(depth);
    let allowed = root_moves(&pos, &limits);
    let r = search_model(&ctx, &setup, &pos, &limits, &allowed);
    (r, out)
}

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

#[test]
fn om_iterations_are_reported_as_data() {
    for threads in [1, 2] {
        let (r, out) = collect(ITALIAN, 5, threads, 1);
        let om = out.om.lock();
        assert_eq!(om.len(), 5, "one report per iteration ({threads} threads)");
        let last = om.last().unwrap();
        assert_eq!(last.depth, r.depth);
        assert_eq!((last.best, last.om_value), (r.best, r.score));
        assert_eq!(last.predicted, r.pv.get(1).copied());
        assert_eq!(last.surplus(), last.om_value - last.ab_value);
        assert_eq!(last.type_nodes.len(), 1);
        assert_eq!(
            last.predicted_by_type,
            vec![last.predicted],
            "the one type's reply"
        );
        assert!(last.probes > 0 && last.own_nodes > 0 && last.type_nodes[0] > 0);
        // Counts only grow from iteration to iteration.
        for w in om.windows(2) {
            assert!(w[1].probes >= w[0].probes && w[1].own_nodes >= w[0].own_nodes);
        }
        assert!(
            last.to_string()
                .starts_with(&format!("om depth {} move ", r.depth))
        );
    }
}

#[test]
fn multipv_in_om_reports_the_best_moves_by_om_value() {
    for threads in [1, 2] {
        let (r, out) = collect(ITALIAN, 5, threads, 3);
        let infos = out.infos.lock();
        let last: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == r.depth).collect();
        assert_eq!(
            last.len(),
            3,
            "three lines at the last depth ({threads} threads)"
        );
        for (i, info) in last.iter().enumerate() {
            assert_eq!(info.multipv as usize, i + 1);
            assert!(info.pv.len() >= 2, "line {} has no predicted reply", i + 1);
        }
        assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
        let firsts: std::collections::HashSet<_> = last.iter().map(|i| i.pv[0]).collect();
        assert_eq!(firsts.len(), 3, "three different moves");
        assert_eq!((Some(last[0].pv[0]), last[0].score), (r.best, r.score));
    }
}
