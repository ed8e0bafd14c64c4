//! The run folder's records: `games.csv` (one row per finished game, appended as it ends)
//! and `samples.csv` (the admissibility samples of those games), read back to resume, merge
//! and report. A row that does not parse (a line torn by a kill) is dropped when read, and
//! samples whose game has no row are dropped with it, so a killed run loses at most the
//! games in flight.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::Path;

use super::game::{GameKey, GameRecord, Sample};

/// File of the games.
pub const GAMES_FILE: &str = "games.csv";
/// File of the admissibility samples.
pub const SAMPLES_FILE: &str = "samples.csv";

const GAMES_HEADER: &str = "treatment,south,north,opening,south_white,result,south_score,\
termination,plies,south_moves,deviations,predictions,correct,south_nodes,north_nodes,\
south_ms,om_moves,fen,moves";

/// The header before `om_moves` (records of 2026-11-27 up to 3d1c…): such a file is read
/// with its own row length, and rewritten in the current format on resume.
const GAMES_HEADER_V1: &str = "treatment,south,north,opening,south_white,result,south_score,\
termination,plies,south_moves,deviations,predictions,correct,south_nodes,north_nodes,\
south_ms,fen,moves";
const SAMPLES_HEADER: &str =
    "treatment,south,north,opening,south_white,ply,v_south,v_north,v_truth";

fn key_fields(k: &GameKey) -> String {
    format!(
        "{},{},{},{},{}",
        k.treatment,
        k.south,
        k.north,
        k.opening,
        u8::from(k.south_white)
    )
}

/// A game's `games.csv` row (no newline).
pub fn game_row(g: &GameRecord) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        key_fields(&g.key),
        g.result,
        g.south_score,
        g.termination,
        g.plies,
        g.south_moves,
        g.deviations,
        g.predictions,
        g.correct,
        g.south_nodes,
        g.north_nodes,
        g.south_ms,
        g.om_moves.map_or("-".to_string(), |m| m.to_string()),
        g.fen,
        g.moves.join(" ")
    )
}

/// A game's `samples.csv` rows (each with a newline).
pub fn sample_rows(g: &GameRecord) -> String {
    g.samples
        .iter()
        .map(|s| {
            format!(
                "{},{},{},{},{}\n",
                key_fields(&g.key),
                s.ply,
                s.v_south,
                s.v_north,
                s.v_truth
            )
        })
        .collect()
}

fn parse_key(f: &[&str]) -> Option<GameKey> {
    Some(GameKey {
        treatment: f.first()?.to_string(),
        south: f.get(1)?.to_string(),
        north: f.get(2)?.to_string(),
        opening: f.get(3)?.parse().ok()?,
        south_white: match *f.get(4)? {
            "1" => true,
            "0" => false,
            _ => return None,
        },
    })
}

/// A `games.csv` row of a file with the current header (`v1`: the old one, no `om_moves`).
fn parse_game(line: &str, v1: bool) -> Option<GameRecord> {
    let mut f: Vec<&str> = line.split(',').collect();
    let om_moves = if v1 {
        if f.len() != 18 {
            return None;
        }
        None
    } else {
        if f.len() != 19 {
            return None;
        }
        let m = f.remove(16);
        if m == "-" {
            None
        } else {
            Some(m.parse::<usize>().ok()?)
        }
    };
    let n = |i: usize| f[i].parse::<u64>().ok();
    let result = f[5].to_string();
    if !["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()) {
        return None;
    }
    Some(GameRecord {
        key: parse_key(&f)?,
        result,
        south_score: f[6].parse().ok().filter(|s| [0.0, 0.5, 1.0].contains(s))?,
        termination: f[7].to_string(),
        plies: n(8)? as usize,
        south_moves: n(9)? as usize,
        deviations: n(10)? as usize,
        predictions: n(11)? as usize,
        correct: n(12)? as usize,
        south_nodes: n(13)?,
        north_nodes: n(14)?,
        south_ms: n(15)?,
        om_moves,
        fen: f[16].to_string(),
        moves: f[17].split_whitespace().map(String::from).collect(),
        samples: Vec::new(),
    })
}

