//! A protocol stress driver: random interleavings of valid and invalid commands against the
//! real binary, as a careless or hostile GUI would send them, with the invariants a GUI
//! relies on checked on every line:
//!
//! - UCI: every `go` is answered by exactly one `bestmove`, whose move (and ponder move) is
//!   legal in the position the GUI set before that `go` (`0000` only where there is no legal
//!   move); every `info … pv` line's moves are a legal line from that position and come
//!   while a search is running; every `isready` gets one `readyok`.
//! - xboard: every `move` the engine plays is legal in the game the GUI holds; every `ping N`
//!   gets `pong N`, in order.
//! - Both: the process never panics (stderr) and ends cleanly on `quit`.
//!
//! Inputs include bad FENs, illegal moves, unknown commands and options, out-of-range and
//! huge numbers, truncated lines, invalid UTF-8 and very long lines. Each test runs for
//! `NOSCE_STRESS_SECS` seconds (default 50) from seed `NOSCE_STRESS_SEED` (default: the
//! clock, printed), and prints how many inputs it tried.

use crate::common;
use crate::seeded;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use common::{Engine, QUICK};
use seeded::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn run_length() -> Duration {
    seeded::run_length("NOSCE_STRESS_SECS", 50)
}

fn seed() -> u64 {
    seeded::seed("NOSCE_STRESS_SEED")
}

/// A line of fewer than `most` random legal moves from `pos` (shorter if the game ends),
/// and the position it reaches.
fn random_line(rng: &mut Rng, pos: &Chess, most: u64) -> (Vec<String>, Chess) {
    let plies = rng.below(most);
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        moves.push(UciMove::from_standard(m).to_string());
        p.play_unchecked(m);
    }
    (moves, p)
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The position `fen` describes, if the GUI (shakmaty) accepts it.
fn parse_fen(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}

/// Plays UCI `moves` from `pos`, if all are legal.
fn play_line(pos: &Chess, moves: &[&str]) -> Option<Chess> {
    let mut p = pos.clone();
    for m in moves {
        let mv = m.parse::<UciMove>().ok()?.to_move(&p).ok()?;
        p.play_unchecked(mv);
    }
    Some(p)
}

/// The position a GUI's `position … moves` list reaches, where `0000` is a null move
/// (nosce accepts one when not in check, as some GUIs send it).
fn play_gui_line(pos: &Chess, moves: &[&str]) -> Option<Chess> {
    let mut p = pos.clone();
    for &m in moves {
        p = if m == "0000" {
            if p.is_check() {
                return None;
            }
            p.swap_turn().ok()?
        } else {
            play_line(&p, &[m])?
        };
    }
    Some(p)
}

/// `fen` damaged at random: a character dropped, replaced or inserted, a field cut off.
fn damage(rng: &mut Rng, fen: &str) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    match rng.below(4) {
        0 if !chars.is_empty() => {
            chars.remove(rng.below(chars.len() as u64) as usize);
        }
        1 if !chars.is_empty() => {
            let i = rng.below(chars.len() as u64) as usize;
            chars[i] = rng.pick(&['x', '9', 'K', 'q', '/', ' ', '-', 'P', '0']);
        }
        2 => {
            let i = rng.below(chars.len() as u64 + 1) as usize;
            chars.insert(i, rng.pick(&['k', '8', 'p', '/', 'w', 'b']));
        }
        _ => {
            let fields: Vec<&str> = fen.split(' ').collect();
            let keep = rng.below(fields.len() as u64) as usize;
            return fields[..keep].join(" ");
        }
    }
    chars.into_iter().collect()
}

