//! The training record: one position, its search score and its game's result in 32 bytes,
//! and the reader that walks a file of them.
//!
//! Layout (little-endian, fixed 32 bytes, see `docs/datagen-format.md`):
//!
//! | bytes  | field                                                                  |
//! |--------|------------------------------------------------------------------------|
//! | 0..8   | occupancy `u64`: bit *i* set when square *i* holds a piece (a1 = 0, h8 = 63) |
//! | 8..24  | 32 four-bit piece codes, one per occupied square in occupancy order from the least significant bit, low nibble first; code = role 1..6 (pawn..king) + 8 if black; unused nibbles 0 |
//! | 24..26 | score `i16`: the search's score, side to move's view, centipawns        |
//! | 26     | result `u8`: 0 loss, 1 draw, 2 win, side to move's view                 |
//! | 27     | side to move `u8`: 0 white, 1 black                                     |
//! | 28..30 | fullmove number `u16` (saturated at 65535)                              |
//! | 30..32 | reserved, zero                                                          |
//!
//! A record holds no castling rights, no en passant square and no half-move clock: two
//! positions that differ only in those encode to the same bytes. A network input made of
//! pieces on squares does not see them either.

use std::io::Read;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Role, Setup, Square,
};

/// Size of one record in bytes.
pub const RECORD_SIZE: usize = 32;

/// The result of a game from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// That side lost.
    Loss = 0,
    /// Draw.
    Draw = 1,
    /// That side won.
    Win = 2,
}

impl GameResult {
    /// The same result seen by the other side.
    pub fn flip(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }

    /// The byte stored in a record.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// The result of a stored byte, if it is one.
    pub fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The pieces (no castling rights or en passant square: the format has none).
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// The search's score, side to move's view, centipawns.
    pub score: i16,
    /// The game's result, side to move's view.
    pub result: GameResult,
    /// The fullmove number of the position.
    pub fullmove: u16,
}

impl Record {
    /// The record's position to play or evaluate (no castling rights or en passant square,
    /// as the format has none); `None` if shakmaty refuses it.
    pub fn position(&self) -> Option<Chess> {
        let setup = Setup {
            board: self.board.clone(),
            turn: self.turn,
            ..Setup::empty()
        };
        Chess::from_setup(setup, CastlingMode::Standard).ok()
    }
}

/// The 4-bit code of a piece: role 1..6 plus 8 for black.
fn piece_code(p: Piece) -> u8 {
    p.role as u8 + if p.color == Color::Black { 8 } else { 0 }
}

/// The piece of a 4-bit code, if it is one.
fn code_piece(code: u8) -> Option<Piece> {
    let color = if code & 8 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let role = Role::try_from(code & 7).ok()?;
    Some(Piece { color, role })
}

/// Encodes a record into its 32 bytes. Boards with more than 32 pieces cannot occur in a
/// game; should one be passed, the pieces beyond the 32nd are left out (and `decode` then
/// refuses the bytes, as their occupancy disagrees with the codes).
pub fn encode(r: &Record) -> [u8; RECORD_SIZE] {
    let mut out = [0u8; RECORD_SIZE];
    let occupancy = r.board.occupied().0;
    out[0..8].copy_from_slice(&occupancy.to_le_bytes());
    let mut n = 0usize;
    for i in 0..64u32 {
        if (occupancy >> i) & 1 == 0 {
            continue;
        }
        let Some(piece) = r.board.piece_at(Square::new(i)) else {
            continue;
        };
        if n >= 32 {
            break;
        }
        let code = piece_code(piece);
        out[8 + n / 2] |= if n.is_multiple_of(2) { code } else { code << 4 };
        n += 1;
    }
    out[24..26].copy_from_slice(&r.score.to_le_bytes());
    out[26] = r.result.to_byte();
    out[27] = match r.turn {
        Color::White => 0,
        Color::Black => 1,
    };
    out[28..30].copy_from_slice(&r.fullmove.to_le_bytes());
    out
}

/// Decodes 32 bytes into a record.
///
/// # Errors
/// Bytes that no [`encode`] writes: more than 32 occupied squares, a piece code that is no
/// piece, a non-zero unused nibble, a result above 2, a side to move above 1, non-zero
/// reserved bytes.
pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Result<Record, String> {
    let mut occ = [0u8; 8];
    occ.copy_from_slice(&bytes[0..8]);
    let occupancy = u64::from_le_bytes(occ);
    let count = occupancy.count_ones() as usize;
    if count > 32 {
        return Err(format!("{count} occupied squares (at most 32)"));
    }
    let nibble = |n: usize| {
        let b = bytes[8 + n / 2];
        if n.is_multiple_of(2) {
            b & 0x0f
        } else {
            b >> 4
        }
    };
    let mut board = Board::empty();
    for (n, sq) in Bitboard(occupancy).into_iter().enumerate() {
        let code = nibble(n);
        let piece = code_piece(code).ok_or_else(|| format!("bad piece code {code} on {sq}"))?;
        board.set_piece_at(sq, piece);
    }
    if let Some(n) = (count..32).find(|&n| nibble(n) != 0) {
        return Err(format!("unused piece code {n} is not zero"));
    }
    let score = i16::from_le_bytes([bytes[24], bytes[25]]);
    let result =
        GameResult::from_byte(bytes[26]).ok_or_else(|| format!("bad result byte {}", bytes[26]))?;
    let turn = match bytes[27] {
        0 => Color::White,
        1 => Color::Black,
        b => return Err(format!("bad side-to-move byte {b}")),
    };
    let fullmove = u16::from_le_bytes([bytes[28], bytes[29]]);
    if bytes[30] != 0 || bytes[31] != 0 {
        return Err("reserved bytes are not zero".to_string());
    }
    Ok(Record {
        board,
        turn,
        score,
        result,
        fullmove,
    })
}

