//! An xboard input line and a `level` command's arguments must parse or be refused.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use nosce::xboard::command::{Command, parse_level};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let _ = Command::from_str(&line);
    let words: Vec<&str> = line.split_whitespace().collect();
    let _ = parse_level(&words);
});