/// Junk that is not a command: random printable text, invalid UTF-8, control characters,
/// a very long line, or a line cut off without its end.
fn junk(rng: &mut Rng) -> Vec<u8> {
    match rng.below(5) {
        0 => (0..rng.below(40))
            .map(|_| b' ' + rng.below(95) as u8)
            .chain([b'\n'])
            .collect(),
        1 => vec![0xff, 0xfe, b'g', b'o', 0xc3, b'\n'],
        2 => vec![0, 7, 27, b'[', b'A', b'\r', b'\n'],
        3 => {
            let mut v = b"position startpos moves ".to_vec();
            for _ in 0..3000 {
                v.extend_from_slice(b"e2e4 ");
            }
            v.push(b'\n');
            v
        }
        _ => {
            // (Not `go`: a cut `go` is still a `go`.)
            let mut v = rng
                .pick(&[
                    "position startpos",
                    "isready",
                    "setoption name Hash value 8",
                ])
                .as_bytes()[..5]
                .to_vec();
            v.extend_from_slice(b"\r\n");
            v
        }
    }
}

/// What the GUI expects of a UCI engine, checked on every line.
struct UciGui {
    /// The position the engine holds (as the GUI set it).
    pos: Chess,
    /// The positions of the searches started and not yet answered, oldest first.
    searches: VecDeque<Chess>,
    ready_pending: usize,
    inputs: u64,
    bestmoves: u64,
    pvs: u64,
}

