//! A FEN (first line) and moves in UCI notation (the rest): a position is built or refused,
//! and every move is played or refused; a position that was built stays consistent
//! (its FEN parses again to the same position).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nosce::position::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.splitn(2, '\n');
    let fen = lines.next().unwrap_or("");
    let Ok(mut pos) = Position::from_fen(fen) else {
        return;
    };
    for mv in lines.next().unwrap_or("").split_whitespace().take(64) {
        let _ = pos.play_uci(mv);
    }
    let again = Position::from_fen(&pos.fen()).expect("our own FEN parses");
    assert_eq!(again.fen(), pos.fen());
});
