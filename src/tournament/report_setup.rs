//! What every part of the tournament report shares ([`super::report`], [`super::budget`],
//! [`super::findings`], [`super::page`]): the run's settings as read back from its
//! `config.txt` ([`ReportSetup`]) and the way a p-value is written ([`p_text`]). Kept apart
//! so that the report's sections take it from here rather than from the report that calls
//! them (*OM Search in Bao*, §6, is what they report).

use std::path::Path;

use super::run::CONFIG_FILE;

/// What the report needs of the run's settings (read back from `config.txt`).
#[derive(Clone, Debug)]
pub struct ReportSetup {
    /// Player labels, in table order.
    pub players: Vec<String>,
    /// Treatments: (code, description).
    pub treatments: Vec<(String, String)>,
    /// Games per pairing.
    pub games: usize,
    /// Every setting, as written.
    pub settings: Vec<(String, String)>,
}

impl ReportSetup {
    /// Reads `config.txt` of `dir`.
    pub fn read(dir: &Path) -> Result<ReportSetup, String> {
        let path = dir.join(CONFIG_FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("'{}' is not a tournament folder: {e}", dir.display()))?;
        let settings: Vec<(String, String)> = text
            .lines()
            .filter_map(|l| l.split_once(": "))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let get = |k: &str| {
            settings
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| format!("{}: no '{k}'", path.display()))
        };
        let players = get("players")?
            .split(',')
            .map(|p| p.rsplit_once('=').map_or(p, |(_, l)| l).to_string())
            .collect();
        let treatments = get("treatments")?
            .split(',')
            .map(|c| {
                let d = get(&format!("treatment {c}")).unwrap_or_default();
                (c.to_string(), d)
            })
            .collect();
        let games = get("games")?
            .parse()
            .map_err(|_| format!("{}: bad 'games'", path.display()))?;
        Ok(ReportSetup {
            players,
            treatments,
            games,
            settings,
        })
    }
}

/// A p-value as the report writes it (`–`: no test).
pub fn p_text(p: Option<f64>) -> String {
    match p {
        Some(p) if p < 0.001 => format!("{p:.1e}"),
        Some(p) => format!("{p:.3}"),
        None => "–".into(),
    }
}