impl UciGui {
    fn check(&mut self, e: &mut Engine, lines: Vec<String>) {
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some("bestmove") => {
                    let Some(pos) = self.searches.pop_front() else {
                        e.fail(&format!("'{line}' without a search"));
                    };
                    self.bestmoves += 1;
                    let mv = words.get(1).copied().unwrap_or("");
                    if pos.legal_moves().is_empty() {
                        e.check(
                            mv == "0000" || mv == "(none)",
                            &format!("'{line}' where there is no legal move"),
                        );
                        continue;
                    }
                    let Some(after) = play_line(&pos, &[mv]) else {
                        e.fail(&format!("'{line}': illegal in {}", fen_of(&pos)));
                    };
                    if words.get(2) == Some(&"ponder") {
                        let p = words.get(3).copied().unwrap_or("");
                        let ok = play_line(&after, &[p]).is_some();
                        e.check(ok, &format!("'{line}': illegal ponder move"));
                    }
                }
                Some("readyok") => {
                    e.check(self.ready_pending > 0, "readyok without isready");
                    self.ready_pending -= 1;
                }
                Some("info") if words.get(1) != Some(&"string") => {
                    if let Some(i) = words.iter().position(|w| *w == "pv") {
                        let Some(pos) = self.searches.front() else {
                            e.fail(&format!("'{line}' while no search runs"));
                        };
                        let ok = play_line(pos, &words[i + 1..]).is_some();
                        e.check(ok, &format!("'{line}': not a legal line"));
                        self.pvs += 1;
                    }
                }
                _ => {}
            }
        }
        let err = e.stderr();
        e.check(!err.contains("panicked"), "the engine panicked");
    }

    /// One random input.
    fn step(&mut self, e: &mut Engine, rng: &mut Rng) {
        self.inputs += 1;
        match rng.below(100) {
            0..=14 => {
                // A valid position: from the start or from a FEN, with moves.
                let (base, head) = if rng.chance(50) {
                    (Chess::default(), "position startpos".to_string())
                } else {
                    let (_, p) = random_line(rng, &Chess::default(), 60);
                    let f = fen_of(&p);
                    (p, format!("position fen {f}"))
                };
                let (moves, p) = random_line(rng, &base, 12);
                let cmd = if moves.is_empty() && rng.chance(50) {
                    head
                } else {
                    format!("{head} moves {}", moves.join(" "))
                };
                e.send(&cmd);
                self.pos = p;
            }
            15..=21 => {
                // An invalid position: an illegal move, a damaged FEN, a missing keyword.
                let (moves, p) = random_line(rng, &Chess::default(), 8);
                let cmd = match rng.below(4) {
                    0 => {
                        let bad = rng.pick(&["e2e5", "a1a1", "e7e5x", "zz", "e1g1", "0000"]);
                        if let Some(q) = play_gui_line(&p, &[bad]) {
                            // Legal after all (castling, a null move): the position changes.
                            self.pos = q;
                        }
                        format!("position startpos moves {} {bad}", moves.join(" "))
                    }
                    1 => {
                        let f = damage(rng, &fen_of(&p));
                        // UCI separates tokens by any whitespace: the FEN is its tokens.
                        let tokens: Vec<&str> = f.split_whitespace().collect();
                        if let Some(q) = parse_fen(&tokens.join(" ")) {
                            // Still a FEN the GUI accepts: so must the engine.
                            self.pos = q;
                        }
                        format!("position fen {f}")
                    }
                    2 => rng
                        .pick(&[
                            "position",
                            "position foo",
                            "position fen",
                            "position moves e2e4",
                        ])
                        .to_string(),
                    _ => {
                        if moves.is_empty() {
                            // `position startpos` after all.
                            self.pos = Chess::default();
                        }
                        format!("position startpos {}", moves.join(" "))
                    }
                };
                e.send(&cmd);
            }
            22..=37 => {
                let go = match rng.below(7) {
                    0 => format!("go depth {}", 1 + rng.below(7)),
                    1 => format!("go nodes {}", 1 + rng.below(30_000)),
                    2 => format!("go movetime {}", rng.below(60)),
                    3 => format!(
                        "go wtime {} btime {} winc {} binc {}",
                        rng.below(3000),
                        rng.below(3000),
                        rng.below(100),
                        rng.below(100)
                    ),
                    4 => format!(
                        "go wtime {} btime {} movestogo {}",
                        rng.below(2000),
                        rng.below(2000),
                        rng.below(40)
                    ),
                    5 => {
                        let legal = self.pos.legal_moves();
                        let some: Vec<String> = legal
                            .iter()
                            .take(1 + rng.below(3) as usize)
                            .map(|m| UciMove::from_standard(*m).to_string())
                            .collect();
                        format!(
                            "go depth {} searchmoves {}",
                            1 + rng.below(5),
                            some.join(" ")
                        )
                    }
                    _ => format!("go depth {} multipv {}", 1 + rng.below(4), rng.below(3)),
                };
                e.send(&go);
                self.searches.push_back(self.pos.clone());
            }
            38..=42 => {
                // Searches that only `stop` (or a ponderhit with a clock) ends, and
                // malformed ones, which the engine treats as it can.
                let go = rng.pick(&[
                    "go infinite",
                    "go ponder wtime 500 btime 500",
                    "go",
                    "go depth -3",
                    "go wtime abc",
                    "go depth 18446744073709551616",
                    "go mate 2",
                    "go searchmoves e2e5",
                    "go nodes 0",
                    "go frobnicate 7",
                ]);
                e.send(go);
                self.searches.push_back(self.pos.clone());
            }
            43..=52 => e.send("stop"),
            53..=56 => e.send("ponderhit"),
            57..=66 => {
                e.send("isready");
                self.ready_pending += 1;
            }
            67..=72 => {
                let opt = match rng.below(6) {
                    0 => format!("setoption name Hash value {}", 1 + rng.below(64)),
                    1 => format!("setoption name Threads value {}", 1 + rng.below(2)),
                    2 => format!("setoption name MultiPV value {}", 1 + rng.below(3)),
                    3 => "setoption name Clear Hash".into(),
                    4 => format!("setoption name Move Overhead value {}", rng.below(100)),
                    _ => format!("setoption name UCI_ShowWDL value {}", rng.chance(50)),
                };
                e.send(&opt);
            }
            73..=78 => {
                let bad = rng.pick(&[
                    "setoption name Hash value -1",
                    "setoption name Hash value abc",
                    "setoption name Hash value 99999999999999999999",
                    "setoption name Threads value 0",
                    "setoption name NoSuchOption value 3",
                    "setoption name Hash",
                    "setoption",
                    "setoption name",
                    "setoption name OM_Mode value sometimes",
                    "setoption name OM_OpponentTypes value self:-1",
                    "setoption name SyzygyPath value /nonexistent/dir",
                ]);
                e.send(bad);
            }
            79..=81 => {
                // nosce starts the new game from the initial position (a GUI sends
                // `position` next anyway).
                e.send("ucinewgame");
                self.pos = Chess::default();
            }
            82..=84 => e.send(rng.pick(&["debug on", "debug off", "uci", "register later"])),
            _ => e.send_raw(&junk(rng)),
        }
    }
}

