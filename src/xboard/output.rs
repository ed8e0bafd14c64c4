//! What the CECP front-end writes: the `feature` negotiation (§9 "feature"), thinking output
//! (§10: `ply score time nodes pv`, time in centiseconds, mate as ±(100000 + N) moves) and
//! the [`XboardReporter`] through which a search reports.
//!
//! The reporter runs on the search thread. It prints thinking lines itself, but it never
//! prints `move`: it sends the search's answer over a channel to the input loop, which owns
//! the game and decides whether the answer becomes a move (a thinking search) or is dropped
//! (analysis, a stopped ponder search, a search abandoned by `force`).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::Sender;
use parking_lot::Mutex;
use shakmaty::Move;

use super::notation::format_move;
use crate::engine::option_table::OPTIONS;
use crate::options::{OptionKind, OptionSpec};
use crate::report::{Reporter, ScoreBound, SearchInfo};
use crate::score::{is_mate, mate_moves};

/// Standard output shared by the input loop and the search thread: one locked, flushed
/// write per line, so lines never interleave.
pub struct Output {
    out: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    /// Output to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        Output {
            out: Mutex::new(out),
        }
    }

    /// Writes one line and flushes.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// A score in CECP units: centipawns, or ±(100000 + N) for a mate in N moves.
pub fn cecp_score(score: i32) -> i64 {
    if is_mate(score) {
        let n = i64::from(mate_moves(score));
        if score > 0 { 100_000 + n } else { -100_000 + n }
    } else {
        i64::from(score)
    }
}

/// A thinking-output line: `ply score time nodes pv`, with the moves of `prefix` (the move
/// a ponder search assumes) in front of the PV. A bound gets `!` (fail high) or `?` (fail
/// low) as the last character of the PV field, as a token of its own.
pub fn thinking_line(info: &SearchInfo, prefix: Option<Move>, chess960: bool) -> String {
    let mut pv: Vec<String> = prefix
        .into_iter()
        .map(|m| format_move(m, chess960))
        .collect();
    pv.extend(info.pv.iter().map(|&m| format_move(m, chess960)));
    match info.bound {
        ScoreBound::Exact => {}
        ScoreBound::Lower => pv.push("!".into()),
        ScoreBound::Upper => pv.push("?".into()),
    }
    format!(
        "{} {} {} {} {}",
        info.depth,
        cecp_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// Options not offered as `feature option` because a protocol command covers them.
const COVERED_BY_COMMANDS: [&str; 7] = [
    "Hash",
    "Threads",
    "SyzygyPath",
    "Ponder",
    "UCI_AnalyseMode",
    "UCI_ShowWDL",
    "UCI_Chess960",
];

/// The `feature` lines answering `protover`, `done=1` last.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=0 sigint=0 sigterm=1 \
         reuse=1 analyze=1 colors=0 nps=0 debug=1 memory=1 smp=1 egt=\"syzygy\" \
         variants=\"normal,fischerandom\" myname=\"{}\"",
        crate::NAME_VERSION
    )];
    lines.extend(
        OPTIONS
            .specs()
            .filter(|s| !COVERED_BY_COMMANDS.contains(&s.name))
            .map(option_feature),
    );
    lines.push("feature done=1".into());
    lines
}

