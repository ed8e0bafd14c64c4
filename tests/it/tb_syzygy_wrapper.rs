//! The Syzygy wrapper: several directories, missing directories, truncated and corrupt files
//! (copied into a temporary directory) give warnings, never panics; probe errors mean `None`;
//! the root ranking prefers safe wins with the smallest DTZ and respects the 50-move counter
//! (the root filter of Donkers 2003 §5.4, under the 50-move rule).
use crate::prereq;
use crate::tb_common;

use std::fs;

use nosce::tb::{SyzygyTables, parse_fen};
use shakmaty::{Position, Role};
use shakmaty_syzygy::Wdl as SzWdl;

#[test]
fn missing_directory_warns() {
    let mut tables = SyzygyTables::new();
    let warnings = tables.add_paths(std::ffi::OsStr::new("/definitely/not/here"));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("cannot read directory"));
    assert_eq!(tables.num_tables(), 0);
    let pos = parse_fen("8/8/8/8/8/8/2k5/K1Q5 b - - 0 1").expect("fen");
    assert_eq!(tables.probe_wdl(&pos), None);
    assert!(tables.probe_dtz(&pos).is_none());
    assert!(tables.rank_root(&pos).is_none());
}

#[test]
fn several_directories_and_bad_files() {
    let Some(real) = tb_common::table_dir("SYZYGY_PATH", "syzygy") else {
        prereq::missing(
            "several_directories_and_bad_files: no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)",
        );
        return;
    };
    let real = std::env::split_paths(real.as_os_str())
        .next()
        .expect("one dir");
    let tmp = tb_common::temp_dir("syzygy-bad");
    // Good KQvK, a KRvK WDL file truncated to an invalid size, a KRvK DTZ file truncated
    // to a size that passes the size check, and a file with the wrong magic.
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        fs::copy(real.join(name), tmp.join(name)).expect("copy");
    }
    let krk_w = fs::read(real.join("KRvK.rtbw")).expect("read");
    fs::write(tmp.join("KRvK.rtbw"), &krk_w[..krk_w.len() / 2 + 3]).expect("write");
    let krk_z = fs::read(real.join("KRvK.rtbz")).expect("read");
    let cut = (krk_z.len() / 2) / 64 * 64 + 16;
    fs::write(tmp.join("KRvK.rtbz"), &krk_z[..cut]).expect("write");
    let mut junk = vec![0u8; 64 * 4 + 16];
    junk[..4].copy_from_slice(b"JUNK");
    fs::write(tmp.join("KBvK.rtbw"), junk).expect("write");

    let mut tables = SyzygyTables::new();
    let list = std::env::join_paths([tmp.clone(), "/no/such/dir".into()]).expect("join");
    let warnings = tables.add_paths(&list);
    println!("{warnings:#?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("KRvK.rtbw") && w.contains("truncated"))
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("KBvK.rtbw") && w.contains("magic"))
    );
    assert!(warnings.iter().any(|w| w.contains("/no/such/dir")));
    assert_eq!(
        tables.num_tables(),
        3,
        "KQvK.rtbw, KQvK.rtbz and the size-valid KRvK.rtbz"
    );
    assert_eq!(tables.max_pieces(), 3);

    // KQvK works.
    let kqk = parse_fen("8/8/8/8/8/8/2k5/K1Q5 b - - 0 1").expect("fen");
    assert_eq!(tables.probe_wdl(&kqk), Some(SzWdl::Draw), "Kxc1 draws");
    let kqk = parse_fen("7k/8/5K2/8/8/8/8/Q7 w - - 0 1").expect("fen");
    assert_eq!(tables.probe_wdl(&kqk), Some(SzWdl::Win));
    assert!(tables.probe_dtz(&kqk).is_some());
    // KRvK has no WDL table: no information, and a warning.
    let krk = parse_fen("7k/8/5K2/8/8/8/8/R7 w - - 0 1").expect("fen");
    assert_eq!(tables.probe_wdl(&krk), None);
    assert!(tables.probe_dtz(&krk).is_none());
    let w = tables.take_warnings();
    assert!(w.iter().any(|w| w.contains("KRvK")), "{w:?}");
    // Five pieces or castling rights: simply not covered.
    let start = shakmaty::Chess::default();
    assert_eq!(tables.probe_wdl(&start), None);
    let _ = fs::remove_dir_all(&tmp);
}

