//! One self-play game: a [`GameWorker`] (evaluator and transposition tables, reused game
//! after game) plays game *i* with nosce's plain α-β search and returns its training
//! records.
//!
//! The game: the transposition table and the ordering tables (killers, histories) are
//! cleared; the opening is drawn ([`super::opening`]); then, until the game ends
//! ([`super::adjudicate`]), the side to move searches with the run's evaluator (the
//! hand-crafted [`crate::eval::FullEval`], or the net of `--evalfile`), one thread and a node
//! limit, and plays the best move. Both tables are kept from one move to the next, as the
//! engine keeps them in play ([`crate::search::pool`]); that also spares a 2.4 MB table
//! cleared for every move (7 % of a run's instructions before). Node-limited single-thread
//! search from tables cleared at the game's start is deterministic, so game *i* depends only
//! on the seed, *i* and the settings — not on the thread that plays it or on the games played
//! before it.
//!
//! A position is recorded when it comes from the searched play (not the random plies), the
//! side to move is not in check, the best move is neither a capture nor a promotion, and
//! |score| < [`RECORD_LIMIT`] (no mate scores): the quiet positions a static evaluation
//! should score. Its result is filled in when the game ends.

use std::cell::Cell;
use std::sync::Arc;

use shakmaty::{Board, Color, Position as _};

use super::adjudicate::{self, Adjudicator, GameEnd, white_view};
use super::opening::{QUICK_NODES, random_opening, start_of};
use super::record::{GameResult, Record};
use crate::eval::{Evaluator, Score};
use crate::limits::Limits;
use crate::position::Position;
use crate::rng::GameRng;
use crate::search::pool::SearchPool;
use crate::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use crate::tb::WdlProbe;
use crate::tt::TranspositionTable;

/// Positions whose |score| reaches this are not recorded.
pub const RECORD_LIMIT: Score = 3000;
/// Size of a worker's game table (MB).
pub const TABLE_MB: usize = 16;
/// Size of a worker's table for the opening check (MB).
const QUICK_TABLE_MB: usize = 1;

/// The settings a game depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// Master seed.
    pub seed: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Random plies before the searched play.
    pub random_plies: u32,
    /// Plies after which the game is a draw.
    pub max_plies: u32,
}

/// What one game produced.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number.
    pub game: u64,
    /// Its training positions, in the order played, results filled in.
    pub records: Vec<Record>,
    /// The result, White's view.
    pub result: GameResult,
    /// How it ended.
    pub end: GameEnd,
    /// Plies played from the start position (random plies included).
    pub plies: u32,
    /// Nodes searched for it: the moves and the opening checks.
    pub nodes: u64,
}

/// A position waiting for its game's result.
struct Pending {
    board: Board,
    turn: Color,
    score: i16,
    fullmove: u16,
}

/// The evaluator and tables of one game thread.
pub struct GameWorker {
    eval: Arc<dyn Evaluator>,
    tt: TranspositionTable,
    quick_tt: TranspositionTable,
    config: SearchConfig,
    /// The game's ordering tables (killers, histories), kept from one move to the next as
    /// the engine keeps them in play, cleared at each new game. (Its one pool thread stays
    /// idle: a one-thread search runs on the game thread.)
    pool: SearchPool,
    /// Nodes searched in the game being played.
    nodes: Cell<u64>,
}

impl GameWorker {
    /// A worker with its own tables that plays with `eval` (the hand-crafted evaluation, or
    /// a network shared by all workers).
    ///
    /// # Errors
    /// When the tables or the pool's thread cannot be had.
    pub fn new(eval: Arc<dyn Evaluator>) -> Result<Self, String> {
        let tt = TranspositionTable::try_new(TABLE_MB)
            .ok_or_else(|| format!("cannot allocate a {TABLE_MB} MB transposition table"))?;
        let quick_tt = TranspositionTable::try_new(QUICK_TABLE_MB)
            .ok_or_else(|| format!("cannot allocate a {QUICK_TABLE_MB} MB transposition table"))?;
        Ok(GameWorker {
            eval,
            tt,
            quick_tt,
            config: SearchConfig::default(),
            pool: SearchPool::new(1)?,
            nodes: Cell::new(0),
        })
    }

    /// A node-limited search of `pos` on `tt`, with the game's ordering tables when `pool`
    /// is given (the game's moves) and fresh ones otherwise (the opening checks).
    fn search(
        &self,
        tt: &TranspositionTable,
        pool: Option<&SearchPool>,
        pos: &Position,
        nodes: u64,
    ) -> SearchResult {
        let control = SearchControl::default();
        let ctx = SearchContext {
            pool,
            ..SearchContext::silent(&*self.eval, tt, &control, &self.config)
        };
        let limits = Limits::nodes(nodes);
        let allowed = root_moves(pos, &limits);
        let found = search(&ctx, pos, &limits, &allowed);
        self.nodes.set(self.nodes.get() + found.nodes);
        found
    }

