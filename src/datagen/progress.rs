//! The progress file `FILE.progress` that makes a run resumable: the settings the games
//! depend on, how many games are done and how many bytes of `FILE` hold their records.
//! (A resume record, not a progress bar: the lab's bars are indicatif's, see
//! `experiment::sweep::Progress`.)
//!
//! It is a small text file of `key value` lines, rewritten (at most every
//! [`super::run::SYNC_EVERY`], and at the end) once the records of the games it counts are
//! appended, flushed and synced; the rewrite is atomic (a temporary file
//! renamed over the old one), so the file always describes a prefix of whole games. On
//! resume, the data file is cut back to the recorded length (a crash in the middle of an
//! append leaves no partial records) and play continues with the next game.
//!
//! ```text
//! # nosce datagen progress
//! format 1
//! seed 1
//! nodes 5000
//! random-plies 8
//! max-plies 400
//! openings openings.epd
//! syzygy
//! eval hce
//! games-done 12
//! bytes 38400
//! results 4 5 3
//! ```
//!
//! (`openings` and `syzygy` are empty when not given; `eval` is `hce` for the hand-crafted
//! evaluation or `nnue <id>` for the net of `--evalfile`, and a file without the line (written
//! before the option existed) means `hce`; `results` counts White wins, draws and Black wins.)

use std::path::{Path, PathBuf};

use super::args::DatagenConfig;
use super::record::RECORD_SIZE;

/// Version of the progress file layout.
const FORMAT: u32 = 1;

/// The settings a run's games depend on: a resumed run must use the same ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `--seed`.
    pub seed: u64,
    /// `--nodes`.
    pub nodes: u64,
    /// `--random-plies`.
    pub random_plies: u32,
    /// `--max-plies`.
    pub max_plies: u32,
    /// `--openings`, as given (empty when none).
    pub openings: String,
    /// `--syzygy`, as given (empty when none).
    pub syzygy: String,
    /// The evaluation the games are played with: `hce`, or `nnue <id>` (`--evalfile`).
    pub eval: String,
}

impl Settings {
    /// The settings of a command line whose games are played with evaluation `eval` (`hce`
    /// or `nnue <id>`).
    pub fn of(cfg: &DatagenConfig, eval: &str) -> Settings {
        Settings {
            seed: cfg.seed,
            nodes: cfg.nodes,
            random_plies: cfg.random_plies,
            max_plies: cfg.max_plies,
            openings: cfg
                .openings
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            syzygy: cfg.syzygy.clone().unwrap_or_default(),
            eval: eval.to_string(),
        }
    }

    /// The settings as (option, value) pairs, in file order.
    fn fields(&self) -> [(&'static str, String); 7] {
        [
            ("seed", self.seed.to_string()),
            ("nodes", self.nodes.to_string()),
            ("random-plies", self.random_plies.to_string()),
            ("max-plies", self.max_plies.to_string()),
            ("openings", self.openings.clone()),
            ("syzygy", self.syzygy.clone()),
            ("eval", self.eval.clone()),
        ]
    }

    /// `Ok` if `now` equals these (recorded) settings, else which option differs.
    ///
    /// # Errors
    /// The first differing option, with both values.
    pub fn check(&self, now: &Settings, progress: &Path) -> Result<(), String> {
        for ((name, was), (_, is)) in self.fields().iter().zip(now.fields().iter()) {
            if was != is {
                let show = |v: &str| {
                    if v.is_empty() {
                        "none".to_string()
                    } else {
                        format!("'{v}'")
                    }
                };
                // (The evaluation is the net's id, set by --evalfile.)
                let flag = if *name == "eval" { "evalfile" } else { name };
                return Err(format!(
                    "--{flag} differs from the run in progress ({} in '{}', {} now): resume \
                     with the same settings, or choose another --out",
                    show(was),
                    progress.display(),
                    show(is)
                ));
            }
        }
        Ok(())
    }
}

/// How far a run got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The settings of the run.
    pub settings: Settings,
    /// Games whose records are in the data file.
    pub games_done: u64,
    /// Length of the data file that holds them.
    pub bytes: u64,
    /// White wins, draws and Black wins of those games.
    pub results: [u64; 3],
}

/// `FILE.progress` for the data file `FILE`.
pub fn progress_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".progress");
    PathBuf::from(s)
}

impl Progress {
    /// A run that has not played yet.
    pub fn new(settings: Settings) -> Progress {
        Progress {
            settings,
            games_done: 0,
            bytes: 0,
            results: [0; 3],
        }
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut t = format!("# nosce datagen progress\nformat {FORMAT}\n");
        for (name, value) in self.settings.fields() {
            if value.is_empty() {
                t.push_str(&format!("{name}\n"));
            } else {
                t.push_str(&format!("{name} {value}\n"));
            }
        }
        let [w, d, l] = self.results;
        t.push_str(&format!(
            "games-done {}\nbytes {}\nresults {w} {d} {l}\n",
            self.games_done, self.bytes
        ));
        t
    }

