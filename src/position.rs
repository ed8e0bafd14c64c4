//! The game position as the engine sees it: a shakmaty [`Chess`] board plus a Zobrist key
//! kept up to date on every move, and a stack of earlier states for repetition detection and
//! for undoing moves in the search (copy-make: each ply pushes a copy of the board).
//!
//! Keys use shakmaty's 64-bit Zobrist values with the *legal* en passant square, updated
//! after every move by [`crate::zobrist::key_after`]. Repetitions: a position repeated once inside the current search counts as
//! a draw (2-fold, the usual search convention), one that occurred twice in the game counts
//! as well (3-fold). The 50-move rule and insufficient material are also recognised here.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, MoveList, Position as _};

/// One entry of the state stack.
#[derive(Clone, Debug)]
struct State {
    chess: Chess,
    key: u64,
    /// The move that led here (`None` at the start and after a null move).
    last_move: Option<Move>,
}

/// A chess position with its history: the game so far plus the moves played in a search.
#[derive(Clone, Debug)]
pub struct Position {
    states: Vec<State>,
    /// Index of the search root in `states`; repetitions after it count at once.
    root: usize,
}

pub use crate::zobrist::zobrist;

impl Default for Position {
    fn default() -> Self {
        Position::from_chess(Chess::default())
    }
}

impl Position {
    /// A position with no history.
    pub fn from_chess(chess: Chess) -> Self {
        let key = zobrist(&chess);
        let mut states = Vec::with_capacity(512);
        states.push(State {
            chess,
            key,
            last_move: None,
        });
        Position { states, root: 0 }
    }

