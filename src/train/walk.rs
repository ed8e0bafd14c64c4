//! `--walk D`: training positions a few random moves away from the data's, scored by the
//! hand-crafted evaluation — as many fresh positions as the trainer asks for, at the cost of
//! a move generation and an evaluation each.
//!
//! A net that is to imitate the hand-crafted evaluation (`--score hce --wdl 0`) needs far
//! more positions than self-play makes in hours: measured, a 256-unit imitation trained on
//! 400,000 game positions stayed 48 cp (root mean square) from the evaluation on held-out
//! positions and scored 31 % against it. Its labels cost nothing, only the positions do, so
//! each time a position is drawn this walks 0..=D uniformly random legal moves from it
//! (stopping at a position without moves) and scores what it reaches. Descendants of
//! random moves include hanging pieces and checks, which the search's quiescence and
//! static exchange checks also meet; the evaluation is all the target is, so nothing needs
//! to be quiet. A walk depends only on (seed, epoch, its place in the epoch), so a run stays
//! deterministic.

use shakmaty::Position as _;

use super::data::{Sample, sigmoid};
use crate::datagen::game::RECORD_LIMIT;
use crate::datagen::{GameResult, GameRng, RECORD_SIZE, decode};
use crate::eval::{Evaluator, FullEval};
use crate::nnue::SCALE;
use crate::nnue::features::perspectives;

/// Largest `--walk`.
pub const MAX_WALK: u32 = 16;

/// The generator of one draw: stream `epoch·2³² + place` of the run's seed.
pub fn draw_rng(seed: u64, epoch: u32, place: usize) -> GameRng {
    GameRng::new(
        seed,
        (u64::from(epoch) << 32) | (place as u64 & 0xffff_ffff),
    )
}

/// Scores random descendants with the hand-crafted evaluation.
#[derive(Default)]
pub struct Walker {
    eval: FullEval,
}

impl Walker {
    /// Fills `sample` with a descendant of `rec` at most `max_plies` random moves away,
    /// target `λ·result + (1 − λ)·sigmoid(eval/400)` (the game's result seen from the
    /// descendant's side to move); with `mirror`, its mirror image a↔h. Returns the number of
    /// moves walked. A record shakmaty refuses is taken as it is ([`Sample::fill`]).
    pub fn fill(
        &self,
        sample: &mut Sample,
        rec: &[u8; RECORD_SIZE],
        wdl: f32,
        max_plies: u32,
        mirror: bool,
        rng: &mut GameRng,
    ) -> u32 {
        let start = decode(rec)
            .ok()
            .and_then(|r| Some((r.turn, r.result, r.position()?)));
        let Some((turn, result, mut pos)) = start else {
            sample.fill(rec, wdl, mirror);
            return 0;
        };
        let plies = rng.below(max_plies as usize + 1) as u32;
        let mut walked = 0;
        while walked < plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
            walked += 1;
        }
        let score = self.eval.evaluate(&pos).clamp(-RECORD_LIMIT, RECORD_LIMIT);
        let result = if pos.turn() == turn {
            result
        } else {
            result.flip()
        };
        let result = match result {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        };
        let mut board = pos.board().clone();
        if mirror {
            board.flip_horizontal();
        }
        let (stm, other) = perspectives(&board, pos.turn());
        let n = stm.len().min(sample.stm.len());
        sample.stm[..n].copy_from_slice(&stm.as_slice()[..n]);
        sample.other[..n].copy_from_slice(&other.as_slice()[..n]);
        sample.len = n;
        sample.target = wdl * result + (1.0 - wdl) * sigmoid(score as f32 / SCALE as f32);
        walked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{Record, encode};
    use crate::position::Position;

    fn record(fen: &str) -> [u8; RECORD_SIZE] {
        let pos = Position::from_fen(fen).unwrap();
        encode(&Record {
            board: pos.chess().board().clone(),
            turn: pos.turn(),
            score: 77,
            result: GameResult::Win,
            fullmove: 1,
        })
    }

    #[test]
    fn walks_score_what_they_reach_with_the_evaluation() {
        let rec = record("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1");
        let walker = Walker::default();
        let mut lengths = [0u32; 4];
        for place in 0..400 {
            let mut s = Sample::default();
            let mut rng = draw_rng(3, 1, place);
            let walked = walker.fill(&mut s, &rec, 0.0, 3, false, &mut rng);
            lengths[walked as usize] += 1;
            // Replay the same draw to find the position and check features and target.
            let mut rng = draw_rng(3, 1, place);
            let r = decode(&rec).unwrap();
            let mut pos = r.position().unwrap();
            for _ in 0..rng.below(4) {
                let moves = pos.legal_moves();
                let m = moves[rng.below(moves.len())];
                pos.play_unchecked(m);
            }
            let (stm, other) = perspectives(pos.board(), pos.turn());
            assert_eq!(&s.stm[..s.len], stm.as_slice());
            assert_eq!(&s.other[..s.len], other.as_slice());
            let e = FullEval::default().evaluate(&pos) as f32;
            assert!((s.target - sigmoid(e / 400.0)).abs() < 1e-6);
            let turn = if walked % 2 == 0 { r.turn } else { !r.turn };
            assert_eq!(pos.turn(), turn);
        }
        // 0..=3 plies, about equally often.
        assert!(
            lengths.iter().all(|&n| (60..140).contains(&n)),
            "{lengths:?}"
        );
        // With the result in the target, it is seen from the mover of the descendant.
        let mut s = Sample::default();
        let mut rng = draw_rng(3, 1, 0);
        let walked = walker.fill(&mut s, &rec, 1.0, 3, false, &mut rng);
        let want = if walked % 2 == 0 { 1.0 } else { 0.0 };
        assert_eq!(s.target, want);
        // Draws are repeatable; another place draws another walk sooner or later.
        let fill = |place| {
            let mut s = Sample::default();
            walker.fill(&mut s, &rec, 0.0, 3, false, &mut draw_rng(3, 1, place));
            (s.stm, s.target.to_bits())
        };
        assert_eq!(fill(5), fill(5));
        assert!((6..40).any(|p| fill(p) != fill(5)));
    }
}
