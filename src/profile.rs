//! What nosce learned about each opponent, kept between games: the [`Profile`], the
//! directory-backed [`ProfileStore`], and the [`ProfileWriter`] that saves off the clock.
//!
//! A profile holds, per opponent (keyed by [`OpponentId::profile_key`](crate::opponent_id::OpponentId::profile_key)),
//! how many games and opponent moves were seen and, for every candidate opponent type that
//! was scored against those moves, how often it predicted the move and its total
//! log-likelihood. The module only stores these numbers; fitting them is someone else's job.
//!
//! # Files
//!
//! One file per opponent, `<name>.profile`, in the store's directory. The name is the key
//! with `[a-z0-9_-]` kept and every other byte of its UTF-8 written `%xx` (lower-case hex),
//! so no key can leave the directory (`../x` → `%2e%2e%2fx`) and upper/lower case never
//! collide on case-insensitive file systems. Names longer than 48 characters are cut and
//! get `+` and a 64-bit hash of the whole key; a Windows device name (`con`, `lpt1`, …)
//! gets its first letter escaped. The key is also stored inside the file and checked on
//! load, so even a hash collision cannot hand one opponent another's profile.
//!
//! The content is UTF-8 text, one field a line, in this order (`elo none` when the rating
//! is unknown; a `candidate` line is moves, predicted, log-likelihood, name; zero or more):
//!
//! ```text
//! nosce-profile 1
//! key gary kasparov
//! name Gary Kasparov
//! games 2
//! moves 81
//! elo 2800
//! candidate 81 40 -97.25 self:depth=3
//! candidate 81 22 -130.5 material:depth=2
//! checksum 5759c5f0bbc0f0ea
//! ```
//!
//! Text fields (key, name, candidate name) escape `\` as `\\`, line ends as `\n`/`\r` and
//! other control characters as `\xHH`. Log-likelihoods are written with Rust's shortest
//! round-tripping form, so every number loads back bit for bit. The last line is the
//! FNV-1a 64 hash of all bytes before it: a truncated, partly written or hand-edited file is
//! reported, never half-read. A file whose first line names a newer version is refused
//! with "profile version N is newer than this nosce supports".
//!
//! # Writing
//!
//! [`ProfileStore::save`] writes a temporary file in the same directory (named from the
//! process id, thread id and clock, created exclusively), syncs it to disk and renames it
//! over the profile. Readers — in this process or another — therefore see either the old
//! or the new file, whole; concurrent writers of the same profile leave one of their
//! versions (the last rename wins). Nothing here is global: the store is a path.
//!
//! # Why not serde
//!
//! Profiles are read and written by the engine itself (the UCI/xboard binary that a GUI
//! starts), not only by the lab, and the engine keeps its dependencies to the board,
//! tables and threads crates. serde with a JSON or TOML format would add a derive-macro
//! tool chain and a format crate to every engine build to replace `format.rs`'s encoder
//! and decoder, whose guarantees it would not give by itself: the checksum that refuses a
//! torn or hand-edited file, the version refusal and the key checked on load would all
//! still be ours. Existing profile files also stay readable without a migration.

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::opponent_id::MAX_ELO;

mod format;
mod writer;

pub use writer::ProfileWriter;

use format::{Failure, decode, encode, file_name, shorten};

/// The format version this nosce writes and the newest it reads.
pub const FORMAT_VERSION: u64 = 1;

/// Larger files are refused unread (a profile is a few hundred bytes).
const MAX_FILE_BYTES: u64 = 4 << 20;

/// How one candidate opponent type has fared against this opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateStats {
    /// The candidate type's spec, e.g. `self:depth=3`.
    pub name: String,
    /// Opponent moves this candidate was scored on.
    pub moves: u64,
    /// Of those, how many were its top choice; at most `moves`.
    pub predicted: u64,
    /// Sum of ln Pr(move played | candidate) over the scored moves; finite.
    pub log_likelihood: f64,
}

/// Everything stored about one opponent.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Profile {
    /// The store key ([`OpponentId::profile_key`](crate::opponent_id::OpponentId::profile_key)).
    pub key: String,
    /// The name as the GUI last spelt it.
    pub display_name: String,
    /// Games played against this opponent.
    pub games: u32,
    /// Opponent moves observed over those games.
    pub moves: u64,
    /// Per-candidate statistics, in the fitting code's order.
    pub candidates: Vec<CandidateStats>,
    /// The opponent's last known rating, at most [`MAX_ELO`].
    pub elo: Option<u32>,
}

impl Profile {
    /// An empty profile: no games, no moves, no candidates.
    pub fn new(key: impl Into<String>, display_name: impl Into<String>) -> Self {
        Profile {
            key: key.into(),
            display_name: display_name.into(),
            ..Profile::default()
        }
    }

