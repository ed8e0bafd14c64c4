//! How well a static evaluation predicts the training target of `nosce train` on a data
//! file's held-out tail: the hand-crafted evaluation against a network, on the very
//! positions and the very loss the trainer reports as `val` (issue 17; the target is
//! `λ·result + (1 − λ)·sigmoid(score/400)`, docs/training.md). A net whose loss is not
//! below the hand-crafted evaluation's has not yet learnt more than the evaluation it was
//! trained from — a cheap check before a match.
//!
//! ```sh
//! cargo run --release --example eval_loss -- DATA [NET] [WDL] [VAL]
//! ```
//! (defaults: no net, λ = 0.3, the last 2 % of the file as `nosce train`'s `--val 0.02`).
//! Also prints how far the net's scores are from the hand-crafted evaluation's (mean and
//! root mean square of the difference, centipawns), the loss of a constant 0.5, of the search's own score (the best a static
//! evaluation could do on the score part), and of the hand-crafted evaluation rescaled by
//! the factor that fits this data best: with `λ > 0` part of a net's lead over the
//! hand-crafted evaluation is only calibration (how centipawns map to results), which
//! does not change which move a search picks.

use std::path::Path;
use std::process::ExitCode;

use nosce::datagen::{GameResult, RECORD_SIZE, decode};
use nosce::eval::{Evaluator, FullEval};
use nosce::nnue::Network;

/// Centipawns per unit of the trainer's sigmoid.
const SCALE: f32 = 400.0;

fn sigmoid(cp: f32) -> f32 {
    1.0 / (1.0 + (-cp / SCALE).exp())
}

fn number(arg: Option<&String>, default: f32, name: &str) -> Result<f32, String> {
    arg.map_or(Ok(default), |a| {
        a.parse::<f32>()
            .ok()
            .filter(|v| (0.0..=1.0).contains(v))
            .ok_or_else(|| format!("{name} must be a number from 0 to 1, not '{a}'"))
    })
}

fn run(args: &[String]) -> Result<(), String> {
    let data = args
        .first()
        .ok_or("usage: eval_loss DATA [NET|-] [WDL] [VAL]")?;
    let net = match args.get(1).map(String::as_str) {
        None | Some("-") => None,
        Some(path) => Some(Network::load(Path::new(path))?),
    };
    let wdl = number(args.get(2), 0.3, "WDL")?;
    let val = number(args.get(3), 0.02, "VAL")?;
    let bytes = std::fs::read(data).map_err(|e| format!("cannot read '{data}': {e}"))?;
    let n = bytes.len() / RECORD_SIZE;
    let held = ((n as f64 * f64::from(val)).round() as usize).clamp(1, n.max(1));
    let hce = FullEval::default();
    let (mut l_hce, mut l_net, mut l_half, mut l_score, mut count) = (0f64, 0f64, 0f64, 0f64, 0);
    let mut pairs: Vec<(f32, f32)> = Vec::new();
    let (mut diff2, mut diff_abs) = (0f64, 0f64);
    let (mut near2, mut near_n) = (0f64, 0u32);
    for chunk in bytes.chunks_exact(RECORD_SIZE).skip(n - held.min(n)) {
        let rec = decode(chunk.try_into().map_err(|_| "short record")?)?;
        let result = match rec.result {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        };
        let target = wdl * result + (1.0 - wdl) * sigmoid(f32::from(rec.score));
        let Some(pos) = rec.position() else {
            continue;
        };
        let sq = |p: f32| f64::from((p - target) * (p - target));
        let e = hce.evaluate(&pos) as f32;
        pairs.push((e, target));
        l_hce += sq(sigmoid(e));
        if let Some(net) = &net {
            let v = net.evaluate_board(&rec.board, rec.turn) as f32;
            l_net += sq(sigmoid(v));
            let d = f64::from(v - e);
            diff2 += d * d;
            diff_abs += d.abs();
            if e.abs() <= 200.0 {
                near2 += d * d;
                near_n += 1;
            }
        }
        l_half += sq(0.5);
        l_score += sq(sigmoid(f32::from(rec.score)));
        count += 1;
    }
    if count == 0 {
        return Err(format!("'{data}' has no positions to score"));
    }
    let c = f64::from(count);
    println!("{count} held-out positions of '{data}', wdl {wdl}");
    println!("constant 0.5        {:.6}", l_half / c);
    println!("search score        {:.6}", l_score / c);
    println!("hand-crafted eval   {:.6}", l_hce / c);
    let scaled = |k: f32| {
        let total: f64 = pairs
            .iter()
            .map(|&(e, t)| f64::from((sigmoid(k * e) - t) * (sigmoid(k * e) - t)))
            .sum();
        total / c
    };
    let best = (10..=300)
        .map(|i| i as f32 / 100.0)
        .min_by(|&a, &b| scaled(a).total_cmp(&scaled(b)))
        .unwrap_or(1.0);
    println!("hand-crafted x {best:.2}  {:.6}", scaled(best));
    if let Some(net) = &net {
        println!("net {}  {:.6}", net.id(), l_net / c);
        println!(
            "net - hand-crafted: mean |difference| {:.1} cp, root mean square {:.1} cp",
            diff_abs / c,
            (diff2 / c).sqrt()
        );
        println!(
            "  where the hand-crafted evaluation is within ±200 cp ({near_n} positions): root \
             mean square {:.1} cp",
            (near2 / f64::from(near_n.max(1))).sqrt()
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eval_loss: {e}");
            ExitCode::from(2)
        }
    }
}
