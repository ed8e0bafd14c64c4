//! The draw value of a search (`SearchConfig::contempt`, set by `OM_Mode=auto` from the
//! opponent's measured drift): a repetition is worth `−contempt` to the side to move at the
//! root, in the plain search and in the opponent-model driver alike. The position: after the
//! knights went out and back twice (g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1), Black's f6g8
//! repeats the start position a third time.

use std::sync::Arc;

use nosce::eval::{FullEval, MaterialEval};
use nosce::limits::Limits;
use nosce::position::{Position, uci};
use nosce::search::om::OmMode;
use nosce::search::om::config::{OmConfig, TypeSetup};
use nosce::search::om::model::search_model;
use nosce::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use nosce::tt::TranspositionTable;

fn repeating() -> Position {
    let mut pos = Position::default();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        pos.play_uci(m).expect("legal");
    }
    pos
}

fn run(contempt: i32, om: bool) -> SearchResult {
    let pos = repeating();
    let own = FullEval::default();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::default();
    let config = SearchConfig {
        contempt,
        ..SearchConfig::default()
    };
    let ctx = SearchContext::silent(&own, &tt, &control, &config);
    let limits = Limits::depth(5);
    let allowed = root_moves(&pos, &limits);
    if !om {
        return search(&ctx, &pos, &limits, &allowed);
    }
    let setup = OmConfig::new(
        OmMode::Om,
        2,
        vec![TypeSetup {
            eval: Arc::new(MaterialEval),
            tt: Arc::new(TranspositionTable::new(2)),
            probability: 1.0,
            depth: Some(2),
            nodes: None,
            tablebases: false,
            replay: false,
            engine: None,
        }],
    );
    search_model(&ctx, &setup, &pos, &limits, &allowed)
}

#[test]
fn a_welcome_draw_is_taken_and_scored_as_the_contempt() {
    for om in [false, true] {
        let r = run(-300, om);
        assert_eq!(r.best.map(uci).as_deref(), Some("f6g8"), "om={om}");
        assert_eq!(
            r.score, 300,
            "om={om}: the draw is worth the negative contempt"
        );
    }
}

#[test]
fn a_draw_below_the_contempt_is_avoided() {
    for om in [false, true] {
        let r = run(300, om);
        assert_ne!(r.best.map(uci).as_deref(), Some("f6g8"), "om={om}");
        assert!(
            r.score.abs() < 150,
            "om={om}: an ordinary opening value, got {}",
            r.score
        );
    }
}

#[test]
fn without_contempt_the_draw_is_zero() {
    let r = run(0, false);
    assert!(r.score.abs() < 150, "got {}", r.score);
}
