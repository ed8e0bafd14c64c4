//! The search refinements on trial (issue 41, `SearchFeatures`), each alone and all together:
//! the known mates of `tests/it/search.rs` keep their exact distance (the pawnless ones verified
//! with the Gaviota DTM tables) at the same depths, a fixed-depth search stays deterministic,
//! and every switch of the search changes the tree it searches (no switch is dead), while
//! the time-management switches leave a fixed-depth search alone (and `tmflat` reaches the
//! engine's clock through the option).

use nosce::eval::FullEval;
use nosce::limits::Limits;
use nosce::params::SearchFeatures;
use nosce::params::features::WORDS;
use nosce::position::{Position, uci};
use nosce::score::{is_mate, mate_moves};
use nosce::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use nosce::tt::TranspositionTable;

fn run(fen: &str, depth: u32, features: SearchFeatures) -> SearchResult {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let tt = TranspositionTable::new(16);
    let control = SearchControl::default();
    let mut config = SearchConfig::default();
    config.params.features = features;
    let eval = FullEval::default();
    let ctx = SearchContext::silent(&eval, &tt, &control, &config);
    let limits = Limits::depth(depth);
    let allowed = root_moves(&pos, &limits);
    search(&ctx, &pos, &limits, &allowed)
}

/// (FEN, depth, mate in, first moves that mate that fast).
const MATES: [(&str, u32, i32, &[&str]); 6] = [
    ("4k3/8/4K3/8/8/8/8/6R1 w - - 0 1", 4, 1, &["g1g8"]),
    ("R7/8/8/8/8/3K4/8/2k5 w - - 0 1", 6, 2, &["a8b8"]),
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        6,
        2,
        &["d5f6"],
    ),
    ("8/8/8/8/8/k3K3/8/1Q6 w - - 0 1", 10, 3, &["e3d3", "e3d4"]),
    (
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        8,
        3,
        &["f8c5"],
    ),
    ("8/8/4K1k1/8/4r3/8/2Q5/8 w - - 0 1", 12, 4, &["c2e4"]),
];

fn each_switch() -> Vec<(String, SearchFeatures)> {
    let mut out: Vec<(String, SearchFeatures)> = WORDS
        .iter()
        .filter(|w| **w != "nodetime" && **w != "tmflat")
        // `corrqs` is a modifier of `corrhist`, `doubleext` of `singular`: tried with it;
        // `histext` with `quiethist`, whose continuation histories reach its bound sooner.
        .map(|w| match *w {
            "corrqs" => (
                w.to_string(),
                SearchFeatures::parse("corrhist corrqs").unwrap(),
            ),
            "doubleext" => (
                w.to_string(),
                SearchFeatures::parse("singular doubleext").unwrap(),
            ),
            "histext" => (
                w.to_string(),
                SearchFeatures::parse("quiethist histext").unwrap(),
            ),
            _ => (w.to_string(), SearchFeatures::parse(w).unwrap()),
        })
        .collect();
    out.push(("all".into(), SearchFeatures::ALL));
    out
}

#[test]
fn known_mates_keep_their_distance_with_every_switch() {
    for (name, f) in each_switch() {
        for (fen, depth, moves, first) in MATES {
            let r = run(fen, depth, f);
            let mate = if is_mate(r.score) {
                mate_moves(r.score)
            } else {
                0
            };
            let best = r.best.map(uci).unwrap_or_default();
            assert_eq!(mate, moves, "{name}: {fen}: score {}", r.score);
            assert!(first.contains(&best.as_str()), "{name}: {fen}: {best}");
        }
        // The mated side sees its own mate.
        let r = run("k7/8/1K6/8/8/8/8/7R b - - 0 1", 6, f);
        assert!(is_mate(r.score) && r.score < 0, "{name}: {}", r.score);
    }
}

#[test]
fn every_switch_is_deterministic_and_changes_the_tree() {
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let base = run(fen, 10, SearchFeatures::NONE);
    for (name, f) in each_switch() {
        let a = run(fen, 10, f);
        let b = run(fen, 10, f);
        assert_eq!(
            (a.best, a.nodes, a.score),
            (b.best, b.nodes, b.score),
            "{name}"
        );
        assert_ne!(a.nodes, base.nodes, "{name} searched the same tree as none");
        assert!(a.best.is_some(), "{name}");
    }
    // `corrqs` changes the tree of `corrhist` and nothing without it.
    let corr = run(fen, 10, SearchFeatures::parse("corrhist").unwrap());
    let corr_qs = run(fen, 10, SearchFeatures::parse("corrhist corrqs").unwrap());
    assert_ne!(corr.nodes, corr_qs.nodes, "corrqs searched corrhist's tree");
    let alone = run(fen, 10, SearchFeatures::parse("corrqs").unwrap());
    assert_eq!(
        (alone.best, alone.nodes, alone.score),
        (base.best, base.nodes, base.score),
        "corrqs without corrhist"
    );
    // `doubleext` changes the tree of `singular` and nothing without it.
    let single = run(fen, 10, SearchFeatures::parse("singular").unwrap());
    let double = run(
        fen,
        10,
        SearchFeatures::parse("singular doubleext").unwrap(),
    );
    assert_ne!(
        single.nodes, double.nodes,
        "doubleext searched singular's tree"
    );
    let alone = run(fen, 10, SearchFeatures::parse("doubleext").unwrap());
    assert_eq!(
        (alone.best, alone.nodes, alone.score),
        (base.best, base.nodes, base.score),
        "doubleext without singular"
    );
    // `histext` changes the tree of `quiethist`.
    let quiet = run(fen, 10, SearchFeatures::parse("quiethist").unwrap());
    let ext = run(fen, 10, SearchFeatures::parse("quiethist histext").unwrap());
    assert_ne!(quiet.nodes, ext.nodes, "histext searched quiethist's tree");
    // Time management does not touch a fixed-depth search.
    for word in ["nodetime", "tmflat"] {
        let t = run(fen, 10, SearchFeatures::parse(word).unwrap());
        assert_eq!(
            (t.best, t.nodes, t.score),
            (base.best, base.nodes, base.score),
            "{word}"
        );
    }
}

#[test]
fn tmflat_reaches_the_engines_time_allocation_and_leaves_again() {
    let mut e = nosce::engine::Engine::new();
    let horizon = |e: &nosce::engine::Engine| e.config().time_params.horizon_moves;
    assert_eq!(horizon(&e), 25.0);
    e.set_option("SearchFeatures", Some("caphist tmflat"))
        .unwrap();
    assert_eq!(horizon(&e), 40.0);
    assert!(e.config().params.features.capture_history);
    e.set_option("SearchFeatures", Some("none")).unwrap();
    assert_eq!(horizon(&e), 25.0);
}
