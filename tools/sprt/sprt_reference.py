#!/usr/bin/env python3
"""Reference values for the SPRT tests of `src/matches/sprt.rs`.

An independent transcription of fishtest's published formulas
(server/fishtest/stats/LLRcalc.py: L_, regularize, results_to_pdf, stats,
LLR_alt2), the normal approximation of the trinomial GSPRT in logistic Elo:

    LLR = N * (s1 - s0) * (2*s - s0 - s1) / (2 * var)

with s the observed score per game, var its per-game variance, s0 and s1 the
expected scores of elo0 and elo1, and zero counts replaced by 1e-3. For
comparison it also prints the exact generalized LLR (fishtest's LLR_logistic,
the multinomial MLE under each hypothesis), solved here by bisection instead of
scipy. Run: python3 tools/sprt/sprt_reference.py
"""
import math


def L(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def pdf_of(wins, draws, losses):
    counts = [c if c != 0 else 1e-3 for c in (losses, draws, wins)]
    n = sum(counts)
    return n, [(i / 2, c / n) for i, c in enumerate(counts)]


def stats(pdf):
    s = sum(p * a for a, p in pdf)
    return s, sum(p * (a - s) ** 2 for a, p in pdf)


def llr_alt2(elo0, elo1, wins, draws, losses):
    n, pdf = pdf_of(wins, draws, losses)
    s, var = stats(pdf)
    s0, s1 = L(elo0), L(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / var / 2


def mle(pdf, s):
    """Multinomial MLE with expectation s: p_i / (1 + x (a_i - s))."""
    a = [ai - s for ai, _ in pdf]
    f = lambda x: sum(p * ai / (1 + x * ai) for ai, (_, p) in zip(a, pdf))
    lo, hi = -1 / max(a) + 1e-12, -1 / min(a) - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [p / (1 + x * ai) for ai, (_, p) in zip(a, pdf)]


def llr_exact(elo0, elo1, wins, draws, losses):
    n, pdf = pdf_of(wins, draws, losses)
    p0, p1 = mle(pdf, L(elo0)), mle(pdf, L(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


CASES = [
    (0, 5, 10, 20, 30),
    (0, 5, 30, 20, 10),
    (-3, 1, 1000, 2000, 950),
    (0, 10, 12, 0, 3),
    (0, 10, 0, 7, 0),
    (0, 2, 5123, 10050, 5000),
]


def bounds(alpha, beta):
    """Wald's bounds on the LLR: accept H0 at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def main():
    for elo0, elo1, w, d, l in CASES:
        print(f"elo0={elo0} elo1={elo1} +{w} ={d} -{l}: "
              f"LLR={llr_alt2(elo0, elo1, w, d, l):.10f} "
              f"(exact {llr_exact(elo0, elo1, w, d, l):.6f})")
    for alpha, beta in [(0.05, 0.05), (0.05, 0.1)]:
        lower, upper = bounds(alpha, beta)
        print(f"alpha={alpha} beta={beta}: lower={lower:.10f} upper={upper:.10f}")


if __name__ == "__main__":
    main()