#[test]
fn uci_random_interleavings_keep_the_invariants() {
    let seed = seed();
    println!("uci stress: seed {seed} (NOSCE_STRESS_SEED to replay)");
    let mut rng = Rng::new(seed);
    let (mut e, _) = Engine::start_uci();
    e.set_label(&format!("(replay: NOSCE_STRESS_SEED={seed})"));
    let mut gui = UciGui {
        pos: Chess::default(),
        searches: VecDeque::new(),
        ready_pending: 0,
        inputs: 0,
        bestmoves: 0,
        pvs: 0,
    };
    let end = Instant::now() + run_length();
    while Instant::now() < end {
        gui.step(&mut e, &mut rng);
        // Sometimes send the next input at once, sometimes let the engine work.
        let lines = if rng.chance(70) {
            e.poll()
        } else {
            e.collect_for(Duration::from_millis(rng.below(30)))
        };
        gui.check(&mut e, lines);
    }
    // Wind down: end every search, then every answer must arrive.
    e.send("stop");
    e.send("isready");
    gui.ready_pending += 1;
    let deadline = Instant::now() + Duration::from_secs(30);
    while (gui.ready_pending > 0 || !gui.searches.is_empty()) && Instant::now() < deadline {
        let lines = e.collect_for(Duration::from_millis(50));
        gui.check(&mut e, lines);
        if !gui.searches.is_empty() {
            e.send("stop");
        }
    }
    let (pending, open) = (gui.ready_pending, gui.searches.len());
    e.check(
        pending == 0 && open == 0,
        &format!("unanswered at the end: {pending} isready, {open} go"),
    );
    e.send("quit");
    e.expect_exit(QUICK);
    println!(
        "uci stress: {} inputs, {} bestmoves checked, {} pv lines checked, 0 failures",
        gui.inputs, gui.bestmoves, gui.pvs
    );
}

/// The result a position shows by itself (mate, stalemate, insufficient material, the
/// fifty-move rule); repetitions need the history, which the engine claims on its own.
fn over_by_itself(pos: &Chess) -> bool {
    pos.is_game_over() || pos.halfmoves() >= 100
}

/// What the GUI expects of an xboard engine, checked on every line.
struct XbGui {
    /// The game (`None` after a `setboard` the engine refused: no valid position).
    board: Option<Chess>,
    history: Vec<Chess>,
    force: bool,
    /// The colour the engine plays.
    engine: Option<shakmaty::Color>,
    /// The engine owes us a move (or a result claim).
    thinking: bool,
    /// `ping` numbers sent and not yet answered, in order.
    pings: VecDeque<u32>,
    next_ping: u32,
    /// `Illegal move` answers we asked for and have not seen yet.
    illegal_expected: usize,
    /// A move ended the game by itself: the engine's claim is settled before the next input
    /// (else an `undo` sent meanwhile would move our board away from the mate it claims).
    claim_due: bool,
    inputs: u64,
    moves: u64,
}

impl XbGui {
    fn new_game(&mut self) {
        self.board = Some(Chess::default());
        self.history.clear();
        self.force = false;
        self.engine = Some(shakmaty::Color::Black);
        self.thinking = false;
    }

