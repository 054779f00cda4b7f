#!/usr/bin/env python3
"""Games of `damas hub` against `damas hub` (or another damas build) through a real
Hub client (pydraughts' HubEngine, the client lidraughts-bot uses), on clocks or at a
fixed time per move, optionally pondering, counting losses on time. Not run in CI.

Usage:
    pip install pydraughts            # tested with 0.6.7
    cargo build --release
    python3 tools/hub_clock_games.py --games 100 --time 1 --inc 0.05
    python3 tools/hub_clock_games.py --games 100 --time 2 --moves 0
    python3 tools/hub_clock_games.py --games 100 --time 1 --inc 0.05 --threads 2 --ponder
    python3 tools/hub_clock_games.py --games 4 --move-time 0.1 --ballots
    python3 tools/hub_clock_games.py --engine2 ../old/target/release/damas --option move-overhead=50

The script keeps the clocks itself, as a GUI does: each side's time runs from
writing `go think` (or `ponder-hit`) until the `done` line is read (pipe latency
included; pydraughts' own work on the move in Python, tens of milliseconds on a busy
machine, is left to the client, as lidraughts-bot's `move_overhead` covers it), the increment is credited only after the move, and a side whose clock
falls below zero loses on time. Each engine is told the time left on its own clock
before the move: with an increment through pydraughts' `HubEngine.play` (which sends
`time` minus the increment, as lidraughts-bot does), without one as the raw Hub
command `level moves=M time=T` (pydraughts cannot send `moves=0`). With `--ponder`,
a side that gave a ponder move ponders on it as lidraughts-bot does (`go ponder` in
a thread; `ponder-hit` when the opponent plays it, else `stop` and a new search).
With `--move-time` each side gets `level move-time=T` instead of a clock, and the
summary gives the mean and largest time per move of the moves with more than one
legal move and no proven result (from `go think` to `done`). The two engines swap colours every game;
games vary through the engine's opening book (on by default) or, with `--ballots`,
start from the FMJD ballots in order (each twice, colours swapped; book off).
Games longer than --max-plies are adjudicated drawn. The last line sums up: games,
time losses, results and the smallest clock left after a move.

Numbering: pydraughts numbers the squares of Brazilian moves from White's side, as
damas's default `move-numbering` (rows-reversed) does; no option is set.
"""
import argparse
import json
import os
import re
import statistics
import sys
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit


class TimedHubEngine(HubEngine):
    """pydraughts' HubEngine noting when `go think` or `ponder-hit` went out and when
    `done` came back: the engine's part of a move, which the clocks charge."""

    sent_at = 0.0
    done_at = 0.0

    def send(self, line: str) -> None:
        super().send(line)
        if line in ("go think", "ponder-hit"):
            self.sent_at = time.monotonic()

    def recv(self) -> str:
        line = super().recv()
        if line.startswith("done"):
            self.done_at = time.monotonic()
        return line

    def spent(self) -> float:
        return self.done_at - self.sent_at


def start_engine(path: str, args) -> HubEngine:
    engine = TimedHubEngine([path, "hub"])
    options = {"variant": args.variant, "threads": args.threads}
    if args.ballots:
        options["book"] = "false"
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = value
    engine.configure(options)
    engine.init()
    return engine


def ballots():
    """The 150 FMJD ballots for Brazilian draughts, in pydraughts' file order."""
    path = os.path.join(os.path.dirname(draughts.__file__), "ballot_files", "150russian_and_brazilian.json")
    with open(path) as f:
        data = json.load(f)
    return [data["all"][k] for k in data["standard"]]


class Ponder:
    """A ponder search running in a thread, as lidraughts-bot runs it."""

    def __init__(self, engine: HubEngine, board: draughts.Board, expected: str, limit: Limit):
        self.engine, self.expected, self.result = engine, expected, None
        self.thread = threading.Thread(target=self._run, args=(board, limit), daemon=True)
        self.thread.start()

    def _run(self, board, limit):
        self.result = self.engine.play(board, limit, ponder=True)

    def hit(self):
        self.engine.ponderhit()  # pydraughts waits until `go ponder` went out
        self.thread.join()
        return self.result

    def miss(self) -> None:
        while self.engine._last_sent != "go ponder":
            time.sleep(0.0005)
        self.engine.stop()
        self.thread.join()


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


def limit_for(args, left: float) -> Limit:
    if args.move_time:
        return Limit(movetime=args.move_time)
    return Limit(time=left, inc=args.inc) if args.inc > 0 else Limit(time=left)


