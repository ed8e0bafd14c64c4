//! The game threads of a run: one persistent thread per [`GameWorker`] takes the next game
//! number as soon as its last game is over, and the games come back to the caller in game
//! order.
//!
//! Until 2026-12 the run played batches of `--threads` games and joined them, so every
//! thread waited for the batch's longest game (a game lasts from a few plies to
//! `--max-plies`); `docs/training.md` gives the throughput measured before and after. Here the threads draw game numbers from a queue of *tickets*; the caller's
//! thread hands out a new ticket only when the games before it have been delivered, so at
//! most [`WINDOW_PER_THREAD`] × threads games are played or waiting at a time whatever a
//! game's length, and the games finished out of order wait in a reorder buffer. Every game
//! still depends only on its number and the settings ([`super::game`]), so the delivered
//! sequence — and the data file — is the same for any number of threads.
//!
//! A game that panics is caught on its thread and reported as an error for that game
//! number; then no more tickets are handed out, the games in progress finish, and the
//! caller gets the error after the games before it were delivered.

use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::game::{GameRecord, GameSettings, GameWorker};
use crate::position::Position;
use crate::tb::WdlProbe;

/// Games handed out per thread beyond the first one not yet delivered.
pub const WINDOW_PER_THREAD: u64 = 4;
/// Stack of a game thread (the search recurses; the default 2 MB is not always enough).
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// What the threads share: the settings, the openings and the tablebases.
pub struct Games<'a> {
    /// The settings every game depends on.
    pub settings: &'a GameSettings,
    /// The run's openings (empty: the start position).
    pub openings: &'a [Position],
    /// Syzygy tables for adjudication.
    pub tb: Option<&'a dyn WdlProbe>,
}

/// One finished game, or why it failed.
type Outcome = (u64, Result<GameRecord, String>);

/// A game thread: plays the tickets it takes until there are none.
fn game_thread(
    worker: &mut GameWorker,
    games: &Games<'_>,
    tickets: &Receiver<u64>,
    done: &Sender<Outcome>,
) {
    while let Ok(game) = tickets.recv() {
        let played = catch_unwind(AssertUnwindSafe(|| {
            worker.play(games.settings, games.openings, games.tb, game)
        }))
        .map_err(|_| format!("game {game} failed (a panic in its thread)"));
        let failed = played.is_err();
        if done.send((game, played)).is_err() || failed {
            return;
        }
    }
}

/// Plays the games of `range` on one thread per worker and calls `deliver` with each, in
/// game order. Returns how many games were delivered.
///
/// # Errors
/// A game thread that cannot be started, a game that panicked, or the first error
/// `deliver` returned; the games before it were delivered.
pub fn play_in_order(
    workers: &mut [GameWorker],
    games: &Games<'_>,
    range: Range<u64>,
    mut deliver: impl FnMut(GameRecord) -> Result<(), String>,
) -> Result<u64, String> {
    if range.is_empty() || workers.is_empty() {
        return Ok(0);
    }
    let (ticket_tx, ticket_rx) = unbounded::<u64>();
    let (done_tx, done_rx) = unbounded::<Outcome>();
    let window = WINDOW_PER_THREAD * workers.len() as u64;
    std::thread::scope(|s| {
        let mut started = 0usize;
        let mut error = None;
        for (k, worker) in workers.iter_mut().enumerate() {
            let (tickets, done) = (ticket_rx.clone(), done_tx.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{k}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(s, move || game_thread(worker, games, &tickets, &done));
            match spawned {
                Ok(_) => started += 1,
                Err(e) => {
                    error = Some(format!("cannot start a game thread: {e}"));
                    break;
                }
            }
        }
        drop(done_tx);
        let mut next_ticket = range.start;
        let mut next_out = range.start;
        if error.is_none() && started > 0 {
            let mut waiting: BTreeMap<u64, GameRecord> = BTreeMap::new();
            while next_ticket < range.end && next_ticket < range.start + window {
                let _ = ticket_tx.send(next_ticket);
                next_ticket += 1;
            }
            'play: while next_out < range.end {
                let Ok((game, played)) = done_rx.recv() else {
                    error = Some("every game thread stopped".to_string());
                    break;
                };
                match played {
                    Ok(record) => {
                        waiting.insert(game, record);
                    }
                    Err(e) => {
                        error = Some(e);
                        break;
                    }
                }
                while let Some(record) = waiting.remove(&next_out) {
                    if let Err(e) = deliver(record) {
                        error = Some(e);
                        break 'play;
                    }
                    next_out += 1;
                    if next_ticket < range.end {
                        let _ = ticket_tx.send(next_ticket);
                        next_ticket += 1;
                    }
                }
            }
        }
        // No more tickets: the threads finish their games and stop.
        drop(ticket_tx);
        while ticket_rx.try_recv().is_ok() {}
        match error {
            Some(e) => Err(e),
            None => Ok(next_out - range.start),
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::record::encode;
    use super::*;
    use crate::eval::FullEval;

    fn workers(n: usize) -> Vec<GameWorker> {
        (0..n)
            .map(|_| GameWorker::new(Arc::new(FullEval::default())).unwrap())
            .collect()
    }

    #[test]
    fn games_come_back_in_order_and_equal_one_thread() {
        let settings = GameSettings {
            seed: 5,
            nodes: 150,
            random_plies: 6,
            max_plies: 40,
        };
        let games = Games {
            settings: &settings,
            openings: &[],
            tb: None,
        };
        let played = |threads: usize| {
            let mut out = Vec::new();
            let n = play_in_order(&mut workers(threads), &games, 3..14, |g| {
                out.push((
                    g.game,
                    g.records.iter().flat_map(encode).collect::<Vec<u8>>(),
                ));
                Ok(())
            })
            .unwrap();
            assert_eq!(n, 11);
            out
        };
        let one = played(1);
        assert_eq!(
            one.iter().map(|(g, _)| *g).collect::<Vec<_>>(),
            (3..14).collect::<Vec<_>>()
        );
        assert_eq!(one, played(3));
    }

    #[test]
    fn a_delivery_error_stops_the_run_after_the_games_before_it() {
        let settings = GameSettings {
            seed: 1,
            nodes: 100,
            random_plies: 4,
            max_plies: 20,
        };
        let games = Games {
            settings: &settings,
            openings: &[],
            tb: None,
        };
        let mut seen = Vec::new();
        let r = play_in_order(&mut workers(2), &games, 0..30, |g| {
            if g.game == 4 {
                return Err("disk full".to_string());
            }
            seen.push(g.game);
            Ok(())
        });
        assert_eq!(r, Err("disk full".to_string()));
        assert_eq!(seen, vec![0, 1, 2, 3]);
        assert_eq!(
            play_in_order(&mut workers(2), &games, 5..5, |_| Ok(())),
            Ok(0)
        );
    }
}
