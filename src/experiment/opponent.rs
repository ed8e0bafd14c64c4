//! The fallible K+Q side of the KQKR experiment (Donkers 2003 §5.4.2: CRAFTY without the
//! endgame database): either nosce without tables, searching with a fresh transposition
//! table before every move so that its choice is a function of the position (and the game's
//! history), or any UCI engine driven over pipes ([`crate::external`]) with `go depth N` /
//! `go nodes N` after a `ucinewgame` per move; with a node spread
//! ([`super::budget::NodeSpread`]) each move's `N` is drawn from the game seed and the ply.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::config::{NodeSpread, OpponentConfig, SideLimit};
use crate::eval::{Evaluator, FullEval, MaterialEval, Perturbed};
use crate::external::{EngineCommand, GoLimit, UciEngine};
use crate::opponent::EvalKind;
use crate::position::Position;
use crate::search::{SearchConfig, SearchContext, SearchControl, root_moves, search};
use crate::tt::TranspositionTable;

/// The K+Q side's answer.
#[derive(Clone, Debug)]
pub struct OppMove {
    /// The move.
    pub mv: Move,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The node budget drawn for this move (a UCI side with a node spread).
    pub budget: Option<u64>,
}

/// A player of the K+Q side.
pub trait Opponent: Send {
    /// Starts a game whose perturbation seed is `seed`.
    fn new_game(&mut self, seed: u64) -> Result<(), String>;
    /// Chooses a move in `pos`, reached from `start_fen` by `moves`.
    fn choose(
        &mut self,
        pos: &Position,
        start_fen: &str,
        moves: &[Move],
    ) -> Result<OppMove, String>;
}

/// An evaluator of `kind`, perturbed with `seed` and `amplitude` when a seed is given.
/// [`EvalKind::Engine`] has no evaluator of ours (its probes ask the engine); it gets the
/// full evaluation here, which its probes never use. The sweep has no network: `self` and
/// `hce` are both the hand-crafted evaluation (and `nnue` types are refused when the model
/// is parsed).
pub fn evaluator(kind: EvalKind, seed: Option<u64>, amplitude: i32) -> Arc<dyn Evaluator> {
    match (kind, seed) {
        (EvalKind::Full | EvalKind::Hce | EvalKind::Nnue | EvalKind::Engine, Some(s))
            if amplitude > 0 =>
        {
            Arc::new(Perturbed::new(FullEval::default(), s, amplitude))
        }
        (EvalKind::Material, Some(s)) if amplitude > 0 => {
            Arc::new(Perturbed::new(MaterialEval, s, amplitude))
        }
        (EvalKind::Full | EvalKind::Hce | EvalKind::Nnue | EvalKind::Engine, _) => {
            Arc::new(FullEval::default())
        }
        (EvalKind::Material, _) => Arc::new(MaterialEval),
    }
}

/// Builds the configured opponent.
pub fn make_opponent(cfg: &OpponentConfig) -> Result<Box<dyn Opponent>, String> {
    Ok(match cfg {
        OpponentConfig::Builtin {
            eval,
            limit,
            amplitude,
            hash_mb,
        } => Box::new(BuiltinOpponent::new(*eval, *limit, *amplitude, *hash_mb)?),
        OpponentConfig::Uci {
            path,
            options,
            limit,
            ..
        } => Box::new(UciOpponent::start(
            path,
            options,
            *limit,
            cfg.node_spread(),
        )?),
    })
}

/// nosce without tables (see the module docs).
pub struct BuiltinOpponent {
    kind: EvalKind,
    limit: SideLimit,
    amplitude: i32,
    tt: TranspositionTable,
    eval: Arc<dyn Evaluator>,
}

