//! The WinBoard/xboard front-end: the Chess Engine Communication Protocol, version 2
//! (Tim Mann & H. G. Muller, "Chess Engine Communication Protocol", xboard 4.2.1 and later;
//! section numbers below refer to it). Parsing lives in [`command`], the time control in
//! [`clock`], formatting and the search's [`Reporter`](crate::report::Reporter) in
//! [`output`], the session's state machine in `session`; this file is the input loop. Like
//! [`crate::uci`] it makes no search decisions: it turns the GUI's commands into
//! [`Limits`](crate::limits::Limits) and [`Engine`] calls, and the engine's answers into
//! `move` lines.
//!
//! # Threads and state
//!
//! A reader thread turns standard input into lines on a channel. The input loop owns all
//! session state (game, side, clocks, the running search) and waits on two channels: input
//! lines, and [`SearchDone`] answers that each search's reporter sends from the search thread.
//! Searches are numbered; an answer whose number is not the running search's is dropped,
//! so a search abandoned by `force`, `new`, `undo`... never produces a `move`. Only a
//! *thinking* search (the engine on move) turns its answer into `move X`; analysis and ponder
//! searches end only when stopped, and their answers are dropped.
//!
//! # Ordering (§8 `ping`)
//!
//! `pong N` must follow everything received before `ping N`. While the engine thinks, a
//! `ping` (and `memory`, `cores`, `egtpath`, `option`, which need an idle engine) waits, with
//! every later line, until the `move` is out; `?` and `quit` are still handled at once. In
//! analyze mode and while pondering, `ping` is answered at once (§8: "pondering does not
//! count").
//!
//! # Pondering (`hard`)
//!
//! After its move the engine starts a ponder search ([`Limits::ponder`](crate::limits::Limits::ponder)) on the position
//! after the expected reply. If the opponent plays it, `ponderhit` turns it into a normal
//! timed search; otherwise it is stopped (its answer dropped) and a new search starts.
//! `playother` does not ponder: there is no expected move yet.
//!
//! # Memory (`memory N`)
//!
//! `N` MB cover every table: our transposition table gets `Hash` MB and each opponent type
//! that searches differently from us (another evaluator, or no tables) gets a table of
//! `Hash/2` MB (see `Engine::model_setup`). With `k` such tables, `Hash = 2N / (2 + k)`;
//! `k` is recomputed, and `Hash` set again, whenever an `OM_*` option changes.
//!
//! # Features
//!
//! `sigint=0`: SIGINT's default action would end the process. `sigterm` keeps its default
//! (1): `quit` is answered at once, and SIGTERM's default action is harmless to us, while a
//! client such as python-chess warns about `sigterm=0`. `draw=0`: draw offers are declined
//! by not answering, so they need not be sent. `nps=0`: node-rate time is not supported.
//! `colors=0`, `usermove=1`, `playother=1`, `setboard=1`, `ping=1` as recommended.
//!
//! # Options
//!
//! Every engine option is offered as a `feature option=...`, except those the protocol
//! covers with commands of its own: `Hash` (`memory`), `Threads` (`cores`), `SyzygyPath`
//! (`egtpath syzygy`), `Ponder` (`hard`/`easy`), `UCI_AnalyseMode` (`analyze`, which runs the
//! mate prover beside α-β as that option does) and
//! `UCI_ShowWDL` (no WDL in thinking output). `option NAME=VALUE` still sets any of them.

pub mod clock;
pub mod command;
pub mod notation;
pub mod output;
pub mod result;
mod session;

pub use result::game_result;

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;

use crossbeam_channel::{select, unbounded};

pub use clock::Clock;
pub use command::{Command, Level, ParseError};
pub use output::{Output, SearchDone, XboardReporter, feature_lines};
use session::{Flow, Session};

use crate::engine::Engine;
use crate::engine::settings::Settings;

/// The `Hash` value (MB) that keeps every table within `total` MB (see the module docs).
pub fn hash_for_memory(total: usize, o: &Settings) -> usize {
    let k = o.opponent_tables();
    (total.saturating_mul(2) / (2 + k)).clamp(1, 65_536)
}

/// True for lines handled at once even while earlier lines wait for the engine's move.
fn is_urgent(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("?" | "quit"))
}

/// Runs a CECP session on `input` until `quit` or end of input. `first` is a line already
/// read (the one that chose the protocol, `xboard` or `protover 2`).
pub fn run<R: BufRead + Send + 'static>(engine: &mut Engine, first: Option<String>, mut input: R) {
    let out = Arc::new(Output::new(Box::new(std::io::stdout())));
    let (line_tx, lines) = unbounded::<String>();
    let reader = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf).into_owned();
                        if line_tx.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    if let Err(e) = reader {
        out.line(&format!("# error: cannot start the input thread: {e}"));
        return;
    }
    let (done_tx, answers) = unbounded::<SearchDone>();
    let mut s = Session::new(engine, Arc::clone(&out), done_tx);
    let mut backlog: VecDeque<String> = first.into_iter().collect();
    'session: loop {
        while let Some(front) = backlog.front() {
            if s.must_wait(front) {
                break;
            }
            let line = backlog.pop_front().unwrap_or_default();
            if s.handle(&line) == Flow::Quit {
                break 'session;
            }
        }
        select! {
            recv(answers) -> done => {
                if let Ok(done) = done {
                    s.on_done(done);
                }
            }
            recv(lines) -> line => match line {
                Ok(line) if !backlog.is_empty() && is_urgent(&line) => {
                    if s.handle(&line) == Flow::Quit {
                        break 'session;
                    }
                }
                Ok(line) => backlog.push_back(line),
                Err(_) => break 'session, // end of input means quit
            },
        }
    }
    s.halt();
    s.engine.stop();
    s.engine.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_split_counts_opponent_tables() {
        let mut o = Settings::default();
        assert_eq!(hash_for_memory(64, &o), 64);
        o.set("OM_Mode", Some("prom")).unwrap();
        assert_eq!(hash_for_memory(64, &o), 64); // the default type shares our table
        o.set("OM_OpponentTypes", Some("self:0.5,material:0.5"))
            .unwrap();
        assert_eq!(hash_for_memory(60, &o), 40); // 40 + 40/2
        o.set("OM_OpponentTypes", Some("self:0.3,material:0.3,notb:0.4"))
            .unwrap();
        assert_eq!(hash_for_memory(64, &o), 32); // 32 + 2 * 16
    }
}
