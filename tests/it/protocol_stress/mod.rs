//! A protocol stress driver: random interleavings of valid and invalid commands against the
//! real binary, as a careless or hostile GUI would send them, with the invariants a GUI
//! relies on checked on every line:
//!
//! - UCI: every `go` is answered by exactly one `bestmove`, whose move (and ponder move) is
//!   legal in the position the GUI set before that `go` (`0000` only where there is no legal
//!   move); every `info … pv` line's moves are a legal line from that position and come
//!   while a search is running; every `isready` gets one `readyok`.
//! - xboard: every `move` the engine plays is legal in the game the GUI holds; every `ping N`
//!   gets `pong N`, in order.
//! - Both: the process never panics (stderr) and ends cleanly on `quit`.
//!
//! Inputs include bad FENs, illegal moves, unknown commands and options, out-of-range and
//! huge numbers, truncated lines, invalid UTF-8 and very long lines. Each test runs for
//! `NOSCE_STRESS_SECS` seconds (default 50) from seed `NOSCE_STRESS_SEED` (default: the
//! clock, printed), and prints how many inputs it tried.

use crate::common::{Engine, QUICK};
use crate::seeded;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use seeded::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn run_length() -> Duration {
    seeded::run_length("NOSCE_STRESS_SECS", 50)
}

fn seed() -> u64 {
    seeded::seed("NOSCE_STRESS_SEED")
}

/// A line of fewer than `most` random legal moves from `pos` (shorter if the game ends),
/// and the position it reaches.
fn random_line(rng: &mut Rng, pos: &Chess, most: u64) -> (Vec<String>, Chess) {
    let plies = rng.below(most);
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        moves.push(UciMove::from_standard(m).to_string());
        p.play_unchecked(m);
    }
    (moves, p)
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The position `fen` describes, if the GUI (shakmaty) accepts it.
fn parse_fen(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}

/// Plays UCI `moves` from `pos`, if all are legal.
fn play_line(pos: &Chess, moves: &[&str]) -> Option<Chess> {
    let mut p = pos.clone();
    for m in moves {
        let mv = m.parse::<UciMove>().ok()?.to_move(&p).ok()?;
        p.play_unchecked(mv);
    }
    Some(p)
}

/// The position a GUI's `position … moves` list reaches, where `0000` is a null move
/// (nosce accepts one when not in check, as some GUIs send it).
fn play_gui_line(pos: &Chess, moves: &[&str]) -> Option<Chess> {
    let mut p = pos.clone();
    for &m in moves {
        p = if m == "0000" {
            if p.is_check() {
                return None;
            }
            p.swap_turn().ok()?
        } else {
            play_line(&p, &[m])?
        };
    }
    Some(p)
}

/// `fen` damaged at random: a character dropped, replaced or inserted, a field cut off.
fn damage(rng: &mut Rng, fen: &str) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    match rng.below(4) {
        0 if !chars.is_empty() => {
            chars.remove(rng.below(chars.len() as u64) as usize);
        }
        1 if !chars.is_empty() => {
            let i = rng.below(chars.len() as u64) as usize;
            chars[i] = rng.pick(&['x', '9', 'K', 'q', '/', ' ', '-', 'P', '0']);
        }
        2 => {
            let i = rng.below(chars.len() as u64 + 1) as usize;
            chars.insert(i, rng.pick(&['k', '8', 'p', '/', 'w', 'b']));
        }
        _ => {
            let fields: Vec<&str> = fen.split(' ').collect();
            let keep = rng.below(fields.len() as u64) as usize;
            return fields[..keep].join(" ");
        }
    }
    chars.into_iter().collect()
}

/// Junk that is not a command: random printable text, invalid UTF-8, control characters,
/// a very long line, or a line cut off without its end.
fn junk(rng: &mut Rng) -> Vec<u8> {
    match rng.below(5) {
        // Printable noise, led by a byte no command of either protocol starts with: a
        // random line that happened to read `go` (seed 1796390314299569659) started a
        // search the GUI did not ask for.
        0 => [rng.pick(b"~`|^")]
            .into_iter()
            .chain((0..rng.below(40)).map(|_| b' ' + rng.below(95) as u8))
            .chain([b'\n'])
            .collect(),
        1 => vec![0xff, 0xfe, b'g', b'o', 0xc3, b'\n'],
        2 => vec![0, 7, 27, b'[', b'A', b'\r', b'\n'],
        3 => {
            let mut v = b"position startpos moves ".to_vec();
            for _ in 0..3000 {
                v.extend_from_slice(b"e2e4 ");
            }
            v.push(b'\n');
            v
        }
        _ => {
            // (Not `go`: a cut `go` is still a `go`.)
            let mut v = rng
                .pick(&[
                    "position startpos",
                    "isready",
                    "setoption name Hash value 8",
                ])
                .as_bytes()[..5]
                .to_vec();
            v.extend_from_slice(b"\r\n");
            v
        }
    }
}

mod uci;
mod xboard;
