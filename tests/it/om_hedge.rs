//! The hedged root of `OM_Mode=auto` against its unpruned reference: PrOM over our own
//! search (weight w) and one OM type (1 − w), each root move's mixture computed from an
//! exact α-β value and an exact OM value, the best one within the margin chosen. The pruned
//! driver (null windows, bounds from α-β's root pass) must choose a move whose reference
//! mixture is the best one, up to the noise of separate searches (transposition tables
//! filled in a different order).

use std::sync::Arc;

use nosce::eval::{Evaluator, FullEval, MaterialEval};
use nosce::limits::Limits;
use nosce::position::{Position, uci};
use nosce::search::om::OmMode;
use nosce::search::om::config::{OmConfig, TypeSetup};
use nosce::search::om::hedge::Hedge;
use nosce::search::om::model::search_model;
use nosce::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use nosce::tt::TranspositionTable;
use shakmaty::Move;

const DEPTH: u32 = 3;
/// Separate searches of the same move differ by a few centipawns (tables filled in another
/// order; at depth 4 some tactical positions differ by 20–70 cp, so the test stays at 3).
const NOISE: i32 = 20;

fn setup(hedge: Option<Hedge>) -> OmConfig {
    let opp: Arc<dyn Evaluator> = Arc::new(MaterialEval);
    let types = vec![TypeSetup {
        eval: opp,
        tt: Arc::new(TranspositionTable::new(2)),
        probability: 1.0,
        depth: Some(2),
        nodes: None,
        tablebases: false,
        replay: false,
        engine: None,
    }];
    OmConfig {
        ties: true,
        hedge,
        ..OmConfig::new(OmMode::Om, 2, types)
    }
}

/// One search with fresh tables: α-β (`model` None) or the driver, over `allowed`.
fn fresh(pos: &Position, model: Option<&OmConfig>, allowed: &[Move]) -> SearchResult {
    let own = FullEval::default();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::default();
    let config = SearchConfig::default();
    let ctx = SearchContext::silent(&own, &tt, &control, &config);
    let limits = Limits::depth(DEPTH);
    match model {
        None => search(&ctx, pos, &limits, allowed),
        Some(m) => {
            let mut m = m.clone();
            m.types[0].tt = Arc::new(TranspositionTable::new(2));
            search_model(&ctx, &m, pos, &limits, allowed)
        }
    }
}

#[test]
fn hedged_root_matches_the_unpruned_mixture() {
    // Positions of bench.epd where α-β and OM with the material model prefer different
    // root moves at depth 3.
    let fens = [
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
        "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
        "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
        "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
        "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
        "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
        "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
        "5rk1/q6p/2p3bR/1pPp1rP1/1P1Pp3/P3B1Q1/1K3P2/R7 w - - 93 90",
        "3Qb1k1/1r2ppb1/pN1n2q1/Pp1Pp1Pr/4P2p/4BP2/4B1R1/1R5K b - - 11 40",
        "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
        "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
        "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let moves = root_moves(&pos, &Limits::depth(DEPTH));
        let om_only = setup(None);
        // The reference values of every root move.
        let reference: Vec<(Move, i32, i32)> = moves
            .iter()
            .map(|&m| {
                let ab = fresh(&pos, None, &[m]).score;
                let om = fresh(&pos, Some(&om_only), &[m]).score;
                (m, ab, om)
            })
            .collect();
        let ab0 = reference.iter().map(|r| r.1).max().unwrap();
        for (weight, margin) in [(0.3, 400), (0.7, 400), (0.5, 30)] {
            let hedge = Hedge {
                weight,
                margin,
                breadth: usize::MAX,
            };
            let mix = |ab: i32, om: i32| (weight * ab as f64 + (1.0 - weight) * om as f64) as i32;
            let best_ref = reference
                .iter()
                // Moves clearly inside the margin (the driver decides at its border).
                .filter(|r| r.1 >= ab0 - margin + NOISE)
                .map(|r| mix(r.1, r.2))
                .max()
                .unwrap();
            let r = fresh(&pos, Some(&setup(Some(hedge))), &moves);
            let chosen = r.best.expect("a move");
            let (_, ab, om) = *reference.iter().find(|x| x.0 == chosen).unwrap();
            assert!(
                mix(ab, om) >= best_ref - NOISE,
                "{fen} w={weight} margin={margin}: chose {} with reference mixture {} \
                 (ab {ab}, om {om}), the best is {best_ref}; driver value {}",
                uci(chosen),
                mix(ab, om),
                r.score
            );
            assert!(
                ab >= ab0 - margin - NOISE,
                "{fen}: {} gives up {} cp of α-β value, margin {margin}",
                uci(chosen),
                ab0 - ab
            );
            assert!(
                (r.score - best_ref).abs() <= 2 * NOISE,
                "{fen} w={weight}: driver value {} against the reference {best_ref}",
                r.score
            );
        }
    }
}

