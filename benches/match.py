#!/usr/bin/env python3
"""Engine-vs-engine match runner (python-chess), for strength measurements.

Plays pairs of games (each opening with both colours) between two engines at a Fischer time
control, adjudicating nothing but the rules (mate, stalemate, repetition, 50 moves,
insufficient material) and time forfeits, and reports the score, Elo with a 95 % error bar
(trinomial model) and the likelihood of superiority. Writes every game to a PGN.

Example (the closing-note matches):
    python3 benches/match.py --engine1 target/release/nosce --engine2 /usr/games/toga2 \
        --games 100 --tc 10+0.1 --concurrency 2 --pgn runs/toga2.pgn

Engines are UCI unless given as `xboard:PATH` (e.g. `xboard:/usr/games/phalanx`).
Options: `--option1 Hash=64` (repeatable), same for `--option2`. Each engine is told its
opponent's name (UCI_Opponent, with `--rating1/--rating2` as the rating); the PGN records the
depth of every move (`d=N`) and its score (`s=N`, centipawns, the mover's view; mates as
±100000 minus the distance) and the summary the median depth per engine (mates found
report huge depths, so not the mean).
"""

import argparse
import asyncio
import logging
import math
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


def parse_engine(spec):
    if spec.startswith("xboard:"):
        return "xboard", spec[len("xboard:"):]
    if spec.startswith("uci:"):
        return "uci", spec[len("uci:"):]
    return "uci", spec


def parse_options(items):
    out = {}
    for it in items or []:
        if "=" not in it:
            sys.exit(f"match.py: option '{it}' is not NAME=VALUE")
        k, v = it.split("=", 1)
        out[k] = v
    return out


class EngineStartError(Exception):
    """An engine that cannot be started, or does not finish its handshake."""


START_TIMEOUT = 30


async def open_engine(spec, options):
    kind, path = parse_engine(spec)
    popen = chess.engine.popen_uci if kind == "uci" else chess.engine.popen_xboard
    try:
        _, eng = await asyncio.wait_for(popen(path), timeout=START_TIMEOUT)
        # Tuning options (nosce's `MultiCut`) are accepted but not announced, and
        # python-chess refuses to configure what is not announced: they go as raw lines.
        hidden = {k: v for k, v in (options or {}).items() if k not in eng.options}
        announced = {k: v for k, v in (options or {}).items() if k in eng.options}
        if announced:
            await asyncio.wait_for(eng.configure(announced), timeout=START_TIMEOUT)
        if hidden and kind == "uci":
            for k, v in hidden.items():
                eng.send_line(f"setoption name {k} value {v}")
            await asyncio.wait_for(eng.ping(), timeout=START_TIMEOUT)
        elif hidden:
            for k, v in hidden.items():
                eng.send_line(f"option {k}={v}")
            await asyncio.wait_for(eng.ping(), timeout=START_TIMEOUT)
    except asyncio.TimeoutError:
        raise EngineStartError(f"{spec}: no handshake within {START_TIMEOUT} s") from None
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
        raise EngineStartError(f"{spec}: {e!r}") from None
    return eng


def fixed_limit(spec):
    """'depth=6' or 'nodes=20000' -> chess.engine.Limit, None for the clock."""
    if not spec:
        return None
    k, _, v = spec.partition("=")
    if k == "depth":
        return chess.engine.Limit(depth=int(v))
    if k == "nodes":
        return chess.engine.Limit(nodes=int(v))
    if k == "movetime":
        return chess.engine.Limit(time=float(v))
    sys.exit(f"match.py: bad limit '{spec}' (depth=N, nodes=N or movetime=S)")


