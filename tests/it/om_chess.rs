//! The opponent-model driver on real chess positions (Donkers 2003 Alg. 3.5/3.6/3.8 with the
//! engine's PVS as probe): a trap that only pays against a shallow, greedy opponent is found
//! by OM with that model and not by α-β; restricted speculation with s = 2k−1 and s = 2k
//! decides alike; PrOM and OM answer legally under a clock; searches are deterministic.
//! The engines play with the hand-crafted evaluation (`EvalFile` `hce`): the positions and
//! the learning test's expectations were built on it (issue 17: the OM tests keep their
//! behaviour with the hand-crafted evaluator; the default net plays the trap positions
//! differently, e.g. α-β's own best move in the second is the bait).

use std::sync::Arc;

use nosce::engine::Engine;
use nosce::limits::Limits;
use nosce::position::uci;
use nosce::report::{Reporter, SearchInfo};
use parking_lot::Mutex;
use shakmaty::Move;

#[derive(Default)]
struct Collect {
    infos: Mutex<Vec<SearchInfo>>,
    messages: Mutex<Vec<String>>,
    best: Mutex<Option<Option<Move>>>,
}

impl Reporter for Collect {
    fn info(&self, info: &SearchInfo) {
        self.infos.lock().push(info.clone());
    }
    fn message(&self, text: &str) {
        self.messages.lock().push(text.to_string());
    }
    fn bestmove(&self, best: Option<Move>, _ponder: Option<Move>) {
        *self.best.lock() = Some(best);
    }
}

/// An engine with the hand-crafted evaluation (see the module docs).
fn hce_engine() -> Engine {
    let mut e = Engine::new();
    e.set_option("EvalFile", Some("hce"))
        .expect("the hand-crafted evaluation");
    e
}

fn run(options: &[(&str, &str)], fen: &str, limits: Limits) -> (String, i32, u64, Vec<String>) {
    let mut e = hce_engine();
    for (k, v) in options {
        e.set_option(k, Some(v))
            .unwrap_or_else(|err| panic!("{k}={v}: {err}"));
    }
    e.set_position(Some(fen), &[]).expect("valid FEN");
    let c = Arc::new(Collect::default());
    e.go(limits, c.clone());
    e.wait();
    let best = c
        .best
        .lock()
        .expect("exactly one bestmove")
        .expect("a move");
    let last = c.infos.lock().last().cloned().expect("info lines");
    (uci(best), last.score, last.nodes, c.messages.lock().clone())
}

const TRAP_MODEL: &str = "material:1:depth=1";

/// White to move; a bait that a greedy 1-ply material opponent takes with its queen, which
/// then no longer guards e8: Re8#. First 1. h4 (Qxh4??), second 1. Qb6 (Qxb6??). Against
/// best defence the bait is nothing special: α-β wins the bishop with 1. Qa4 in the first
/// and plays 1. Qb5 in the second. (α-β's own best move must not be a bait as well: then
/// OM and α-β rightly agree, and only the order of equal mates would tell them apart.)
const TRAP_FENS: [&str; 2] = [
    "3q2k1/5ppp/b7/8/8/8/2Q2PPP/4R1K1 w - - 0 1",
    "3q2k1/5ppp/8/8/8/2N5/1Q3PPP/4R1K1 w - - 0 1",
];

#[test]
fn om_with_a_shallow_model_sets_the_trap_that_alpha_beta_does_not() {
    for fen in TRAP_FENS {
        let (ab_move, ab_score, _, _) = run(&[], fen, Limits::depth(8));
        let (om_move, om_score, _, msgs) = run(
            &[
                ("OM_Mode", "om"),
                ("OM_SpeculationDepth", "2"),
                ("OM_OpponentTypes", TRAP_MODEL),
            ],
            fen,
            Limits::depth(8),
        );
        assert!(
            om_score > 30_000,
            "{fen}: OM should see the mate, got {om_score} ({om_move})"
        );
        assert!(
            ab_score < 30_000,
            "{fen}: α-β must not count on the blunder ({ab_score})"
        );
        assert_ne!(om_move, ab_move, "{fen}: OM and α-β chose the same move");
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("om depth 8") && m.contains("predicted")),
            "no om message: {msgs:?}"
        );
        // Where the nodes went, through the reporter (no environment variable).
        assert!(
            msgs.iter().any(|m| m.starts_with("om nodes own ")
                && m.split_whitespace()
                    .nth(3)
                    .and_then(|n| n.parse::<u64>().ok())
                    > Some(0)),
            "no node split: {msgs:?}"
        );
    }
}

