//! Unit tests of the `nosce kqkr` command line (`super`).

use super::*;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn depth_lists() {
    assert_eq!(parse_depths("0..3"), Ok(vec![0, 1, 2, 3]));
    assert_eq!(parse_depths("5,1,1-2"), Ok(vec![1, 2, 5]));
    // Found by the fuzzer: a huge range was expanded before it was checked.
    assert!(parse_depths("0..4000000000000000000").is_err());
    assert!(parse_depths("3-61").is_err());
    assert!(parse_depths("3..1").is_err() && parse_depths("x").is_err());
}

#[test]
fn options_change_the_default() {
    let Command::Run(c) = parse(&args(
        "--depths 0,2 --games 3 --opp-depth 6 --model-depth 4",
    ))
    .unwrap() else {
        panic!()
    };
    assert_eq!(c.spec_depths, vec![0, 2]);
    assert_eq!(c.opponent.limit(), SideLimit::Depth(6));
    assert_eq!(c.model.types[0].base.depth, Some(4));
    let Command::Run(f) = parse(&args("--full")).unwrap() else {
        panic!()
    };
    assert_eq!((f.spec_depths.len(), f.games), (12, 20));
    // A later option overrides an earlier one (scripts append to a base command line).
    let Command::Run(c) = parse(&args("--games 2 --depths 0 --games 5")).unwrap() else {
        panic!()
    };
    assert_eq!(c.games, 5);
}

#[test]
fn uci_budgets_and_engine_models() {
    let exe = std::env::current_exe().unwrap().display().to_string();
    let mut a = vec!["--opponent-uci".to_string(), exe];
    a.extend(args(
        "--opp-nodes 900 --opp-nodes-spread 0.5 --model engine:1:replay=on \
         --model-knows-budget",
    ));
    let Command::Run(c) = parse(&a).unwrap() else {
        panic!()
    };
    assert_eq!(
        c.opponent.node_spread().map(|(s, n)| (s.range(n), n)),
        Some(((450, 1350), 900))
    );
    assert!(c.model.uses_engine() && c.model_knows_budget);
    let keys: Vec<String> = c.record().into_iter().map(|(k, _)| k).collect();
    assert!(keys.iter().any(|k| k == "opponent.nodes_spread"));
    assert!(keys.iter().any(|k| k == "model.knows_budget"));
    a.truncate(2);
    a.extend(args("--opp-depth 5 --opp-nodes-spread 0.5"));
    assert!(parse(&a).is_err());
}

#[test]
fn bad_input_has_a_reason() {
    for bad in [
        "--games 0",
        "--games",
        "--depths 1..x",
        "--shard 3/2",
        "--frobnicate",
        "--model magic:1",
        "--model self --model-depth 3",
        "--opponent-option Hash=1",
        "--opp-eval queen",
        "--model engine:1:nodes=500",
        "--opp-nodes 900 --opp-nodes-spread 0.5",
        "--opp-nodes-spread 0.5 --opponent-uci /nonexistent",
        "--model-knows-budget",
    ] {
        assert!(parse(&args(bad)).is_err(), "{bad}");
    }
    assert!(parse(&args("merge a")).is_err());
    let Command::Check(c) = parse(&args("--check --games 2 --shard 2/4")).unwrap() else {
        panic!("--check is a check")
    };
    assert_eq!((c.games, c.shard), (2, Some((2, 4))));
    assert!(parse(&args("--check --games 0")).is_err());
    assert!(parse(&args("analyze")).is_err());
}
