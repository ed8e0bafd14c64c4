//! PGN text for `nosce kqkr analyze`: read as games or skipped, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nosce::experiment::pgn;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = pgn::parse_pgn(&s);
});
