//! An `engine` opponent type with a mixed strategy (`skill=L`, `tau=CP`): PrOM takes the
//! expectation over the engine's MultiPV lines, weighted by the strategy
//! (`src/search/om/policy.rs`), through the real binary.
//!
//! The engine is `tests/fake_uci.py multipv`, a one-ply material player that lists every
//! legal move with its score (python3 with python-chess, which `.ci/run` installs; a missing
//! python is a failure, not a skip). After 1.e4 e5 2.Nf3 Nc6 it answers 3.h4 with ...Qxh4
//! (a pawn, and the queen is lost to Rxh4), which the plain engine type predicts and PrOM
//! plays for; a near-uniform strategy (τ = 10,000 cp) is a random player instead.

use crate::common;

use std::time::Duration;

use common::{Engine, parse_bestmove};

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

/// The fake engine's command line.
fn fake() -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_uci.py");
    format!("python3 \"{script}\" multipv")
}

/// The best move and the last iteration's (OM value, α-β value) of a depth-3 search with
/// the opponent `types` in `mode`, the fake engine listing 64 lines.
fn search(mode: &str, types: &str) -> (String, i32, i32) {
    search_with(mode, types, &[])
}

/// [`search`] with more options set.
fn search_with(mode: &str, types: &str, more: &[(&str, &str)]) -> (String, i32, i32) {
    search_at(FEN, mode, types, more)
}

/// [`search_with`] in the position `fen`.
fn search_at(fen: &str, mode: &str, types: &str, more: &[(&str, &str)]) -> (String, i32, i32) {
    let (mut e, _) = Engine::start_uci();
    let fake = fake();
    let options = [
        ("OM_Mode", mode),
        ("OM_SpeculationDepth", "2"),
        ("OM_OpponentEngine", &format!("{fake} | MultiPV=64")),
        ("OM_OpponentTypes", types),
    ];
    for (k, v) in options.iter().chain(more) {
        e.send(&format!("setoption name {k} value {v}"));
    }
    let ready = e.sync();
    e.check(
        !ready.iter().any(|l| l.contains("error")),
        &format!("the options were refused: {ready:?}"),
    );
    e.send(&format!("position fen {fen}"));
    let (lines, _) = e.go("go depth 3", Duration::from_secs(60));
    let om = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info string om depth 3 "))
        .cloned();
    let Some(om) = om else {
        e.fail("no 'om depth 3' report");
    };
    let words: Vec<&str> = om.split_whitespace().collect();
    let field = |key: &str| -> i32 {
        let i = words.iter().rposition(|w| *w == key).expect(key);
        words[i + 1].parse().expect("a number")
    };
    let (best, _) = parse_bestmove(lines.last().expect("bestmove"));
    let out = (best, field("om"), field("ab"));
    e.send("quit");
    e.expect_exit(Duration::from_secs(5));
    out
}

#[test]
fn a_sharp_strategy_is_the_engine_type_and_om_mode_ignores_the_strategy() {
    let plain = search("prom", "engine:1:depth=1");
    assert_eq!(
        plain.0, "h2h4",
        "the plain type plays for ...Qxh4: {plain:?}"
    );
    // τ = 1 cp puts (almost) all weight on the engine's first line, which is its move.
    let sharp = search("prom", "engine:1:depth=1:tau=1");
    assert_eq!(sharp, plain);
    // Skill level 20 (weakness 80) never leaves a line a pawn better than the rest.
    let skilled = search("prom", "engine:1:depth=1:skill=20");
    assert_eq!(skilled, plain);
    // OM search speculates on one move: the engine's, whatever the strategy.
    let om = search("om", "engine:1:depth=1:tau=10000");
    assert_eq!(
        (om.0.as_str(), om.1),
        (plain.0.as_str(), plain.1),
        "{om:?} against {plain:?}"
    );
}