    fn check(&mut self, e: &mut Engine, lines: Vec<String>) {
        for line in lines {
            if let Some(mv) = line.strip_prefix("move ") {
                e.check(
                    self.thinking,
                    &format!("'{line}' when the engine was not on move"),
                );
                let Some(board) = self.board.clone() else {
                    e.fail(&format!("'{line}' without a valid position"));
                };
                e.check(
                    Some(board.turn()) == self.engine || self.force,
                    &format!("'{line}' for the wrong side"),
                );
                let Some(after) = play_line(&board, &[mv.trim()]) else {
                    e.fail(&format!("'{line}': illegal in {}", fen_of(&board)));
                };
                self.history.push(board);
                self.claim_due |= over_by_itself(&after);
                self.board = Some(after);
                self.thinking = false;
                self.moves += 1;
            } else if let Some(n) = line.strip_prefix("pong ") {
                let want = self.pings.pop_front();
                e.check(
                    want.map(|w| w.to_string()).as_deref() == Some(n.trim()),
                    &format!("'{line}' but the oldest ping was {want:?}"),
                );
            } else if line.starts_with("Illegal move") {
                e.check(
                    self.illegal_expected > 0,
                    &format!("'{line}' for a legal move"),
                );
                self.illegal_expected -= 1;
            } else if line.starts_with("1-0 {")
                || line.starts_with("0-1 {")
                || line.starts_with("1/2-1/2 {")
            {
                if line.contains("mates") {
                    let mated = self.board.as_ref().is_some_and(|b| b.is_checkmate());
                    e.check(mated, &format!("'{line}' without a mate"));
                }
                self.thinking = false;
            }
        }
        let err = e.stderr();
        e.check(!err.contains("panicked"), "the engine panicked");
    }

    fn ping(&mut self, e: &mut Engine) {
        self.next_ping += 1;
        self.pings.push_back(self.next_ping);
        e.send(&format!("ping {}", self.next_ping));
    }

    /// Waits until every ping is answered (and so every earlier command handled).
    fn settle(&mut self, e: &mut Engine) {
        self.ping(e);
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.pings.is_empty() && Instant::now() < deadline {
            let lines = e.collect_for(Duration::from_millis(5));
            self.check(e, lines);
        }
        let n = self.pings.len();
        e.check(n == 0, &format!("{n} pings unanswered after 20 s"));
    }

