#!/usr/bin/env python3
"""Perft counts from pydraughts, an independent implementation, to cross-check
`damas perft --variant …`. Not run in CI.

Usage:
    pip install pydraughts            # tested with 0.6.7
    python3 tools/perft_pydraughts.py [--variant russian] [--jobs N] DEPTH [FEN ...]

Prints one line per position, `FEN;D1 n1;D2 n2;…` (the format of data/perft/*.txt),
the start position when no FEN is given. Moves are counted as damas counts them:
two capture routes with the same start, end and captured pieces (and the same
crowning) are one move, so per node the moves are told apart by the position they
lead to. The tree is walked level by level with transpositions merged (each
distinct position once, with its number of paths), which keeps pydraughts' slow
move generator to a few minutes for depth 8 from the start.
"""
import argparse
import sys
from collections import Counter
from multiprocessing import Pool

import draughts

VARIANT = "russian"


def key(fen: str) -> str:
    """A FEN with each side's squares sorted, so that transpositions compare equal."""
    side, *parts = fen.split(":")
    fields = {}
    for p in parts:
        squares = [s for s in p[1:].split(",") if s]
        fields[p[0]] = ",".join(sorted(squares))
    return f"{side}:W{fields.get('W', '')}:B{fields.get('B', '')}"


def children(fen: str) -> list:
    """The distinct positions after each legal move of `fen`."""
    board = draughts.Board(variant=VARIANT, fen=fen)
    out = set()
    for m in board.legal_moves():
        board.push(m)
        out.add(key(board.fen))
        board.pop()
    return sorted(out)


def perft_levels(fen: str, depth: int, pool) -> list:
    """Leaf counts at depths 1..depth."""
    level = Counter({key(fen): 1})
    counts = []
    for _ in range(depth):
        fens = list(level)
        nxt = Counter()
        for f, kids in zip(fens, pool.map(children, fens, chunksize=16)):
            mult = level[f]
            for k in kids:
                nxt[k] += mult
        counts.append(sum(nxt.values()))
        level = nxt
    return counts


def main() -> int:
    global VARIANT
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="russian")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("depth", type=int)
    ap.add_argument("fens", nargs="*")
    args = ap.parse_args()
    VARIANT = args.variant
    fens = args.fens or [draughts.Board(variant=VARIANT).fen]
    with Pool(args.jobs, initializer=_set_variant, initargs=(VARIANT,)) as pool:
        for fen in fens:
            counts = perft_levels(fen, args.depth, pool)
            line = ";".join([fen] + [f"D{d} {n}" for d, n in enumerate(counts, 1)])
            print(line, flush=True)
    return 0


def _set_variant(v: str) -> None:
    global VARIANT
    VARIANT = v


if __name__ == "__main__":
    sys.exit(main())
