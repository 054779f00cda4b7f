#!/usr/bin/env python3
"""Check that a kestog-hub build (tools/kestog/build.sh) plays by damas' Russian
rules: its perft on every position of data/perft/russian.txt must equal the
committed counts, so that a match against it is played under one set of rules.
Not run in CI (KestoG is not part of damas).

Usage:
    python3 tools/kestog/perft_check.py [--engine target/kestog-hub] [--max-leaves N]

Counts above --max-leaves (default 30,000,000) are skipped. Exit status 1 on a
difference.
"""
import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hub_position(fen: str) -> str:
    """The Hub position string (side, then squares 1 = b8 … 32 = g1) of a FEN with
    algebraic squares (`W:Wa1,Kc3:Bb8`)."""
    side, *parts = fen.split(":")
    cells = ["e"] * 32
    for part in parts:
        colour, squares = part[0], part[1:]
        for sq in filter(None, squares.split(",")):
            king = sq.startswith("K")
            sq = sq.lstrip("K")
            file, rank = ord(sq[0]) - ord("a"), int(sq[1:])
            row = 8 - rank
            cells[4 * row + file // 2] = (colour.lower(), colour)[king]
    return side + "".join(cells)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=str(ROOT / "target" / "kestog-hub"))
    ap.add_argument("--max-leaves", type=int, default=30_000_000)
    args = ap.parse_args()
    lines, expected = [], []
    for raw in (ROOT / "data" / "perft" / "russian.txt").read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        fen, *counts = raw.split(";")
        for c in counts:
            d, n = c.split()
            depth, leaves = int(d[1:]), int(n)
            if leaves > args.max_leaves:
                continue
            lines.append(f"pos pos={hub_position(fen)}")
            lines.append(f"perft {depth}")
            expected.append((fen, depth, leaves))
    out = subprocess.run([args.engine], input="\n".join(lines) + "\nquit\n",
                         capture_output=True, text=True, check=True).stdout
    got = [int(l.split()[2]) for l in out.splitlines() if l.startswith("perft ")]
    bad = 0
    for (fen, depth, leaves), n in zip(expected, got):
        if n != leaves:
            bad += 1
            print(f"differs: {fen} depth {depth}: kestog {n}, damas {leaves}")
    if len(got) != len(expected):
        print(f"kestog answered {len(got)} of {len(expected)} counts")
        bad += 1
    print(f"{len(expected) - bad} of {len(expected)} counts equal")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
