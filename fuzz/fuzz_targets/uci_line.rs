//! A UCI input line (any bytes, read lossily as the engine reads them) must parse to a
//! command or an error, never panic.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use nosce::uci::UciCommand;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let _ = UciCommand::from_str(&line);
});