    /// Checks what a file must satisfy to load: finite log-likelihoods, no more predicted
    /// moves than scored ones, Elo at most [`MAX_ELO`].
    pub fn validate(&self) -> Result<(), String> {
        if let Some(e) = self.elo.filter(|&e| e > MAX_ELO) {
            return Err(format!("Elo {e} is above {MAX_ELO}"));
        }
        for c in &self.candidates {
            let name = shorten(&c.name);
            if !c.log_likelihood.is_finite() {
                return Err(format!(
                    "candidate '{name}': log-likelihood {} is not finite",
                    c.log_likelihood
                ));
            }
            if c.predicted > c.moves {
                return Err(format!(
                    "candidate '{name}': {} predicted of only {} moves",
                    c.predicted, c.moves
                ));
            }
        }
        Ok(())
    }
}

/// Why a profile could not be loaded or saved.
#[derive(Debug)]
pub enum ProfileError {
    /// The file system refused (permissions, disk full, …).
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file exists but is not a valid profile (truncated, edited, garbage, …).
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The file was written by a newer nosce.
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// The version it declares.
        version: u64,
    },
    /// [`ProfileStore::save`] was given a profile that would not load back.
    Invalid {
        /// The profile's key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::Io { path, source } => write!(f, "profile {}: {source}", path.display()),
            ProfileError::Corrupt { path, reason } => {
                write!(f, "profile {} is corrupt: {reason}", path.display())
            }
            ProfileError::NewerVersion { path, version } => write!(
                f,
                "profile {}: profile version {version} is newer than this nosce supports \
                 (up to {FORMAT_VERSION})",
                path.display()
            ),
            ProfileError::Invalid { key, reason } => {
                write!(f, "profile '{}' not saved: {reason}", shorten(key))
            }
        }
    }
}

impl std::error::Error for ProfileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProfileError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A directory of profiles, one file per opponent.
#[derive(Clone, Debug)]
pub struct ProfileStore {
    dir: PathBuf,
}

impl ProfileStore {
    /// A store in `dir`; nothing is touched until [`save`](Self::save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ProfileStore { dir: dir.into() }
    }

    /// The default directory: the user's data directory + `nosce/profiles` — on Linux and
    /// other Unix systems `$XDG_DATA_HOME` (if absolute) or `~/.local/share`, on macOS
    /// `~/Library/Application Support`, on Windows `%APPDATA%`. `None` if the variables
    /// it needs are unset or empty. This is the only place the module reads the
    /// environment.
    pub fn default_dir() -> Option<PathBuf> {
        let platform = if cfg!(windows) {
            Platform::Windows
        } else if cfg!(target_os = "macos") {
            Platform::Mac
        } else {
            Platform::Unix
        };
        data_dir(platform, |name| std::env::var_os(name)).map(|d| d.join("nosce").join("profiles"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds (or would hold) `key`'s profile; always directly inside
    /// [`dir`](Self::dir).
    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(file_name(key))
    }

    /// Loads `key`'s profile: `Ok(None)` if there is none, `Err` if the file cannot be read,
    /// is corrupt, holds another key, or comes from a newer nosce. The caller reports an
    /// error and carries on without a profile.
    pub fn load(&self, key: &str) -> Result<Option<Profile>, ProfileError> {
        let path = self.path(key);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ProfileError::Io { path, source }),
        };
        let mut bytes = Vec::new();
        if let Err(source) = file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
            return Err(ProfileError::Io { path, source });
        }
        let corrupt = |reason: String| ProfileError::Corrupt {
            path: path.clone(),
            reason,
        };
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(corrupt(format!("larger than {MAX_FILE_BYTES} bytes")));
        }
        let text = String::from_utf8(bytes).map_err(|_| corrupt("not UTF-8 text".into()))?;
        let profile = match decode(&text) {
            Ok(p) => p,
            Err(Failure::Newer(version)) => {
                return Err(ProfileError::NewerVersion { path, version });
            }
            Err(Failure::Corrupt(reason)) => return Err(corrupt(reason)),
        };
        if profile.key != key {
            return Err(corrupt(format!(
                "it holds the profile of '{}', not of '{}'",
                shorten(&profile.key),
                shorten(key)
            )));
        }
        Ok(Some(profile))
    }

    /// Saves `profile` under its key, atomically (see the [module documentation](self)),
    /// creating the directory if needed. A profile that fails [`Profile::validate`] is
    /// refused and the file left as it was.
    pub fn save(&self, profile: &Profile) -> Result<(), ProfileError> {
        profile.validate().map_err(|reason| ProfileError::Invalid {
            key: profile.key.clone(),
            reason,
        })?;
        let io_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ProfileError::Io { path, source }
        };
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        let path = self.path(&profile.key);
        let (tmp, mut file) = create_temp(&self.dir, &file_name(&profile.key))?;
        let written = file
            .write_all(encode(profile).as_bytes())
            .and_then(|()| file.sync_all());
        drop(file);
        if let Err(source) = written.and_then(|()| rename_replacing(&tmp, &path)) {
            let _ = fs::remove_file(&tmp);
            return Err(ProfileError::Io { path, source });
        }
        // Make the rename itself durable where the platform allows syncing a directory
        // (Unix); elsewhere opening the directory fails and there is nothing to do.
        if let Ok(dir) = File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

