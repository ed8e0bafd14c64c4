//! PGN out and in. `games.pgn` holds every game of a sweep as standard PGN (Seven Tag
//! Roster plus `SetUp`/`FEN`, and tags for the configuration and the speculative depth s of
//! Donkers 2003 §5.4.2), readable by any GUI and by python-chess; `nosce kqkr analyze` reads
//! PGN back (ours or any other program's) to rebuild Tables 5.2–5.4 from the moves.

use std::fmt::Write as _;

use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, Move, Position as _};

use super::adjudicate::sides;
use super::records::GameRow;
use crate::position::Position;

/// Extra tags written into every game (configuration summary).
#[derive(Clone, Debug, Default)]
pub struct PgnContext {
    /// Name of the K+Q player.
    pub kq_name: String,
    /// Name of the K+R player (s is appended).
    pub kr_name: String,
    /// Further tags (name, value).
    pub tags: Vec<(String, String)>,
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// SAN movetext for `moves` from `fen`, numbered, wrapped at about 80 columns.
pub fn movetext(fen: &str, moves: &[String], result: &str) -> Result<String, String> {
    let mut pos = Position::from_fen(fen)?;
    let mut out = String::new();
    let mut line_len = 0;
    let mut push = |tok: &str, out: &mut String| {
        if line_len + tok.len() + 1 > 79 {
            out.push('\n');
            line_len = 0;
        } else if !out.is_empty() {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(tok);
        line_len += tok.len();
    };
    let first_black = pos.turn() == Color::Black;
    let mut number = pos.chess().fullmoves().get();
    for (i, text) in moves.iter().enumerate() {
        let m = pos.parse_uci(text)?;
        let san = SanPlus::from_move(pos.chess().clone(), m).to_string();
        if pos.turn() == Color::White {
            push(&format!("{number}. {san}"), &mut out);
        } else if i == 0 && first_black {
            push(&format!("{number}... {san}"), &mut out);
        } else {
            push(&san, &mut out);
        }
        if pos.turn() == Color::Black {
            number += 1;
        }
        pos.play(m);
    }
    push(result, &mut out);
    Ok(out)
}

/// One game as PGN.
pub fn game_pgn(row: &GameRow, ctx: &PgnContext) -> Result<String, String> {
    let kq = sides(&row.fen)?;
    let moves: Vec<String> = row.moves.split_whitespace().map(String::from).collect();
    let result = row.outcome.pgn_result(kq);
    let kr = format!("{} s={}", ctx.kr_name, row.spec_depth);
    let (white, black) = if kq == Color::White {
        (ctx.kq_name.clone(), kr)
    } else {
        (kr, ctx.kq_name.clone())
    };
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", quote(v));
    };
    tag("Event", "nosce kqkr (Donkers 2003 §5.4)");
    tag("Site", "?");
    tag("Date", "????.??.??");
    tag(
        "Round",
        &format!("{}.{}.{}", row.position, row.spec_depth, row.game + 1),
    );
    tag("White", &white);
    tag("Black", &black);
    tag("Result", result);
    tag("SetUp", "1");
    tag("FEN", &row.fen);
    tag("PositionId", &row.position.to_string());
    tag("SpecDepth", &row.spec_depth.to_string());
    tag("GameIndex", &row.game.to_string());
    tag("Seed", &row.seed.to_string());
    tag("Termination", row.outcome.name());
    tag("Length", &row.length.to_string());
    for (k, v) in &ctx.tags {
        tag(k, v);
    }
    s.push('\n');
    s.push_str(&movetext(&row.fen, &moves, result)?);
    s.push_str("\n\n");
    Ok(s)
}

/// A game read from PGN.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Start position (FEN tag, else the standard start).
    pub fen: Option<String>,
    /// The moves, in order, as they were read (SAN).
    pub sans: Vec<String>,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The moves, made legal moves from the start position.
    pub fn moves(&self) -> Result<(Chess, Vec<Move>), String> {
        let start = match &self.fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::default(),
        };
        let mut pos = start.chess().clone();
        let mut out = Vec::new();
        for text in &self.sans {
            let san: San = text
                .trim_end_matches(['+', '#', '!', '?'])
                .parse()
                .map_err(|_| format!("bad move '{text}'"))?;
            let m = san
                .to_move(&pos)
                .map_err(|_| format!("illegal move '{text}'"))?;
            pos.play_unchecked(m);
            out.push(m);
        }
        Ok((start.chess().clone(), out))
    }
}

/// Parses PGN text: tag pairs and movetext; comments (`{}` and `;`), variations, NAGs,
/// move numbers and results are skipped.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut cur = PgnGame::default();
    let mut in_moves = false;
    let mut depth = 0usize; // variation nesting
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if !in_comment && depth == 0 && t.starts_with('[') && t.ends_with(']') {
            if in_moves {
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
            let inner = &t[1..t.len() - 1];
            if let Some((k, v)) = inner.split_once(' ') {
                let v = v.trim().trim_matches('"').replace("\\\"", "\"");
                if k == "FEN" {
                    cur.fen = Some(v.clone());
                }
                cur.tags.push((k.to_string(), v));
            }
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, cur: &mut PgnGame, in_moves: &mut bool| {
            let w = std::mem::take(token);
            if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                *in_moves = true;
                return;
            }
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if w.is_empty() || w.starts_with('$') {
                return;
            }
            *in_moves = true;
            cur.sans.push(w.to_string());
        };
        for c in line.chars() {
            if in_comment {
                if c == '}' {
                    in_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut cur, &mut in_moves);
                    in_comment = true;
                }
                ';' if depth == 0 => {
                    flush(&mut token, &mut cur, &mut in_moves);
                    break;
                }
                '(' => {
                    flush(&mut token, &mut cur, &mut in_moves);
                    depth += 1;
                }
                ')' => {
                    token.clear();
                    depth = depth.saturating_sub(1);
                }
                c if c.is_whitespace() => {
                    if depth == 0 {
                        flush(&mut token, &mut cur, &mut in_moves);
                    } else {
                        token.clear();
                    }
                }
                c => {
                    if depth == 0 {
                        token.push(c);
                    }
                }
            }
        }
        if depth == 0 {
            flush(&mut token, &mut cur, &mut in_moves);
        }
    }
    if in_moves || !cur.tags.is_empty() {
        games.push(cur);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_numbers_and_checks() {
        let t = movetext(
            "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
            &["a8b7".into(), "e8e7".into(), "b7c6".into()],
            "*",
        )
        .unwrap();
        assert_eq!(t, "1. Kb7 Re7+ 2. Kc6 *");
    }

    #[test]
    fn parses_comments_variations_and_tags() {
        let text = "[Event \"x\"]\n[FEN \"K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n\
                    1. Kb7 {+3.1/12} Re7+ (1... Rd8 2. Qa1) 2. Kc6 $1 ; done\n1/2-1/2\n\n\
                    [Event \"y\"]\n\n1. e4 e5 1-0\n";
        let g = parse_pgn(text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].sans, vec!["Kb7", "Re7+", "Kc6"]);
        assert_eq!(g[0].tag("setup"), Some("1"));
        let (_, moves) = g[0].moves().unwrap();
        assert_eq!(moves.len(), 3);
        assert_eq!(g[1].sans, vec!["e4", "e5"]);
        assert!(g[1].fen.is_none());
    }
}
