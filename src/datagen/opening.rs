//! Where a self-play game starts: the start position or a line of an EPD file (game *i*
//! takes line *i* mod count), then `--random-plies` uniformly random legal moves drawn from
//! the game's own [`GameRng`].
//!
//! An opening whose random plies end the game, or leave a position a quick search (of
//! [`QUICK_NODES`] nodes, cleared table) scores beyond ±[`OPENING_LIMIT`] centipawns, is
//! drawn again, up to [`OPENING_ATTEMPTS`] times; after that the last drawn opening that
//! did not end the game is played, or the start position itself if every draw ended it.
//! With no random plies the start position is played as it is.

use std::path::Path;

use super::adjudicate::rule_end;
use crate::eval::Score;
use crate::position::Position;
use crate::rng::GameRng;

/// Largest |score| (side to move's view) an opening may leave.
pub const OPENING_LIMIT: Score = 400;
/// Node budget of the search that checks an opening.
pub const QUICK_NODES: u64 = 1000;
/// Openings drawn at most per game.
pub const OPENING_ATTEMPTS: u32 = 64;

/// Reads an EPD (or FEN) file: one position a line, four FEN fields with optional move
/// counters and operations after them; blank lines and `#` comments are skipped.
///
/// # Errors
/// An unreadable file, a line that is not a legal position (with its line number), or a
/// file without positions.
pub fn read_epd(path: &Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((fen, _)) = crate::position::epd_fen(line, true) else {
            return Err(format!(
                "{}:{}: not an EPD line (fewer than four fields)",
                path.display(),
                n + 1
            ));
        };
        let pos =
            Position::from_fen(&fen).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("no positions in openings '{}'", path.display()));
    }
    Ok(out)
}

/// The start position of game `game`: line `game mod count` of `openings`, or the
/// standard start position when there are none.
pub fn start_of(openings: &[Position], game: u64) -> Position {
    if openings.is_empty() {
        return Position::default();
    }
    openings[(game % openings.len() as u64) as usize].clone()
}

/// Plays `plies` random legal moves from `start` (see the module docs for re-draws);
/// `quick` scores a candidate for the side to move. Returns the position (with its
/// history) and the number of plies played from `start`.
pub fn random_opening(
    start: &Position,
    plies: u32,
    rng: &mut GameRng,
    mut quick: impl FnMut(&Position) -> Score,
) -> (Position, u32) {
    if plies == 0 {
        return (start.clone(), 0);
    }
    let mut fallback = None;
    for _ in 0..OPENING_ATTEMPTS {
        let mut pos = start.clone();
        let mut played = 0;
        while played < plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
            played += 1;
        }
        if played < plies || rule_end(&pos).is_some() {
            continue;
        }
        if quick(&pos).abs() <= OPENING_LIMIT {
            return (pos, plies);
        }
        fallback = Some(pos);
    }
    match fallback {
        Some(pos) => (pos, plies),
        None => (start.clone(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp_file(name: &str, text: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!(
            "nosce-datagen-opening-{}-{name}",
            std::process::id()
        ));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn epd_lines_with_and_without_counters() {
        let p = tmp_file(
            "ok.epd",
            "# openings\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n\
             \n\
             4k3/8/8/8/8/8/8/R3K3 w Q - 3 40\n",
        );
        let ps = read_epd(&p).unwrap();
        let _ = std::fs::remove_file(&p);
        assert_eq!(ps.len(), 2);
        assert_eq!(
            ps[0].fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(ps[1].fen(), "4k3/8/8/8/8/8/8/R3K3 w Q - 3 40");
        assert_eq!(start_of(&ps, 3).fen(), ps[1].fen());
        assert_eq!(start_of(&[], 3).fen(), Position::default().fen());
    }

    #[test]
    fn bad_epd_is_explained() {
        let p = tmp_file("bad.epd", "8/8/8/8 w\n");
        assert!(read_epd(&p).unwrap_err().contains(":1: not an EPD line"));
        let p2 = tmp_file("illegal.epd", "# c\n8/8/8/8/8/8/8/8 w - -\n");
        assert!(read_epd(&p2).unwrap_err().contains(":2:"));
        let p3 = tmp_file("empty.epd", "# nothing\n");
        assert!(read_epd(&p3).unwrap_err().contains("no positions"));
        for f in [p, p2, p3] {
            let _ = std::fs::remove_file(f);
        }
        assert!(
            read_epd(Path::new("/nonexistent/x.epd"))
                .unwrap_err()
                .contains("cannot read")
        );
    }

    #[test]
    fn random_openings_repeat_per_game_and_redraw_lopsided_ones() {
        let start = Position::default();
        let a = random_opening(&start, 8, &mut GameRng::new(1, 4), |_| 0);
        let b = random_opening(&start, 8, &mut GameRng::new(1, 4), |_| 0);
        let c = random_opening(&start, 8, &mut GameRng::new(1, 5), |_| 0);
        assert_eq!((a.0.key(), a.1), (b.0.key(), 8));
        assert_ne!(a.0.key(), c.0.key());
        assert_eq!(a.0.history_len(), 9);
        // The first draw is refused: the second one is played.
        let mut calls = 0;
        let d = random_opening(&start, 8, &mut GameRng::new(1, 4), |_| {
            calls += 1;
            if calls == 1 { 401 } else { -400 }
        });
        assert_eq!(calls, 2);
        assert_ne!(d.0.key(), a.0.key());
        // Nothing acceptable: the last draw is played anyway.
        let e = random_opening(&start, 2, &mut GameRng::new(1, 4), |_| 900);
        assert_eq!(e.1, 2);
        assert_eq!(
            random_opening(&start, 0, &mut GameRng::new(1, 4), |_| 900).1,
            0
        );
    }
}
