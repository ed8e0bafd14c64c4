//! The engine's settings: the values of its options, validated once (by the rows of
//! [`super::option_table`], where every option and its default is declared), and what the
//! engine must do after one changed ([`Applied`]). The opponent-model part is the OM
//! module's own type ([`OmSettings`]); this module only holds it. `Settings::default()` and
//! [`Settings::set`] are written beside the table they read (`engine/option_table.rs`), so
//! that the table depends on this file and not the other way round.

use crate::opponent::EvalKind;
use crate::opponent_id::OpponentId;
use crate::search::om::OmMode;
use crate::search::om::settings::OmSettings;

/// What the engine must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// Nothing beyond storing the value.
    Stored,
    /// Resize the transposition tables.
    ResizeHash,
    /// Clear the transposition tables.
    ClearHash,
    /// (Re)load the Syzygy tables.
    LoadSyzygy,
    /// Load what `EvalFile` names: the embedded net, a net file, or the hand-crafted evaluation.
    LoadNet,
    /// The opponent model changed (reset learning).
    NewModel,
    /// The external opponent engine or its options changed (restart it on first use).
    NewEngine,
    /// Another opponent (or profile directory): the fit starts again from its profile.
    NewOpponent,
    /// `UCI_LimitStrength` or `UCI_Elo` changed (say what it means now).
    Strength,
}

/// Validated option values. `Settings::default()` is every option at its declared default.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Hash in MB (shared by our table and the opponent types' tables).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations reported.
    pub multipv: usize,
    /// Pondering allowed.
    pub ponder: bool,
    /// Milliseconds kept back for communication.
    pub move_overhead_ms: u64,
    /// Show WDL in info lines.
    pub show_wdl: bool,
    /// Analysis mode (`UCI_AnalyseMode`): the mate prover runs beside α-β.
    pub analyse_mode: bool,
    /// Chess960: FENs with its castling rights, castling written as the king taking its rook.
    pub chess960: bool,
    /// Play below full strength (`UCI_LimitStrength`, at `UCI_Elo`; [`crate::strength`]).
    pub limit_strength: bool,
    /// The rating to play at when `limit_strength` is on.
    pub elo: i64,
    /// The evaluation we play with (`EvalFile`): the embedded net's name (also an empty
    /// value), `hce`, or a net file ([`crate::nnue::embedded::EvalChoice`]).
    pub eval_file: String,
    /// Syzygy directories (platform path-list syntax).
    pub syzygy_path: String,
    /// Minimum remaining depth for table probes in the search.
    pub syzygy_probe_depth: i32,
    /// Most pieces probed (0: no probes in the search).
    pub syzygy_probe_limit: usize,
    /// Respect the 50-move rule in table results.
    pub syzygy_50_move_rule: bool,
    /// Multi-cut pruning (the tuning option `MultiCut`; Winands 2004 ch. 6).
    pub multi_cut: crate::params::MultiCut,
    /// Null-move pruning (the tuning option `NullMove`; on unless measuring without it).
    pub null_move: bool,
    /// The search refinements on trial (the tuning option `SearchFeatures`; issue 41).
    pub search_features: crate::params::SearchFeatures,
    /// Use our own exact DTM/DTC tables (up to four pieces, pawns on one side at most).
    pub exact_tables: bool,
    /// Who the opponent is (`UCI_Opponent`, xboard `name`/`rating`/`computer`).
    pub opponent: Option<OpponentId>,
    /// The opponent-model settings.
    pub om: OmSettings,
}

impl Settings {
    /// The blank the option table fills: zeros and empties, not the defaults.
    pub(super) fn blank() -> Self {
        Settings {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            move_overhead_ms: 0,
            show_wdl: false,
            analyse_mode: false,
            chess960: false,
            limit_strength: false,
            elo: 0,
            eval_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_probe_limit: 0,
            syzygy_50_move_rule: false,
            multi_cut: crate::params::MultiCut::default(),
            null_move: true,
            search_features: crate::params::SearchFeatures::default(),
            exact_tables: false,
            opponent: None,
            om: OmSettings::default(),
        }
    }
}

/// Whether an opponent type shares our own search's transposition table: only one that
/// searches exactly like us (our evaluation, the same tables, no replay). Every other
/// (evaluator, tables, replay) combination gets a table of its own of `Hash/2` MB.
pub fn shares_own_table(eval: EvalKind, tablebases: bool, replay: bool) -> bool {
    eval == EvalKind::Full && tablebases && !replay
}

impl Settings {
    /// How many opponent-type tables the engine holds for these settings (0 when the
    /// opponent model is off); used to split a memory budget.
    pub fn opponent_tables(&self) -> usize {
        if self.om.mode == OmMode::Off || self.om.spec_depth == 0 {
            return 0;
        }
        let mut keys = Vec::new();
        for t in &self.om.types.types {
            if t.eval == EvalKind::Engine {
                // An external engine keeps its own memory.
                continue;
            }
            let key = (
                t.eval,
                t.net.clone(),
                t.tablebases && self.om.opponent_tablebases,
                self.om.replay,
            );
            if !shares_own_table(key.0, key.2, key.3) && !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys.len()
    }
}
