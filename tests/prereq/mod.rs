//! What a test does when something it needs from outside the repository is missing
//! (python3 with python-chess, the shared Syzygy or Gaviota tables): under CI (the `CI`
//! environment variable set, and not `false` or `0`) it fails and says what to install, so
//! that a suite cannot pass by skipping; elsewhere it prints `SKIPPED: …` and the test
//! returns.

/// True when running under CI.
pub fn under_ci() -> bool {
    matches!(std::env::var("CI"), Ok(v) if !v.is_empty() && v != "false" && v != "0")
}

/// Reports a missing prerequisite: a failure under CI, a printed skip elsewhere.
pub fn missing(what: &str) {
    assert!(
        !under_ci(),
        "missing prerequisite under CI (a skip would hide the test): {what}"
    );
    println!("SKIPPED: {what}");
}
