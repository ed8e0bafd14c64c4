//! Exact-table files: round trip, corruption and truncation detected (never a panic, the table
//! is regenerated and a warning recorded), and two threads generating into one directory end
//! with one valid file. (Tables of Donkers 2003 §5.4 / Appendix B, our file format.)
use crate::tb_common;

use std::{
    fs,
    sync::{Arc, Barrier},
    thread,
};

use nosce::tb::{ExactTables, Material, TableSource, TbError, file};

fn material(key: &str) -> Material {
    key.parse().expect("material")
}

#[test]
fn round_trip() {
    let dir = tb_common::temp_dir("round-trip");
    let first = ExactTables::new(&dir);
    let generated = first.generate("KQvK").expect("generate");
    assert!(matches!(
        first.source(&material("KQvK")),
        Some(TableSource::Generated {
            written: Some(_),
            ..
        })
    ));
    let path = file::table_path(&dir, &material("KQvK"));
    let bytes = fs::read(&path).expect("file written");
    assert_eq!(bytes.len(), file::HEADER_LEN + 4 * generated.layout().size);
    assert_eq!(&bytes[..8], b"NOSCETB\0");
    // A second instance loads the file instead of generating.
    let second = ExactTables::new(&dir);
    let loaded = second.generate("KQvK").expect("load");
    assert_eq!(
        second.source(&material("KQvK")),
        Some(TableSource::Loaded(path.clone()))
    );
    assert_eq!(*loaded, *generated);
    // Encoding is deterministic.
    assert_eq!(file::encode(&loaded), bytes);
    assert!(second.take_warnings().is_empty());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn corruption_is_detected_and_repaired() {
    let dir = tb_common::temp_dir("corrupt");
    let m = material("KRvK");
    let good = ExactTables::new(&dir).table(&m).expect("generate");
    let path = file::table_path(&dir, &m);
    let bytes = fs::read(&path).expect("read");

    // One flipped payload byte: checksum mismatch.
    let mut flipped = bytes.clone();
    let at = file::HEADER_LEN + flipped.len() / 3;
    flipped[at] ^= 0x40;
    fs::write(&path, &flipped).expect("write");
    match file::load(&dir, &m) {
        Err(TbError::Corrupt(msg)) => assert!(msg.contains("checksum"), "{msg}"),
        other => panic!("flipped byte not detected: {other:?}"),
    }
    // The owner regenerates, warns and rewrites a valid file.
    let tables = ExactTables::new(&dir);
    let repaired = tables.table(&m).expect("regenerated");
    assert_eq!(*repaired, *good);
    let warnings = tables.take_warnings();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("corrupt") && w.contains("regenerating")),
        "{warnings:?}"
    );
    assert!(matches!(file::load(&dir, &m), Ok(Some(_))));

    // Truncated payload and truncated header.
    for len in [bytes.len() - 1000, 40, 0] {
        fs::write(&path, &bytes[..len]).expect("write");
        match file::load(&dir, &m) {
            Err(TbError::Corrupt(msg)) => assert!(msg.contains("truncated"), "{len}: {msg}"),
            other => panic!("truncation to {len} not detected: {other:?}"),
        }
    }
    // Wrong magic, wrong material key, wrong version.
    for (offset, what) in [(0usize, "magic"), (16, "material"), (8, "version")] {
        let mut bad = bytes.clone();
        bad[offset] ^= 0x01;
        fs::write(&path, &bad).expect("write");
        match file::load(&dir, &m) {
            Err(TbError::Corrupt(msg)) => assert!(msg.contains(what), "{what}: {msg}"),
            other => panic!("{what} corruption not detected: {other:?}"),
        }
    }
    // A file of another material under this name.
    let other =
        fs::read(file::table_path(&dir, &material("KvK"))).expect("KvK written as sub-table");
    fs::write(&path, other).expect("write");
    assert!(matches!(file::load(&dir, &m), Err(TbError::Corrupt(_))));
    let _ = fs::remove_dir_all(&dir);
}

/// FNV-1a over header bytes 0..64 and the payload, as the file format documents.
fn recompute_checksum(bytes: &mut [u8]) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes[..64].iter().chain(&bytes[file::HEADER_LEN..]) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    bytes[64..72].copy_from_slice(&h.to_le_bytes());
}

/// Found by the coverage-guided fuzzer (`fuzz/`, target `table_file`): header bytes the
/// reader ignored (the material key's padding, the reserved word, the longest distances)
/// could differ from what we write, with a valid checksum. Every header byte is checked now.
#[test]
fn header_slack_is_refused_even_with_a_valid_checksum() {
    let dir = tb_common::temp_dir("slack");
    let m = material("KvK");
    let table = ExactTables::new(&dir).table(&m).expect("generate");
    let good = file::encode(&table);
    for (at, what) in [(25, "key padding"), (36, "reserved"), (56, "longest DTM")] {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        recompute_checksum(&mut bad);
        assert!(
            file::decode(&bad, &m).is_err(),
            "{what} altered was accepted"
        );
    }
    let mut same = good.clone();
    recompute_checksum(&mut same);
    assert!(
        file::decode(&same, &m).is_ok(),
        "the checksum recomputation is right"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn parallel_generation_leaves_one_valid_file() {
    let dir = tb_common::temp_dir("parallel");
    let barrier = Arc::new(Barrier::new(2));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let dir = dir.clone();
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                // Separate owners, so both really generate and write at the same time.
                let tables = ExactTables::new(&dir);
                barrier.wait();
                tables.generate("KQvK").map(|t| (*t).clone())
            })
        })
        .collect();
    let results: Vec<_> = handles
        .into_iter()
        .map(|h| h.join().expect("thread"))
        .collect();
    let a = results[0].as_ref().expect("thread 0");
    let b = results[1].as_ref().expect("thread 1");
    assert_eq!(a, b);
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec!["KQvK.ntb".to_string(), "KvK.ntb".to_string()],
        "no temp files left"
    );
    let loaded = file::load(&dir, &material("KQvK"))
        .expect("valid")
        .expect("present");
    assert_eq!(&loaded, a);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn unwritable_directory_keeps_tables_in_memory() {
    let dir = tb_common::temp_dir("unwritable");
    // A regular file where the directory should be: creating the directory fails.
    let blocker = dir.join("not-a-dir");
    fs::write(&blocker, b"x").expect("write");
    let tables = ExactTables::new(&blocker);
    let t = tables.generate("KRvK").expect("generated in memory");
    assert!(t.census(shakmaty::Color::White).0 > 0);
    assert!(
        tables
            .take_warnings()
            .iter()
            .any(|w| w.contains("memory only"))
    );
    let _ = fs::remove_dir_all(&dir);
}
