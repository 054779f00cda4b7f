#!/usr/bin/env python3
"""Speed of a damas build against a reference build, measured in alternating runs.

The machine is shared and its speed drifts from minute to minute, so the two builds
run one after the other, round after round, and only figures from the same rounds
are compared (issue 15's protocol):

    python3 tools/speed_vs_ref.py --cand target/release/damas \
        --ref /path/to/87e7353/target/release/damas --rounds 4

Per round: `perft --depth D` (leaves/s) and `analyze --time T` from the start
(nodes/s of the last finished iteration; the candidate with `--eval material`, which
the reference build of 87e7353 uses without the flag). Prints each round, then the
medians and the per-round ratios. `--hash MB` is passed to the candidate only.

`--techniques LIST` (repeatable) adds a search run per list with the same
`--techniques` given to both builds, so that the two are compared on the same
technique set (the builds' defaults differ: ours adds killers, late move reductions
and the counting draw rules). Only techniques both builds know may be named.
"""

import argparse
import re
import statistics
import subprocess
import sys


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"speed_vs_ref: {' '.join(cmd)} failed: {out.stderr.strip()}")
    return out.stdout


def perft_rate(binary, depth):
    text = run([binary, "perft", "--depth", str(depth)])
    m = re.search(r"nps (\d+)", text)
    if not m:
        sys.exit(f"speed_vs_ref: no nps in the perft output of {binary}")
    return int(m.group(1))


def search_rate(binary, seconds, extra):
    text = run([binary, "analyze", "--time", str(seconds), *extra])
    rates = re.findall(r"^info .* nps (\d+)", text, re.MULTILINE)
    if not rates:
        sys.exit(f"speed_vs_ref: no info line from {binary}")
    return int(rates[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cand", required=True, help="candidate damas binary")
    ap.add_argument("--ref", required=True, help="reference damas binary (87e7353)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--perft-depth", type=int, default=12)
    ap.add_argument("--time", type=float, default=5.0, help="analyze seconds")
    ap.add_argument("--hash", type=int, help="candidate's table in MB")
    ap.add_argument("--no-perft", action="store_true")
    ap.add_argument(
        "--techniques",
        action="append",
        default=[],
        metavar="LIST",
        help="also compare nodes/s with this technique list given to both builds",
    )
    a = ap.parse_args()
    cand_extra = ["--eval", "material"] + (["--hash", str(a.hash)] if a.hash else [])
    rows = []
    for r in range(1, a.rounds + 1):
        row = {}
        if not a.no_perft:
            row["perft_ref"] = perft_rate(a.ref, a.perft_depth)
            row["perft_cand"] = perft_rate(a.cand, a.perft_depth)
        row["nps_ref"] = search_rate(a.ref, a.time, [])
        row["nps_cand"] = search_rate(a.cand, a.time, cand_extra)
        for t in a.techniques:
            same = ["--techniques", t]
            row[f"nps[{t}]_ref"] = search_rate(a.ref, a.time, same)
            row[f"nps[{t}]_cand"] = search_rate(a.cand, a.time, cand_extra + same)
        rows.append(row)
        shown = "  ".join(f"{k} {v / 1e6:.2f}M" for k, v in row.items())
        print(f"round {r}: {shown}", flush=True)
    searches = ["nps"] + [f"nps[{t}]" for t in a.techniques]
    for what in (["perft"] if not a.no_perft else []) + searches:
        ref = [x[f"{what}_ref"] for x in rows]
        cand = [x[f"{what}_cand"] for x in rows]
        ratios = [c / f for c, f in zip(cand, ref)]
        print(
            f"{what}: candidate median {statistics.median(cand) / 1e6:.2f} M/s, "
            f"reference {statistics.median(ref) / 1e6:.2f} M/s, per-round ratio "
            f"{min(ratios):.2f}-{max(ratios):.2f}x (median {statistics.median(ratios):.2f}x)"
        )


if __name__ == "__main__":
    main()
