//! The old option names folded into newer ones (accepted for one release, with a note that
//! names the replacement): each `OM_*` option that became a key of `OM_Search`,
//! `OM_Learning` or `OM_OpponentEngine` (Donkers 2003: OM §3, learning §6.6.2), applied to
//! [`Settings`] through the new option's grammar so that both spellings mean the same.

use super::option_grammar::search_key;
use super::settings::{Applied, Settings};
use crate::external::{Protocol, parse_engine_options};
use crate::options::{Alias, parse_int};

/// An alias that sets one key of `OM_Search`.
macro_rules! search_alias {
    ($old:literal, $key:literal) => {
        Alias {
            old: $old,
            replaced_by: concat!("OM_Search's key ", $key, "="),
            apply: |s, raw| {
                search_key(&mut s.om, $key, raw)?;
                Ok(Applied::Stored)
            },
        }
    };
}

/// Sets one learning percentage (0 reward, 1 P_s, 2 γ) with the old option's range.
fn learning_percent(
    s: &mut Settings,
    what: &str,
    i: usize,
    raw: &str,
    min: i64,
) -> Result<Applied, String> {
    let mut p = s.om.learning_params.percent();
    p[i] = parse_int(what, raw, min, 100)? as u32;
    s.om.learning_params = crate::learning::LearningParams::from_percent(p);
    Ok(Applied::Stored)
}

/// The folded names, in the order of the options that replaced them.
pub(super) static ALIASES: &[Alias<Settings, Applied>] = &[
    search_alias!("OM_OpponentDepth", "depth"),
    search_alias!("OM_OpponentNodes", "nodes"),
    search_alias!("OM_OpponentTablebases", "tb"),
    search_alias!("OM_OpponentReplay", "replay"),
    search_alias!("OM_Ties", "ties"),
    search_alias!("OM_Deterministic", "deterministic"),
    search_alias!("OM_RootSafety", "root"),
    search_alias!("OM_RootMargin", "margin"),
    search_alias!("OM_ContemptCeiling", "contempt"),
    search_alias!("OM_BoundedSum", "bound"),
    search_alias!("OM_PolicyValue", "policy"),
    Alias {
        old: "OM_Bound",
        replaced_by: "OM_Search's key bound= (a number of cp switches bounded sums on)",
        apply: |s, raw| {
            s.om.bound = parse_int("option OM_Bound", raw, 0, 10_000)? as i32;
            Ok(Applied::Stored)
        },
    },
    Alias {
        old: "OM_LearningReward",
        replaced_by: "OM_Learning's key reward=",
        apply: |s, raw| learning_percent(s, "option OM_LearningReward", 0, raw, 1),
    },
    Alias {
        old: "OM_LearningPs",
        replaced_by: "OM_Learning's key ps=",
        apply: |s, raw| learning_percent(s, "option OM_LearningPs", 1, raw, 1),
    },
    Alias {
        old: "OM_LearningGamma",
        replaced_by: "OM_Learning's key gamma=",
        apply: |s, raw| learning_percent(s, "option OM_LearningGamma", 2, raw, 0),
    },
    Alias {
        old: "OM_ProfileDir",
        replaced_by: "OM_Profiles (a directory)",
        apply: |s, raw| {
            s.om.profile_dir = raw.to_string();
            Ok(Applied::NewOpponent)
        },
    },
    Alias {
        old: "OM_OpponentEngineOptions",
        replaced_by: "OM_OpponentEngine (`COMMAND | Name=Value;...`)",
        apply: |s, raw| {
            s.om.engine_options = parse_engine_options(raw)
                .map_err(|e| format!("option OM_OpponentEngineOptions: {e}"))?;
            Ok(Applied::NewEngine)
        },
    },
    Alias {
        old: "OM_OpponentEngineProtocol",
        replaced_by: "OM_OpponentEngine (`xboard:COMMAND`)",
        apply: |s, raw| {
            s.om.engine_protocol = match raw.to_ascii_lowercase().as_str() {
                "uci" => Protocol::Uci,
                "xboard" => Protocol::Xboard,
                _ => {
                    return Err(format!(
                        "option OM_OpponentEngineProtocol: '{raw}' is not one of uci, xboard"
                    ));
                }
            };
            Ok(Applied::NewEngine)
        },
    },
];
