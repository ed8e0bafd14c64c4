//! The small value grammars of the options that fold several settings into one (issue 39:
//! a GUI shows options that each do something on their own): `OM_Search` (`key=value`
//! list), `OM_Learning` (`off`, `fast [reward=P]`, `bayes [ps=P] [gamma=P]`, §6.6.2),
//! `OM_Profiles` (`on`, `off` or a directory) and `OM_OpponentEngine`
//! (`[uci:|xboard:]COMMAND [| Name=Value;...]`). Each parser works on a copy and changes
//! the settings only when the whole value is good.

use crate::external::{EngineCommand, Protocol, parse_engine_options};
use crate::learning::LearningParams;
use crate::options::{parse_int, parse_switch};
use crate::search::om::config::Learning;
use crate::search::om::policy::PolicyValue;
use crate::search::om::settings::{BoundedSum, OmSettings, RootSafety};

/// `OM_Search`'s declared default: every key, so that a GUI shows what can be set. Keys a
/// value omits take these.
pub const OM_SEARCH_DEFAULT: &str = "depth=0 nodes=0 tb=on replay=off ties=on root=tb-optimal \
margin=50 contempt=0 bound=auto policy=search deterministic=off odds=auto";

/// `key=value` items separated by spaces or commas.
fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|i| !i.is_empty())
}

fn key_value<'a>(what: &str, item: &'a str) -> Result<(&'a str, &'a str), String> {
    item.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| format!("{what}: '{item}' is not key=value"))
}

/// Sets one key of `OM_Search` (also the old single options, which keep their names in
/// the message).
///
/// # Errors
/// Unknown key or bad value.
pub fn search_key(om: &mut OmSettings, key: &str, value: &str) -> Result<(), String> {
    let what = format!("OM_Search {key}=");
    let choice = |vars: &[&str]| -> Result<usize, String> {
        vars.iter()
            .position(|v| v.eq_ignore_ascii_case(value))
            .ok_or_else(|| format!("{what}: '{value}' is not one of {}", vars.join(", ")))
    };
    match key.to_ascii_lowercase().as_str() {
        "depth" => om.opponent_depth = parse_int(&what, value, 0, 64)? as u32,
        "nodes" => om.opponent_nodes = parse_int(&what, value, 0, 1_000_000_000)? as u64,
        "tb" => om.opponent_tablebases = parse_switch(&what, value)?,
        "replay" => om.replay = parse_switch(&what, value)?,
        "ties" => om.ties = parse_switch(&what, value)?,
        "deterministic" => om.deterministic = parse_switch(&what, value)?,
        "root" => {
            om.root_safety = [RootSafety::None, RootSafety::TbOptimal, RootSafety::Margin]
                [choice(&["none", "tb-optimal", "margin"])?];
        }
        "margin" => om.root_margin = parse_int(&what, value, 0, 10_000)? as i32,
        "contempt" => om.contempt_ceiling = parse_int(&what, value, 0, 500)? as i32,
        "odds" => {
            om.min_time_odds = match value.to_ascii_lowercase().as_str() {
                "auto" => None,
                v => match v.parse::<f64>() {
                    Ok(x) if (0.0..=1000.0).contains(&x) => Some(x),
                    _ => {
                        return Err(format!(
                            "{what}: '{value}' is not auto or a ratio from 0 to 1000"
                        ));
                    }
                },
            }
        }
        "bound" => match value.to_ascii_lowercase().as_str() {
            "auto" => om.bounded_sum = BoundedSum::Auto,
            "off" => om.bounded_sum = BoundedSum::Off,
            "on" => om.bounded_sum = BoundedSum::On,
            _ => {
                let b = parse_int(&what, value, 0, 10_000)
                    .map_err(|_| format!("{what}: '{value}' is not auto, off or a bound in cp"))?;
                om.bounded_sum = BoundedSum::On;
                om.bound = b as i32;
            }
        },
        "policy" => {
            om.policy_value =
                [PolicyValue::Search, PolicyValue::Engine][choice(&["search", "engine"])?];
        }
        _ => {
            return Err(format!(
                "OM_Search: no key '{key}' (keys: depth nodes tb replay ties root margin \
                 contempt bound policy deterministic odds)"
            ));
        }
    }
    Ok(())
}

