//! Text of the `nosce tb probe <fen>` and `nosce tb gen <material>` commands: WDL, Syzygy DTZ,
//! DTM and Thompson's DTC of a position and of every legal move (SAN and UCI), in plies and
//! moves; and a generation summary. DTC is the metric of BELLE's tables in the Browne–BELLE
//! games, DTM the one of Nalimov/Gaviota (Donkers 2003 §5.4, Appendix B).

use std::{fmt::Write as _, time::Instant};

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, fen::Fen, san::SanPlus};
use shakmaty_syzygy::Wdl as SzWdl;

use crate::tb::{
    exact::{ExactTables, Metric, TableSource},
    material::Material,
    syzygy::SyzygyTables,
    table::Wdl,
};

/// Moves corresponding to `plies` for a side that wins (`ceil`) or loses (`floor`).
fn moves_of(wdl: Wdl, plies: u16) -> u16 {
    match wdl {
        Wdl::Win => plies.div_ceil(2),
        _ => plies / 2,
    }
}

fn distance(wdl: Wdl, plies: Option<u16>, what: &str) -> String {
    match (wdl, plies) {
        (Wdl::Draw, _) | (_, None) => "-".into(),
        (Wdl::Win, Some(p)) => format!("{p} plies ({what} in {} moves)", moves_of(wdl, p)),
        (Wdl::Loss, Some(0)) => "0 plies (mated)".into(),
        (Wdl::Loss, Some(p)) => format!("{p} plies (loses in {} moves)", moves_of(wdl, p)),
    }
}

fn short(wdl: Wdl, plies: Option<u16>) -> String {
    match (wdl, plies) {
        (Wdl::Draw, _) | (_, None) => "-".into(),
        (w, Some(p)) => format!("{p} ({})", moves_of(w, p)),
    }
}

fn sz_name(wdl: SzWdl) -> &'static str {
    match wdl {
        SzWdl::Win => "win",
        SzWdl::CursedWin => "cursed win",
        SzWdl::Draw => "draw",
        SzWdl::BlessedLoss => "blessed loss",
        SzWdl::Loss => "loss",
    }
}

/// Parses a FEN into a legal standard-chess position, with a readable error.
pub fn parse_fen(fen: &str) -> Result<Chess, String> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("invalid FEN {fen:?}: {e}"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("illegal position {fen:?}: {e}"))
}

