//! Every engine option, declared once: one row each (name, type, range, default, the line
//! of `docs/options.md`, how a value is applied to [`Settings`]), in the order both
//! protocols announce them, and the old names folded into other options (accepted for one
//! release, with a note: `engine/option_aliases.rs`). The value grammars of the folded
//! options live in `engine/option_grammar.rs`.
//!
//! The opponent-model options set [`crate::search::om::settings::OmSettings`] (Donkers 2003:
//! OM §3, PrOM §6, restricted speculation Alg. 3.6, types §6.1, root safety §5.4.1, bounded
//! sums Alg. 3.10, learning §6.6.2).

use super::option_grammar::{
    OM_SEARCH_DEFAULT, engine_line, learning_line, profiles_line, search_line,
};
use super::settings::{Applied, Settings};
use crate::opponent::OpponentModel;
use crate::options::{OptionKind, OptionSpec, OptionTable, Row};
use crate::search::om::OmMode;

type R = Row<Settings, Applied>;

const fn spin(
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
    doc: &'static str,
) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
        doc,
    }
}

const fn check(name: &'static str, default: bool, doc: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Check { default },
        doc,
    }
}

const fn string(name: &'static str, default: &'static str, doc: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Str { default },
        doc,
    }
}

/// The engine's options.
pub static OPTIONS: OptionTable<Settings, Applied> = OptionTable {
    rows: ROWS,
    hidden: HIDDEN,
    aliases: super::option_aliases::ALIASES,
    blank: Settings::blank,
};

impl Default for Settings {
    /// Every option at the default its row declares.
    fn default() -> Self {
        OPTIONS.defaults()
    }
}

impl Settings {
    /// Sets option `name` (case-insensitive) to `value`: what to do next, and a note when
    /// `name` is an old name (what replaced it).
    ///
    /// # Errors
    /// Unknown option or bad value; nothing changes then.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(Applied, Option<String>), String> {
        OPTIONS.set(self, name, value)
    }
}

