//! Table hits inside the search leave a usable static evaluation behind. A node cut off by a
//! WDL probe stores an entry whose `eval` later visits read as their stand-pat score; it used
//! to hold a placeholder 0, so a lost K+Q-v-K position reached again in quiescence looked
//! like a draw (found in the KQKR sweep: at s = 5 the K+R side "saved" lines by giving its
//! rook away, Donkers 2003 §5.4).

use std::sync::Arc;

use nosce::eval::Evaluator;
use nosce::experiment::player::KrTables;
use nosce::experiment::sweep::prepare_tables;
use nosce::position::Position;
use nosce::search::{SearchConfig, SearchContext, SearchControl, root_moves, search};
use nosce::tb::ExactTables;
use nosce::tb::WdlProbe;
use nosce::tt::TranspositionTable;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

#[test]
fn table_cut_offs_store_the_real_static_evaluation() {
    let exact = Arc::new(ExactTables::in_memory());
    prepare_tables(&exact).expect("tables");
    let tables = KrTables::new(Arc::clone(&exact));
    // K+R to move; many rook moves hang the rook, and the K+Q side's capture leaves K+Q v K
    // (halfmove clock 0, so probed) at nodes searched with null windows.
    let fen = "4r3/1K6/5k2/Q7/8/8/8/8 b - - 1 1";
    let chess: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let pos = Position::from_chess(chess.clone());
    let tt = TranspositionTable::new(4);
    let (control, config) = (SearchControl::default(), SearchConfig::default());
    let ctx = SearchContext {
        tb: Some(&tables.probes as &dyn WdlProbe),
        ..SearchContext::silent(&tables.eval, &tt, &control, &config)
    };
    let limits = nosce::limits::Limits::depth(5);
    search(&ctx, &pos, &limits, &root_moves(&pos, &limits));
    let mut checked = 0;
    for m in chess.legal_moves() {
        let mut after = pos.clone();
        after.play(m);
        for c in after
            .chess()
            .legal_moves()
            .into_iter()
            .filter(|c| c.is_capture())
        {
            let mut child = after.clone();
            child.play(c);
            let Some(hit) = tt.probe(child.key()) else {
                continue;
            };
            let real = tables.eval.evaluate(child.chess());
            assert_eq!(
                hit.eval, real,
                "{fen} after {m} {c}: stored static evaluation"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no capture's position was stored");
}