#[test]
fn prom_with_the_greedy_type_certain_finds_the_same_trap() {
    // Lemma 2 in chess: PrOM with P(ω1) = 1 behaves as OM with ω1.
    for fen in TRAP_FENS {
        let (om_move, om_score, _, _) = run(
            &[
                ("OM_Mode", "om"),
                ("OM_SpeculationDepth", "2"),
                ("OM_OpponentTypes", TRAP_MODEL),
            ],
            fen,
            Limits::depth(7),
        );
        let (prom_move, prom_score, _, _) = run(
            &[
                ("OM_Mode", "prom"),
                ("OM_SpeculationDepth", "2"),
                ("OM_OpponentTypes", "self:0,material:1:depth=1"),
            ],
            fen,
            Limits::depth(7),
        );
        // Equal values; among equally valued root moves the two drivers may keep different
        // ones (OM's α bound leaves upper bounds where PrOM has exact values, and the next
        // iteration orders by them), so the move itself is not compared.
        assert_eq!(
            om_score, prom_score,
            "{fen}: OM {om_move}, PrOM {prom_move}"
        );
        assert!(
            prom_score > 30_000,
            "{fen}: PrOM must see the mate ({prom_move})"
        );
    }
}

#[test]
fn odd_and_even_speculative_depths_decide_alike() {
    // H_spec = histories of at most s plies: s = 2k-1 and s = 2k differ only at MAX nodes
    // whose children are all outside H_spec, where both use our own α-β.
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    for k in 1..=2 {
        let a = run(
            &[
                ("OM_Mode", "om"),
                ("OM_SpeculationDepth", &(2 * k - 1).to_string()),
            ],
            fen,
            Limits::depth(6),
        );
        let b = run(
            &[
                ("OM_Mode", "om"),
                ("OM_SpeculationDepth", &(2 * k).to_string()),
            ],
            fen,
            Limits::depth(6),
        );
        assert_eq!(
            (a.0, a.1, a.2),
            (b.0, b.1, b.2),
            "s = {} vs {}",
            2 * k - 1,
            2 * k
        );
    }
}

#[test]
fn om_and_prom_are_deterministic_and_respect_a_node_limit() {
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    for mode in ["om", "prom"] {
        let opts = [
            ("OM_Mode", mode),
            ("OM_SpeculationDepth", "3"),
            ("OM_OpponentTypes", "self:0.6,material:0.4:depth=2"),
        ];
        let a = run(&opts, fen, Limits::nodes(60_000));
        let b = run(&opts, fen, Limits::nodes(60_000));
        assert_eq!((&a.0, a.1, a.2), (&b.0, b.1, b.2), "{mode}");
    }
}

#[test]
fn om_under_a_clock_answers_in_time_with_a_legal_move() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let limits = Limits {
        time: Some(std::time::Duration::from_millis(1000)),
        inc: Some(std::time::Duration::from_millis(10)),
        ..Limits::default()
    };
    let start = std::time::Instant::now();
    let (m, _, _, _) = run(
        &[("OM_Mode", "prom"), ("OM_SpeculationDepth", "4")],
        fen,
        limits,
    );
    assert!(
        start.elapsed() < std::time::Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    let pos = nosce::position::Position::from_fen(fen).unwrap();
    assert!(pos.parse_uci(&m).is_ok(), "illegal {m}");
}