/// The `option` feature for an engine option (§9 "option"), e.g.
/// `feature option="OM_Mode -combo *off /// om /// prom /// auto"`.
pub fn option_feature(spec: &OptionSpec) -> String {
    let body = match &spec.kind {
        OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        OptionKind::Check { default } => format!("-check {}", u8::from(*default)),
        OptionKind::Combo { default, vars } => {
            let choices: Vec<String> = vars
                .iter()
                .map(|v| {
                    if v == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("-combo {}", choices.join(" /// "))
        }
        // The net file gets xboard's browse button (SyzygyPath is `egtpath`, not an option).
        OptionKind::Str { default } => match spec.name {
            "EvalFile" => format!("-file {default}"),
            _ => format!("-string {default}"),
        },
        OptionKind::Button => "-button".to_string(),
    };
    format!("feature option=\"{} {body}\"", spec.name)
}

/// The search's final answer, sent from the search thread to the input loop.
#[derive(Clone, Copy, Debug)]
pub struct SearchDone {
    /// Which search (the session numbers them; answers of old searches are dropped).
    pub id: u64,
    /// The move found (`None` without legal moves).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
}

/// The [`Reporter`] of one CECP search.
pub struct XboardReporter {
    out: Arc<Output>,
    post: Arc<AtomicBool>,
    id: u64,
    prefix: Option<Move>,
    chess960: bool,
    done: Sender<SearchDone>,
}

impl XboardReporter {
    /// A reporter for search `id`: thinking output to `out` while `post` is set (with
    /// `prefix` in front of every PV, moves in Chess960 form if `chess960`), the answer to
    /// `done`.
    pub fn new(
        out: Arc<Output>,
        post: Arc<AtomicBool>,
        id: u64,
        prefix: Option<Move>,
        chess960: bool,
        done: Sender<SearchDone>,
    ) -> Self {
        XboardReporter {
            out,
            post,
            id,
            prefix,
            chess960,
            done,
        }
    }
}

impl Reporter for XboardReporter {
    fn info(&self, info: &SearchInfo) {
        // MultiPV lines other than the best would read as a changed PV; xboard shows one.
        if info.multipv <= 1 && self.post.load(Ordering::Relaxed) {
            self.out
                .line(&thinking_line(info, self.prefix, self.chess960));
        }
    }

    fn message(&self, text: &str) {
        // `#` lines are debug output the GUI ignores (feature debug=1).
        self.out.line(&format!("# {text}"));
    }

    fn bestmove(&self, best: Option<Move>, ponder: Option<Move>) {
        // The input loop may be gone (quit): nothing is waiting for the answer then.
        let _ = self.done.send(SearchDone {
            id: self.id,
            best,
            ponder,
        });
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::score::{mate_in, mated_in};

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(cecp_score(mate_in(1)), 100_001);
        assert_eq!(cecp_score(mate_in(3)), 100_002);
        assert_eq!(cecp_score(mated_in(2)), -100_001);
        assert_eq!(cecp_score(-35), -35);
    }

    #[test]
    fn thinking_line_format() {
        let info = SearchInfo {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: 31,
            bound: ScoreBound::Upper,
            nodes: 12345,
            nps: 0,
            time: Duration::from_millis(1234),
            hashfull: 0,
            tbhits: 0,
            pv: Vec::new(),
            wdl: [0, 1000, 0],
        };
        assert_eq!(thinking_line(&info, None, false), "7 31 123 12345 ?");
    }

    #[test]
    fn features_end_with_done_and_skip_covered_options() {
        let f = feature_lines();
        assert_eq!(f.last().map(String::as_str), Some("feature done=1"));
        assert!(f[0].contains("myname=\"nosce "));
        assert!(f.iter().any(|l| l.contains("option=\"OM_Mode -combo")));
        assert!(!f.iter().any(|l| l.contains("option=\"Hash ")));
    }

    #[test]
    fn option_features() {
        let f: Vec<String> = OPTIONS.specs().map(option_feature).collect();
        assert!(
            f.contains(&"feature option=\"OM_Mode -combo *off /// om /// prom /// auto\"".into())
        );
        assert!(f.contains(&"feature option=\"Move Overhead -spin 50 0 5000\"".into()));
        assert!(f.contains(&"feature option=\"Clear Hash -button\"".into()));
        assert!(f.contains(&"feature option=\"OM_Profiles -string on\"".into()));
        assert!(f.contains(&"feature option=\"OM_OpponentTypes -string self:1\"".into()));
    }
}