static ROWS: &[R] = &[
    R {
        spec: spin(
            "Hash",
            16,
            1,
            65536,
            "MB for our table; each opponent type that searches differently from us gets `Hash/2` more. A size that cannot be allocated is refused and the old one kept",
        ),
        apply: |s, v| {
            s.hash_mb = v.int() as usize;
            Ok(Applied::ResizeHash)
        },
    },
    R {
        spec: spin(
            "Threads",
            1,
            1,
            256,
            "search threads, kept with their move-ordering tables from move to move until `ucinewgame` (Lazy SMP; in OM, the root moves are shared out)",
        ),
        apply: |s, v| {
            s.threads = v.int() as usize;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: spin("MultiPV", 1, 1, 256, "principal variations reported"),
        apply: |s, v| {
            s.multipv = v.int() as usize;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: check("Ponder", false, "the GUI may let us ponder"),
        apply: |s, v| {
            s.ponder = v.on();
            Ok(Applied::Stored)
        },
    },
    R {
        spec: spin(
            "Move Overhead",
            50,
            0,
            5000,
            "milliseconds kept back on every move for the GUI and the pipe",
        ),
        apply: |s, v| {
            s.move_overhead_ms = v.int() as u64;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: OptionSpec {
            name: "Clear Hash",
            kind: OptionKind::Button,
            doc: "clears our table, the opponent types' tables and the search threads' move-ordering tables",
        },
        apply: |_, _| Ok(Applied::ClearHash),
    },
    R {
        spec: check(
            "UCI_ShowWDL",
            false,
            "win/draw/loss per mille in `info` lines",
        ),
        apply: |s, v| {
            s.show_wdl = v.on();
            Ok(Applied::Stored)
        },
    },
    R {
        spec: check(
            "UCI_AnalyseMode",
            false,
            "the GUI analyses: the mate prover (df-pn, docs/mate.md) then also runs on a thread beside α-β in searches without a clock (`go infinite`, `go depth`; of `go nodes N` it gets half), and a mate it proves becomes the answer unless α-β already reported a shorter one. xboard's `analyze` does the same. (`go mate N` always asks the prover first.)",
        ),
        apply: |s, v| {
            s.analyse_mode = v.on();
            Ok(Applied::Stored)
        },
    },
    R {
        spec: check(
            "UCI_Chess960",
            false,
            "Chess960: X-FEN and Shredder-FEN castling rights, castling as the king taking its rook (`e1h1`)",
        ),
        apply: |s, v| {
            s.chess960 = v.on();
            Ok(Applied::Stored)
        },
    },
    R {
        spec: check(
            "UCI_LimitStrength",
            false,
            "play at `UCI_Elo` instead of full strength",
        ),
        apply: |s, v| {
            s.limit_strength = v.on();
            Ok(Applied::Strength)
        },
    },
    R {
        spec: spin(
            "UCI_Elo",
            1500,
            crate::strength::MIN_ELO,
            crate::strength::MAX_ELO,
            "the rating to play at with `UCI_LimitStrength`, on Stockfish 15.1's `UCI_Elo` scale (calibration in `docs/matches.md`)",
        ),
        apply: |s, v| {
            s.elo = v.int();
            Ok(Applied::Strength)
        },
    },
    R {
        spec: string(
            "EvalFile",
            crate::nnue::embedded::FILE_NAME,
            "the evaluation: the embedded net (its name, or empty), `hce` (hand-crafted), or an NNUE file; a file that cannot be loaded is refused and the evaluation in use kept",
        ),
        apply: |s, v| {
            s.eval_file = v.text().to_string();
            Ok(Applied::LoadNet)
        },
    },
    R {
        spec: string(
            "SyzygyPath",
            "",
            "Syzygy directories (`:`-separated; `;` on Windows)",
        ),
        apply: |s, v| {
            s.syzygy_path = v.text().to_string();
            Ok(Applied::LoadSyzygy)
        },
    },
    R {
        spec: spin(
            "SyzygyProbeDepth",
            1,
            1,
            100,
            "least remaining depth at which the search probes the tables",
        ),
        apply: |s, v| {
            s.syzygy_probe_depth = v.int() as i32;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: spin(
            "SyzygyProbeLimit",
            7,
            0,
            7,
            "most pieces probed in the search (0: none)",
        ),
        apply: |s, v| {
            s.syzygy_probe_limit = v.int() as usize;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: check(
            "Syzygy50MoveRule",
            true,
            "table results respect the fifty-move rule",
        ),
        apply: |s, v| {
            s.syzygy_50_move_rule = v.on();
            Ok(Applied::LoadSyzygy)
        },
    },
    R {
        spec: check(
            "ExactTables",
            true,
            "our own exact DTM/DTC tables for endings of up to four pieces, pawns on one side at most (built on first use, cached)",
        ),
        apply: |s, v| {
            s.exact_tables = v.on();
            Ok(Applied::LoadSyzygy)
        },
    },
    R {
        spec: string(
            "UCI_Opponent",
            "",
            "who the opponent is, as GUIs send it (`GM 2700 human Name`, `none none computer Name`); xboard's `name`, `rating`, `computer` set the same. `auto` keeps a profile per name",
        ),
        apply: |s, v| {
            s.opponent = match v.text() {
                "" => None,
                t => Some(t.parse().map_err(|e| format!("option UCI_Opponent: {e}"))?),
            };
            Ok(Applied::NewOpponent)
        },
    },
    R {
        spec: OptionSpec {
            name: "OM_Mode",
            kind: OptionKind::Combo {
                default: "off",
                vars: &["off", "om", "prom", "auto"],
            },
            doc: "the root driver: `off` (α-β), `om` (OM search with the most probable type), `prom` (PrOM over all types), `auto` (a model fitted to the opponent's moves, used only with extra resources, else α-β)",
        },
        apply: |s, v| {
            s.om.mode = match v.text() {
                "om" => OmMode::Om,
                "prom" => OmMode::Prom,
                "auto" => OmMode::Auto,
                _ => OmMode::Off,
            };
            Ok(Applied::Stored)
        },
    },
    R {
        spec: spin(
            "OM_SpeculationDepth",
            2,
            0,
            20,
            "s: speculate in histories of at most s plies (Alg. 3.6; 0: α-β)",
        ),
        apply: |s, v| {
            s.om.spec_depth = v.int() as u32;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: string(
            "OM_OpponentTypes",
            "self:1",
            "the opponent types with probabilities and limits, e.g. `self:0.5,material:0.3:depth=4,nnue:0.2:file=old.nnue` (grammar below); a bad spec keeps the old model",
        ),
        apply: |s, v| {
            let model: OpponentModel = v
                .text()
                .parse()
                .map_err(|e| format!("option OM_OpponentTypes: {e}; model unchanged"))?;
            if model.types.len() > crate::search::om::MAX_TYPES {
                return Err(format!(
                    "option OM_OpponentTypes: at most {} types",
                    crate::search::om::MAX_TYPES
                ));
            }
            s.om.types = model;
            Ok(Applied::NewModel)
        },
    },
    R {
        spec: string(
            "OM_OpponentEngine",
            "",
            "the engine behind `engine` types: `[uci:|xboard:]COMMAND [| Name=Value;Name=Value]`, e.g. `xboard:/usr/games/phalanx` or `/usr/games/stockfish | Threads=1;Hash=16`",
        ),
        apply: |s, v| {
            engine_line(&mut s.om, v.text())?;
            Ok(Applied::NewEngine)
        },
    },
    R {
        spec: string(
            "OM_Profiles",
            "on",
            "`auto` keeps what it learned per opponent: `on` (in the user's data directory), `off`, or a directory",
        ),
        apply: |s, v| {
            profiles_line(&mut s.om, v.text())?;
            Ok(Applied::NewOpponent)
        },
    },
    R {
        spec: string(
            "OM_Learning",
            "off",
            "on-line learning of the type probabilities (§6.6.2): `off`, `fast [reward=5]` (percent), `bayes [ps=60] [gamma=20]` (formulas 6.17–6.19, percent)",
        ),
        apply: |s, v| {
            learning_line(&mut s.om, v.text())?;
            Ok(Applied::NewModel)
        },
    },
    R {
        spec: string(
            "OM_Search",
            OM_SEARCH_DEFAULT,
            "how OM searches, `key=value` (omitted keys take these defaults): `depth`/`nodes` the opponent's limits for types that name none (0: ours minus the ply / none); `tb` probes use tables; `replay` repeats the opponent's own search (exact for a deterministic opponent); `ties` equal-best probes (Alg. 3.5); `root` `none`, `tb-optimal` (§5.4.1) or `margin` (root moves within `margin` cp of α-β, also `auto`'s ceiling); `contempt` `auto`'s most contempt from the opponent's drift; `bound` bounded sums `auto`/`off`/B cp (Alg. 3.10); `policy` PrOM against a mixed strategy `search`/`engine`; `deterministic` the same move with any `Threads`; `odds` the least ratio of our time to the opponent's at which `OM_Mode=auto` speculates under a clock (`auto`: the value tuned in `params`)",
        ),
        apply: |s, v| {
            search_line(&mut s.om, v.text())?;
            Ok(Applied::Stored)
        },
    },
];

/// Tuning options: never announced, documented in `docs/options.md`.
static HIDDEN: &[R] = &[
    R {
        spec: string(
            "MultiCut",
            "off",
            "multi-cut pruning (Winands 2004 ch. 6): `off`, `cut` (MC-C: at expected CUT nodes), `all` (MC-C and MC-A: at expected ALL nodes too), `all-only` (MC-A alone, for measurements), then optionally `c=2 m=10 r=2` (C of the first M moves, searched R plies shallower, reaching β prune the node)",
        ),
        apply: |s, v| {
            s.multi_cut = crate::params::MultiCut::parse(v.text())?;
            Ok(Applied::Stored)
        },
    },
    R {
        spec: check(
            "NullMove",
            true,
            "null-move pruning; off only to measure other pruning without it (Winands 2004 Table 6.1: multi-cut with and without null move)",
        ),
        apply: |s, v| {
            s.null_move = v.on();
            Ok(Applied::Stored)
        },
    },
    R {
        spec: string(
            "SearchFeatures",
            "caphist histlmr improving singular tmflat quiethist lmrcheck",
            "the search refinements of issue 41, switched on for their SPRTs; the words name exactly the switches on: `none`, `kept` (those kept by their SPRTs, the default), `all`, or among `conthist caphist histlmr improving singular corrhist nodetime seequiet histprune probcut nullr tmflat staged quiethist corrqs tteval doubleext lmrcheck prunecheck nullguard histext`",
        ),
        apply: |s, v| {
            s.search_features = crate::params::SearchFeatures::parse(v.text())?;
            Ok(Applied::Stored)
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::Protocol;
    use crate::options::Value;
    use crate::search::om::settings::{BoundedSum, RootSafety};

    #[test]
    fn every_option_can_be_set_to_its_default_and_the_count_is_kept() {
        for spec in OPTIONS.specs() {
            let mut s = Settings::default();
            let v = match spec.default_value() {
                Some(Value::Int(i)) => i.to_string(),
                Some(Value::Bool(b)) => b.to_string(),
                Some(Value::Text(t)) => t,
                _ => String::new(),
            };
            s.set(spec.name, Some(&v))
                .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        }
        assert!(
            OPTIONS.specs().count() <= 25,
            "issue 39: at most 25 options"
        );
    }

    #[test]
    fn the_defaults_are_the_declared_ones() {
        let s = Settings::default();
        assert_eq!(
            (s.hash_mb, s.threads, s.elo, s.move_overhead_ms),
            (16, 1, 1500, 50)
        );
        assert!(s.exact_tables && s.syzygy_50_move_rule && !s.chess960);
        assert_eq!(s.om.mode, OmMode::Off);
        assert_eq!(s.om.spec_depth, 2);
        assert!(s.om.ties && s.om.opponent_tablebases && !s.om.replay && s.om.profiles);
        assert_eq!(s.om.root_safety, RootSafety::TbOptimal);
        assert_eq!(
            (s.om.root_margin, s.om.contempt_ceiling, s.om.bound),
            (50, 0, 0)
        );
        assert_eq!(s.om.bounded_sum, BoundedSum::Auto);
        assert_eq!(s.om.learning_params.percent(), [5, 60, 20]);
        assert_eq!(s.om.types, OpponentModel::default());
    }

    #[test]
    fn bad_values_keep_the_old_value() {
        let mut o = Settings::default();
        assert!(o.set("Hash", Some("abc")).is_err());
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("OM_Mode", Some("sometimes")).is_err());
        assert!(
            o.set("OM_OpponentTypes", Some("self:0.4,material:0.4"))
                .is_err()
        );
        assert!(o.set("Nope", Some("1")).is_err());
        assert_eq!(o.hash_mb, 16);
        assert_eq!(o.om.types, OpponentModel::default());
        assert!(o.set("OM_OpponentEngineOptions", Some("Threads")).is_err());
        assert!(o.set("OM_OpponentEngine", Some("\"unterminated")).is_err());
        assert!(o.set("OM_OpponentEngine", Some("sf | Threads")).is_err());
        assert_eq!(o.om.engine, None);
        assert!(o.set("OM_Search", Some("ties=off depth=x")).is_err());
        assert!(o.set("OM_Search", Some("ties=off colour=blue")).is_err());
        assert!(o.om.ties, "a refused line changes no key");
        assert!(o.set("OM_Learning", Some("fast gamma=3")).is_err());
        assert!(o.set("OM_Learning", Some("bayes ps=0")).is_err());
        assert!(o.set("UCI_Opponent", Some("XM 2800 human X")).is_err());
        assert_eq!(o.opponent, None);
        let (a, note) = o
            .set("UCI_Opponent", Some("GM 2800 human Gary Kasparov"))
            .unwrap();
        assert_eq!((a, note), (Applied::NewOpponent, None));
        assert_eq!(o.opponent.as_ref().map(|p| p.elo), Some(Some(2800)));
        assert_eq!(o.set("om_mode", Some("PROM")), Ok((Applied::Stored, None)));
        assert_eq!(o.om.mode, OmMode::Prom);
    }

    #[test]
    fn folded_options_read_their_grammar() {
        let mut o = Settings::default();
        o.set(
            "OM_OpponentEngine",
            Some("xboard:/usr/games/phalanx -l- | Hash=16; Threads=1"),
        )
        .unwrap();
        assert_eq!(o.om.engine_protocol, Protocol::Xboard);
        assert_eq!(o.om.engine.as_ref().map(|c| c.args.len()), Some(1));
        assert_eq!(o.om.engine_options.len(), 2);
        o.set("OM_OpponentEngine", Some("C:\\engines\\sf.exe"))
            .unwrap();
        assert_eq!(o.om.engine_protocol, Protocol::Uci);
        assert!(o.om.engine_options.is_empty());
        o.set(
            "OM_Search",
            Some("ties=off, root=margin margin=80 bound=25"),
        )
        .unwrap();
        assert!(!o.om.ties);
        assert_eq!(
            (o.om.root_safety, o.om.root_margin),
            (RootSafety::Margin, 80)
        );
        assert_eq!((o.om.bounded_sum, o.om.bound), (BoundedSum::On, 25));
        o.set("OM_Search", Some("replay=on")).unwrap();
        assert!(
            o.om.ties && o.om.replay,
            "omitted keys are back at their defaults"
        );
        assert_eq!(o.om.bounded_sum, BoundedSum::Auto);
        o.set("OM_Learning", Some("bayes gamma=50")).unwrap();
        assert_eq!(o.om.learning_params.percent(), [5, 60, 50]);
        o.set("OM_Profiles", Some("off")).unwrap();
        assert!(!o.om.profiles);
        o.set("OM_Profiles", Some("/tmp/p")).unwrap();
        assert!(o.om.profiles);
        assert_eq!(o.om.profile_dir, "/tmp/p");
    }

    #[test]
    fn old_names_still_work_with_a_note() {
        let mut o = Settings::default();
        let (_, note) = o.set("OM_Ties", Some("false")).unwrap();
        assert!(!o.om.ties);
        assert!(note.unwrap().contains("OM_Search's key ties="));
        o.set("OM_BoundedSum", Some("on")).unwrap();
        o.set("OM_Bound", Some("30")).unwrap();
        assert_eq!((o.om.bounded_sum, o.om.bound), (BoundedSum::On, 30));
        assert!(o.set("OM_Bound", Some("-5")).is_err());
        o.set("OM_LearningGamma", Some("40")).unwrap();
        assert_eq!(o.om.learning_params.percent(), [5, 60, 40]);
        o.set("OM_OpponentEngineProtocol", Some("xboard")).unwrap();
        assert_eq!(o.om.engine_protocol, Protocol::Xboard);
        o.set("OM_ProfileDir", Some("<empty>")).unwrap();
        assert_eq!(o.om.profile_dir, "");
    }

    #[test]
    fn tuning_options_are_accepted_but_never_announced() {
        assert!(OPTIONS.specs().all(|spec| spec.name != "MultiCut"));
        let mut o = Settings::default();
        o.set("multicut", Some("all c=2 m=6 r=3")).unwrap();
        assert!(o.multi_cut.at_all && o.multi_cut.m == 6);
        assert!(o.set("MultiCut", Some("sometimes")).is_err());
        assert!(o.multi_cut.at_all, "a refused value keeps the old one");
        assert!(OPTIONS.specs().all(|spec| spec.name != "NullMove"));
        assert!(o.null_move);
        o.set("NullMove", Some("false")).unwrap();
        assert!(!o.null_move);
        assert!(o.set("NullMove", Some("maybe")).is_err());
        assert!(OPTIONS.specs().all(|spec| spec.name != "SearchFeatures"));
        assert_eq!(o.search_features, crate::params::SearchFeatures::KEPT);
        o.set("SearchFeatures", Some("conthist singular")).unwrap();
        assert!(o.search_features.cont_history && o.search_features.singular);
        assert!(o.set("SearchFeatures", Some("everything")).is_err());
        assert!(
            o.search_features.singular,
            "a refused value keeps the old one"
        );
        assert_eq!(
            Settings::default().multi_cut,
            crate::params::MultiCut::default()
        );
    }

    #[test]
    fn the_documented_table_is_the_declared_one() {
        let doc = include_str!("../../docs/options.md");
        let table = OPTIONS.markdown();
        assert!(
            doc.contains(&table),
            "docs/options.md must contain the table `nosce options` prints:\n{table}"
        );
    }
}