/// Sets `OM_Search` as a whole: the declared default, then the value's keys.
///
/// # Errors
/// The first bad item; nothing changes then.
pub fn search_line(om: &mut OmSettings, text: &str) -> Result<(), String> {
    let mut work = om.clone();
    for line in [OM_SEARCH_DEFAULT, text] {
        for item in items(line) {
            let (k, v) = key_value("OM_Search", item)?;
            search_key(&mut work, k, v)?;
        }
    }
    *om = work;
    Ok(())
}

/// Sets `OM_Learning`: the kind, and its percentages (omitted ones at
/// [`LearningParams::DEFAULT_PERCENT`]).
///
/// # Errors
/// An unknown kind, a key the kind does not take, a value out of range.
pub fn learning_line(om: &mut OmSettings, text: &str) -> Result<(), String> {
    let mut words = items(text);
    let kind = words.next().unwrap_or("off");
    let learning = match kind.to_ascii_lowercase().as_str() {
        "off" => Learning::Off,
        "fast" => Learning::Fast,
        "bayes" => Learning::Bayes,
        _ => return Err(format!("OM_Learning: '{kind}' is not off, fast or bayes")),
    };
    let mut p = LearningParams::DEFAULT_PERCENT;
    for item in words {
        let (k, v) = key_value("OM_Learning", item)?;
        let (i, min, fits) = match k.to_ascii_lowercase().as_str() {
            "reward" => (0, 1, learning == Learning::Fast),
            "ps" => (1, 1, learning == Learning::Bayes),
            "gamma" => (2, 0, learning == Learning::Bayes),
            _ => return Err(format!("OM_Learning: no key '{k}' (reward, ps, gamma)")),
        };
        if !fits {
            return Err(format!("OM_Learning: {k}= is not a parameter of {kind}"));
        }
        let max = if i == 0 { 50 } else { 100 };
        p[i] = parse_int(&format!("OM_Learning {k}="), v, min, max)? as u32;
    }
    om.learning = learning;
    om.learning_params = LearningParams::from_percent(p);
    Ok(())
}

/// Sets `OM_Profiles`: `on` (the user's data directory), `off`, or a directory (the old
/// check values `true`/`false` too).
///
/// # Errors
/// None today; a `Result` like the other grammars.
pub fn profiles_line(om: &mut OmSettings, text: &str) -> Result<(), String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "" => {
            om.profiles = true;
            om.profile_dir.clear();
        }
        "off" | "false" => om.profiles = false,
        _ => {
            om.profiles = true;
            om.profile_dir = text.trim().to_string();
        }
    }
    Ok(())
}

/// Sets `OM_OpponentEngine`: protocol, command line and options together (empty: none).
///
/// # Errors
/// A bad command line (an unterminated quote) or option list.
pub fn engine_line(om: &mut OmSettings, text: &str) -> Result<(), String> {
    let (command, options) = match text.split_once('|') {
        Some((c, o)) => (c.trim(), o.trim()),
        None => (text.trim(), ""),
    };
    let lower = command.to_ascii_lowercase();
    let (protocol, command) = if lower.starts_with("xboard:") {
        (Protocol::Xboard, command["xboard:".len()..].trim())
    } else if lower.starts_with("uci:") {
        (Protocol::Uci, command["uci:".len()..].trim())
    } else {
        (Protocol::Uci, command)
    };
    let engine: Option<EngineCommand> = match command {
        "" => None,
        c => Some(
            c.parse()
                .map_err(|e| format!("option OM_OpponentEngine: {e}"))?,
        ),
    };
    let options =
        parse_engine_options(options).map_err(|e| format!("option OM_OpponentEngine: {e}"))?;
    if engine.is_none() && !options.is_empty() {
        return Err("option OM_OpponentEngine: options but no command".into());
    }
    om.engine = engine;
    om.engine_protocol = protocol;
    om.engine_options = options;
    Ok(())
}