#[test]
fn own_reply_is_alpha_betas_reply_to_the_chosen_move_not_the_models() {
    // `OM_Mode=auto` scores the opponent's move against our own expected reply: in an OM
    // search that is α-β's reply to the move chosen, whatever the model predicts there.
    let fens = [
        "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
        "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
        "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
        "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    ];
    let mut differing = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let moves = root_moves(&pos, &Limits::depth(DEPTH));
        for model in [
            setup(None),
            setup(Some(Hedge {
                weight: 0.3,
                margin: 400,
                breadth: usize::MAX,
            })),
        ] {
            let r = fresh(&pos, Some(&model), &moves);
            let best = r.best.expect("a move");
            let own = r.own_reply.expect("our own reply");
            let mut after = pos.clone();
            after.play(best);
            assert!(
                after.legal_moves().contains(&own),
                "{fen}: own reply {} is not legal after {}",
                uci(own),
                uci(best)
            );
            // α-β's reply to the same move, from a search of that move alone.
            let ab = fresh(&pos, None, &[best]);
            assert_eq!(
                ab.ponder.map(uci),
                Some(uci(own)),
                "{fen}: after {} α-β replies {:?}, the OM search's own reply is {}",
                uci(best),
                ab.ponder.map(uci),
                uci(own)
            );
            differing += usize::from(r.ponder != r.own_reply);
        }
    }
    // The point of the field: somewhere the model's prediction is not α-β's reply.
    assert!(differing > 0, "the model predicted α-β's reply everywhere");
}

#[test]
fn breadth_keeps_alpha_betas_best_and_its_closest_alternatives() {
    let pos =
        Position::from_fen("r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1").unwrap();
    let moves = root_moves(&pos, &Limits::depth(DEPTH));
    assert!(moves.len() > 5);
    // α-β's pass: the fourth move best, the second and last closest below it, one unscored.
    let pass: Vec<(Move, i32)> = moves
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 0)
        .map(|(i, &m)| {
            let v = match i {
                3 => 50,
                1 => 40,
                _ if i == moves.len() - 1 => 45,
                _ => -100 - i as i32,
            };
            (m, v)
        })
        .collect();
    let hedge = |breadth| Hedge {
        weight: 0.5,
        margin: 30,
        breadth,
    };
    let last = moves[moves.len() - 1];
    assert_eq!(
        hedge(2).candidates(&moves, Some(moves[3]), &pass, None),
        vec![moves[1], moves[3], last],
        "the best and the two closest, in the iteration's order"
    );
    assert_eq!(
        hedge(0).candidates(&moves, Some(moves[3]), &pass, None),
        vec![moves[3]]
    );
    assert_eq!(
        hedge(usize::MAX).candidates(&moves, Some(moves[3]), &pass, None),
        moves
    );
    // Ties keep the order; a move α-β's pass did not score ranks last.
    let three = hedge(moves.len() - 2).candidates(&moves, Some(moves[3]), &pass, None);
    assert!(
        !three.contains(&moves[0]),
        "the unscored move is the one left out"
    );
}

#[test]
fn a_hedged_root_of_breadth_zero_plays_alpha_betas_move() {
    for fen in [
        "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
        "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
        "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
        "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let moves = root_moves(&pos, &Limits::depth(DEPTH));
        let ab = fresh(&pos, None, &moves);
        let r = fresh(
            &pos,
            Some(&setup(Some(Hedge {
                weight: 0.3,
                margin: 400,
                breadth: 0,
            }))),
            &moves,
        );
        assert_eq!(
            r.best.map(uci),
            ab.best.map(uci),
            "{fen}: breadth 0 chose another move than α-β"
        );
    }
}

/// The messages of a search.
#[derive(Default)]
struct Messages(parking_lot::Mutex<Vec<String>>);

impl nosce::report::Reporter for Messages {
    fn info(&self, _: &nosce::report::SearchInfo) {}
    fn message(&self, text: &str) {
        self.0.lock().push(text.to_string());
    }
    fn bestmove(&self, _: Option<Move>, _: Option<Move>) {}
}

#[test]
fn a_root_whose_other_moves_are_all_outside_the_margin_is_alpha_betas() {
    // Rxd5 wins a queen; every other move is hundreds of centipawns worse, and α-β's root
    // pass bounds them so: no iteration searches the fitted type at all.
    let pos = Position::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    let moves = root_moves(&pos, &Limits::depth(DEPTH));
    let own = FullEval::default();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::default();
    let config = SearchConfig::default();
    let messages = Messages::default();
    let ctx = SearchContext {
        reporter: &messages,
        ..SearchContext::silent(&own, &tt, &control, &config)
    };
    let hedged = setup(Some(Hedge {
        weight: 0.5,
        margin: 30,
        breadth: 2,
    }));
    let r = search_model(&ctx, &hedged, &pos, &Limits::depth(DEPTH), &moves);
    assert_eq!(r.best.map(uci).as_deref(), Some("d2d5"));
    let lines = messages.0.lock();
    let line = lines
        .iter()
        .find(|l| l.starts_with("om hedge iterations"))
        .unwrap_or_else(|| panic!("no hedge report in {lines:?}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f[3], DEPTH.to_string(), "{line}");
    assert_eq!(f[7], f[3], "every iteration settled by α-β: {line}");
    assert!(
        lines.iter().any(|l| l.starts_with("om nodes own")),
        "{lines:?}"
    );
}