    /// Parses a FEN. The move counters may be missing (they default to `0 1`).
    ///
    /// # Errors
    /// A message naming what is wrong: syntax, or an illegal position (no king, side not to
    /// move in check, too many pieces...).
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Position::from_fen_in(fen, false)
    }

    /// Parses a FEN of standard chess or, with `chess960`, of Chess960: castling rights as
    /// in X-FEN (`KQkq` for the outermost rooks, a file letter for an inner one) or
    /// Shredder-FEN (`HAha`).
    ///
    /// # Errors
    /// As [`Position::from_fen`]; in standard chess also castling rights that only
    /// Chess960 has (a king or rook off its standard square).
    pub fn from_fen_in(fen: &str, chess960: bool) -> Result<Self, String> {
        let fen_trim = fen.trim();
        let parsed: Fen = fen_trim
            .parse()
            .map_err(|e| format!("bad FEN '{fen_trim}': {e}"))?;
        let chess: Chess = parsed.into_position(castling_mode(chess960)).map_err(|e| {
            let hint = if chess960 {
                ""
            } else {
                " (castling rights of Chess960 need UCI_Chess960 or variant fischerandom)"
            };
            format!("illegal position in FEN '{fen_trim}': {e}{hint}")
        })?;
        Ok(Position::from_chess(chess))
    }

    /// The current board.
    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.states[self.states.len() - 1].chess
    }

    /// The Zobrist key of the current position.
    #[inline]
    pub fn key(&self) -> u64 {
        self.states[self.states.len() - 1].key
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.chess().turn()
    }

    /// The move that led to the current position, if any (none after a null move).
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.states[self.states.len() - 1].last_move
    }

    /// The move played `k` plies ago (1: the last one), if there was one and it was not a
    /// null move.
    #[inline]
    pub fn move_back(&self, k: usize) -> Option<Move> {
        let n = self.states.len();
        if k == 0 || k >= n {
            return None;
        }
        self.states[n - k].last_move
    }

    /// The board, key and incoming move of the `i`-th position of the history (0 = the first;
    /// [`Self::history_len`] − 1 = the current one), for evaluators that update state move by
    /// move.
    #[inline]
    pub fn at(&self, i: usize) -> (&Chess, u64, Option<Move>) {
        let s = &self.states[i];
        (&s.chess, s.key, s.last_move)
    }

    /// Plies played since the search root was set.
    #[inline]
    pub fn ply(&self) -> usize {
        self.states.len() - 1 - self.root
    }

    /// Marks the current position as the search root: from here on, a single repetition
    /// counts as a draw.
    pub fn set_root(&mut self) {
        self.root = self.states.len() - 1;
    }

    /// Index of the search root in the history (see [`Self::set_root`]).
    pub fn root_index(&self) -> usize {
        self.root
    }

    /// Restores a root index saved with [`Self::root_index`] (clamped to the history).
    pub fn set_root_index(&mut self, index: usize) {
        self.root = index.min(self.states.len() - 1);
    }

    /// Forgets the history (the current position becomes the first one).
    pub fn clear_history(&mut self) {
        let last = self.states.pop();
        self.states.clear();
        if let Some(s) = last {
            self.states.push(s);
        }
        self.root = 0;
    }

    /// Number of positions in the history, current one included.
    pub fn history_len(&self) -> usize {
        self.states.len()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.chess().legal_moves()
    }

    /// Plays a legal move (the caller guarantees legality, e.g. from [`Self::legal_moves`]).
    #[inline]
    pub fn play(&mut self, m: Move) {
        let n = self.states.len();
        // The new state is copied once, into its place, and the move made there (a copy
        // made beside the stack and then pushed cost 4 % of the search in memcpy).
        self.states.extend_from_within(n - 1..);
        let (done, next) = self.states.split_at_mut(n);
        let cur = &done[n - 1];
        let next = &mut next[0];
        next.chess.play_unchecked(m);
        next.key = crate::zobrist::key_after(&cur.chess, cur.key, m, &next.chess);
        next.last_move = Some(m);
    }

    /// Plays a move given in UCI notation (`e2e4`, `e7e8q`, castling as `e1g1` or as the
    /// king taking its rook, `e1h1`, the Chess960 form), checking legality.
    ///
    /// # Errors
    /// A message when the text is not a move or the move is illegal here; the position is
    /// unchanged then.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, String> {
        let m = self.parse_uci(text)?;
        self.play(m);
        Ok(m)
    }

    /// Parses a UCI move and checks it is legal here.
    ///
    /// # Errors
    /// When the text is not a move or the move is illegal in this position.
    pub fn parse_uci(&self, text: &str) -> Result<Move, String> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| format!("'{text}' is not a move in UCI notation"))?;
        uci.to_move(self.chess())
            .map_err(|_| format!("illegal move '{text}'"))
    }

    /// Passes the move (null move). Returns false, changing nothing, when in check.
    pub fn play_null(&mut self) -> bool {
        let cur = &self.states[self.states.len() - 1];
        if cur.chess.is_check() {
            return false;
        }
        let Ok(chess) = cur.chess.clone().swap_turn() else {
            return false;
        };
        let key = crate::zobrist::key_after_null(&cur.chess, cur.key);
        self.states.push(State {
            chess,
            key,
            last_move: None,
        });
        true
    }

    /// Takes back the last move or null move. Never removes the first position.
    #[inline]
    pub fn undo(&mut self) {
        if self.states.len() > 1 {
            self.states.pop();
            if self.root >= self.states.len() {
                self.root = self.states.len() - 1;
            }
        }
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.chess().halfmoves()
    }

    /// True if the current position repeats an earlier one so that the search should score
    /// it as a draw: once since the search root, or twice in all (3-fold).
    pub fn is_repetition(&self) -> bool {
        let n = self.states.len();
        let key = self.key();
        let reach = (self.halfmoves() as usize).min(n - 1);
        let mut seen = 0;
        let mut back = 4;
        while back <= reach {
            let idx = n - 1 - back;
            if self.states[idx].key == key {
                if idx >= self.root {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// A key of the current position *and* the positions that a repetition can reach (those
    /// since the last capture or pawn move): two positions with equal history keys are the
    /// same for an engine that knows the rules of repetition.
    pub fn history_key(&self) -> u64 {
        let n = self.states.len();
        let reach = (self.halfmoves() as usize).min(n - 1);
        let mut h = self.key();
        for back in 1..=reach {
            h = h.rotate_left(7)
                ^ self.states[n - 1 - back]
                    .key
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        h
    }

    /// True if the game position has occurred three times (a claimable draw), counting the
    /// whole history regardless of the search root.
    pub fn is_threefold(&self) -> bool {
        let n = self.states.len();
        let key = self.key();
        let reach = (self.halfmoves() as usize).min(n - 1);
        let mut seen = 1;
        let mut back = 4;
        while back <= reach {
            if self.states[n - 1 - back].key == key {
                seen += 1;
            }
            back += 2;
        }
        seen >= 3
    }

    /// True if the 50-move rule applies (100 half-moves without capture or pawn move) and the
    /// side to move is not checkmated.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmoves() >= 100 && !(self.chess().is_check() && self.legal_moves().is_empty())
    }

    /// True if neither side can possibly mate.
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        self.chess().is_insufficient_material()
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        Fen::from_position(self.chess(), EnPassantMode::Legal).to_string()
    }

    /// The game as another engine should see it: the FEN of the earliest position after
    /// which no null move occurs, and the moves from there to the current position (so
    /// that the other engine knows the repetitions).
    pub fn game_line(&self) -> (String, Vec<Move>) {
        let first = self
            .states
            .iter()
            .rposition(|s| s.last_move.is_none())
            .unwrap_or(0);
        let fen = Fen::from_position(&self.states[first].chess, EnPassantMode::Legal).to_string();
        let moves = self.states[first + 1..]
            .iter()
            .filter_map(|s| s.last_move)
            .collect();
        (fen, moves)
    }
}

/// Splits one line of an EPD or FEN file into its FEN and the rest (the EPD operations):
/// the four position fields, then the two move counters when the line has both (a `;` right
/// after the last one is allowed). Without counters the FEN has four fields, or, with
/// `default_counters`, `0 1` appended. `None` for a line of fewer than four fields. The FEN
/// is not checked: [`Position::from_fen`] does that.
pub fn epd_fen(line: &str, default_counters: bool) -> Option<(String, String)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 4 {
        return None;
    }
    let counters = f.len() >= 6
        && f[4].parse::<u32>().is_ok()
        && f[5].trim_end_matches(';').parse::<u32>().is_ok();
    let position = f[..4].join(" ");
    let (fen, rest) = if counters {
        (
            format!("{position} {} {}", f[4], f[5].trim_end_matches(';')),
            &f[6..],
        )
    } else if default_counters {
        (format!("{} 0 1", position.trim_end_matches(';')), &f[4..])
    } else {
        (position.trim_end_matches(';').to_string(), &f[4..])
    };
    Some((fen, rest.join(" ")))
}

/// Formats a move in UCI notation (castling as king move, `e1g1`).
pub fn uci(m: Move) -> String {
    uci_in(m, false)
}

/// Formats a move in UCI notation; with `chess960`, castling as the king taking its own
/// rook (`e1h1`), as `UCI_Chess960` asks.
pub fn uci_in(m: Move, chess960: bool) -> String {
    UciMove::from_move(m, castling_mode(chess960)).to_string()
}

/// shakmaty's castling mode for standard chess or Chess960.
pub fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn epd_lines_split_into_fen_and_operations() {
        let l = "8/8/8/8/8/8/8/K1k5 w - - bm #3; id \"x\";";
        assert_eq!(
            epd_fen(l, false),
            Some(("8/8/8/8/8/8/8/K1k5 w - -".into(), "bm #3; id \"x\";".into()))
        );
        assert_eq!(epd_fen(l, true).unwrap().0, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        let f = "8/8/8/8/8/8/8/K1k5 b - - 12 40; c0 \"x\"";
        assert_eq!(
            epd_fen(f, true),
            Some(("8/8/8/8/8/8/8/K1k5 b - - 12 40".into(), "c0 \"x\"".into()))
        );
        assert_eq!(epd_fen("8/8/8/8/8/8/8/K1k5 w -;", true), None);
        assert_eq!(
            epd_fen("8/8/8/8/8/8/8/K1k5 w - -;", true).unwrap().0,
            "8/8/8/8/8/8/8/K1k5 w - - 0 1"
        );
    }

    use super::*;

    #[test]
    fn history_key_tells_the_way_a_position_was_reached() {
        let mut a = Position::default();
        let mut b = Position::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            a.play_uci(m).unwrap();
        }
        // Same position, but `a` has been here before (a repetition is one move away).
        assert_eq!(a.key(), b.key());
        assert_ne!(a.history_key(), b.history_key());
        // A pawn move cuts the history off: only what follows it counts.
        a.play_uci("e2e4").unwrap();
        b.play_uci("e2e4").unwrap();
        assert_eq!(a.history_key(), b.history_key());
    }

    #[test]
    fn incremental_key_matches_full_hash() {
        let mut pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        // Walk a deterministic path through varied moves and compare keys.
        for i in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(i * 7 + 3) % moves.len()];
            pos.play(m);
            assert_eq!(pos.key(), zobrist(pos.chess()), "after {}", uci(m));
        }
    }

    #[test]
    fn castling_and_en_passant_keep_the_full_hash() {
        let mut pos = Position::from_fen("r3k2r/8/8/8/3p4/8/4P3/R3K2R w KQkq - 0 1").unwrap();
        for m in ["e2e4", "d4e3", "e1g1", "e8c8", "a1a8"] {
            pos.play_uci(m).unwrap();
            assert_eq!(pos.key(), zobrist(pos.chess()), "after {m}");
        }
    }

    #[test]
    fn repetition_inside_search_and_threefold() {
        let mut pos = Position::default();
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            pos.play_uci(mv).unwrap();
        }
        // Start position seen twice: not yet a game draw, but once since root (0).
        assert!(pos.is_repetition());
        assert!(!pos.is_threefold());
        pos.set_root();
        assert!(!pos.is_repetition());
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            pos.play_uci(mv).unwrap();
        }
        assert!(pos.is_threefold());
        assert!(pos.is_repetition());
    }

    #[test]
    fn null_move_flips_side_and_key() {
        let mut pos = Position::default();
        let k = pos.key();
        assert!(pos.play_null());
        assert_ne!(pos.key(), k);
        assert_eq!(pos.key(), zobrist(pos.chess()));
        pos.undo();
        assert_eq!(pos.key(), k);
    }

    #[test]
    fn moves_back_skip_nothing_and_end_at_the_first_position() {
        let mut pos = Position::default();
        let e4 = pos.play_uci("e2e4").unwrap();
        assert!(pos.play_null());
        let nf3 = pos.play_uci("g1f3").unwrap();
        assert_eq!(pos.move_back(1), Some(nf3));
        assert_eq!(pos.move_back(2), None, "a null move is no move");
        assert_eq!(pos.move_back(3), Some(e4));
        assert_eq!(pos.move_back(4), None);
        assert_eq!(pos.move_back(0), None);
    }

    #[test]
    fn game_line_starts_after_the_last_null_move() {
        let mut pos = Position::default();
        let (fen, moves) = pos.game_line();
        assert_eq!(fen, Position::default().fen());
        assert!(moves.is_empty());
        for mv in ["e2e4", "e7e5", "g1f3"] {
            pos.play_uci(mv).unwrap();
        }
        let (fen, moves) = pos.game_line();
        assert_eq!(fen, Position::default().fen());
        assert_eq!(
            moves.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
            ["e2e4", "e7e5", "g1f3"]
        );
        assert!(pos.play_null());
        let after_null = pos.fen();
        for mv in ["b1c3", "b8c6"] {
            pos.play_uci(mv).unwrap();
        }
        let (fen, moves) = pos.game_line();
        assert_eq!(fen, after_null);
        assert_eq!(
            moves.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
            ["b1c3", "b8c6"]
        );
        // Replaying the line reaches the current position.
        let mut replay = Position::from_fen(&fen).unwrap();
        for &m in &moves {
            replay.play(m);
        }
        assert_eq!(replay.key(), pos.key());
        // Directly after a null move the line is just that position.
        assert!(pos.play_null());
        assert_eq!(pos.game_line(), (pos.fen(), Vec::new()));
    }

    #[test]
    fn fen_without_counters_and_bad_fen() {
        assert!(Position::from_fen("8/8/8/8/8/8/k7/K7 w - -").is_err());
        assert!(Position::from_fen("K3r3/8/5k2/Q7/8/8/8/8 w - -").is_ok());
        assert!(Position::from_fen("nonsense").is_err());
        assert!(Position::from_fen("").is_err());
        let mut pos = Position::default();
        assert!(pos.play_uci("e2e5").is_err());
        assert!(pos.play_uci("zz").is_err());
        assert_eq!(pos.history_len(), 1);
    }
}
