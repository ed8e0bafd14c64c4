//! `nosce kqkr merge`: joins the folders of a sweep run as an array job (`--shard i/n`) into
//! one, after checking that they ran the same configuration; the merged folder is then
//! summarised like any run (Donkers 2003 §5.4.3 tables and figures). Games present in more
//! than one folder are taken once (from the first).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::outputs::{config_conflicts, finish, read_config, write_config, write_csvs};
use super::records::{GameKey, read_games, read_moves};

/// Merges `dirs` into `out`; returns the summary text.
pub fn merge(dirs: &[PathBuf], out: &Path, reference: Option<&Path>) -> Result<String, String> {
    let mut config: Vec<(String, String)> = Vec::new();
    let mut games = Vec::new();
    let mut moves = Vec::new();
    let mut seen: BTreeSet<GameKey> = BTreeSet::new();
    for dir in dirs {
        let c = read_config(dir)?;
        if c.is_empty() {
            return Err(format!(
                "'{}' is not a kqkr run folder (no config.txt)",
                dir.display()
            ));
        }
        if config.is_empty() {
            config = c;
        } else {
            let diffs = config_conflicts(&config, &c);
            if !diffs.is_empty() {
                return Err(format!(
                    "'{}' ran another configuration:\n  {}",
                    dir.display(),
                    diffs.join("\n  ")
                ));
            }
        }
        let g = read_games(&dir.join("games.csv"))?;
        let new: BTreeSet<GameKey> = g
            .iter()
            .map(|r| r.key())
            .filter(|k| !seen.contains(k))
            .collect();
        moves.extend(
            read_moves(&dir.join("moves.csv"))?
                .into_iter()
                .filter(|m| new.contains(&m.key())),
        );
        games.extend(g.into_iter().filter(|r| new.contains(&r.key())));
        seen.extend(new);
    }
    for (k, v) in &mut config {
        if k == "run.shard" {
            *v = format!("merged from {} folders", dirs.len());
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create '{}': {e}", out.display()))?;
    write_config(out, &config)?;
    write_csvs(out, &mut games, &mut moves)?;
    finish(out, reference)
}