async def play_game(args, opening_fen, white_spec, black_spec, white_opts, black_opts, round_no,
                    limits=(None, None), clear=(False, False), slots=(1, 2)):
    # slots: which of --engine1/--engine2 plays White and Black. Ratings and depth statistics
    # are kept per slot, not per command: a match of one binary against itself (two nets, two
    # option sets) keeps the two sides apart.
    # Each side's own clock (time odds: --tc1/--tc2 override --tc for one engine).
    tcs = [args.tcs[slots[0]], args.tcs[slots[1]]]
    engines = [await open_engine(white_spec, white_opts), await open_engine(black_spec, black_opts)]
    # Each engine is told who its opponent is (UCI_Opponent, xboard name), as GUIs do.
    ratings = [args.ratings[slots[0]], args.ratings[slots[1]]]
    specs = [white_spec, black_spec]
    # xboard engines get the name and rating but not `computer`: phalanx answers it with
    # "Illegal move: computer", which python-chess takes for an engine error.
    opponents = [
        chess.engine.Opponent(
            name=engines[1 - i].id.get("name", specs[1 - i]), title=None,
            rating=ratings[1 - i], is_engine=parse_engine(specs[i])[0] == "uci")
        for i in range(2)
    ]
    board = chess.Board(opening_fen)
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Event"] = args.event
    game.headers["Round"] = str(round_no)
    game.headers["White"] = white_spec
    game.headers["Black"] = black_spec
    game.headers["TimeControl"] = (f"{tcs[0][0]:g}+{tcs[0][1]:g}" if tcs[0] == tcs[1] else
                                   f"{tcs[0][0]:g}+{tcs[0][1]:g}/{tcs[1][0]:g}+{tcs[1][1]:g}")
    clocks = [tcs[0][0], tcs[1][0]]
    node = game
    result, reason = None, None
    try:
        while not board.is_game_over(claim_draw=True):
            side = 0 if board.turn == chess.WHITE else 1
            limit = limits[side] or chess.engine.Limit(
                white_clock=clocks[0], black_clock=clocks[1], white_inc=tcs[0][1], black_inc=tcs[1][1]
            )
            if clear[side]:
                # A position-function opponent: its table is cleared before every move.
                await engines[side].configure({"Clear Hash": None})
            t0 = time.monotonic()
            try:
                res = await asyncio.wait_for(
                    engines[side].play(board, limit, info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE,
                                       opponent=opponents[side]),
                    timeout=(args.move_timeout if limits[side] and args.move_timeout
                             else clocks[side] + 5))
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, asyncio.TimeoutError) as e:
                result = "0-1" if side == 0 else "1-0"
                reason = f"engine error: {type(e).__name__} {e}"
                break
            used = time.monotonic() - t0
            if limits[side] is None:
                clocks[side] -= used
            if limits[side] is None and clocks[side] < 0:
                result = "0-1" if side == 0 else "1-0"
                reason = f"time forfeit ({'white' if side == 0 else 'black'}, {used:.3f}s used, move {board.fullmove_number})"
                break
            clocks[side] += tcs[side][1]
            if res.move is None or res.move not in board.legal_moves:
                result = "0-1" if side == 0 else "1-0"
                reason = f"illegal move {res.move}"
                break
            board.push(res.move)
            node = node.add_variation(res.move)
            node.set_clock(clocks[side])
            depth = res.info.get("depth")
            if depth is not None:
                args.depths.setdefault(slots[side], []).append(depth)
            score = res.info.get("score")
            # The mover's view (the move is on the board already).
            cp = score.pov(not board.turn).score(mate_score=100_000) if score is not None else None
            node.comment = (node.comment + f" [%emt {used:.3f}] d={depth}"
                            + (f" s={cp:+d}" if cp is not None else "")).strip()
        if result is None:
            outcome = board.outcome(claim_draw=True)
            result = outcome.result()
            reason = outcome.termination.name.lower()
    finally:
        for e in engines:
            try:
                await asyncio.wait_for(e.quit(), timeout=5)
            except Exception:
                pass
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    return game, result, reason