#[test]
fn truncated_table_probe_is_none_with_warning() {
    let Some(real) = tb_common::table_dir("SYZYGY_PATH", "syzygy") else {
        prereq::missing(
            "truncated_table_probe_is_none_with_warning: no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)",
        );
        return;
    };
    let real = std::env::split_paths(real.as_os_str())
        .next()
        .expect("one dir");
    let tmp = tb_common::temp_dir("syzygy-trunc");
    for name in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"] {
        fs::copy(real.join(name), tmp.join(name)).expect("copy");
    }
    // KQvKR with its WDL file cut to a size-valid length and its DTZ file garbled.
    let w = fs::read(real.join("KQvKR.rtbw")).expect("read");
    fs::write(tmp.join("KQvKR.rtbw"), &w[..(w.len() / 3) / 64 * 64 + 16]).expect("write");
    let z = fs::read(real.join("KQvKR.rtbz")).expect("read");
    let mut garbled = z.clone();
    for b in garbled.iter_mut().skip(64) {
        *b = 0xff;
    }
    fs::write(tmp.join("KQvKR.rtbz"), garbled).expect("write");
    let mut tables = SyzygyTables::new();
    let warnings = tables.add_paths(tmp.as_os_str());
    assert!(
        warnings.is_empty(),
        "sizes and magic are fine: {warnings:?}"
    );
    let mut none = 0;
    for fen in [
        "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
        "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
        "8/8/3k4/8/8/2Q5/6r1/K7 b - - 0 1",
        "7r/8/8/3k4/8/8/1Q6/6K1 w - - 0 1",
    ] {
        let pos = parse_fen(fen).expect("fen");
        let wdl = tables.probe_wdl(&pos);
        let dtz = tables.probe_dtz(&pos);
        let ranked = tables.rank_root(&pos);
        // Whatever the corrupted data yields, nothing panics; DTZ must fail.
        none += usize::from(dtz.is_none());
        println!("{fen}: wdl {wdl:?} dtz {dtz:?} ranked {}", ranked.is_some());
    }
    assert!(none > 0, "the garbled DTZ table must fail to probe");
    let w = tables.take_warnings();
    println!("{w:#?}");
    assert!(w.iter().any(|w| w.contains("KQvKR")), "{w:?}");
    let _ = fs::remove_dir_all(&tmp);
}

#[test]
fn root_ranking() {
    let Some(tables) = tb_common::syzygy("root_ranking") else {
        return;
    };
    let pos = parse_fen("K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1").expect("fen");
    let ranking = tables.rank_root(&pos).expect("ranked");
    assert_eq!(ranking.moves.len(), 3);
    assert_eq!(ranking.best.len(), 2);
    assert!(ranking.best.iter().all(|m| m.role() == Role::King));
    assert_eq!(ranking.keeping, ranking.best);
    for m in &ranking.moves[..2] {
        assert_eq!((m.wdl, m.dtz), (SzWdl::Win, 61));
    }
    assert_eq!(ranking.moves[2].wdl, SzWdl::Loss);
    // With 45 moves already on the clock the 61-ply conversion is too slow: a cursed win.
    let late = parse_fen("K3r3/8/5k2/Q7/8/8/8/8 w - - 90 60").expect("fen");
    let ranking = tables.rank_root(&late).expect("ranked");
    assert!(ranking.moves[..2].iter().all(|m| m.wdl == SzWdl::CursedWin));
    // Mate in one is ranked first, before a capture.
    let mate = parse_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert!(mate.is_ok());
    let pos = parse_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").expect("fen");
    let ranking = tables.rank_root(&pos).expect("ranked");
    assert_eq!(ranking.best.len(), 1);
    assert_eq!(ranking.moves[0].dtz, 1);
    let mut after = pos.clone();
    after.play_unchecked(ranking.best[0]);
    assert!(after.is_checkmate());
    // The losing side resists longest: the rook side of KQvKR, Black to move.
    let pos = parse_fen("8/8/3k4/8/8/2Q5/6r1/K7 b - - 0 1").expect("fen");
    let ranking = tables.rank_root(&pos).expect("ranked");
    let top = &ranking.moves[0];
    assert!(ranking.moves.iter().all(|m| m.rank <= top.rank));
    if top.wdl == SzWdl::Loss {
        let longest = ranking
            .moves
            .iter()
            .filter(|m| m.wdl == SzWdl::Loss)
            .map(|m| m.dtz.abs())
            .max();
        assert_eq!(Some(top.dtz.abs()), longest);
    }
}
