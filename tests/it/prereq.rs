//! What a test does when something it needs from outside the repository is missing
//! (python3 with python-chess; the table sets ship in `tables/`): it fails and says what to
//! install, everywhere — a suite must never pass by skipping what it did not run.

/// Reports a missing prerequisite: the test fails with what to install.
pub fn missing(what: &str) {
    panic!("missing prerequisite (install it; a skip would hide the test): {what}");
}