def elo_stats(w, d, l):
    n = w + d + l
    if n == 0:
        return 0.0, 0.0, 0.5
    score = (w + 0.5 * d) / n
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * (0 - score) ** 2) / n
    se = math.sqrt(var / n) if n > 1 else 0.0

    def elo(p):
        p = min(max(p, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / p - 1)

    e = elo(score)
    lo, hi = elo(score - 1.96 * se), elo(score + 1.96 * se)
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l > 0 else 0.5
    return e, (hi - lo) / 2, los


class InfoStringLog(logging.Handler):
    """Keeps the `info string` lines python-chess logs as it reads them ("<engine>: << line")."""

    def __init__(self, path):
        super().__init__(logging.DEBUG)
        self.out = open(path, "a", encoding="utf-8")

    def emit(self, record):
        a = record.args
        if isinstance(a, tuple) and len(a) == 2 and str(a[1]).startswith("info string"):
            self.out.write(f"{a[0]}: {a[1]}\n")
            self.out.flush()


def log_info_strings(path):
    try:
        handler = InfoStringLog(path)
    except OSError as e:
        sys.exit(f"match.py: cannot open --info-log {path}: {e}")
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(handler)


async def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine1", required=True)
    ap.add_argument("--engine2", required=True)
    ap.add_argument("--option1", action="append")
    ap.add_argument("--option2", action="append")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    ap.add_argument("--tc1", default=None, help="engine 1's own clock (time odds), else --tc")
    ap.add_argument("--tc2", default=None, help="engine 2's own clock (time odds), else --tc")
    ap.add_argument("--openings", default="openings/2moves-1000.epd")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--first", type=int, default=1,
                    help="first round to play (resume an interrupted match: rounds before it are "
                         "skipped, the PGN is appended to)")
    ap.add_argument("--move-timeout", type=float, default=None,
                    help="seconds an engine may take for one move under a fixed limit before it "
                         "loses (default: the clock's base + 5 s)")
    ap.add_argument("--event", default="nosce match")
    ap.add_argument("--limit1", default=None, help="fixed limit for engine 1: depth=N, nodes=N or movetime=S")
    ap.add_argument("--limit2", default=None, help="fixed limit for engine 2")
    ap.add_argument("--clear2", action="store_true", help="send 'Clear Hash' to engine 2 before each move")
    ap.add_argument("--rating1", type=int, default=None, help="engine 1's rating, sent in UCI_Opponent")
    ap.add_argument("--rating2", type=int, default=None, help="engine 2's rating, sent in UCI_Opponent")
    ap.add_argument("--info-log", default=None,
                    help="append every 'info string' line of either engine to this file, after "
                         "the engine's process (e.g. to count OM_Mode=auto's decisions)")
    args = ap.parse_args()
    if args.info_log:
        log_info_strings(args.info_log)
    args.ratings = {1: args.rating1, 2: args.rating2}
    args.depths = {}
    def parse_tc(text):
        try:
            b, i = text.split("+")
            b, i = float(b), float(i)
        except ValueError:
            sys.exit(f"match.py: bad time control '{text}', expected e.g. 10+0.1")
        if not (b > 0 and i >= 0):
            sys.exit(f"match.py: bad time control '{text}': base > 0 and increment >= 0")
        return b, i
    args.base, args.inc = parse_tc(args.tc)
    args.tcs = {1: parse_tc(args.tc1 or args.tc), 2: parse_tc(args.tc2 or args.tc)}
    with open(args.openings) as f:
        fens = [" ".join(l.split()[:4]) + " 0 1" for l in f if l.strip()]
    rng = random.Random(args.seed)
    rng.shuffle(fens)
    o1, o2 = parse_options(args.option1), parse_options(args.option2)
    jobs = []
    if args.move_timeout is not None and not args.move_timeout > 0:
        sys.exit(f"match.py: --move-timeout must be a positive number of seconds, not {args.move_timeout}")
    if not 1 <= args.first <= args.games:
        sys.exit(f"match.py: --first {args.first} is outside 1..{args.games}")
    for g in range(args.first - 1, args.games):
        fen = fens[(g // 2) % len(fens)]
        if g % 2 == 0:
            jobs.append((fen, args.engine1, args.engine2, o1, o2, g + 1, True))
        else:
            jobs.append((fen, args.engine2, args.engine1, o2, o1, g + 1, False))
    l1, l2 = fixed_limit(args.limit1), fixed_limit(args.limit2)
    w = d = l = 0
    reasons = {}
    sem = asyncio.Semaphore(args.concurrency)
    pgn_out = open(args.pgn, "a" if args.first > 1 else "w") if args.pgn else None
    start = time.monotonic()

    async def run(job):
        nonlocal w, d, l
        fen, ws, bs, wo, bo, rnd, e1_white = job
        async with sem:
            lims = (l1, l2) if e1_white else (l2, l1)
            clr = (False, args.clear2) if e1_white else (args.clear2, False)
            game, result, reason = await play_game(args, fen, ws, bs, wo, bo, rnd, lims, clr,
                                                   (1, 2) if e1_white else (2, 1))
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == e1_white:
            w += 1
        else:
            l += 1
        reasons[reason] = reasons.get(reason, 0) + 1
        if pgn_out:
            print(game, file=pgn_out, end="\n\n", flush=True)
        elo, err, los = elo_stats(w, d, l)
        print(f"game {rnd:3d} {result:7s} {reason:28s} | +{w} ={d} -{l}  Elo {elo:+.0f} ± {err:.0f}  "
              f"LOS {los:.1%}  {time.monotonic() - start:.0f}s", flush=True)

    await asyncio.gather(*(run(j) for j in jobs))
    elo, err, los = elo_stats(w, d, l)
    n = w + d + l
    print(f"\n{args.engine1} vs {args.engine2}: {n} games at {args.tc}: +{w} ={d} -{l}, "
          f"score {(w + d / 2) / max(n, 1):.1%}, Elo {elo:+.0f} ± {err:.0f} (95%), LOS {los:.1%}")
    print("terminations:", ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items())))
    for slot, ds in sorted(args.depths.items()):
        ds = sorted(ds)
        spec = args.engine1 if slot == 1 else args.engine2
        print(f"depth per move of engine {slot} ({spec}): median {ds[len(ds) // 2]} over {len(ds)} moves")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except EngineStartError as e:
        sys.exit(f"match.py: cannot start an engine: {e}")
