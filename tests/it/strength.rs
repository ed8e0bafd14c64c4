//! `UCI_LimitStrength` and `UCI_Elo` through the real binary: what the engine says it will do,
//! that a limited search keeps to its node budget under a clock, that games differ from one
//! another, that full strength comes back, and that bad values are refused with the old
//! value kept. (How strong each rating plays is measured by matches, not here: docs/options.md,
//! "Playing strength".)

use crate::common;

use common::{Engine, SEARCH, info_field, legal_uci, parse_bestmove, position_after};
use nosce::strength::{FULL_STRENGTH_ELO, strength_for};

/// Sets an option and returns the `info string` lines it produced.
fn set(e: &mut Engine, name: &str, value: &str) -> Vec<String> {
    e.send(&format!("setoption name {name} value {value}"));
    e.sync()
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// Plays `go ...` in the start position after `moves`; returns (bestmove, nodes of the
/// last info line that has them).
fn search(e: &mut Engine, moves: &str, go: &str) -> (String, u64) {
    e.send(&format!("position startpos moves {moves}"));
    let (lines, _) = e.go(go, SEARCH);
    let (best, _) = parse_bestmove(lines.last().expect("a bestmove"));
    let list: Vec<&str> = moves.split_whitespace().collect();
    let legal = legal_uci(&position_after(None, &list));
    e.check(
        legal.contains(&best),
        &format!("bestmove {best} is not legal"),
    );
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| info_field(l, "nodes"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    (best, nodes)
}

#[test]
fn a_limited_engine_keeps_to_its_budget_and_says_what_it_plays_like() {
    let (mut e, _) = Engine::start_uci();
    let st = strength_for(1400).expect("1400 is limited");
    let said = set(&mut e, "UCI_LimitStrength", "true");
    let default = strength_for(1500).expect("the default rating is limited");
    e.check(
        said.iter().any(|l| {
            l.contains(&format!(
                "playing at UCI_Elo 1500: {} nodes a move, evaluation noise up to {} cp",
                default.nodes, default.noise
            ))
        }),
        &format!("no word on the default rating: {said:?}"),
    );
    let said = set(&mut e, "UCI_Elo", "1400");
    e.check(
        said.iter()
            .any(|l| l.contains(&format!("playing at UCI_Elo 1400: {} nodes", st.nodes))),
        &format!("no word on 1400: {said:?}"),
    );
    // Under a clock, with time to spare: the budget, not the clock, ends the search.
    for moves in ["", "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"] {
        let (_, nodes) = search(&mut e, moves, "go wtime 60000 btime 60000");
        e.check(
            nodes > 0 && nodes <= st.nodes,
            &format!("{nodes} nodes searched at a budget of {}", st.nodes),
        );
    }
    // An explicit smaller node limit still wins.
    let (_, nodes) = search(&mut e, "", "go nodes 50 wtime 60000 btime 60000");
    e.check(nodes <= 50, &format!("{nodes} nodes with go nodes 50"));
    // Above the full-strength rating nothing is limited.
    let said = set(&mut e, "UCI_Elo", &FULL_STRENGTH_ELO.to_string());
    e.check(
        said.iter().any(|l| l.contains("playing at full strength")),
        &format!("{said:?}"),
    );
    let (_, nodes) = search(&mut e, "", "go depth 7");
    e.check(
        nodes > st.nodes,
        &format!("only {nodes} nodes at full strength"),
    );
    e.close();
}

#[test]
fn weak_games_differ_from_one_another() {
    let (mut e, _) = Engine::start_uci();
    set(&mut e, "UCI_LimitStrength", "true");
    set(&mut e, "UCI_Elo", "1000");
    // The first move of eight new games: each game has its own perturbation seed, and at
    // this rating the noise is wider than the gaps between the reasonable first moves.
    let mut firsts = std::collections::BTreeSet::new();
    for _ in 0..8 {
        e.send("ucinewgame");
        let (best, _) = search(&mut e, "", "go wtime 10000 btime 10000");
        firsts.insert(best);
    }
    e.check(
        firsts.len() >= 2,
        &format!("eight games, one first move: {firsts:?}"),
    );
    e.close();
}

#[test]
fn full_strength_is_the_default_and_bad_values_keep_the_old_one() {
    let (mut e, _) = Engine::start_uci();
    // Off by default: the budget of 1400 does not apply.
    let (_, nodes) = search(&mut e, "", "go depth 9");
    let budget = strength_for(1400).expect("limited").nodes;
    e.check(
        nodes > budget,
        &format!("{nodes} nodes at default strength"),
    );
    set(&mut e, "UCI_Elo", "1400");
    let (_, nodes) = search(&mut e, "", "go depth 9");
    e.check(
        nodes > budget,
        &format!("UCI_Elo alone limited the search ({nodes} nodes)"),
    );
    for bad in ["999", "2801", "strong", ""] {
        let said = set(&mut e, "UCI_Elo", bad);
        e.check(
            said.iter().any(|l| l.starts_with("info string error")),
            &format!("UCI_Elo '{bad}' accepted: {said:?}"),
        );
    }
    let said = set(&mut e, "UCI_LimitStrength", "maybe");
    e.check(
        said.iter().any(|l| l.starts_with("info string error")),
        &format!("UCI_LimitStrength 'maybe' accepted: {said:?}"),
    );
    // 1400 was kept.
    let said = set(&mut e, "UCI_LimitStrength", "true");
    e.check(
        said.iter().any(|l| l.contains("playing at UCI_Elo 1400")),
        &format!("{said:?}"),
    );
    e.close();
}
