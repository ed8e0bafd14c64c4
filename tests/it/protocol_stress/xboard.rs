//! The xboard half of the stress driver: a GUI that checks every line (see `super`).

use super::*;

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
