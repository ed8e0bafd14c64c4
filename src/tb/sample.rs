//! Positions out of the tables for tests and cross-checks: every canonical legal position of
//! a table as a `shakmaty::Chess`, and reproducible random samples (the crate's [`GameRng`])
//! with our DTM, dumped as `fen;dtm` lines for the Gaviota comparison script. These are the
//! checks behind using the tables as the KQKR oracle of Donkers 2003 §5.4 / Appendix B.

use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Setup, Square, fen::Fen,
};

use crate::rng::GameRng;
use crate::tb::{
    exact::ExactTables,
    material::Material,
    table::{CODE_ILLEGAL, Table, Wdl},
};

/// The position stored at `idx` with `turn` to move, if the slot is legal.
pub fn position_at(table: &Table, idx: u32, turn: Color) -> Option<Chess> {
    let codes = table.dtm_codes(turn);
    if *codes.get(idx as usize)? == CODE_ILLEGAL {
        return None;
    }
    let layout = table.layout();
    let sq = layout.decode(idx);
    let mut board = Board::empty();
    for (&s, &piece) in sq.iter().zip(&layout.pieces).take(layout.n) {
        board.set_piece_at(Square::new(u32::from(s)), piece);
    }
    let setup = Setup {
        board,
        turn,
        ..Setup::empty()
    };
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// Every canonical legal position of a table with `turn` to move, with its index.
pub fn all_positions(table: &Table, turn: Color) -> impl Iterator<Item = (u32, Chess)> + '_ {
    (0..table.layout().size as u32).filter_map(move |i| position_at(table, i, turn).map(|p| (i, p)))
}

/// Signed DTM as Gaviota reports it: plies, positive if the side to move wins, negative if it
/// loses, 0 for draws and for a mated side to move.
pub fn signed_dtm(wdl: Wdl, dtm: Option<u16>) -> i32 {
    let d = i32::from(dtm.unwrap_or(0));
    match wdl {
        Wdl::Win => d,
        Wdl::Draw => 0,
        Wdl::Loss => -d,
    }
}

/// `count` random legal positions drawn uniformly from the index slots of KQvKR, KQvK and
/// KRvK (both sides to move, random board orientation), as `fen;signed_dtm` lines.
pub fn dump_random(exact: &ExactTables, count: usize, seed: u64) -> Result<String, String> {
    let mut tables = Vec::new();
    for key in ["KQvKR", "KQvK", "KRvK"] {
        let m: Material = key.parse().map_err(|e| format!("{e}"))?;
        tables.push(exact.table(&m).map_err(|e| e.to_string())?);
    }
    let mut rng = GameRng::from_seed(seed);
    let mut out = String::new();
    let mut made = 0;
    while made < count {
        // Two of three samples from KQvKR, the rest from the 3-piece tables.
        let table = match rng.below(6) {
            0 => &tables[1],
            1 => &tables[2],
            _ => &tables[0],
        };
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let idx = rng.below(table.layout().size) as u32;
        let Some(pos) = position_at(table, idx, turn) else {
            continue;
        };
        // Random orientation and colours: the probe must undo both.
        let pos = reorient(&pos, rng.below(8) as u8, rng.below(2) == 1).unwrap_or(pos);
        let Some(entry) = exact.probe(&pos) else {
            return Err("sampled position not covered".into());
        };
        let fen = Fen::from_position(&pos, EnPassantMode::Legal);
        out.push_str(&format!("{fen};{}\n", signed_dtm(entry.wdl, entry.dtm)));
        made += 1;
    }
    Ok(out)
}

/// The position transformed by board symmetry `t` (bit 0 files, bit 1 ranks, bit 2 diagonal)
/// and, if `swap`, with colours swapped (and the side to move with them).
pub fn reorient(pos: &Chess, t: u8, swap: bool) -> Option<Chess> {
    use shakmaty::Position;
    let mut board = pos.board().clone();
    if t & 1 != 0 {
        board.flip_horizontal();
    }
    if t & 2 != 0 {
        board.flip_vertical();
    }
    if t & 4 != 0 {
        board.flip_diagonal();
    }
    let mut turn = pos.turn();
    if swap {
        board.swap_colors();
        turn = !turn;
    }
    let setup = Setup {
        board,
        turn,
        ..Setup::empty()
    };
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}