    /// Parses the file's text.
    ///
    /// # Errors
    /// A missing, repeated or unknown key, a bad number, another format version, or a byte
    /// count that is not a whole number of records.
    pub fn parse(text: &str) -> Result<Progress, String> {
        let mut map: Vec<(&str, &str)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            if map.iter().any(|(k, _)| *k == key) {
                return Err(format!("line {}: '{key}' given twice", n + 1));
            }
            map.push((key, value));
        }
        let get = |key: &str| {
            map.iter()
                .find(|(k, _)| *k == key)
                .map(|&(_, v)| v)
                .ok_or_else(|| format!("no '{key}' line"))
        };
        fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
            v.trim()
                .parse()
                .map_err(|_| format!("'{key}' is not a number: '{v}'"))
        }
        let format: u32 = num("format", get("format")?)?;
        if format != FORMAT {
            return Err(format!("format {format} (this nosce writes {FORMAT})"));
        }
        let known = [
            "format",
            "seed",
            "nodes",
            "random-plies",
            "max-plies",
            "openings",
            "syzygy",
            "eval",
            "games-done",
            "bytes",
            "results",
        ];
        if let Some((k, _)) = map.iter().find(|(k, _)| !known.contains(k)) {
            return Err(format!("unknown key '{k}'"));
        }
        let settings = Settings {
            seed: num("seed", get("seed")?)?,
            nodes: num("nodes", get("nodes")?)?,
            random_plies: num("random-plies", get("random-plies")?)?,
            max_plies: num("max-plies", get("max-plies")?)?,
            openings: get("openings")?.to_string(),
            syzygy: get("syzygy")?.to_string(),
            // Older files have no `eval` line: their games were hand-crafted.
            eval: get("eval").unwrap_or("hce").to_string(),
        };
        let bytes: u64 = num("bytes", get("bytes")?)?;
        if !bytes.is_multiple_of(RECORD_SIZE as u64) {
            return Err(format!(
                "bytes {bytes} is not a whole number of {RECORD_SIZE}-byte records"
            ));
        }
        let counts: Vec<u64> = get("results")?
            .split_whitespace()
            .map(|v| num("results", v))
            .collect::<Result<_, _>>()?;
        let results: [u64; 3] = counts
            .try_into()
            .map_err(|_| "'results' needs three numbers".to_string())?;
        Ok(Progress {
            settings,
            games_done: num("games-done", get("games-done")?)?,
            bytes,
            results,
        })
    }

    /// Writes the file at `path` atomically: a temporary file next to it, synced, then
    /// renamed over it.
    ///
    /// # Errors
    /// Any I/O error, with the path.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        crate::atomic_file::write_atomically(path, self.to_text().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Progress {
        Progress {
            settings: Settings {
                seed: 9,
                nodes: 300,
                random_plies: 8,
                max_plies: 60,
                openings: "my openings.epd".into(),
                syzygy: String::new(),
                eval: "hce".into(),
            },
            games_done: 4,
            bytes: 320,
            results: [1, 2, 1],
        }
    }

    #[test]
    fn text_round_trip() {
        let p = sample();
        let text = p.to_text();
        assert!(text.contains("openings my openings.epd\nsyzygy\n"));
        assert_eq!(Progress::parse(&text), Ok(p));
    }

    #[test]
    fn a_file_from_before_evalfile_is_hand_crafted() {
        let p = sample();
        let old = p.to_text().replace("eval hce\n", "");
        assert!(!old.contains("eval"));
        assert_eq!(Progress::parse(&old), Ok(p));
    }

    #[test]
    fn damaged_files_are_refused() {
        let text = sample().to_text();
        for (from, to, needle) in [
            ("bytes 320", "bytes 321", "whole number"),
            ("bytes 320", "bytes x", "not a number"),
            ("format 1", "format 2", "format 2"),
            ("results 1 2 1", "results 1 2", "three numbers"),
            ("nodes 300\n", "", "no 'nodes'"),
            ("seed 9", "seed 9\nseed 9", "twice"),
            ("seed 9", "seed 9\ncolour blue", "unknown key"),
        ] {
            let e = Progress::parse(&text.replacen(from, to, 1)).unwrap_err();
            assert!(e.contains(needle), "{from} -> {to}: {e}");
        }
    }

    #[test]
    fn a_differing_setting_is_named() {
        let p = sample().settings;
        let mut now = p.clone();
        assert!(p.check(&now, Path::new("x.progress")).is_ok());
        now.nodes = 301;
        let e = p.check(&now, Path::new("x.progress")).unwrap_err();
        assert!(
            e.contains("--nodes") && e.contains("300") && e.contains("301"),
            "{e}"
        );
        let mut now = p.clone();
        now.openings.clear();
        let e = p.check(&now, Path::new("x.progress")).unwrap_err();
        assert!(e.contains("--openings") && e.contains("none"), "{e}");
        let mut now = p.clone();
        now.eval = "nnue 0123456789ab".into();
        let e = p.check(&now, Path::new("x.progress")).unwrap_err();
        assert!(
            e.contains("--evalfile") && e.contains("'hce'") && e.contains("0123456789ab"),
            "{e}"
        );
        assert_eq!(
            progress_path(Path::new("d/data.bin")),
            PathBuf::from("d/data.bin.progress")
        );
    }
}
