//! Multi-cut pruning (Winands 2004 ch. 6: MC-C at expected CUT nodes, MC-A at expected ALL
//! nodes too) through the library: the tuning option's grammar, known mates found with
//! their exact distance under every setting, a fixed-depth search that stays deterministic,
//! and pruning that actually happens (the node count changes).

use nosce::eval::FullEval;
use nosce::limits::Limits;
use nosce::params::{MultiCut, SearchParams};
use nosce::position::{Position, uci};
use nosce::score::{is_mate, mate_moves};
use nosce::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use nosce::tt::TranspositionTable;

fn run(fen: &str, depth: u32, mc: &str) -> SearchResult {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let tt = TranspositionTable::new(16);
    let control = SearchControl::default();
    let config = SearchConfig {
        params: SearchParams {
            multi_cut: MultiCut::parse(mc).expect("setting"),
            ..SearchParams::default()
        },
        ..SearchConfig::default()
    };
    let eval = FullEval::default();
    let ctx = SearchContext::silent(&eval, &tt, &control, &config);
    let limits = Limits::depth(depth);
    let allowed = root_moves(&pos, &limits);
    search(&ctx, &pos, &limits, &allowed)
}

const SETTINGS: [&str; 5] = [
    "off",
    "cut",
    "all c=2 m=6 r=3",
    "all c=1 m=4 r=3",
    "all-only c=2 m=6 r=3",
];

#[test]
fn the_option_grammar() {
    let mc = MultiCut::parse("all c=3 m=6 r=3").unwrap();
    assert_eq!(
        (mc.at_cut, mc.at_all, mc.c, mc.m, mc.r),
        (true, true, 3, 6, 3)
    );
    let mc = MultiCut::parse(" CUT ").unwrap();
    assert_eq!(
        (mc.at_cut, mc.at_all, mc.c, mc.m, mc.r),
        (true, false, 2, 10, 2)
    );
    assert_eq!(MultiCut::parse("").unwrap(), MultiCut::default());
    let mc = MultiCut::parse("all-only m=6 r=3").unwrap();
    assert_eq!(
        (mc.at_cut, mc.at_all, mc.c, mc.m, mc.r),
        (false, true, 2, 6, 3)
    );
    for bad in [
        "all-only-please",
        "sometimes",
        "all c=7 m=3",
        "all c=0",
        "cut r=9",
        "cut x=1",
        "cut c",
        "all m=65",
    ] {
        assert!(MultiCut::parse(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn known_mates_survive_every_setting() {
    // The mates of tests/it/search.rs (Gaviota-verified distances where pawnless).
    for (fen, depth, moves) in [
        ("R7/8/8/8/8/3K4/8/2k5 w - - 0 1", 6, 2),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            6,
            2,
        ),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            8,
            3,
        ),
        ("8/8/4K1k1/8/4r3/8/2Q5/8 w - - 0 1", 12, 4),
    ] {
        for mc in SETTINGS {
            let r = run(fen, depth, mc);
            assert!(
                is_mate(r.score),
                "{fen} with MultiCut={mc}: score {}",
                r.score
            );
            // Forward pruning may miss the shortest mate, never invent a shorter one; the
            // moderate settings keep the distance here (MC-A alone, a measurement setting,
            // finds the KQvKR mate in 4 as a mate in 5 at depth 12).
            let found = mate_moves(r.score);
            if mc.starts_with("all c=1") || mc.starts_with("all-only") {
                assert!(found >= moves, "{fen} with MultiCut={mc}: mate in {found}");
            } else {
                assert_eq!(found, moves, "{fen} with MultiCut={mc}");
            }
        }
    }
}

#[test]
fn multi_cut_prunes_and_stays_deterministic() {
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let off = run(fen, 10, "off");
    for mc in &SETTINGS[1..] {
        let a = run(fen, 10, mc);
        let b = run(fen, 10, mc);
        assert_eq!(
            (a.best, a.nodes, a.score),
            (b.best, b.nodes, b.score),
            "{mc}"
        );
        assert_ne!(a.nodes, off.nodes, "MultiCut={mc} changed nothing");
        let best = a.best.map(uci).unwrap_or_default();
        assert!(!best.is_empty(), "{mc}: no move");
    }
}
