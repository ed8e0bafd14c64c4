//! The profile store on a real file system: round trips, absent and corrupt files, hostile
//! keys, and many threads writing one profile while another reads it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use nosce::profile::{CandidateStats, Profile, ProfileError, ProfileStore};

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "nosce-profile-{test}-{}-{nanos}",
            std::process::id()
        ));
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn profile(key: &str, games: u32, candidates: usize) -> Profile {
    Profile {
        key: key.into(),
        display_name: format!("Name of {key}"),
        games,
        moves: 40 * u64::from(games),
        candidates: (0..candidates)
            .map(|i| CandidateStats {
                name: format!("self:depth={}", i + 1),
                moves: 40 * u64::from(games),
                predicted: u64::from(games) + i as u64,
                log_likelihood: -(f64::from(games) + i as f64) / 3.0,
            })
            .collect(),
        elo: games.is_multiple_of(2).then_some(2000 + games % 1000),
    }
}

/// Everything in `dir`, by name.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn a_saved_profile_loads_back_and_can_be_replaced() {
    let tmp = TempDir::new("round-trip");
    let store = ProfileStore::new(tmp.0.join("not").join("yet"));
    let first = profile("gary kasparov", 1, 3);
    store.save(&first).unwrap();
    assert_eq!(store.load("gary kasparov").unwrap(), Some(first));
    let second = profile("gary kasparov", 2, 1);
    store.save(&second).unwrap();
    assert_eq!(store.load("gary kasparov").unwrap(), Some(second));
    assert_eq!(entries(store.dir()), ["gary%20kasparov.profile"]);
    assert_eq!(store.load("Gary Kasparov").unwrap(), None, "keys are exact");
}

#[test]
fn an_absent_profile_is_none() {
    let tmp = TempDir::new("absent");
    assert_eq!(ProfileStore::new(&tmp.0).load("nobody").unwrap(), None);
    let missing = ProfileStore::new(tmp.0.join("missing"));
    assert_eq!(missing.load("nobody").unwrap(), None);
    assert!(!tmp.0.join("missing").exists(), "load creates nothing");
}

#[test]
fn corrupt_files_are_reported_never_half_read() {
    let tmp = TempDir::new("corrupt");
    let store = ProfileStore::new(&tmp.0);
    let good = profile("crafty", 3, 2);
    store.save(&good).unwrap();
    let path = store.path("crafty");
    let valid = fs::read(&path).unwrap();

    let mut flipped = valid.clone();
    flipped[valid.len() / 2] ^= 0x04;
    let nan_body = "nosce-profile 1\nkey crafty\nname Crafty\ngames 1\nmoves 1\nelo none\n\
                    candidate 1 0 NaN self\n";
    let nan = format!("{nan_body}checksum {:016x}\n", fnv1a64(nan_body.as_bytes()));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", valid[..valid.len() - 10].to_vec()),
        ("cut after the header", valid[..20].to_vec()),
        ("flipped byte", flipped),
        ("garbage", b"\x00\xff\x13 garbage \x7f".repeat(50)),
        ("not a profile", b"hello, world\n".to_vec()),
        ("empty", Vec::new()),
        ("version zero", b"nosce-profile 0\n".to_vec()),
        ("NaN log-likelihood", nan.into_bytes()),
        ("huge", vec![b'x'; (4 << 20) + 1]),
    ];
    for (what, bytes) in cases {
        fs::write(&path, &bytes).unwrap();
        match store.load("crafty") {
            Err(e @ ProfileError::Corrupt { .. }) => {
                let m = e.to_string();
                assert!(m.contains("crafty.profile") && m.len() > 30, "{what}: {m}");
            }
            other => panic!("{what}: {other:?}"),
        }
    }

    fs::write(&path, "nosce-profile 2\nsomething new\n").unwrap();
    let e = store.load("crafty").unwrap_err();
    assert!(matches!(e, ProfileError::NewerVersion { version: 2, .. }));
    assert!(
        e.to_string()
            .contains("profile version 2 is newer than this nosce supports"),
        "{e}"
    );

    // A valid file under the wrong name holds someone else's profile.
    fs::write(&path, store_bytes(&tmp.0, &profile("other", 1, 0))).unwrap();
    let e = store.load("crafty").unwrap_err();
    assert!(e.to_string().contains("'other'"), "{e}");

    // A directory where the file should be: an I/O error, not a panic.
    fs::remove_file(&path).unwrap();
    fs::create_dir(&path).unwrap();
    assert!(store.load("crafty").is_err());
    fs::remove_dir(&path).unwrap();

    // Saving replaces whatever was there.
    fs::write(&path, "junk").unwrap();
    store.save(&good).unwrap();
    assert_eq!(store.load("crafty").unwrap(), Some(good));
}

/// The bytes `save` writes for `p`, produced by a scratch store.
fn store_bytes(scratch: &Path, p: &Profile) -> Vec<u8> {
    let store = ProfileStore::new(scratch.join("scratch"));
    store.save(p).unwrap();
    let bytes = fs::read(store.path(&p.key)).unwrap();
    fs::remove_dir_all(store.dir()).unwrap();
    bytes
}

