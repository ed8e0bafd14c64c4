//! Material strings and generality of the solver beyond KQKR (Donkers 2003 §5.4 uses KQKR;
//! the solver is general over materials up to four pieces with pawns on at most one side):
//! parse errors, trivial draws, and WDL against Syzygy on random positions of several
//! materials, including identical pieces (KBBvK), a defender that can capture into a lost
//! ending (KRRvK, loser conversions), mutual chances (KQvKQ, KRvKN) and pawns (KPvK, KQvKP,
//! KRvKP: pushes, double pushes, promotions and under-promotions into other tables); every
//! sampled position's value also equals that of its best move (the retrograde recursion, so
//! DTM is checked as well as WDL), and published shortest mates are read back.
use crate::tb_common;

use nosce::tb::{
    ExactTables, Material, Wdl, gen_text, probe_text,
    sample::{position_at, reorient},
};
use shakmaty::{Color, Position};
use shakmaty_syzygy::Wdl as SzWdl;

#[test]
fn material_strings() {
    for (s, canon) in [
        ("KQvKR", "KQvKR"),
        ("kqvkr", "KQvKR"),
        ("KRvKQ", "KQvKR"),
        ("KvK", "KvK"),
        ("KBNvK", "KBNvK"),
        ("KPvKQ", "KQvKP"),
        ("kvkpp", "KPPvK"),
    ] {
        let m: Material = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(m.canonical().0.to_string(), canon);
    }
    for (bad, why) in [
        ("", "empty"),
        ("KQ", "exactly one 'v'"),
        ("KQvKRvK", "exactly one 'v'"),
        ("QvK", "exactly one king"),
        ("KKvK", "exactly one king"),
        ("KPvKP", "pawns on both sides"),
        ("KXvK", "unknown piece letter"),
        ("KQRvKR", "at most 4"),
        ("KQ vK", "unknown piece letter"),
    ] {
        match bad.parse::<Material>() {
            Ok(m) => panic!("{bad:?} parsed as {m}"),
            Err(e) => assert!(e.to_string().contains(why), "{bad:?}: {e}"),
        }
    }
    let tables = ExactTables::in_memory();
    assert!(gen_text(&tables, "KPvKP").is_err());
    assert!(probe_text(&tables, None, "not a fen").is_err());
    assert!(probe_text(&tables, None, "8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    // Positions the exact tables do not cover give a report, not an error.
    let text = probe_text(
        &tables,
        None,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    .expect("report");
    assert!(text.contains("not covered"));
}

#[test]
fn minor_pieces_alone_are_draws() {
    let tables = tb_common::exact();
    for key in ["KvK", "KBvK", "KNvK"] {
        let t = tables.generate(key).expect("generate");
        for color in [Color::White, Color::Black] {
            let (w, d, l) = t.census(color);
            assert_eq!((w, l), (0, 0), "{key}: {color} to move");
            assert!(d > 0);
        }
    }
}

fn sample_against_syzygy(key: &str, samples: usize) {
    let Some(syzygy) = tb_common::syzygy("sample_against_syzygy") else {
        return;
    };
    let tables = tb_common::exact();
    let t = tables.generate(key).expect("generate");
    let mut rng = nosce::rng::GameRng::from_seed(7);
    let (mut n, mut decisive) = (0, 0);
    while n < samples {
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let idx = rng.below(t.layout().size) as u32;
        let Some(pos) = position_at(&t, idx, turn) else {
            continue;
        };
        // Pawns keep only the left-right mirror, and a colour swap needs the board turned.
        let pos = if key.contains('P') {
            let swap = rng.below(2) == 1;
            let t = rng.below(2) as u8 | if swap { 2 } else { 0 };
            reorient(&pos, t, swap)
        } else {
            reorient(&pos, rng.below(8) as u8, rng.below(2) == 1)
        }
        .expect("reoriented");
        let ours = tables.probe(&pos).expect("covered");
        let theirs = syzygy.probe_wdl(&pos).expect("syzygy");
        let theirs = match theirs {
            SzWdl::Win | SzWdl::CursedWin => Wdl::Win,
            SzWdl::Draw => Wdl::Draw,
            SzWdl::Loss | SzWdl::BlessedLoss => Wdl::Loss,
        };
        assert_eq!(
            ours.wdl,
            theirs,
            "{key}: {}",
            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
        );
        // Every legal move is consistent with the position's value.
        let ranked = tables
            .rank_moves(&pos, nosce::tb::Metric::Dtm)
            .expect("ranked");
        assert_eq!(ranked.is_empty(), pos.legal_moves().is_empty());
        if let Some(best) = ranked.first() {
            assert_eq!(best.value.wdl, ours.wdl);
            assert_eq!(best.value.dtm, ours.dtm);
        }
        let best_dtc = ranked
            .iter()
            .map(|r| r.value.score(nosce::tb::Metric::Dtc))
            .max();
        if let (Some(b), Some(dtc)) = (best_dtc, ours.dtc) {
            let expect = match ours.wdl {
                Wdl::Win => 10_000 - i32::from(dtc),
                _ => -10_000 + i32::from(dtc),
            };
            assert_eq!(b, expect, "{key}: DTC of the best move");
        }
        decisive += usize::from(ours.wdl != Wdl::Draw);
        n += 1;
    }
    println!("{key}: {n} samples agree with Syzygy ({decisive} decisive)");
}

#[test]
fn kbbvk_identical_pieces() {
    sample_against_syzygy("KBBvK", 3000);
}

#[test]
fn krrvk_loser_can_capture() {
    sample_against_syzygy("KRRvK", 3000);
}

#[test]
fn kqvkq_and_krvkn() {
    sample_against_syzygy("KQvKQ", 3000);
    sample_against_syzygy("KRvKN", 3000);
}

#[test]
fn pawns_on_one_side() {
    sample_against_syzygy("KPvK", 3000);
    sample_against_syzygy("KQvKP", 3000);
    sample_against_syzygy("KRvKP", 2000);
}

#[test]
fn published_queen_against_pawn_mates_are_read_back() {
    // Positions and shortest mates (in moves) of the public matetrack suite `classic280.epd`
    // (vondele/matetrack, GPL-3.0): DTM in plies is 2·N − 1 for the winner to move and 2·N
    // for the loser (`bm #-N`).
    let tables = tb_common::exact();
    for (fen, mate) in [
        ("2K5/8/8/1Q6/8/8/3p4/3k4 w - - 0 1", 20),
        ("5Q1K/8/8/8/8/6k1/6p1/8 w - - 0 1", 20),
        ("1K6/8/3Q4/8/8/7k/6p1/8 w - - 0 1", 19),
        ("8/3K4/8/7Q/8/8/4p3/4k3 b - - 0 1", -20),
    ] {
        let pos: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let entry = tables.probe(&pos).expect("covered");
        let (wdl, dtm) = if mate > 0 {
            (Wdl::Win, 2 * mate - 1)
        } else {
            (Wdl::Loss, -2 * mate)
        };
        assert_eq!((entry.wdl, entry.dtm), (wdl, Some(dtm as u16)), "{fen}");
    }
}

/// Every covered material up to four pieces (slow: run with `--ignored`).
#[test]
#[ignore = "slow (every covered material up to four pieces): run with --ignored"]
fn all_materials_against_syzygy() {
    for m in Material::all_covered(4) {
        if m.count() >= 3 {
            sample_against_syzygy(&m.to_string(), 20_000);
        }
    }
}
