#!/usr/bin/env python3
"""Drive `damas hub` from a real Hub client: pydraughts' HubEngine (the client that
lidraughts-bot uses), with the client's defaults: no option but `variant` is set.
Not run in CI.

Usage:
    pip install pydraughts            # tested with 0.6.7
    cargo build --release
    python3 tools/hub_pydraughts.py [path/to/damas] [plies]

For Brazilian and Russian, and with damas moving first and then second, it plays a
game of at most `plies` plies between damas (`HubEngine.play` on a clock of 3 s +
0.05 s per move that must never run out) and random legal moves from pydraughts' own
board, checking that every move damas returns is legal in that board. It then checks
pondering (`go ponder`, `ponder-hit`), that a parameter damas lacks and a `go` without
its mode are answered with an `error` line, and `quit`.

Numbering: pydraughts sends the position string (`pos pos=W...`) in the standard order
of docs/rules.md (square 1 = b8) but numbers the squares of its *moves* from White's
side (1 = a1, 32 = h8, the rows reversed), for both variants: White's first moves are
`9-13` ... `12-16`. That is damas's default `move-numbering`, so none is set here.
"""
import random
import sys
import time

import draughts
from draughts.engine import HubEngine, Limit


def play_game(engine: HubEngine, variant: str, damas_side, plies: int, rng: random.Random) -> None:
    board = draughts.Board(variant=variant)
    clock = 3.0
    inc = 0.05
    for ply in range(plies):
        if board.is_over():
            break
        legal = list(board.legal_moves())
        if board.turn != damas_side:
            board.push(rng.choice(legal))
            continue
        t0 = time.monotonic()
        result = engine.play(board, Limit(time=clock, inc=inc), ponder=False)
        clock += inc - (time.monotonic() - t0)
        assert clock > 0, f"{variant} ply {ply}: out of time ({clock:.3f} s)"
        hub = {m.hub_move for m in legal}
        assert result.move.hub_move in hub, f"{variant} ply {ply}: {result.move.hub_move} not in {sorted(hub)}"
        board.push(result.move)
    first = "first" if damas_side == draughts.WHITE else "second"
    print(f"{variant}, damas {first}: {len(board.move_stack)} plies, clock {clock:.2f} s,",
          "over:", board.is_over(), "winner:", board.winner())


def error_reply(engine: HubEngine, line: str) -> str:
    """Send `line`, then `ping`; the `error` line that comes before `pong`."""
    engine.send(line)
    engine.send("ping")
    error = ""
    while True:
        command, arg = engine.recv_hub()
        if command == "pong":
            return error
        if command == "error":
            error = arg


def main() -> int:
    damas = sys.argv[1] if len(sys.argv) > 1 else "target/release/damas"
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    rng = random.Random(1)
    engine = HubEngine([damas, "hub"])
    print("id:", engine.id, "options:", sorted(engine.options), "variants:", engine.variants)
    assert {"brazilian", "russian"} <= engine.variants, engine.variants
    for variant in ["brazilian", "russian"]:
        engine.configure({"variant": variant})
        engine.init()
        for side in [draughts.WHITE, draughts.BLACK]:
            play_game(engine, variant, side, plies, rng)

    # Ponder on the start position, then ponder-hit: damas must answer with `done`.
    board = draughts.Board(variant="russian")
    engine.send(f"pos pos={board._game.initial_hub_fen}")
    engine.send("level move-time=0.3")
    engine.send("go ponder")
    engine.ponderhit()
    while True:
        command, arg = engine.recv_hub()
        if command == "done":
            print("ponder-hit answered:", arg)
            break

    for line in ["set-param name=no-such-param value=1", "go fly", "go"]:
        reply = error_reply(engine, line)
        assert reply, f"no error line for {line!r}"
        print(f"{line!r} answered: error {reply}")

    engine.quit()
    engine.p.wait(timeout=5)
    engine.p.stdin.close()
    engine.p.stdout.close()
    print("ok: exit status", engine.p.returncode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