/// Iterates the records of a byte stream (a data file). Yields `Err` for a record that does
/// not decode and for a trailing partial record, then ends.
pub struct RecordReader<R: Read> {
    input: R,
    index: u64,
    done: bool,
}

impl<R: Read> RecordReader<R> {
    /// A reader over `input` (wrap files in a `BufReader`).
    pub fn new(input: R) -> Self {
        RecordReader {
            input,
            index: 0,
            done: false,
        }
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<Record, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut buf = [0u8; RECORD_SIZE];
        let mut filled = 0;
        while filled < RECORD_SIZE {
            match self.input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(format!("record {}: read error: {e}", self.index)));
                }
            }
        }
        if filled == 0 {
            self.done = true;
            return None;
        }
        let index = self.index;
        self.index += 1;
        if filled < RECORD_SIZE {
            self.done = true;
            return Some(Err(format!(
                "record {index}: truncated ({filled} of {RECORD_SIZE} bytes)"
            )));
        }
        Some(decode(&buf).map_err(|e| format!("record {index}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use shakmaty::Position as _;

    fn record_of(fen: &str, score: i16, result: GameResult) -> Record {
        let pos = Position::from_fen(fen).unwrap();
        Record {
            board: pos.chess().board().clone(),
            turn: pos.turn(),
            score,
            result,
            fullmove: pos.chess().fullmoves().get() as u16,
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        for (fen, score, result) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                12,
                GameResult::Draw,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                -2999,
                GameResult::Loss,
            ),
            ("8/8/8/4k3/8/8/8/4KQ2 b - - 37 211", 2999, GameResult::Win),
            ("K7/8/8/8/8/8/8/7k w - - 0 65535", 0, GameResult::Draw),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                -1,
                GameResult::Win,
            ),
        ] {
            let r = record_of(fen, score, result);
            let bytes = encode(&r);
            assert_eq!(bytes.len(), RECORD_SIZE);
            assert_eq!(&bytes[30..32], &[0, 0]);
            let back = decode(&bytes).unwrap();
            assert_eq!(back, r, "{fen}");
            assert_eq!(encode(&back), bytes);
        }
    }

    #[test]
    fn layout_is_as_documented() {
        let r = record_of("4k3/8/8/8/8/8/8/R3K3 b - - 0 300", -5, GameResult::Win);
        let b = encode(&r);
        // a1 (bit 0), e1 (bit 4), e8 (bit 60).
        assert_eq!(
            u64::from_le_bytes(b[0..8].try_into().unwrap()),
            1 | 1 << 4 | 1 << 60
        );
        // White rook (4), white king (6) in one byte, low nibble first; then black king 6+8.
        assert_eq!(b[8], 4 | 6 << 4);
        assert_eq!(b[9], 14);
        assert!(b[10..24].iter().all(|&x| x == 0));
        assert_eq!(i16::from_le_bytes([b[24], b[25]]), -5);
        assert_eq!((b[26], b[27]), (2, 1));
        assert_eq!(u16::from_le_bytes([b[28], b[29]]), 300);
    }

    #[test]
    fn castling_and_en_passant_are_not_recorded() {
        let with = record_of(
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 10",
            7,
            GameResult::Draw,
        );
        let without = record_of("r3k2r/8/8/3pP3/8/8/8/R3K2R w - - 0 10", 7, GameResult::Draw);
        assert_eq!(encode(&with), encode(&without));
    }

    #[test]
    fn bad_bytes_are_refused() {
        let good = encode(&record_of(
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            0,
            GameResult::Draw,
        ));
        let mut b = good;
        b[8] = 7; // role 7 is no piece
        assert!(decode(&b).unwrap_err().contains("piece code"));
        let mut b = good;
        b[10] = 1; // a fourth code for three pieces
        assert!(decode(&b).unwrap_err().contains("unused"));
        let mut b = good;
        b[26] = 3;
        assert!(decode(&b).unwrap_err().contains("result"));
        let mut b = good;
        b[27] = 2;
        assert!(decode(&b).unwrap_err().contains("side"));
        let mut b = good;
        b[31] = 1;
        assert!(decode(&b).unwrap_err().contains("reserved"));
        let mut b = good;
        b[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode(&b).unwrap_err().contains("64 occupied"));
    }

    #[test]
    fn reader_walks_records_and_reports_a_partial_tail() {
        let a = record_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 3, GameResult::Win);
        let b = record_of("4k3/8/8/8/8/8/8/Q3K3 b - - 0 2", -3, GameResult::Loss);
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&encode(&a));
        bytes.extend_from_slice(&encode(&b));
        let all: Vec<_> = RecordReader::new(&bytes[..]).collect();
        assert_eq!(all, vec![Ok(a.clone()), Ok(b)]);
        bytes.extend_from_slice(&[1, 2, 3]);
        let all: Vec<_> = RecordReader::new(&bytes[..]).collect();
        assert_eq!(all.len(), 3);
        assert!(all[2].as_ref().unwrap_err().contains("truncated"));
        assert_eq!(RecordReader::new(&[][..]).count(), 0);
    }
}