#[test]
fn a_random_opponent_is_valued_by_its_expectation() {
    let plain = search("prom", "engine:1:depth=1");
    let random = search("prom", "engine:1:depth=1:tau=10000");
    // Every move of a random opponent counts, not only ...Qxh4: the trap is worth less...
    assert!(
        random.1 < plain.1 - 300,
        "uniform {random:?} against the engine's move {plain:?}"
    );
    // ...but the expectation over all replies is never below the best reply's value (α-β),
    // and a random player gives much away.
    assert!(
        random.1 >= random.2 + 50,
        "the expectation {random:?} is not above alpha-beta"
    );
    // Skill level 0 (weakness 120) plays the weaker lines often: between the two.
    let weak = search("prom", "engine:1:depth=1:skill=0");
    assert!(
        weak.1 < plain.1 && weak.1 > random.2,
        "skill 0 {weak:?}, sharp {plain:?}"
    );
}

/// The best move and value of a plain α-β search to depth 3.
fn alpha_beta() -> (String, i32) {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {FEN}"));
    let (lines, _) = e.go("go depth 3", Duration::from_secs(60));
    let (best, _) = parse_bestmove(lines.last().expect("bestmove"));
    let score = lines
        .iter()
        .rev()
        .find_map(|l| common::info_field(l, "cp").and_then(|v| v.parse().ok()));
    let Some(score) = score else {
        e.fail("no score");
    };
    e.send("quit");
    e.expect_exit(Duration::from_secs(5));
    (best, score)
}

#[test]
fn engine_valued_strategies_add_the_expected_loss_to_alpha_beta() {
    let engine = [("OM_Search", "policy=engine")];
    // A sharp strategy loses nothing by the engine's scores: the search is α-β's.
    let (ab_move, ab_value) = alpha_beta();
    let sharp = search_with("prom", "engine:1:depth=1:tau=1", &engine);
    assert_eq!(
        (sharp.0.as_str(), sharp.1, sharp.2),
        (ab_move.as_str(), ab_value, ab_value),
        "tau=1 by the engine's scores against alpha-beta {ab_move} {ab_value}"
    );
    // A flat one adds the mean of the (capped) gaps below the engine's best line: the value
    // is not below α-β's and above it by at most the cap (300 cp). (Here the fake engine
    // scores most replies alike, so the gain can be 0.)
    let flat = search_with("prom", "engine:1:depth=1:tau=10000", &engine);
    assert!(
        flat.1 >= flat.2 && flat.1 <= flat.2 + 300,
        "uniform by the engine's scores: {flat:?}"
    );
    // In the Scotch (4.Nxd4 Nxd4: the fake engine takes the knight, 300 cp by its one-ply
    // count, and scores most other replies 0) a flat strategy's expected loss is near the cap.
    let scotch = "r1bqkbnr/pppp1ppp/2n5/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4";
    let gift = search_at(scotch, "prom", "engine:1:depth=1:tau=10000", &engine);
    let none = search_at(scotch, "prom", "engine:1:depth=1:tau=1", &engine);
    assert!(
        gift.2 == none.2 && none.1 == none.2 && gift.1 > gift.2 + 200 && gift.1 <= gift.2 + 300,
        "Scotch: flat {gift:?}, sharp {none:?}"
    );
    // Without the trap's search below ...Qxh4 the value is far below the searched one.
    let searched = search("prom", "engine:1:depth=1");
    assert!(flat.1 < searched.1, "{flat:?} against {searched:?}");
    // Twice the same.
    assert_eq!(
        search_with("prom", "engine:1:depth=1:tau=10000", &engine),
        flat
    );
}

#[test]
fn a_strategy_for_our_own_types_is_refused_and_the_model_kept() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name OM_OpponentTypes value material:1:depth=2");
    e.send("setoption name OM_OpponentTypes value self:1:skill=5");
    e.send("setoption name OM_OpponentTypes value engine:1:skill=5:tau=40");
    e.send("setoption name OM_OpponentTypes value engine:1:tau=0");
    let lines = e.sync();
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    e.check(
        errors.len() == 3
            && errors.iter().all(|l| l.contains("model unchanged"))
            && errors[0].contains("skill is for engine types only")
            && errors[1].contains("exclude each other")
            && errors[2].contains("tau must be 1..10000"),
        &format!("errors: {errors:?}"),
    );
    e.send("quit");
    e.expect_exit(Duration::from_secs(5));
}
