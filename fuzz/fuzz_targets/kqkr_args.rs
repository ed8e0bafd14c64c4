//! The `nosce kqkr` command line (words of the input) and its depth ranges.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nosce::experiment::args;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let argv: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    let _ = args::parse(&argv);
    let _ = args::parse_depths(&s);
});