    /// The opening check's score of `pos` (side to move's view).
    fn quick_score(&self, pos: &Position) -> Score {
        self.quick_tt.clear();
        self.search(&self.quick_tt, None, pos, QUICK_NODES).score
    }

    /// Plays game `game` from `openings` (none: the start position), adjudicating with
    /// `tb` when given.
    pub fn play(
        &mut self,
        settings: &GameSettings,
        openings: &[Position],
        tb: Option<&dyn WdlProbe>,
        game: u64,
    ) -> GameRecord {
        self.tt.clear();
        self.pool.clear();
        self.nodes.set(0);
        let mut rng = GameRng::new(settings.seed, game);
        let start = start_of(openings, game);
        let (mut pos, mut ply) = random_opening(&start, settings.random_plies, &mut rng, |p| {
            self.quick_score(p)
        });
        let mut pending: Vec<Pending> = Vec::new();
        let mut adjudicator = Adjudicator::default();
        let (end, result) = loop {
            let turn = pos.turn();
            if let Some((end, r)) = adjudicate::rule_end(&pos) {
                break (end, white_view(r, turn));
            }
            if let Some(r) = tb.and_then(|tb| adjudicate::tablebase_end(&pos, tb)) {
                break (GameEnd::Tablebase, white_view(r, turn));
            }
            if ply >= settings.max_plies {
                break (GameEnd::MaxPlies, GameResult::Draw);
            }
            let found = self.search(&self.tt, Some(&self.pool), &pos, settings.nodes);
            let Some(best) = found.best else {
                // `rule_end` saw legal moves, so the search has a move; be safe anyway.
                break (GameEnd::Stalemate, GameResult::Draw);
            };
            let score = found.score;
            if !pos.chess().is_check()
                && !best.is_capture()
                && !best.is_promotion()
                && score.abs() < RECORD_LIMIT
            {
                pending.push(Pending {
                    board: pos.chess().board().clone(),
                    turn,
                    score: score as i16,
                    fullmove: pos.chess().fullmoves().get().min(u32::from(u16::MAX)) as u16,
                });
            }
            let white_score = if turn == Color::White { score } else { -score };
            let verdict = adjudicator.update(ply, white_score);
            pos.play(best);
            ply += 1;
            if let Some(v) = verdict {
                break v;
            }
        };
        let records = pending
            .into_iter()
            .map(|p| Record {
                board: p.board,
                turn: p.turn,
                score: p.score,
                result: white_view(result, p.turn),
                fullmove: p.fullmove,
            })
            .collect();
        GameRecord {
            game,
            records,
            result,
            end,
            plies: ply,
            nodes: self.nodes.get(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::encode;
    use super::*;

    fn settings() -> GameSettings {
        GameSettings {
            seed: 1,
            nodes: 200,
            random_plies: 4,
            max_plies: 30,
        }
    }

    fn bytes(g: &GameRecord) -> Vec<u8> {
        g.records.iter().flat_map(encode).collect()
    }

    #[test]
    fn a_game_is_the_same_whatever_was_played_before() {
        let mut w = GameWorker::new(Arc::new(crate::eval::FullEval::default())).unwrap();
        let a = w.play(&settings(), &[], None, 3);
        let _ = w.play(&settings(), &[], None, 7);
        let b = w.play(&settings(), &[], None, 3);
        let mut fresh = GameWorker::new(Arc::new(crate::eval::FullEval::default())).unwrap();
        let c = fresh.play(&settings(), &[], None, 3);
        assert_eq!(bytes(&a), bytes(&b));
        assert_eq!(bytes(&a), bytes(&c));
        assert_eq!(
            (a.result, a.end, a.plies, a.nodes),
            (c.result, c.end, c.plies, c.nodes)
        );
        assert!(a.nodes > 0);
        assert!(!a.records.is_empty());
        assert!(a.plies <= 30);
        // Records carry the result from their own side's view.
        for r in &a.records {
            assert_eq!(r.result, white_view(a.result, r.turn));
            assert!(i32::from(r.score).abs() < RECORD_LIMIT);
        }
    }

    #[test]
    fn a_mated_start_ends_at_once_and_scores_are_side_to_move() {
        let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        let mut w = GameWorker::new(Arc::new(crate::eval::FullEval::default())).unwrap();
        let s = GameSettings {
            random_plies: 0,
            ..settings()
        };
        let g = w.play(&s, std::slice::from_ref(&mated), None, 0);
        assert_eq!(
            (g.end, g.result, g.plies),
            (GameEnd::Checkmate, GameResult::Win, 0)
        );
        assert!(g.records.is_empty());
        // K+R v K: White's search scores its own positions high, Black's low.
        let krk = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let g = w.play(&s, std::slice::from_ref(&krk), None, 0);
        assert!(g.records.len() >= 4);
        for r in &g.records {
            match r.turn {
                Color::White => assert!(r.score > 200, "{r:?}"),
                Color::Black => assert!(r.score < -200, "{r:?}"),
            }
        }
    }
}
