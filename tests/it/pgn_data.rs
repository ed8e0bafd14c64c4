//! `scripts/pgn_data.py`, which turns played games into training records (issue 41, item 3:
//! generation 4's data is the positions of the games in `matches/`). A short game whose
//! records are worked out by hand: the library's decoder ([`nosce::datagen::RecordReader`])
//! must read back exactly those positions, scores, results and move numbers — the moves
//! without a score, the capture, the position in check and the mate score left out — and
//! `--only` keeps one player's moves. A missing file exits non-zero with a message.
//! Needs python3 with python-chess (as the client tests do).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nosce::datagen::{GameResult, RecordReader};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::prereq;

/// White wins; comments as fastchess writes them. By hand: 1. e4 (+30, White, win), 1... e5
/// (−20, Black, loss), 2. Qh5 (+10), 2... Nc6 (no comment: left out), 3. Bc4 (+15),
/// 3... Nf6 (−500), 4. Qxf7# (a capture and a mate score: left out).
const GAME: &str = r#"[Event "test"]
[White "nosce"]
[Black "other"]
[Result "1-0"]

1. e4 {+0.30/10 0.100s} e5 {-0.20/11 0.100s} 2. Qh5 {+0.10/9 0.050s} Nc6
3. Bc4 {+0.15/12 0.070s} Nf6 {-5.00/9 0.020s} 4. Qxf7# {+M1/1 0.001s} 1-0

[Event "test"]
[White "other"]
[Black "nosce"]
[Result "*"]

1. d4 {+0.10/10 0.100s} *
"#;

fn run(dir: &Path, args: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match Command::new("python3")
        .arg(root.join("scripts/pgn_data.py"))
        .args(args)
        .current_dir(dir)
        .output()
    {
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr);
            if err.contains("No module named 'chess'") {
                prereq::missing("python-chess (pip install chess)");
            }
            out
        }
        Err(e) => {
            prereq::missing(&format!("python3 ({e})"));
            unreachable!()
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-pgn-data-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// (FEN without counters, side to move, score, result, fullmove) of each record.
fn read(path: &Path) -> Vec<(String, Color, i16, GameResult, u16)> {
    let f = std::fs::File::open(path).unwrap();
    RecordReader::new(std::io::BufReader::new(f))
        .map(|r| {
            let r = r.unwrap();
            let pos: Chess = r.position().unwrap();
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            let fen = fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
            (fen, r.turn, r.score, r.result, r.fullmove)
        })
        .collect()
}

#[test]
fn a_game_gives_the_records_worked_out_by_hand() {
    let d = scratch("game");
    std::fs::write(d.join("g.pgn"), GAME).unwrap();
    let out = run(&d, &["--out", "all.bin", "g.pgn"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("total: 2 games, 5 positions"));
    let mut p = Chess::default();
    let mut expect = Vec::new();
    for (uci, score, result) in [
        ("e2e4", 30, GameResult::Win),
        ("e7e5", -20, GameResult::Loss),
        ("d1h5", 10, GameResult::Win),
        ("b8c6", 0, GameResult::Loss),
        ("f1c4", 15, GameResult::Win),
        ("g8f6", -500, GameResult::Loss),
    ] {
        if uci != "b8c6" {
            let fen = Fen::from_position(&p, EnPassantMode::Legal).to_string();
            let board_turn = fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
            expect.push((
                board_turn,
                p.turn(),
                score,
                result,
                p.fullmoves().get() as u16,
            ));
        }
        let m = uci.parse::<shakmaty::uci::UciMove>().unwrap();
        let m = m.to_move(&p).unwrap();
        p.play_unchecked(m);
    }
    assert_eq!(read(&d.join("all.bin")), expect);

    let out = run(&d, &["--only", "other", "--out", "other.bin", "g.pgn"]);
    assert!(out.status.success());
    let other = read(&d.join("other.bin"));
    assert_eq!(other.len(), 2, "{other:?}");
    assert!(other.iter().all(|r| r.1 == Color::Black));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_missing_file_is_an_error_with_its_name() {
    let d = scratch("missing");
    let out = run(&d, &["--out", "x.bin", "no-such.pgn"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such.pgn"));
    let _ = std::fs::remove_dir_all(&d);
}
