#!/usr/bin/env python3
"""Drive `damas hub` from a real Hub client: pydraughts' HubEngine (the client that
lidraughts-bot uses). Not run in CI.

Usage:
    pip install pydraughts            # tested with 0.6.7
    cargo build --release
    python3 tools/hub_pydraughts.py [path/to/damas] [plies]

It plays one game of Brazilian draughts engine-against-itself through pydraughts
(`Board(variant="brazilian")`, `HubEngine.play`), checks that every move damas
returns is legal in pydraughts' own board, then exercises ping, ponder + ponder-hit and
quit. Each side plays on a real clock (3 s + 0.05 s per move) that must never run
out.

Ponder is checked first, on the start position. Numbering quirk: for Brazilian (and Russian) pydraughts sends the position string
(`pos pos=W...`) in the standard order of docs/rules.md (square 1 = b8), but numbers the
squares of its *moves* from White's side (1 = a1, 32 = h8: the rows reversed); the
first White moves are `9-13` ... `12-16`, not `21-17` ... `24-20`. The script
therefore sets `move-numbering=rows-reversed` (a damas Hub parameter) before playing;
lidraughts-bot users do the same in the engine options of its config.
"""
import sys
import time

import draughts
from draughts.engine import HubEngine, Limit


def main() -> int:
    damas = sys.argv[1] if len(sys.argv) > 1 else "target/release/damas"
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    engine = HubEngine([damas, "hub"])
    print("id:", engine.id, "options:", sorted(engine.options), "variants:", engine.variants)
    assert "brazilian" in engine.variants, "damas must announce the brazilian variant"
    engine.configure({"variant": "brazilian", "move-numbering": "rows-reversed"})
    engine.init()
    engine.ping()

    board = draughts.Board(variant="brazilian")
    # Ponder on the start position, then ponder-hit: damas must answer with `done`.
    engine.send(f"pos pos={board._game.initial_hub_fen}")
    engine.send("level move-time=0.3")
    engine.send("go ponder")
    engine.ponderhit()
    while True:
        command, arg = engine.recv_hub()
        if command == "done":
            print("ponder-hit answered:", arg)
            break

    # A real clock per side: 3 s + 0.05 s a move; damas must never run out.
    clock = {draughts.WHITE: 3.0, draughts.BLACK: 3.0}
    inc = 0.05
    for ply in range(plies):
        if board.is_over():
            break
        legal = {m.hub_move for m in board.legal_moves()}
        side = board.turn
        t0 = time.monotonic()
        result = engine.play(board, Limit(time=clock[side], inc=inc), ponder=False)
        clock[side] += inc - (time.monotonic() - t0)
        assert clock[side] > 0, f"ply {ply}: out of time ({clock[side]:.3f} s)"
        assert result.move.hub_move in legal, f"ply {ply}: {result.move.hub_move} not in {sorted(legal)}"
        print(ply + 1, result.move.pdn_move, result.info.get("score"), result.info.get("depth"), f"clock {clock[side]:.2f}")
        board.push(result.move)
    print("final fen:", board.fen, "over:", board.is_over(), "winner:", board.winner())

    engine.quit()
    engine.p.wait(timeout=5)
    engine.p.stdin.close()
    engine.p.stdout.close()
    print("ok: exit status", engine.p.returncode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
