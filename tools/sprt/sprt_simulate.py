#!/usr/bin/env python3
"""How often the match's SPRT decides wrongly, and after how many games, at a given
draw ratio: simulated matches of independent games scored by the same exact LLR as
`damas match --sprt` (fishtest's LLR_logistic on the game pairs, as transcribed in
sprt_reference.py; `--by-games` scores the games one by one instead).

At draw ratios over 90 % an SPRT with Elo bounds of a few points stops after a few
hundred games with a handful of decisive ones, where the GSPRT's approximation (the
draw ratio estimated from the games themselves) is least tested; this measures its
error rates there instead of assuming Wald's alpha and beta.

Run: python3 tools/sprt/sprt_simulate.py --elo0 0 --elo1 10 --draws 0.955 [--runs 1000]
     [--by-games]
"""
import argparse
import random

from sprt_reference import L, bounds, llr_exact, llr_exact_counts


def trinomial(elo, draws):
    """Win and loss probabilities with score L(elo) and the given draw ratio."""
    s = L(elo)
    decisive = 1 - draws
    win = s - draws / 2
    if not 0 <= win <= decisive:
        raise SystemExit(f"Elo {elo} is out of reach at draw ratio {draws}")
    return win, decisive - win


def run(elo, draws, elo0, elo1, lower, upper, max_games, rng, cache, by_games):
    """One simulated SPRT: ('H0' | 'H1' | 'none', games)."""
    pw, pl = trinomial(elo, draws)
    w = d = l = 0
    pairs = [0] * 5
    first = None
    for n in range(1, max_games + 1):
        u = rng.random()
        if u < pw:
            w += 1
            half = 2
        elif u < pw + pl:
            l += 1
            half = 0
        else:
            d += 1
            half = 1
        if by_games:
            key = (w, d, l)
        else:
            if first is None:
                first = half
                continue
            pairs[first + half] += 1
            first = None
            key = tuple(pairs)
        llr = cache.get(key)
        if llr is None:
            llr = cache[key] = (llr_exact(elo0, elo1, w, d, l) if by_games
                                else llr_exact_counts(elo0, elo1, key))
        if llr <= lower:
            return "H0", n
        if llr >= upper:
            return "H1", n
    return "none", max_games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elo0", type=float, default=0)
    ap.add_argument("--elo1", type=float, default=10)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--draws", type=float, required=True, help="draw ratio, 0 to 1")
    ap.add_argument("--true-elo", type=float, action="append",
                    help="the true Elo simulated (repeatable; default elo0, the middle, elo1)")
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--max-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--by-games", action="store_true",
                    help="score the games one by one (trinomial), not by pairs")
    args = ap.parse_args()

    lower, upper = bounds(args.alpha, args.beta)
    trues = args.true_elo or [args.elo0, (args.elo0 + args.elo1) / 2, args.elo1]
    rng = random.Random(args.seed)
    cache = {}
    scoring = "games one by one" if args.by_games else "game pairs"
    print(f"SPRT [{args.elo0:g}, {args.elo1:g}] on {scoring}, alpha {args.alpha:g}, "
          f"beta {args.beta:g}, draw ratio {args.draws:g}, {args.runs} runs, "
          f"at most {args.max_games} games")
    print("true Elo | H0 accepted | H1 accepted | undecided | games, median (90th percentile)")
    for elo in trues:
        counts = {"H0": 0, "H1": 0, "none": 0}
        games = []
        for _ in range(args.runs):
            verdict, n = run(elo, args.draws, args.elo0, args.elo1, lower, upper,
                             args.max_games, rng, cache, args.by_games)
            counts[verdict] += 1
            games.append(n)
        games.sort()
        pct = lambda c: f"{100 * c / args.runs:.1f} %"
        print(f"{elo:8g} | {pct(counts['H0']):>11} | {pct(counts['H1']):>11} | "
              f"{pct(counts['none']):>9} | {games[len(games) // 2]} ({games[int(0.9 * len(games))]})")


if __name__ == "__main__":
    main()