#[test]
fn online_learning_rewards_the_type_that_predicted_the_opponents_move() {
    use nosce::eval::{FullEval, MaterialEval};
    use nosce::position::Position;
    use nosce::search::search_depth;
    use nosce::tt::TranspositionTable;
    // The opponent (White) plays the move a 1-ply material searcher picks; if our own
    // evaluation at depth 4 prefers another move, learning must shift mass to `material`.
    let start = Position::default();
    let greedy = search_depth(&MaterialEval, &TranspositionTable::new(1), &start, 1)
        .best
        .map(uci)
        .unwrap();
    let sensible = search_depth(&FullEval::default(), &TranspositionTable::new(1), &start, 4)
        .best
        .map(uci)
        .unwrap();
    assert_ne!(
        greedy, sensible,
        "the two types must disagree for this test"
    );
    for (mode, expect) in [
        ("fast", "om learning (fast)"),
        ("bayes", "om learning (bayes)"),
    ] {
        let mut e = hce_engine();
        let learning = if mode == "bayes" {
            "bayes gamma=50".to_string()
        } else {
            mode.to_string()
        };
        for (k, v) in [
            ("OM_Mode", "prom"),
            ("OM_SpeculationDepth", "2"),
            ("OM_OpponentTypes", "self:0.5,material:0.5:depth=1"),
            ("OM_Learning", learning.as_str()),
        ] {
            e.set_option(k, Some(v)).unwrap();
        }
        e.set_position(None, &[greedy.as_str()]).unwrap();
        let c = Arc::new(Collect::default());
        e.go(Limits::depth(3), c.clone());
        e.wait();
        let msgs = c.messages.lock().clone();
        let line = msgs
            .iter()
            .find(|m| m.starts_with(expect))
            .unwrap_or_else(|| panic!("{mode}: no learning line in {msgs:?}"));
        let probs: Vec<f64> = line
            .rsplit("probabilities ")
            .next()
            .unwrap()
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        assert!(probs[1] > probs[0], "{mode}: {line}");
        assert!((probs.iter().sum::<f64>() - 1.0).abs() < 0.01);
        // The same position again (e.g. a second `go`) does not learn twice.
        let c2 = Arc::new(Collect::default());
        e.go(Limits::depth(2), c2.clone());
        e.wait();
        assert!(
            c2.messages
                .lock()
                .iter()
                .all(|m| !m.starts_with("om learning"))
        );
        // A new game forgets: the probabilities start again from the model's.
        e.new_game();
        e.set_position(None, &[greedy.as_str()]).unwrap();
        let c3 = Arc::new(Collect::default());
        e.go(Limits::depth(2), c3.clone());
        e.wait();
        let again = c3
            .messages
            .lock()
            .iter()
            .find(|m| m.starts_with(expect))
            .cloned();
        assert_eq!(again.as_deref(), Some(line.as_str()), "{mode}");
    }
}

#[test]
fn replay_probes_predict_a_position_function_opponent_exactly_at_ply_1() {
    use nosce::eval::{Evaluator, FullEval, MaterialEval};
    use nosce::position::Position;

    use nosce::search::om::OmMode;
    use nosce::search::om::config::{OmConfig, TypeSetup};
    use nosce::search::om::model::search_model;
    use nosce::search::{SearchConfig, SearchContext, SearchControl, root_moves, search};
    use nosce::tt::TranspositionTable;
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let pos = Position::from_fen(fen).unwrap();
    let own = FullEval::default();
    let opp: Arc<dyn Evaluator> = Arc::new(MaterialEval);
    for limits_opp in [(Some(3), None), (None, Some(3_000u64))] {
        let setup = OmConfig {
            ties: true,
            ..OmConfig::new(
                OmMode::Om,
                2,
                vec![TypeSetup {
                    eval: Arc::clone(&opp),
                    tt: Arc::new(TranspositionTable::new(4)),
                    probability: 1.0,
                    depth: limits_opp.0,
                    nodes: limits_opp.1,
                    tablebases: false,
                    replay: true,
                    engine: None,
                }],
            )
        };
        let tt = TranspositionTable::new(8);
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext::silent(&own, &tt, &control, &config);
        let limits = Limits::depth(5);
        let allowed = root_moves(&pos, &limits);
        let r = search_model(&ctx, &setup, &pos, &limits, &allowed);
        let (ours, predicted) = (r.pv[0], r.pv[1]);
        // The opponent itself: a fresh table, the same searcher and limits.
        let mut after = pos.clone();
        after.play(ours);
        let opp_tt = TranspositionTable::new(4);
        let opp_control = SearchControl::default();
        let opp_ctx = SearchContext::silent(&*opp, &opp_tt, &opp_control, &config);
        let opp_limits = match limits_opp {
            (Some(d), _) => Limits::depth(d),
            (_, Some(n)) => Limits::nodes(n),
            _ => unreachable!(),
        };
        let opp_allowed = root_moves(&after, &opp_limits);
        let actual = search(&opp_ctx, &after, &opp_limits, &opp_allowed)
            .best
            .unwrap();
        assert_eq!(uci(predicted), uci(actual), "{limits_opp:?}");
    }
}

