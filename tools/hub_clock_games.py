#!/usr/bin/env python3
"""Clock games of `damas hub` against `damas hub` through a real Hub client
(pydraughts' HubEngine, the client lidraughts-bot uses), counting losses on time.
Not run in CI.

Usage:
    pip install pydraughts            # tested with 0.6.7
    cargo build --release
    python3 tools/hub_clock_games.py --games 100 --time 1 --inc 0.05
    python3 tools/hub_clock_games.py --games 100 --time 2 --moves 0
    python3 tools/hub_clock_games.py --games 100 --time 1 --inc 0.05 --threads 2

The script keeps the clocks itself, as a GUI does: each side's time runs from
sending `go think` until the `done` line arrives (pipe latency included), the
increment is credited only after the move, and a side whose clock falls below zero
loses on time. Each engine is told the time left on its own clock before the move:
with an increment through pydraughts' `HubEngine.play` (which sends `time` minus the
increment, as lidraughts-bot does), without one as the raw Hub command
`level moves=M time=T` (pydraughts cannot send `moves=0`). The two engines swap
colours every game; games vary through the engine's opening book (on by default).
Games longer than --max-plies are adjudicated drawn. The last line sums up: games,
time losses, results and the smallest clock left after a move.

Numbering: pydraughts numbers the squares of Brazilian moves from White's side, so
the script sets `move-numbering=rows-reversed` (see tools/hub_pydraughts.py).
"""
import argparse
import re
import sys
import time

import draughts
from draughts.engine import HubEngine, Limit


def start_engine(path: str, threads: int) -> HubEngine:
    engine = HubEngine([path, "hub"])
    engine.configure(
        {"variant": "brazilian", "move-numbering": "rows-reversed", "threads": threads}
    )
    engine.init()
    return engine


def think_raw(engine: HubEngine, board: draughts.Board, level: str) -> str:
    """`go think` with a level line of our own; returns the best move (Hub notation)."""
    moves = " ".join(m.hub_move for m in board.move_stack)
    fen = board._game.initial_hub_fen
    engine.send(f'pos pos={fen} moves="{moves}"' if moves else f"pos pos={fen}")
    engine.send(level)
    engine.send("go think")
    while True:
        command, arg = engine.recv_hub()
        if command == "done":
            m = re.search(r"move=(\S+)", arg)
            if not m:
                raise RuntimeError(f"done without a move: {arg!r}")
            return m.group(1)


def play_game(engines, args):
    """One game; engines[0] plays White. Returns (result, loser_on_time, min_left)."""
    board = draughts.Board(variant="brazilian")
    for e in engines:
        e.send("new-game")
    clock = {draughts.WHITE: args.time, draughts.BLACK: args.time}
    min_left = args.time
    for ply in range(args.max_plies):
        if board.is_over():
            break
        side = board.turn
        engine = engines[0] if side == draughts.WHITE else engines[1]
        legal = {m.hub_move for m in board.legal_moves()}
        t0 = time.monotonic()
        if args.inc > 0:
            best = engine.play(board, Limit(time=clock[side], inc=args.inc), ponder=False).move.hub_move
        else:
            best = think_raw(engine, board, f"level moves={args.moves} time={clock[side]:.3f}")
        clock[side] -= time.monotonic() - t0
        if clock[side] < 0:
            return "time", side, clock[side]
        min_left = min(min_left, clock[side])
        clock[side] += args.inc
        if best not in legal:
            raise RuntimeError(f"ply {ply + 1}: illegal move {best} (legal {sorted(legal)})")
        board.push(draughts.Move(board, hub_move=best))
    if not board.is_over():
        return "draw (adjudicated)", None, min_left
    winner = board.winner()
    if winner == draughts.WHITE:
        return "1-0", None, min_left
    if winner == draughts.BLACK:
        return "0-1", None, min_left
    return "draw", None, min_left


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default="target/release/damas")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--time", type=float, default=1.0, help="seconds per side")
    p.add_argument("--inc", type=float, default=0.0, help="increment per move, seconds")
    p.add_argument("--moves", type=int, default=0, help="moves= of the level line (0: sudden death)")
    p.add_argument("--max-plies", type=int, default=250)
    p.add_argument("--threads", type=int, default=1, help="search threads of each engine")
    args = p.parse_args()

    engines = [start_engine(args.engine, args.threads), start_engine(args.engine, args.threads)]
    losses = 0
    results = {"A": 0.0, "B": 0.0}
    counts = {}
    min_left = args.time
    for g in range(args.games):
        # Engine A plays White in even games.
        order = engines if g % 2 == 0 else engines[::-1]
        names = ("A", "B") if g % 2 == 0 else ("B", "A")
        result, loser, left = play_game(order, args)
        counts[result] = counts.get(result, 0) + 1
        if result == "time":
            losses += 1
            who = names[0] if loser == draughts.WHITE else names[1]
            print(f"game {g + 1}: {who} LOST ON TIME ({left:.3f} s)", flush=True)
            results["B" if who == "A" else "A"] += 1
        else:
            min_left = min(min_left, left)
            if result == "1-0":
                results[names[0]] += 1
            elif result == "0-1":
                results[names[1]] += 1
            else:
                results["A"] += 0.5
                results["B"] += 0.5
            print(f"game {g + 1}: {names[0]} (White) vs {names[1]}: {result}, min clock left {left:.3f} s", flush=True)
    for e in engines:
        e.quit()
        e.p.wait(timeout=5)
        e.p.stdin.close()
        e.p.stdout.close()
    clock = f"{args.time:g}+{args.inc:g}" if args.inc > 0 else f"time={args.time:g} moves={args.moves}"
    print(f"summary: {args.games} games at {clock}: {losses} time losses; "
          f"results {dict(sorted(counts.items()))}; score A {results['A']:g} B {results['B']:g}; "
          f"smallest clock left after a move {min_left:.3f} s")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
