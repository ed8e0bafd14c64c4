//! DTM cross-check against Gaviota: dumps 10,000 random KQvKR/KQvK/KRvK positions (random
//! orientation and colours) with our DTM and runs `tests/gaviota_check.py` (python-chess).
//! Skips with a clear message when python3, python-chess or the tables are missing (fails
//! under CI). DTM is the
//! metric of the Nalimov lines of Donkers 2003 Appendix B.
use crate::prereq;
use crate::tb_common;

use std::process::Command;

use nosce::tb::sample::dump_random;

#[test]
fn dtm_matches_gaviota() {
    let Some(gaviota) = tb_common::table_dir("GAVIOTA_PATH", "gaviota") else {
        prereq::missing(
            "dtm_matches_gaviota: no Gaviota tables (tables/gaviota ships with the repository; GAVIOTA_PATH overrides)",
        );
        return;
    };
    let count: usize = std::env::var("GAVIOTA_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dump = dump_random(&tb_common::exact(), count, 20_031_977).expect("dump");
    let dir = tb_common::temp_dir("gaviota");
    let file = dir.join("dump.txt");
    std::fs::write(&file, dump).expect("write dump");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("gaviota_check.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg("--dump")
        .arg(&file)
        .arg("--gaviota")
        .arg(&gaviota)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            prereq::missing(&format!("dtm_matches_gaviota: cannot run python3: {e}"));
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    match output.status.code() {
        Some(0) => assert!(stdout.contains(&format!("{count} positions compared, 0 mismatches"))),
        Some(77) => prereq::missing(
            "dtm_matches_gaviota: python-chess or its Gaviota support is missing (see the message above)",
        ),
        other => panic!("gaviota_check.py failed with {other:?}"),
    }
}
