#!/usr/bin/env python3
"""Time use per engine in a `damas match` PDN of timed games.

`damas match --pdn FILE` writes, after each move of an engine on time, the time the
move took and, on a clock, the clock after it: `{[%emt 0:00:00.153] [%clk 0:00:05.210]}`.
This script reads them back per engine (the White and Black tags):

    python3 tools/pdn_times.py m.pdn

and prints, per engine, the moves that took 5 ms or more (book and forced moves are
answered at once and left out), their mean, median and largest time, and on a clock
the mean, smallest and median clock left after the engine's last move of each game.
"""

import re
import statistics
import sys

MOVE = re.compile(r"[a-h][1-8](?:[-x][a-h][1-8])+")
TIMES = re.compile(r"\{\[%emt ([\d:.]+)\](?: \[%clk ([\d:.]+)\])?\}")


def seconds(text):
    h, m, s = text.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def games(text):
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        if tags:
            yield tags, chunk[chunk.rfind("]\n") + 2:]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: pdn_times.py FILE.pdn")
    moves, ends = {}, {}
    for tags, body in games(open(sys.argv[1], encoding="utf-8").read()):
        names = [tags.get("White", "?"), tags.get("Black", "?")]
        # Moves and their comments in order: each comment follows its move.
        side = 0 if tags.get("FEN", "W")[0] == "W" else 1
        last = {}
        pos = 0
        while True:
            mv = MOVE.search(body, pos)
            if not mv:
                break
            pos = mv.end()
            times = TIMES.match(body, pos + 1) or TIMES.match(body, pos)
            if times:
                name = names[side]
                emt = seconds(times.group(1))
                if emt >= 0.005:
                    moves.setdefault(name, []).append(emt)
                if times.group(2):
                    last[name] = seconds(times.group(2))
                pos = times.end()
            side ^= 1
        for name, left in last.items():
            ends.setdefault(name, []).append(left)
    if not moves:
        sys.exit("no move times in the file (only engines on time= or clock= have them)")
    for name, t in moves.items():
        line = (f"{name}: {len(t)} moves, mean {statistics.mean(t):.3f} s, "
                f"median {statistics.median(t):.3f} s, largest {max(t):.3f} s")
        if name in ends:
            c = ends[name]
            line += (f"; clock left at the end: mean {statistics.mean(c):.2f} s, "
                     f"smallest {min(c):.2f} s, median {statistics.median(c):.2f} s")
        print(line)


if __name__ == "__main__":
    main()