/// Middlegame positions of `bench.epd`.
const MIDDLEGAMES: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
];

#[test]
fn bounded_sum_with_our_own_model_decides_like_alpha_beta_at_a_fraction_of_the_cost() {
    // Donkers 2003 §3.2.4 and §3.3: if |V0 − V_op| ≤ B = 0 (the type is ourselves, at our
    // depth) bounded-sum pruning is α-β search. `OM_BoundedSum=auto` uses B = 0 for the
    // default `self` type; `off` leaves β-pruning alone (Alg. 3.8), which must still find
    // the opponent's exact choice below every root move.
    for fen in MIDDLEGAMES {
        let (_, _, auto_nodes, msgs) = run(&[("OM_Mode", "om")], fen, Limits::depth(6));
        let (_, _, off_nodes, _) = run(
            &[("OM_Mode", "om"), ("OM_Search", "bound=off")],
            fen,
            Limits::depth(6),
        );
        assert!(
            auto_nodes * 3 < off_nodes,
            "{fen}: B = 0 searched {auto_nodes} nodes, β-pruning {off_nodes}"
        );
        assert!(
            msgs.iter().any(|m| m.starts_with("om depth 6")),
            "{fen}: no om message: {msgs:?}"
        );
    }
    // Forced mates: the same move and the same mate distance as plain α-β.
    for fen in [
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ] {
        let ab = run(&[], fen, Limits::depth(6));
        let om = run(&[("OM_Mode", "om")], fen, Limits::depth(6));
        assert_eq!((&om.0, om.1), (&ab.0, ab.1), "{fen}");
        assert!(ab.1 > 30_000, "{fen}: a mate ({})", ab.1);
    }
}

#[test]
fn bounded_sum_is_never_used_for_an_opponent_with_its_own_depth() {
    // The bounded-sum property needs equal search depths (§3.2.4). Forcing B = 0 on the
    // greedy depth-1 type must be ignored: with it, OM would take the greedy type's own
    // values for ours and could not see the mate behind its blunder.
    let fen = TRAP_FENS[0];
    let (m, score, _, _) = run(
        &[
            ("OM_Mode", "om"),
            ("OM_SpeculationDepth", "2"),
            ("OM_OpponentTypes", TRAP_MODEL),
            ("OM_Search", "bound=0"),
        ],
        fen,
        Limits::depth(8),
    );
    assert!(
        score > 30_000,
        "{fen}: the trap should still pay ({m}, {score})"
    );
}

#[test]
fn bounded_sum_options_reject_nonsense() {
    let mut e = Engine::new();
    assert!(e.set_option("OM_Search", Some("bound=sometimes")).is_err());
    assert!(e.set_option("OM_Search", Some("bound=-5")).is_err());
    assert!(e.set_option("OM_Search", Some("bound=ten")).is_err());
    assert_eq!(e.set_option("OM_Search", Some("bound=25")), Ok(None));
    // The old names, for one release, with a note that says what replaced them.
    assert!(e.set_option("OM_Bound", Some("-5")).is_err());
    let note = e.set_option("OM_BoundedSum", Some("on")).unwrap().unwrap();
    assert!(note.contains("OM_Search's key bound="), "{note}");
}
