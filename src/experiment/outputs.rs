//! A run folder and what goes into it: `config.txt` (every tunable, the git revision),
//! `games.csv` and `moves.csv` (the raw data, sorted by position, s and game), `games.pgn`,
//! `summary.md` (Tables 5.2–5.4 of Donkers 2003 §5.4.3 and the t-tests), the SVG figures
//! (Figs. 5.10–5.14) and `report.html` (all of it on one self-contained page). Everything
//! after the CSV files is rebuilt from them, so a resumed, merged or analysed run is
//! summarised exactly like a fresh one.

use std::path::Path;

use super::config::{KqkrConfig, git_revision};
use super::figures::write_figures;
use super::pgn::{PgnContext, game_pgn};
use super::records::{
    GAMES_HEADER, GameRow, MoveRow, moves_header, read_games, read_moves, write_atomic, write_rows,
};
use super::report::{REPORT_FILE, report_html};
use super::summary::{load_reference, summary_md};

/// Name of the configuration file in a run folder.
pub const CONFIG_FILE: &str = "config.txt";

/// Prefix of configuration keys that do not change results.
pub const RUN_PREFIX: &str = "run.";

/// The configuration lines of `cfg`: the result-determining settings, then `run.*` lines.
pub fn config_lines(cfg: &KqkrConfig) -> Vec<(String, String)> {
    let mut v = cfg.record();
    v.push(("run.git_revision".into(), git_revision()));
    v.push(("run.version".into(), crate::NAME_VERSION.into()));
    v.push(("run.jobs".into(), cfg.jobs.to_string()));
    v.push((
        "run.shard".into(),
        cfg.shard
            .map_or_else(|| "none".into(), |(i, n)| format!("{i}/{n}")),
    ));
    v
}

/// Reads `config.txt` (`key = value` lines); empty if there is none.
pub fn read_config(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let path = dir.join(CONFIG_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    Ok(text
        .lines()
        .filter_map(|l| l.split_once(" = "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect())
}

/// Writes `config.txt`.
pub fn write_config(dir: &Path, lines: &[(String, String)]) -> Result<(), String> {
    let text: String = lines.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
    write_atomic(&dir.join(CONFIG_FILE), &text)
}

/// The result-determining lines (without `run.*`).
pub fn result_lines(lines: &[(String, String)]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter(|(k, _)| !k.starts_with(RUN_PREFIX))
        .cloned()
        .collect()
}

/// Checks that `dir` holds no run of another configuration; returns the differences.
pub fn config_conflicts(old: &[(String, String)], new: &[(String, String)]) -> Vec<String> {
    let (old, new) = (result_lines(old), result_lines(new));
    let mut diffs = Vec::new();
    for (k, v) in &new {
        match old.iter().find(|(ok, _)| ok == k) {
            Some((_, ov)) if ov != v => diffs.push(format!("{k}: '{ov}' here, '{v}' now")),
            None => diffs.push(format!("{k}: missing here, '{v}' now")),
            _ => {}
        }
    }
    for (k, v) in &old {
        if !new.iter().any(|(nk, _)| nk == k) {
            diffs.push(format!("{k}: '{v}' here, missing now"));
        }
    }
    diffs
}

/// Sorts rows by game key (and ply) and rewrites both CSV files; `moves.csv` has the
/// `budget` column if any move has a budget.
pub fn write_csvs(dir: &Path, games: &mut [GameRow], moves: &mut [MoveRow]) -> Result<(), String> {
    write_csvs_with(dir, games, moves, false)
}

/// [`write_csvs`], with the `budget` column in any case when `budget` is set (a run that
/// draws budgets appends such rows later).
pub fn write_csvs_with(
    dir: &Path,
    games: &mut [GameRow],
    moves: &mut [MoveRow],
    budget: bool,
) -> Result<(), String> {
    games.sort_by_key(GameRow::key);
    moves.sort_by_key(|m| (m.key(), m.ply));
    let budget = budget || moves.iter().any(|m| m.budget.is_some());
    let g: Vec<String> = games.iter().map(GameRow::to_csv).collect();
    let m: Vec<String> = moves.iter().map(|r| r.to_csv(budget)).collect();
    write_rows(&dir.join("moves.csv"), moves_header(budget), &m)?;
    write_rows(&dir.join("games.csv"), GAMES_HEADER, &g)
}

fn get<'a>(config: &'a [(String, String)], key: &str) -> &'a str {
    config
        .iter()
        .find(|(k, _)| k == key)
        .map_or("?", |(_, v)| v.as_str())
}

/// PGN player names and tags from the configuration lines.
pub fn pgn_context(config: &[(String, String)]) -> PgnContext {
    let opp = get(config, "opponent");
    let kq_name = if opp.starts_with("uci ") {
        format!(
            "{} {}",
            opp.trim_start_matches("uci "),
            get(config, "opponent.limit")
        )
    } else {
        format!(
            "nosce no-tables {} {}",
            get(config, "opponent.eval"),
            get(config, "opponent.limit")
        )
    };
    let tags = [
        ("KrLimit", "kr.limit"),
        ("Opponent", "opponent"),
        ("OpponentLimit", "opponent.limit"),
        ("OpponentPerturb", "opponent.perturb_cp"),
        ("Model", "model"),
        ("ModelMode", "model.mode"),
        ("GitRevision", "run.git_revision"),
    ]
    .iter()
    .filter(|(_, k)| config.iter().any(|(ck, _)| ck == k))
    .map(|(t, k)| ((*t).to_string(), get(config, k).to_string()))
    .collect();
    PgnContext {
        kq_name,
        kr_name: format!("nosce tables {}", get(config, "kr.limit")),
        tags,
    }
}

/// Rebuilds everything after the CSV files in `dir`; returns the summary text.
pub fn finish(dir: &Path, reference: Option<&Path>) -> Result<String, String> {
    let config = read_config(dir)?;
    let mut games = read_games(&dir.join("games.csv"))?;
    let mut moves = read_moves(&dir.join("moves.csv"))?;
    write_csvs(dir, &mut games, &mut moves)?;
    let ctx = pgn_context(&config);
    let mut pgn = String::new();
    for g in &games {
        pgn.push_str(&game_pgn(g, &ctx)?);
    }
    write_atomic(&dir.join("games.pgn"), &pgn)?;
    let reference = load_reference(reference)?;
    let md = summary_md(&games, &moves, &config, &reference);
    write_atomic(&dir.join("summary.md"), &md)?;
    let figures = write_figures(dir, &games, &moves, &config)?;
    let html = report_html(&games, &moves, &config, &reference, &figures);
    write_atomic(&dir.join(REPORT_FILE), &html)?;
    Ok(md)
}
