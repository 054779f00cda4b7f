#!/usr/bin/env python3
"""Check that PDN written by damas reads and replays in pydraughts. Not run in CI.

Usage:
    pip install pydraughts            # tested with 0.6.7
    cargo build --release
    python3 tools/pdn_pydraughts.py [path/to/damas] [games]

Plays a short `damas match` (depth 4 against depth 2), reads the PDN file with
pydraughts' PDNReader, replays every move on a pydraughts Board(variant="brazilian")
and checks that games ending by "no legal move" end the same way there, with the
same winner as the Result tag.
"""
import os
import subprocess
import sys
import tempfile

import draughts
from draughts.PDN import PDNReader


def main() -> int:
    damas = sys.argv[1] if len(sys.argv) > 1 else "target/release/damas"
    games = sys.argv[2] if len(sys.argv) > 2 else "6"
    with tempfile.TemporaryDirectory() as tmp:
        pdn = os.path.join(tmp, "m.pdn")
        subprocess.run([damas, "match", "--engine1", "depth=4", "--engine2", "depth=2",
                        "--games", games, "--quiet", "--pdn", pdn], check=True)
        reader = PDNReader(filename=pdn)
        for i, g in enumerate(reader.games, 1):
            board = draughts.Board(variant="brazilian")
            for m in g.moves:
                board.push(draughts.Move(board, pdn_move=m))
            result = g.tags.get("Result")
            if g.tags.get("Termination") == "no legal move":
                assert board.is_over(), f"game {i}: pydraughts does not see the end"
                winner = {draughts.WHITE: "2-0", draughts.BLACK: "0-2"}[board.winner()]
                assert winner == result, f"game {i}: {winner} != {result}"
            print(f"game {i}: {len(board.move_stack)} moves replayed, {result}, {g.tags.get('Termination')}")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