/// The report of `nosce tb probe <fen>`. Exact tables are generated on first use; Syzygy
/// columns appear when `syzygy` has tables for the position.
pub fn probe_text(
    exact: &ExactTables,
    syzygy: Option<&SyzygyTables>,
    fen: &str,
) -> Result<String, String> {
    let pos = parse_fen(fen)?;
    let mut out = String::new();
    let fen_out = Fen::from_position(&pos, EnPassantMode::Legal);
    let _ = writeln!(out, "position  {fen_out}");
    let material = Material::from_board(pos.board());
    let entry = exact.probe(&pos);
    let _ = writeln!(
        out,
        "material  {}",
        match (material, entry) {
            (Some(m), Some(_)) => format!("{m} (exact tables)"),
            (Some(m), None) => format!("{m} (exact tables unavailable)"),
            (None, _) =>
                "not covered by the exact tables (pawns on both sides, castling or > 4 pieces)"
                    .into(),
        }
    );
    let sz_wdl = syzygy.and_then(|s| s.probe_wdl(&pos));
    let sz_dtz = syzygy.and_then(|s| s.probe_dtz(&pos));
    let mut wdl_line = match entry {
        Some(e) => format!("{} (exact)", e.wdl.name()),
        None => "unknown (exact)".into(),
    };
    if let Some(w) = sz_wdl {
        let _ = write!(wdl_line, ", {} (syzygy)", sz_name(w));
    }
    let _ = writeln!(out, "wdl       {wdl_line}");
    let _ = writeln!(
        out,
        "dtz       {}",
        match sz_dtz {
            Some(d) => {
                let v = d.ignore_rounding().0;
                let moves = v.unsigned_abs().div_ceil(2);
                let note = if d.precise().is_none() {
                    ", rounded: may be 1 ply short"
                } else {
                    ""
                };
                format!("{v} plies ({moves} moves to zeroing{note}) (syzygy)")
            }
            None => "n/a (no syzygy tables for this position)".into(),
        }
    );
    if let Some(e) = entry {
        let _ = writeln!(out, "dtm       {}", distance(e.wdl, e.dtm, "mate"));
        let _ = writeln!(
            out,
            "dtc       {}",
            distance(e.wdl, e.dtc, "conversion or mate")
        );
    }
    let ranked = exact.rank_moves(&pos, Metric::Dtm);
    let sz_rank = syzygy.and_then(|s| s.rank_root(&pos));
    let mut moves: Vec<shakmaty::Move> = match (&ranked, &sz_rank) {
        (Some(r), _) => r.iter().map(|m| m.mv).collect(),
        (None, Some(s)) => s.moves.iter().map(|m| m.mv).collect(),
        (None, None) => pos.legal_moves().into_iter().collect(),
    };
    moves.dedup();
    let order = if ranked.is_some() {
        "exact DTM"
    } else {
        "syzygy"
    };
    let _ = writeln!(
        out,
        "moves     {} legal, best first by {order}; distances in plies (moves)",
        moves.len()
    );
    let _ = writeln!(
        out,
        "  {:<8} {:<6} {:<7} {:<14} {:<10} {:<10}",
        "san", "uci", "result", "dtz", "dtm", "dtc"
    );
    for mv in moves {
        let san = SanPlus::from_move(pos.clone(), mv).to_string();
        let uci = mv.to_uci(CastlingMode::Standard).to_string();
        let ex = ranked
            .as_ref()
            .and_then(|r| r.iter().find(|m| m.mv == mv))
            .map(|m| m.value);
        let sz = sz_rank
            .as_ref()
            .and_then(|r| r.moves.iter().find(|m| m.mv == mv));
        let result = match (ex, sz) {
            (Some(v), _) => v.wdl.name().to_string(),
            (None, Some(s)) => sz_name(s.wdl).to_string(),
            _ => "?".into(),
        };
        let dtz = sz.map_or("-".into(), |s| {
            format!(
                "{}{} {}",
                s.dtz,
                if s.rounded { "~" } else { "" },
                sz_name(s.wdl)
            )
        });
        let (dtm, dtc) = ex.map_or(("-".into(), "-".into()), |v| {
            (short(v.wdl, v.dtm), short(v.wdl, v.dtc))
        });
        let _ = writeln!(
            out,
            "  {san:<8} {uci:<6} {result:<7} {dtz:<14} {dtm:<10} {dtc:<10}"
        );
    }
    for w in exact
        .take_warnings()
        .into_iter()
        .chain(syzygy.map(|s| s.take_warnings()).unwrap_or_default())
    {
        let _ = writeln!(out, "warning   {w}");
    }
    Ok(out)
}

/// The report of `nosce tb gen <material>`: makes the table available (loading a valid file
/// or generating and writing it) and summarises it.
pub fn gen_text(exact: &ExactTables, material: &str) -> Result<String, String> {
    let parsed: Material = material.parse().map_err(|e| format!("{e}"))?;
    let start = Instant::now();
    let table = exact.table(&parsed).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    let canonical = table.material();
    let mut out = String::new();
    let how = match exact.source(&canonical) {
        Some(TableSource::Loaded(path)) => format!("loaded from {}", path.display()),
        Some(TableSource::Generated {
            seconds,
            written: Some(path),
        }) => {
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            format!(
                "generated in {seconds:.2} s, written to {} ({bytes} bytes)",
                path.display()
            )
        }
        Some(TableSource::Generated {
            seconds,
            written: None,
        }) => {
            format!("generated in {seconds:.2} s (memory only)")
        }
        None => "available".into(),
    };
    let _ = writeln!(out, "{canonical}: {how}; {elapsed:.2} s in total");
    for color in [Color::White, Color::Black] {
        let (w, d, l) = table.census(color);
        let _ = writeln!(
            out,
            "  {color} to move: {w} wins, {d} draws, {l} losses (up to symmetry)"
        );
    }
    let (dtm, dtc) = table.max_distances();
    let _ = writeln!(out, "  longest DTM {dtm} plies, longest DTC {dtc} plies");
    for w in exact.take_warnings() {
        let _ = writeln!(out, "warning   {w}");
    }
    Ok(out)
}