/// The header and the rows of a file (none if it does not exist).
fn read_lines(path: &Path) -> Result<(String, Vec<String>), String> {
    match std::fs::read_to_string(path) {
        Ok(t) => {
            let mut lines = t.lines().map(String::from);
            let header = lines.next().unwrap_or_default();
            Ok((header, lines.collect()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((String::new(), Vec::new())),
        Err(e) => Err(format!("cannot read '{}': {e}", path.display())),
    }
}

/// The finished games of `dir` with their samples, in file order; torn rows and orphaned
/// samples dropped. Returns the games and the number of lines dropped.
pub fn read_dir(dir: &Path) -> Result<(Vec<GameRecord>, usize), String> {
    let mut dropped = 0;
    let mut games = Vec::new();
    let mut seen = BTreeSet::new();
    let (header, lines) = read_lines(&dir.join(GAMES_FILE))?;
    let v1 = header == GAMES_HEADER_V1;
    for line in lines {
        match parse_game(&line, v1) {
            // A game recorded twice (two shards in one folder) counts once.
            Some(g) if seen.insert(g.key.clone()) => games.push(g),
            Some(_) => {}
            None => dropped += 1,
        }
    }
    let index: std::collections::HashMap<GameKey, usize> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.key.clone(), i))
        .collect();
    for line in read_lines(&dir.join(SAMPLES_FILE))?.1 {
        let f: Vec<&str> = line.split(',').collect();
        let parsed = (f.len() == 9)
            .then(|| {
                let key = parse_key(&f)?;
                let n = |i: usize| f[i].parse::<i32>().ok();
                Some((
                    key,
                    Sample {
                        ply: f[5].parse().ok()?,
                        v_south: n(6)?,
                        v_north: n(7)?,
                        v_truth: n(8)?,
                    },
                ))
            })
            .flatten();
        match parsed.and_then(|(k, s)| index.get(&k).map(|&i| (i, s))) {
            Some((i, s)) => {
                if !games[i].samples.contains(&s) {
                    games[i].samples.push(s);
                }
            }
            None => dropped += 1,
        }
    }
    Ok((games, dropped))
}

/// Writes `games` (with their samples) to `dir`, replacing what is there, each file through
/// a temporary one.
pub fn write_dir(dir: &Path, games: &[GameRecord]) -> Result<(), String> {
    let mut g = format!("{GAMES_HEADER}\n");
    let mut s = format!("{SAMPLES_HEADER}\n");
    for game in games {
        g.push_str(&game_row(game));
        g.push('\n');
        s.push_str(&sample_rows(game));
    }
    crate::atomic_file::write_atomically(&dir.join(GAMES_FILE), g.as_bytes())?;
    crate::atomic_file::write_atomically(&dir.join(SAMPLES_FILE), s.as_bytes())
}

/// Appends one finished game: its samples first, then its row, each flushed, so that a row
/// in `games.csv` means its samples are on disk.
pub fn append(dir: &Path, game: &GameRecord) -> Result<(), String> {
    let open = |name: &str| {
        std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join(name))
            .map_err(|e| format!("cannot append to '{}': {e}", dir.join(name).display()))
    };
    let rows = sample_rows(game);
    if !rows.is_empty() {
        let mut f = open(SAMPLES_FILE)?;
        f.write_all(rows.as_bytes())
            .and_then(|()| f.flush())
            .map_err(|e| format!("cannot write {SAMPLES_FILE}: {e}"))?;
    }
    let mut f = open(GAMES_FILE)?;
    f.write_all(format!("{}\n", game_row(game)).as_bytes())
        .and_then(|()| f.flush())
        .map_err(|e| format!("cannot write {GAMES_FILE}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opening: usize) -> GameRecord {
        GameRecord {
            key: GameKey {
                treatment: "T3".into(),
                south: "hce".into(),
                north: "material".into(),
                opening,
                south_white: opening.is_multiple_of(2),
            },
            result: "1/2-1/2".into(),
            south_score: 0.5,
            termination: "threefold repetition".into(),
            plies: 3,
            south_moves: 2,
            deviations: 1,
            predictions: 1,
            correct: 1,
            south_nodes: 1234,
            north_nodes: 99,
            south_ms: 7,
            om_moves: Some(1),
            fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1".into(),
            moves: vec!["a1a2".into(), "c1c2".into(), "a2a1".into()],
            samples: vec![Sample {
                ply: 0,
                v_south: 10,
                v_north: -5,
                v_truth: 0,
            }],
        }
    }

    #[test]
    fn rows_round_trip_and_torn_lines_are_dropped() {
        let dir = std::env::temp_dir().join(format!("nosce-trec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_dir(&dir, &[game(0)]).unwrap();
        append(&dir, &game(1)).unwrap();
        // A kill in the middle of a row, and a sample whose game never finished.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join(GAMES_FILE))
            .unwrap();
        f.write_all(b"T3,hce,material,2,1,1-0,1,checkm").unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join(SAMPLES_FILE))
            .unwrap();
        f.write_all(b"T3,hce,material,9,1,0,1,2,3\n").unwrap();
        let (games, dropped) = read_dir(&dir).unwrap();
        assert_eq!(games, vec![game(0), game(1)]);
        assert_eq!(dropped, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn records_of_the_first_format_are_read_and_rewritten_in_the_current_one() {
        let dir = std::env::temp_dir().join(format!("nosce-trec-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut old = game(0);
        old.om_moves = None;
        old.samples.clear();
        // The old row: every field but om_moves.
        let row = game_row(&old).replacen(",-,", ",", 1);
        std::fs::write(dir.join(GAMES_FILE), format!("{GAMES_HEADER_V1}\n{row}\n")).unwrap();
        let (games, dropped) = read_dir(&dir).unwrap();
        assert_eq!((games, dropped), (vec![old.clone()], 0));
        write_dir(&dir, std::slice::from_ref(&old)).unwrap();
        let text = std::fs::read_to_string(dir.join(GAMES_FILE)).unwrap();
        assert!(
            text.starts_with(GAMES_HEADER) && text.contains(",7,-,8/8/8"),
            "{text}"
        );
        // Under the current header a row of the old length is a torn one.
        std::fs::write(dir.join(GAMES_FILE), format!("{GAMES_HEADER}\n{row}\n")).unwrap();
        assert_eq!(read_dir(&dir).unwrap().1, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
