//! Shared helpers of the integration tests: locating the Syzygy and Gaviota tables (the
//! environment variable, else the sets shipped in `tables/`) and per-test temporary table
//! directories (Donkers 2003 §5.4 tables are cross-checked against both).
#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use nosce::tb::{ExactTables, SyzygyTables};

/// Directory from `var`, else `tables/<sub>` of the repository, if it exists.
pub fn table_dir(var: &str, sub: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tables")
                .join(sub)
        });
    dir.is_dir().then_some(dir)
}

/// Syzygy tables from `SYZYGY_PATH` or `tables/syzygy`; a missing set fails the test
/// (`tests/it/prereq.rs`).
pub fn syzygy(test: &str) -> Option<SyzygyTables> {
    let Some(dir) = table_dir("SYZYGY_PATH", "syzygy") else {
        crate::prereq::missing(&format!(
            "{test}: no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)"
        ));
        return None;
    };
    let mut tables = SyzygyTables::new();
    let warnings = tables.add_paths(dir.as_os_str());
    assert!(
        warnings.is_empty(),
        "warnings adding {}: {warnings:?}",
        dir.display()
    );
    if tables.num_tables() == 0 {
        crate::prereq::missing(&format!("{test}: no Syzygy tables in {}", dir.display()));
        return None;
    }
    Some(tables)
}

/// A fresh, unique temporary directory for one test.
pub fn temp_dir(test: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("nosce-tb-{test}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// One in-memory `ExactTables` shared by all the tests (one test binary).
pub fn exact() -> Arc<ExactTables> {
    static TABLES: OnceLock<Arc<ExactTables>> = OnceLock::new();
    TABLES
        .get_or_init(|| Arc::new(ExactTables::in_memory()))
        .clone()
}