#[test]
fn invalid_profiles_are_not_saved_and_leave_the_file_alone() {
    let tmp = TempDir::new("invalid");
    let store = ProfileStore::new(&tmp.0);
    let good = profile("x", 1, 1);
    store.save(&good).unwrap();
    for ll in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut bad = good.clone();
        bad.candidates[0].log_likelihood = ll;
        let e = store.save(&bad).unwrap_err();
        assert!(matches!(e, ProfileError::Invalid { .. }), "{e}");
    }
    let mut bad = good.clone();
    bad.elo = Some(99_999);
    assert!(store.save(&bad).is_err());
    assert_eq!(store.load("x").unwrap(), Some(good));
    assert_eq!(entries(&tmp.0), ["x.profile"], "no temp file left");
}

#[test]
fn an_unusable_directory_is_an_error() {
    let tmp = TempDir::new("unusable");
    let file = tmp.0.join("a-file");
    fs::write(&file, "not a directory").unwrap();
    let store = ProfileStore::new(&file);
    let e = store.save(&profile("x", 1, 0)).unwrap_err();
    assert!(matches!(e, ProfileError::Io { .. }), "{e}");
    // Reading below a regular file fails (Unix) or finds nothing (elsewhere); it never panics.
    if let Ok(found) = store.load("x") {
        assert_eq!(found, None);
    }
}

#[test]
fn hostile_keys_stay_inside_the_directory_and_round_trip() {
    let tmp = TempDir::new("hostile");
    let dir = tmp.0.join("store");
    let store = ProfileStore::new(&dir);
    let long = "é".repeat(5_000); // 10 kB
    let keys: Vec<String> = [
        "../x",
        "../../etc/passwd",
        "a/b",
        "a\\b",
        "/abs",
        "C:\\Windows",
        "con",
        "CON",
        "nul",
        "com1",
        "lpt1.txt",
        "",
        ".",
        "..",
        "x\ny",
        "x\0y",
        "漢字 ünïcödé 🙂",
        "Mixed Case",
        "mixed case",
        long.as_str(),
        &long[2..],
    ]
    .iter()
    .map(|k| k.to_string())
    .collect();
    for (i, key) in keys.iter().enumerate() {
        let p = profile(key, i as u32 + 1, i % 3);
        let path = store.path(key);
        assert_eq!(path.parent(), Some(dir.as_path()), "{key:?} -> {path:?}");
        store.save(&p).unwrap_or_else(|e| panic!("{key:?}: {e}"));
    }
    for (i, key) in keys.iter().enumerate() {
        let p = store.load(key).unwrap().unwrap();
        assert_eq!(p, profile(key, i as u32 + 1, i % 3), "{key:?}");
    }
    assert_eq!(entries(&dir).len(), keys.len(), "one file per key");
    assert_eq!(entries(&tmp.0), ["store"], "nothing written outside");
    for name in entries(&dir) {
        assert!(name.ends_with(".profile") && name.len() < 100, "{name}");
    }
}

#[test]
fn concurrent_writers_never_expose_a_partial_file() {
    const WRITERS: u32 = 8;
    const SAVES: u32 = 50;
    let tmp = TempDir::new("concurrent");
    let store = ProfileStore::new(&tmp.0);
    let key = "the same opponent";
    // Version (t, i) is told apart by its game count, and sizes differ between versions.
    let version = |t: u32, i: u32| profile(key, t * 1000 + i, ((t + i) % 5) as usize);
    let done = Arc::new(AtomicBool::new(false));

    let reader = {
        let (store, done) = (store.clone(), Arc::clone(&done));
        std::thread::spawn(move || {
            let (mut loads, mut seen) = (0u32, false);
            while !done.load(Ordering::Acquire) || loads < 10 {
                match store.load(key) {
                    Ok(None) => assert!(!seen, "the profile vanished after a write"),
                    Ok(Some(p)) => {
                        seen = true;
                        let (t, i) = (p.games / 1000, p.games % 1000);
                        assert!(t < WRITERS && i < SAVES, "unknown version {p:?}");
                        assert_eq!(p, version(t, i));
                    }
                    Err(e) => panic!("load failed during writes: {e}"),
                }
                loads += 1;
            }
            loads
        })
    };
    std::thread::scope(|s| {
        for t in 0..WRITERS {
            let store = &store;
            s.spawn(move || {
                for i in 0..SAVES {
                    store.save(&version(t, i)).unwrap();
                }
            });
        }
    });
    done.store(true, Ordering::Release);
    let loads = reader.join().expect("reader saw only whole versions");
    assert!(loads >= 10);

    let last = store.load(key).unwrap().unwrap();
    assert_eq!(
        last.games % 1000,
        SAVES - 1,
        "the last rename is some writer's last save"
    );
    assert_eq!(
        entries(&tmp.0),
        ["the%20same%20opponent.profile"],
        "no temp files left"
    );
}