impl BuiltinOpponent {
    /// An opponent with evaluator `kind`, `limit` per move, perturbation `amplitude` cp and
    /// a table of `hash_mb` MiB.
    ///
    /// # Errors
    /// The table cannot be allocated.
    pub fn new(
        kind: EvalKind,
        limit: SideLimit,
        amplitude: i32,
        hash_mb: usize,
    ) -> Result<Self, String> {
        let tt = TranspositionTable::try_new(hash_mb).ok_or_else(|| {
            format!("cannot allocate {hash_mb} MB for the K+Q side's table (--opp-hash)")
        })?;
        Ok(BuiltinOpponent {
            kind,
            limit,
            amplitude,
            tt,
            eval: evaluator(kind, None, 0),
        })
    }
}

impl Opponent for BuiltinOpponent {
    fn new_game(&mut self, seed: u64) -> Result<(), String> {
        self.eval = evaluator(self.kind, Some(seed), self.amplitude);
        Ok(())
    }

    fn choose(&mut self, pos: &Position, _: &str, _: &[Move]) -> Result<OppMove, String> {
        // Exactly what a replay probe does (search::om): fresh table, default settings.
        let start = Instant::now();
        self.tt.clear();
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext::silent(&*self.eval, &self.tt, &control, &config);
        let limits = self.limit.limits();
        let allowed = root_moves(pos, &limits);
        let r = search(&ctx, pos, &limits, &allowed);
        let mv = r.best.ok_or("the K+Q side has no legal move")?;
        Ok(OppMove {
            mv,
            depth: r.depth,
            nodes: r.nodes,
            time: start.elapsed(),
            budget: None,
        })
    }
}

/// How long a UCI engine may take to answer a handshake or a search.
const UCI_TIMEOUT: Duration = Duration::from_secs(300);

/// A UCI engine over pipes ([`UciEngine`]), `ucinewgame` before every move.
pub struct UciOpponent {
    engine: UciEngine,
    limit: GoLimit,
    /// Per-move node draws: the spread and its centre.
    spread: Option<(NodeSpread, u64)>,
    /// The game's seed (for the draws).
    seed: u64,
    /// Never set: a sweep move is only bounded by [`UCI_TIMEOUT`].
    stop: AtomicBool,
}

impl UciOpponent {
    /// Starts `path`, completes the handshake and sets `options`. With `spread` (a spread
    /// and its centre) every move's node budget is drawn instead of `limit`.
    pub fn start(
        path: &Path,
        options: &[(String, String)],
        limit: SideLimit,
        spread: Option<(NodeSpread, u64)>,
    ) -> Result<Self, String> {
        let cmd = EngineCommand::program(path.display().to_string());
        let engine = UciEngine::start(&cmd, options, UCI_TIMEOUT).map_err(|e| e.to_string())?;
        let limit = match limit {
            SideLimit::Depth(d) => GoLimit::Depth(d),
            SideLimit::Nodes(n) => GoLimit::Nodes(n),
        };
        Ok(UciOpponent {
            engine,
            limit,
            spread,
            seed: 0,
            stop: AtomicBool::new(false),
        })
    }
}

impl Opponent for UciOpponent {
    fn new_game(&mut self, seed: u64) -> Result<(), String> {
        self.seed = seed;
        Ok(())
    }

    /// The engine sees the game line of `pos` (which the game runner builds from
    /// `start_fen` and `moves`); the move's ply, for the budget draw, is `moves.len() + 1`.
    fn choose(&mut self, pos: &Position, _: &str, moves: &[Move]) -> Result<OppMove, String> {
        let start = Instant::now();
        let budget = self
            .spread
            .map(|(s, centre)| s.draw(centre, self.seed, moves.len() + 1));
        let limit = budget.map_or(self.limit, GoLimit::Nodes);
        self.engine
            .new_game(UCI_TIMEOUT)
            .map_err(|e| e.to_string())?;
        let a = self
            .engine
            .best_move(pos, limit, Instant::now() + UCI_TIMEOUT, &self.stop)
            .map_err(|e| e.to_string())?;
        Ok(OppMove {
            mv: a.mv,
            depth: a.depth,
            nodes: a.nodes,
            time: start.elapsed(),
            budget,
        })
    }
}
