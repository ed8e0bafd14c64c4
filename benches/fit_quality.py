#!/usr/bin/env python3
"""How well nosce's fitted opponent model predicts an opponent (OM_Mode=auto, src/search/om/fit.rs).

Replays the games of a PGN from the side of one player (the one whose name contains
--player, e.g. the opponent nosce met), and at each of the *other* side's turns asks two
nosce instances:
  - OM_Mode=auto with `go depth D`: its `info string om model ... predicted k/n` line is the
    fitted model's record so far (hits of the best candidate's single best move);
  - plain α-β with `go depth D`: its ponder move is α-β's predicted reply (the PV as a
    predictor), checked against the reply actually played.
Prints, per game and overall, the accuracy of both predictors after 10, 20 and 40 of the
opponent's moves.

Example:
    python3 benches/fit_quality.py --pgn runs/pilot/B-auto.pgn --player stockfish \
        --engine target/release/nosce --depth 8
    # with the opponent program itself among the candidates (an `engine` type):
    python3 benches/fit_quality.py --pgn gnuchess.pgn --player gnuchess \
        --option OM_OpponentEngine=./gnuchess-uci --option OM_OpponentTypes=engine:1:depth=5
"""

import argparse
import re
import sys

import chess
import chess.engine
import chess.pgn

MARKS = (10, 20, 40)


def predicted_counts(lines):
    """(hits, moves) from the last `om model ... predicted k/n` line, or None."""
    for text in reversed(lines):
        m = re.search(r"om model .* predicted (\d+)/(\d+)", text)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def differing_counts(lines):
    """(hits, cases, weight) from the last `om model ... differing k/n weight w` line, or
    None: how often the opponent played the fitted type's prediction where it differed from
    our own predicted reply, and the weight the hedged root gives the fitted type."""
    for text in reversed(lines):
        m = re.search(r"om model .* differing (\d+)/(\d+) weight ([0-9.]+)", text)
        if m:
            return int(m.group(1)), int(m.group(2)), float(m.group(3))
    return None


def ask(engine, board, depth, game):
    """The info strings and the ponder move of a depth-limited search (`ucinewgame` when
    `game` changes)."""
    strings = []
    with engine.analysis(board, chess.engine.Limit(depth=depth), info=chess.engine.INFO_ALL,
                         game=game) as an:
        for info in an:
            if "string" in info:
                strings.append(info["string"])
        best = an.wait()
    return strings, best.ponder


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--player", required=True, help="substring of the opponent's name in the PGN (case-insensitive)")
    ap.add_argument("--engine", default="target/release/nosce")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--option", action="append", default=[],
                    help="NAME=VALUE for the OM_Mode=auto instance (repeatable), e.g. "
                         "OM_OpponentEngine=/usr/games/stockfish or OM_OpponentTypes=engine:1:depth=5")
    args = ap.parse_args()
    if args.depth < 1:
        sys.exit("fit_quality.py: --depth must be at least 1")
    try:
        pgn = open(args.pgn)
    except OSError as e:
        sys.exit(f"fit_quality.py: cannot read {args.pgn}: {e}")
    try:
        auto = chess.engine.SimpleEngine.popen_uci(args.engine)
        plain = chess.engine.SimpleEngine.popen_uci(args.engine)
    except (OSError, chess.engine.EngineError) as e:
        sys.exit(f"fit_quality.py: cannot start {args.engine}: {e}")
    try:
        measure(args, pgn, auto, plain)
    finally:
        for e in (auto, plain):
            e.quit()


def measure(args, f, auto, plain):
    """Replays the games of `f` and prints the accuracies (see the module doc)."""
    options = {"OM_Mode": "auto", "OM_Profiles": "off"}
    for o in args.option:
        name, sep, value = o.partition("=")
        if not sep:
            sys.exit(f"fit_quality.py: --option needs NAME=VALUE, not {o!r}")
        options[name] = value
    auto.configure(options)
    totals = {k: [0, 0, 0, 0] for k in MARKS}  # fit hits, fit n, pv hits, pv n
    diff_totals = [0, 0]  # differing hits, differing cases (at each game's end)
    weights = []
    games = 0
    while games < args.games:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        white = game.headers.get("White", "").lower()
        black = game.headers.get("Black", "").lower()
        who = args.player.lower()
        if who in white and who not in black:
            opp = chess.WHITE
        elif who in black and who not in white:
            opp = chess.BLACK
        else:
            continue
        games += 1
        board = game.board()
        seen = 0
        pv_hits = 0
        fit = None
        differing = None
        marks = {}
        moves = list(game.mainline_moves())
        for i, move in enumerate(moves):
            if board.turn != opp and i + 1 < len(moves):
                strings, _ = ask(auto, board, args.depth, game)
                fit = predicted_counts(strings) or fit
                differing = differing_counts(strings) or differing
                _, ponder = ask(plain, board, args.depth, game)
                reply = moves[i + 1]
                board.push(move)
                seen += 1
                pv_hits += int(ponder == reply)
                if seen in MARKS:
                    marks[seen] = (fit, pv_hits)
                continue
            board.push(move)
        line = []
        for k in MARKS:
            if k not in marks:
                continue
            fit_k, pv_k = marks[k]
            if fit_k:
                totals[k][0] += fit_k[0]
                totals[k][1] += fit_k[1]
            totals[k][2] += pv_k
            totals[k][3] += k
            line.append(f"@{k}: fit {fit_k[0] if fit_k else '-'}/{fit_k[1] if fit_k else '-'} pv {pv_k}/{k}")
        if differing:
            diff_totals[0] += differing[0]
            diff_totals[1] += differing[1]
            weights.append(differing[2])
            line.append(f"end: differing {differing[0]}/{differing[1]} weight {differing[2]:.2f}")
        print(f"game {games} ({game.headers.get('Result')}): " + "  ".join(line), flush=True)
    print(f"\n{games} games, opponent '{args.player}', depth {args.depth}")
    for k in MARKS:
        fh, fn, ph, pn = totals[k]
        if pn:
            print(f"after {k:2d} opponent moves: fitted model {fh}/{fn} = {fh / max(fn, 1):.1%}, "
                  f"α-β PV {ph}/{pn} = {ph / pn:.1%} (games reaching it: {pn // k})")
    dh, dn = diff_totals
    if dn:
        print(f"where the fitted type's prediction differed from our own: played {dh}/{dn} = "
              f"{dh / dn:.1%}; weight at the games' ends: mean {sum(weights) / len(weights):.2f}, "
              f"max {max(weights):.2f}, games with weight >= 0.3: {sum(w >= 0.3 for w in weights)}")


if __name__ == "__main__":
    main()
