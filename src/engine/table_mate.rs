//! Mates read from our exact tables: when the root is an ending of at most four pieces (pawns
//! on one side at most) whose DTM table is in memory ([`crate::tb::exact`]; Thompson's retrograde
//! analysis, the Nalimov metric of Donkers 2003 §5.4), a won or lost root is answered with
//! `score mate ±N` and the whole DTM-optimal line (the winner mating fastest, the loser
//! lasting longest) instead of α-β's large table score — the shortest mate, proven by the
//! table. For plain α-β and `OM_Mode=auto` (a table root gives `auto` no reason to
//! speculate); `om` and `prom` choose among the table's moves themselves (the KQKR
//! experiment). Only when the line ends in mate before the fifty-move rule could end the
//! game.

use shakmaty::{Move, Position as _};

use crate::position::Position;
use crate::report::{Reporter, ScoreBound, SearchInfo};
use crate::score::{mate_in, mated_in};
use crate::tb::exact::Metric;
use crate::tb::{Tablebases, Wdl};

/// The DTM-optimal line from `pos` if the exact tables decide it: (the root is won, line).
/// `None` when the tables do not cover the root, its table is not in memory yet (its
/// generation is then started), the root is drawn, or the line would meet the fifty-move
/// rule before the mate.
pub(super) fn line(tables: &Tablebases, pos: &Position) -> Option<(bool, Vec<Move>)> {
    let root = pos.chess();
    if !tables.use_exact || root.board().occupied().count() > 4 || !tables.prefetch(root) {
        return None;
    }
    let won = match tables.exact.probe(root)?.wdl {
        Wdl::Win => true,
        Wdl::Loss => false,
        Wdl::Draw => return None,
    };
    let mut board = root.clone();
    let mut pv = Vec::new();
    let mut clock = root.halfmoves();
    while !board.is_checkmate() {
        let best = tables.exact.rank_moves(&board, Metric::Dtm)?.first()?.mv;
        clock = if best.is_capture() || best.is_zeroing() {
            0
        } else {
            clock + 1
        };
        // A line that reaches 100 plies without a capture or pawn move is not a mate the
        // fifty-move rule lets happen.
        if clock >= 100 || pv.len() > 400 {
            return None;
        }
        board.play_unchecked(best);
        pv.push(best);
    }
    (!pv.is_empty()).then_some((won, pv))
}

/// Reports the line as the search's principal variation with its mate score.
pub(super) fn report(reporter: &dyn Reporter, won: bool, pv: &[Move], start: std::time::Instant) {
    let plies = pv.len();
    reporter.info(&SearchInfo {
        depth: plies as u32,
        seldepth: plies as u32,
        multipv: 1,
        score: if won { mate_in(plies) } else { mated_in(plies) },
        bound: ScoreBound::Exact,
        nodes: 0,
        nps: 0,
        time: start.elapsed(),
        hashfull: 0,
        tbhits: 1,
        pv: pv.to_vec(),
        wdl: if won { [1000, 0, 0] } else { [0, 0, 1000] },
    });
}