/// Creates a new, uniquely named temporary file next to the profile `name`.
fn create_temp(dir: &Path, name: &str) -> Result<(PathBuf, File), ProfileError> {
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    let mut attempt = 0;
    loop {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let tmp = dir.join(format!(
            ".{name}.{}-{thread}-{nanos}-{attempt}.tmp",
            std::process::id()
        ));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            // Left behind by a crashed process that had our pid and thread id: next name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 16 => attempt += 1,
            Err(source) => return Err(ProfileError::Io { path: tmp, source }),
        }
    }
}

/// Renames `from` over `to`. Windows can refuse for a moment while another process has `to`
/// open or is renaming onto it; a few short retries cover that.
fn rename_replacing(from: &Path, to: &Path) -> io::Result<()> {
    let mut attempt = 0;
    loop {
        match fs::rename(from, to) {
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied && attempt < 10 => {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(attempt));
            }
            other => return other,
        }
    }
}

#[derive(Clone, Copy)]
enum Platform {
    Unix,
    Mac,
    Windows,
}

/// The per-user data directory on `platform`, reading variables through `var`.
fn data_dir(platform: Platform, var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let get = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    match platform {
        Platform::Windows => get("APPDATA"),
        Platform::Mac => get("HOME").map(|h| h.join("Library").join("Application Support")),
        Platform::Unix => get("XDG_DATA_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| get("HOME").map(|h| h.join(".local").join("share"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_dir_follows_each_platform() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        let home = PathBuf::from("/home/ann");
        assert_eq!(
            data_dir(Platform::Unix, env(&[("HOME", "/home/ann")])),
            Some(home.join(".local").join("share"))
        );
        assert_eq!(
            data_dir(
                Platform::Unix,
                env(&[("HOME", "/home/ann"), ("XDG_DATA_HOME", "/data")])
            ),
            Some(PathBuf::from("/data"))
        );
        // The XDG spec says to ignore a relative XDG_DATA_HOME; an empty one is unset.
        for vars in [
            &[("HOME", "/home/ann"), ("XDG_DATA_HOME", "rel/data")],
            &[("HOME", "/home/ann"), ("XDG_DATA_HOME", "")],
        ] {
            assert_eq!(
                data_dir(Platform::Unix, env(vars)),
                Some(home.join(".local").join("share"))
            );
        }
        assert_eq!(data_dir(Platform::Unix, env(&[])), None);
        assert_eq!(data_dir(Platform::Unix, env(&[("HOME", "")])), None);
        assert_eq!(
            data_dir(Platform::Mac, env(&[("HOME", "/Users/ann")])),
            Some(PathBuf::from("/Users/ann/Library/Application Support"))
        );
        assert_eq!(
            data_dir(Platform::Mac, env(&[("XDG_DATA_HOME", "/x")])),
            None
        );
        const APPDATA: &str = r"C:\Users\ann\AppData\Roaming";
        assert_eq!(
            data_dir(
                Platform::Windows,
                env(&[("APPDATA", APPDATA), ("HOME", "/h")])
            ),
            Some(PathBuf::from(APPDATA))
        );
        assert_eq!(data_dir(Platform::Windows, env(&[("HOME", "/h")])), None);
        if let Some(d) = ProfileStore::default_dir() {
            assert!(d.ends_with(Path::new("nosce").join("profiles")));
        }
    }

    #[test]
    fn validate_names_what_would_not_load() {
        let mut p = Profile::new("k", "K");
        assert_eq!(p.validate(), Ok(()));
        p.candidates.push(CandidateStats {
            name: "self".into(),
            moves: 3,
            predicted: 4,
            log_likelihood: -1.0,
        });
        assert!(p.validate().unwrap_err().contains("predicted"));
        p.candidates[0].predicted = 3;
        p.candidates[0].log_likelihood = f64::NAN;
        assert!(p.validate().unwrap_err().contains("not finite"));
        p.candidates[0].log_likelihood = 0.0;
        p.elo = Some(MAX_ELO + 1);
        assert!(p.validate().is_err());
    }
}
