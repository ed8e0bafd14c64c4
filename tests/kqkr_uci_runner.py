#!/usr/bin/env python3
"""Plays KQKR games between two UCI engines (Donkers 2003 §5.4) and writes a PGN that
`nosce kqkr analyze` turns into Tables 5.2-5.4.

The K+R side is typically nosce with its exact tables and OM options; the K+Q side any UCI
engine *without* endgame tables (nosce always has its exact KQKR tables, so for a fallible
nosce use the in-process `nosce kqkr` instead). Each game starts from an EPD position, the
K+Q engine gets `ucinewgame` before every move (its choice is a function of the position),
and the game ends like in `nosce kqkr`: capture of the rook or mate, 50-move rule,
threefold repetition, stalemate, or loss of the queen. Games carry `SetUp`/`FEN` and
`SpecDepth` tags.

Example (from the crate root, after `cargo build --release`):

  python3 tests/kqkr_uci_runner.py \\
      --kr target/release/nosce --kr-option OM_Mode=om --kr-option OM_SpeculationDepth=2 \\
      --kr-option "OM_OpponentTypes=notb:1:depth=9" --kr-limit depth=6 \\
      --kq /usr/games/stockfish --kq-option Hash=16 --kq-limit depth=9 \\
      --epd openings/browne-belle.epd --games 2 --spec-depth 2 --out om2.pgn
  target/release/nosce kqkr analyze om2.pgn --out runs/analyze-om2
"""

import argparse
import sys

import chess
import chess.engine
import chess.pgn


def limit(text):
    kind, _, value = text.partition("=")
    if kind == "depth":
        return chess.engine.Limit(depth=int(value))
    if kind == "nodes":
        return chess.engine.Limit(nodes=int(value))
    if kind == "movetime":
        return chess.engine.Limit(time=int(value) / 1000.0)
    raise argparse.ArgumentTypeError(f"'{text}': expected depth=N, nodes=N or movetime=MS")


def options(pairs):
    out = {}
    for p in pairs or []:
        name, sep, value = p.partition("=")
        if not sep:
            raise SystemExit(f"option '{p}' needs NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def read_epd(path):
    boards = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            board, ops = chess.Board.from_epd(line)
            boards.append((board, ops.get("id", f"position {len(boards) + 1}")))
    return boards


def kq_colour(board):
    for colour in (chess.WHITE, chess.BLACK):
        if board.pieces(chess.QUEEN, colour) and board.pieces(chess.ROOK, not colour):
            return colour
    raise SystemExit(f"{board.fen()}: not a K+Q versus K+R position")


def finished(board, kq):
    """The termination reason, or None while the game goes on."""
    if board.is_checkmate():
        return "mate" if board.turn != kq else "thrown-loss"
    if not board.pieces(chess.ROOK, not kq):
        return "conversion"
    if not board.pieces(chess.QUEEN, kq):
        return "thrown-loss"
    if board.is_stalemate():
        return "stalemate"
    if board.halfmove_clock >= 100:
        return "fifty"
    if board.is_repetition(3):
        return "repetition"
    return None


def result(reason, kq):
    if reason in ("conversion", "mate"):
        return "1-0" if kq == chess.WHITE else "0-1"
    if reason == "thrown-loss":
        return "0-1" if kq == chess.WHITE else "1-0"
    return "1/2-1/2"


def play(start, name, kq_engine, kr_engine, args, index):
    board = start.copy()
    kq = kq_colour(board)
    game = chess.pgn.Game()
    game.setup(board)
    node = game
    reason = None
    while reason is None:
        if board.turn == kq:
            # A new `game` key makes python-chess send ucinewgame before every move: a
            # fresh table, so the choice depends on the position (and history) only.
            res = kq_engine.play(board, args.kq_limit, game=object())
        else:
            res = kr_engine.play(board, args.kr_limit, game=index)
        if res.move is None:
            reason = "aborted"
            break
        node = node.add_variation(res.move)
        board.push(res.move)
        reason = finished(board, kq)
    white, black = ("K+Q: " + args.kq, "K+R: " + args.kr)
    if kq == chess.BLACK:
        white, black = black, white
    game.headers.update(
        {
            "Event": "kqkr_uci_runner",
            "Site": "?",
            "Round": f"{index + 1}",
            "White": white,
            "Black": black,
            "Result": result(reason, kq) if reason != "aborted" else "*",
            "Termination": reason,
            "PositionName": name,
            "SpecDepth": str(args.spec_depth),
            "KqLimit": args.kq_limit_text,
            "KrLimit": args.kr_limit_text,
        }
    )
    return game


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kr", required=True, help="UCI engine of the K+R side")
    ap.add_argument("--kr-option", action="append", help="NAME=VALUE (repeatable)")
    ap.add_argument("--kr-limit", default="depth=6")
    ap.add_argument("--kq", required=True, help="UCI engine of the K+Q side (no tables)")
    ap.add_argument("--kq-option", action="append", help="NAME=VALUE (repeatable)")
    ap.add_argument("--kq-limit", default="depth=9")
    ap.add_argument("--epd", required=True)
    ap.add_argument("--games", type=int, default=1, help="games per position")
    ap.add_argument("--spec-depth", type=int, default=0, help="SpecDepth tag")
    ap.add_argument("--out", default="-", help="PGN file (default stdout)")
    args = ap.parse_args()
    args.kq_limit_text, args.kr_limit_text = args.kq_limit, args.kr_limit
    args.kq_limit, args.kr_limit = limit(args.kq_limit), limit(args.kr_limit)
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    kr_engine = chess.engine.SimpleEngine.popen_uci(args.kr)
    kq_engine = chess.engine.SimpleEngine.popen_uci(args.kq)
    try:
        kr_engine.configure(options(args.kr_option))
        kq_engine.configure(options(args.kq_option))
        index = 0
        for board, name in read_epd(args.epd):
            for _ in range(args.games):
                game = play(board, name, kq_engine, kr_engine, args, index)
                print(game, file=out, end="\n\n")
                out.flush()
                print(f"{name} game {index + 1}: {game.headers['Termination']}, "
                      f"{len(list(game.mainline_moves()))} plies", file=sys.stderr)
                index += 1
    finally:
        kr_engine.quit()
        kq_engine.quit()
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