def play_game(engines, args, fen, times):
    """One game from `fen` (None: the start); engines[0] plays White. Returns
    (result, loser_on_time, min_left); appends the time of each move with a choice
    to `times`."""
    board = draughts.Board(variant=args.variant, fen=fen) if fen else draughts.Board(variant=args.variant)
    for e in engines:
        e.send("new-game")
    clock = {draughts.WHITE: args.time, draughts.BLACK: args.time}
    min_left = args.time
    pondering = {}
    try:
        for ply in range(args.max_plies):
            if board.is_over():
                break
            side = board.turn
            engine = engines[0] if side == draughts.WHITE else engines[1]
            legal = {m.hub_move for m in board.legal_moves()}
            ponder = pondering.pop(side, None)
            played = None
            if ponder and board.move_stack and board.move_stack[-1].hub_move == ponder.expected:
                played = ponder.hit()
            elif ponder:
                ponder.miss()
            if played is None and (args.inc > 0 or args.move_time or args.ponder):
                played = engine.play(board, limit_for(args, clock[side]), ponder=False)
            if played is not None:
                best = played.move.hub_move
            else:
                best = think_raw(engine, board, f"level moves={args.moves} time={clock[side]:.3f}")
            spent = engine.spent()
            proven = played is not None and "win" in (played.info.get("score") or {})
            if len(legal) > 1 and not proven:
                times.append(spent)
            if args.verbose:
                print(f"  ply {ply + 1}: {best} in {spent:.3f} s, clock {clock[side]:.3f} s before", flush=True)
            if not args.move_time:
                clock[side] -= spent
                if clock[side] < 0:
                    return "time", side, clock[side]
                min_left = min(min_left, clock[side])
                clock[side] += args.inc
            if best not in legal:
                raise RuntimeError(f"ply {ply + 1}: illegal move {best} (legal {sorted(legal)})")
            board.push(draughts.Move(board, hub_move=best))
            reply = played.ponder.hub_move if played is not None and played.ponder else None
            if args.ponder and reply and not board.is_over():
                # Ponder on the engine's expected reply, as lidraughts-bot does.
                after = board.copy()
                after.push(draughts.Move(after, hub_move=reply))
                if not after.is_over():
                    pondering[side] = Ponder(engine, after, reply, limit_for(args, clock[side]))
    finally:
        for p in pondering.values():
            p.miss()
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
    p.add_argument("--engine", default="target/release/damas", help="engine A's damas binary")
    p.add_argument("--engine2", help="engine B's damas binary (default: --engine)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--variant", default="brazilian", choices=["brazilian", "russian"], help="the rules played")
    p.add_argument("--time", type=float, default=1.0, help="seconds per side")
    p.add_argument("--inc", type=float, default=0.0, help="increment per move, seconds")
    p.add_argument("--moves", type=int, default=0, help="moves= of the level line (0: sudden death)")
    p.add_argument("--max-plies", type=int, default=250)
    p.add_argument("--threads", type=int, default=1, help="search threads of each engine")
    p.add_argument("--move-time", type=float, help="a fixed time per move instead of a clock")
    p.add_argument("--ponder", action="store_true", help="ponder as lidraughts-bot does")
    p.add_argument("--verbose", action="store_true", help="print every move's time and clock")
    p.add_argument("--ballots", action="store_true", help="start from the FMJD ballots, book off")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a set-param for both engines (repeatable), e.g. move-overhead=100")
    args = p.parse_args()

    engines = [start_engine(args.engine, args), start_engine(args.engine2 or args.engine, args)]
    openings = ballots() if args.ballots else [None]
    times = []
    losses = 0
    results = {"A": 0.0, "B": 0.0}
    counts = {}
    min_left = args.time
    for g in range(args.games):
        # Engine A plays White in even games.
        order = engines if g % 2 == 0 else engines[::-1]
        names = ("A", "B") if g % 2 == 0 else ("B", "A")
        result, loser, left = play_game(order, args, openings[(g // 2) % len(openings)], times)
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
    if args.move_time:
        clock = f"move-time={args.move_time:g}"
    elif args.inc > 0:
        clock = f"{args.time:g}+{args.inc:g}"
    else:
        clock = f"time={args.time:g} moves={args.moves}"
    clock += " with pondering" if args.ponder else ""
    spent = ""
    if times:
        spent = (f"; {len(times)} moves with a choice: mean {statistics.mean(times):.3f} s, "
                 f"largest {max(times):.3f} s")
    left = "" if args.move_time else f"; smallest clock left after a move {min_left:.3f} s"
    print(f"summary: {args.games} games at {clock}: {losses} time losses; "
          f"results {dict(sorted(counts.items()))}; score A {results['A']:g} B {results['B']:g}"
          f"{left}{spent}")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