    /// One random input.
    fn step(&mut self, e: &mut Engine, rng: &mut Rng) {
        self.inputs += 1;
        if self.claim_due {
            self.claim_due = false;
            self.settle(e);
        }
        if self.thinking {
            // The engine is on move: what a GUI may send meanwhile.
            match rng.below(100) {
                0..=59 => {
                    let lines = e.collect_for(Duration::from_millis(rng.below(40)));
                    self.check(e, lines);
                }
                60..=67 => e.send("?"),
                68..=77 => self.ping(e),
                78..=85 => e.send(rng.pick(&["post", "nopost", "hard", "easy", "hint", "bk"])),
                86..=89 => e.send(&format!("time {}", rng.below(5000))),
                90..=93 => e.send_raw(&junk(rng)),
                94..=96 => {
                    // Taking the engine off move: a move it sent first still counts.
                    e.send("force");
                    self.force = true;
                    self.settle(e);
                    self.thinking = false;
                }
                _ => {
                    e.send("new");
                    self.settle(e);
                    self.new_game();
                    e.send(&format!("sd {}", 1 + rng.below(4)));
                }
            }
            return;
        }
        match rng.below(100) {
            0..=24 => match self.board.clone() {
                Some(b) if !over_by_itself(&b) => {
                    let (moves, after) = random_line(rng, &b, 2);
                    if let Some(m) = moves.first() {
                        let cmd = if rng.chance(50) {
                            format!("usermove {m}")
                        } else {
                            m.clone()
                        };
                        e.send(&cmd);
                        self.history.push(b);
                        self.claim_due |= over_by_itself(&after);
                        self.board = Some(after.clone());
                        // (A claim of a repetition instead of a move ends the wait too.)
                        if !self.force && self.engine == Some(after.turn()) {
                            self.thinking = true;
                        }
                    }
                }
                _ => {}
            },
            25..=31 => {
                let bad = rng.pick(&["usermove e2e5", "usermove a1a1", "e2e6", "usermove 0000"]);
                e.send(bad);
                let text = bad.trim_start_matches("usermove ");
                match self.board.clone() {
                    // Legal here after all (a rook on e2): played.
                    Some(b) if text != "0000" && play_line(&b, &[text]).is_some() => {
                        let after = play_line(&b, &[text]).unwrap();
                        self.history.push(b);
                        if !self.force && self.engine == Some(after.turn()) {
                            self.thinking = true;
                        }
                        self.board = Some(after);
                    }
                    _ => self.illegal_expected += 1,
                }
                // Answered in order before the next pong: settle keeps the count exact.
                self.settle(e);
            }
            32..=41 => {
                if let Some(b) = &self.board
                    && !over_by_itself(b)
                {
                    e.send("go");
                    self.force = false;
                    self.engine = Some(b.turn());
                    self.thinking = true;
                }
            }
            42..=47 => {
                e.send("force");
                self.force = true;
            }
            48..=52 => {
                e.send("new");
                self.new_game();
                e.send(&format!("sd {}", 1 + rng.below(4)));
            }
            53..=58 => {
                if self.board.is_some()
                    && let Some(prev) = self.history.pop()
                {
                    e.send("undo");
                    self.board = Some(prev);
                }
            }
            59..=62 => {
                if self.board.is_some() && self.history.len() >= 2 {
                    e.send("remove");
                    self.history.pop();
                    self.board = self.history.pop();
                }
            }
            63..=69 => {
                // As xboard does: force mode, then the position.
                e.send("force");
                self.force = true;
                let (_, p) = random_line(rng, &Chess::default(), 60);
                let mut f = fen_of(&p);
                if rng.chance(40) {
                    f = damage(rng, &f);
                }
                let tokens: Vec<&str> = f.split_whitespace().collect();
                e.send(&format!("setboard {f}"));
                self.board = parse_fen(&tokens.join(" "));
                self.history.clear();
                // A refused position is answered with an error; settle so it is seen.
                self.settle(e);
            }
            70..=77 => self.ping(e),
            78..=83 => e.send(&match rng.below(4) {
                0 => format!("sd {}", 1 + rng.below(4)),
                1 => format!("st {}", 1 + rng.below(2)),
                2 => format!("time {}", rng.below(3000)),
                _ => format!("otim {}", rng.below(3000)),
            }),
            84..=89 => e.send(rng.pick(&[
                "post",
                "nopost",
                "hard",
                "easy",
                "computer",
                "name Some Opponent",
                "rating 2100 1900",
                "random",
                "?",
                "draw",
                "accepted ping",
                "result 1-0 {just so}",
                "sd -1",
                "st abc",
                "level x y z",
                "memory -5",
                "cores 0",
                "option Hash=abc",
                "option NoSuch=1",
                "setboard",
                "usermove",
                "e7e9",
                "ping",
            ])),
            _ => e.send_raw(&junk(rng)),
        }
        let lines = if rng.chance(70) {
            e.poll()
        } else {
            e.collect_for(Duration::from_millis(rng.below(20)))
        };
        self.check(e, lines);
    }
}

#[test]
fn xboard_random_interleavings_keep_the_invariants() {
    let seed = seed();
    println!("xboard stress: seed {seed} (NOSCE_STRESS_SEED to replay)");
    let mut rng = Rng::new(seed);
    let mut e = Engine::start();
    e.set_label(&format!("(replay: NOSCE_STRESS_SEED={seed})"));
    let mut gui = XbGui {
        board: Some(Chess::default()),
        history: Vec::new(),
        force: false,
        engine: Some(shakmaty::Color::Black),
        thinking: false,
        pings: VecDeque::new(),
        next_ping: 0,
        illegal_expected: 0,
        claim_due: false,
        inputs: 0,
        moves: 0,
    };
    e.send("xboard");
    e.send("protover 2");
    e.read_until("feature done=1", QUICK);
    e.send("new");
    e.send("sd 3");
    let end = Instant::now() + run_length();
    while Instant::now() < end {
        gui.step(&mut e, &mut rng);
    }
    e.send("force");
    gui.settle(&mut e);
    e.check(gui.illegal_expected == 0, "every illegal move was answered");
    e.send("quit");
    e.expect_exit(QUICK);
    println!(
        "xboard stress: {} inputs, {} engine moves checked, {} pings answered, 0 failures",
        gui.inputs, gui.moves, gui.next_ping
    );
}
