//! Our exact-table file reader (KvK, whose file is small enough for the fuzzer's inputs):
//! any bytes are refused or decode to a table, and a table is only ever accepted from the
//! exact bytes we would write for it (header, data and checksum leave no slack).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nosce::tb::{Material, file};

fuzz_target!(|data: &[u8]| {
    let m: Material = "KvK".parse().expect("material");
    if let Ok(table) = file::decode(data, &m) {
        assert_eq!(
            file::encode(&table),
            data,
            "a table accepted from other bytes"
        );
    }
});
