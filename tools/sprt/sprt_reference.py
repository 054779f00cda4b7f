#!/usr/bin/env python3
"""Reference values for the SPRT and pair-interval tests of `src/matches/`.

An independent transcription of fishtest's published formulas
(server/fishtest/stats/LLRcalc.py: L_, regularize, results_to_pdf, stats,
LLR_alt2), the normal approximation of the GSPRT in logistic Elo:

    LLR = N * (s1 - s0) * (2*s - s0 - s1) / (2 * var)

with s the observed score per observation, var its variance, s0 and s1 the
expected scores of elo0 and elo1, and zero counts replaced by 1e-3. An
observation is a game (trinomial results: loss, draw, win) or a pair of games
with the same opening and colours swapped (pentanomial results: the first
player's 0, 1/2, 1, 3/2 or 2 points, scored as their mean). For comparison it
also prints the exact generalized LLR (fishtest's LLR_logistic, the multinomial
MLE under each hypothesis), solved here by bisection instead of scipy, and the
95 % Elo interval of pair results (`elo_pairs`, the rule `src/matches/elo.rs`
documents).

Normalized Elo (M. Van den Bergh, "Normalized Elo: practical"; fishtest's
LLR_normalized, LLR_normalized_alt, MLE_t_value and the t-value interval of its
statistics page): nElo = (s - 1/2) / sigma_per_game * 800 / ln 10, where a pair's
sigma per game is sqrt(2) times the standard deviation of the pair score (the mean of
its two games); the GSPRT in normalized Elo fits, under each hypothesis, the
multinomial whose t-value (mu - 1/2) / sigma is the hypothesis' (a pair's t-value is
sqrt(2) times the per-game one). Run: python3 tools/sprt/sprt_reference.py
"""
import math


def L(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def pdf_of_counts(counts):
    """Counts from the worst result to the best, as (value, probability) pairs."""
    k = len(counts) - 1
    counts = [c if c != 0 else 1e-3 for c in counts]
    n = sum(counts)
    return n, [(i / k, c / n) for i, c in enumerate(counts)]


def pdf_of(wins, draws, losses):
    return pdf_of_counts((losses, draws, wins))


def stats(pdf):
    s = sum(p * a for a, p in pdf)
    return s, sum(p * (a - s) ** 2 for a, p in pdf)


def llr_alt2(elo0, elo1, wins, draws, losses):
    return llr_alt2_counts(elo0, elo1, (losses, draws, wins))


def llr_alt2_counts(elo0, elo1, counts):
    n, pdf = pdf_of_counts(counts)
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
    return llr_exact_counts(elo0, elo1, (losses, draws, wins))


def llr_exact_counts(elo0, elo1, counts):
    n, pdf = pdf_of_counts(counts)
    p0, p1 = mle(pdf, L(elo0)), mle(pdf, L(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


NELO_PER_T = 800 / math.log(10)


def secular(a, p):
    """Root of sum p_i a_i / (1 + x a_i) = 0 by bisection; None unless a has both signs."""
    if not (max(a) > 0 > min(a)):
        return None
    lo, hi = -1 / max(a), -1 / min(a)
    f = lambda x: sum(q * ai / (1 + x * ai) for ai, q in zip(a, p))
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_t(pdf, ref, t):
    """Multinomial MLE with t-value (mu - ref) / sigma = t (fixed-point iteration)."""
    values = [a for a, _ in pdf]
    p = [q for _, q in pdf]
    q = [1 / len(p)] * len(p)
    for _ in range(100):
        mu = sum(v * w for v, w in zip(values, q))
        sigma = sum(w * (v - mu) ** 2 for v, w in zip(values, q)) ** 0.5
        a = [v - ref - t * sigma * (1 + ((mu - v) / sigma) ** 2) / 2 for v in values]
        x = secular(a, p)
        if x is None:
            return None
        new = [pi / (1 + x * ai) for pi, ai in zip(p, a)]
        change = max(abs(u - w) for u, w in zip(new, q))
        q = new
        if change < 1e-12:
            break
    return q


def llr_normalized_alt_counts(nelo0, nelo1, counts):
    n, pdf = pdf_of_counts(counts)
    s, var = stats(pdf)
    games_per = 2 if len(counts) == 5 else 1
    sigma = (games_per * var) ** 0.5
    t0, t1 = nelo0 / NELO_PER_T, nelo1 / NELO_PER_T
    t = (s - 0.5) / sigma
    return games_per * n / 2 * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))


def llr_normalized_counts(nelo0, nelo1, counts):
    n, pdf = pdf_of_counts(counts)
    games_per = 2 if len(counts) == 5 else 1
    t0, t1 = (nelo * games_per ** 0.5 / NELO_PER_T for nelo in (nelo0, nelo1))
    p0, p1 = mle_t(pdf, 0.5, t0), mle_t(pdf, 0.5, t1)
    if p0 is None or p1 is None:
        return llr_normalized_alt_counts(nelo0, nelo1, counts)
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


def nelo_of_counts(counts, z=1.96):
    """Normalized Elo and its interval from the t-value's asymptotic variance
    1 - t*skewness + t^2 (excess kurtosis + 2) / 4 per observation."""
    n, pdf = pdf_of_counts(counts)
    mu, var = stats(pdf)
    m3 = sum(p * (a - mu) ** 3 for a, p in pdf)
    m4 = sum(p * (a - mu) ** 4 for a, p in pdf)
    skew, exkurt = m3 / var ** 1.5, m4 / var ** 2 - 3
    t = (mu - 0.5) / var ** 0.5
    var_t = max(1 - t * skew + 0.25 * t * t * (exkurt + 2), 0)
    half = z * (var_t / n) ** 0.5
    scale = NELO_PER_T / (2 if len(counts) == 5 else 1) ** 0.5
    return t * scale, (t - half) * scale, (t + half) * scale


NELO_CASES = [
    (0, 5, (7, 177, 1968, 218, 11)),
    (0, 10, (7, 177, 1968, 218, 11)),
    (-3, 1, (40, 300, 900, 330, 45)),
    (0, 20, (0, 0, 5, 0, 0)),
    (0, 40, (1, 12, 30, 25, 8)),
]


CASES = [
    (0, 5, 10, 20, 30),
    (0, 5, 30, 20, 10),
    (-3, 1, 1000, 2000, 950),
    (0, 10, 12, 0, 3),
    (0, 10, 0, 7, 0),
    (0, 2, 5123, 10050, 5000),
]


# Pair results: pairs in which the first player scored 0, 1/2, 1, 3/2, 2 points.
PAIR_CASES = [
    (0, 10, (7, 177, 1968, 218, 11)),
    (0, 5, (7, 177, 1968, 218, 11)),
    (0, 10, (0, 0, 5, 0, 0)),
    (0, 200, (0, 0, 0, 1, 6)),
    (-3, 1, (40, 300, 900, 330, 45)),
]


def elo_of(s):
    return -400 * math.log10(1 / s - 1)


def elo_pairs(pairs, z=1.96):
    """Mean pair score with z standard errors, in Elo. The variance is that of the
    pairs with one more pair scoring 1/2 and one scoring 3/2 (never zero)."""
    n = sum(pairs)
    s = sum(c * i / 4 for i, c in enumerate(pairs)) / n
    padded = list(pairs)
    padded[1] += 1
    padded[3] += 1
    m = n + 2
    var = sum(c * (i / 4 - s) ** 2 for i, c in enumerate(padded)) / m
    half = z * math.sqrt(var / n)
    lo, hi = max(s - half, 1e-9), min(s + half, 1 - 1e-9)
    return elo_of(s), elo_of(lo), elo_of(hi)


def bounds(alpha, beta):
    """Wald's bounds on the LLR: accept H0 at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def main():
    for elo0, elo1, w, d, l in CASES:
        print(f"elo0={elo0} elo1={elo1} +{w} ={d} -{l}: "
              f"LLR={llr_alt2(elo0, elo1, w, d, l):.10f} "
              f"(exact {llr_exact(elo0, elo1, w, d, l):.6f})")
    for elo0, elo1, pairs in PAIR_CASES:
        print(f"elo0={elo0} elo1={elo1} pairs {list(pairs)}: "
              f"LLR={llr_alt2_counts(elo0, elo1, pairs):.10f} "
              f"(exact {llr_exact_counts(elo0, elo1, pairs):.6f})")
    for pairs in [(7, 177, 1968, 218, 11), (0, 0, 10, 0, 0), (2, 5, 20, 8, 1)]:
        elo, lo, hi = elo_pairs(pairs)
        print(f"pairs {list(pairs)}: Elo {elo:.6f} ({lo:.6f} to {hi:.6f})")
    for nelo0, nelo1, pairs in NELO_CASES:
        print(f"nelo0={nelo0} nelo1={nelo1} pairs {list(pairs)}: "
              f"LLR={llr_normalized_counts(nelo0, nelo1, pairs):.6f} "
              f"(alt {llr_normalized_alt_counts(nelo0, nelo1, pairs):.6f})")
    for counts in [(7, 177, 1968, 218, 11), (0, 0, 10, 0, 0), (2, 5, 20, 8, 1),
                   (1, 12, 30, 25, 8)]:
        nelo, lo, hi = nelo_of_counts(counts)
        print(f"pairs {list(counts)}: nElo {nelo:.6f} ({lo:.6f} to {hi:.6f})")
    for l, d, w in [(30, 20, 10), (950, 2000, 1000)]:
        nelo, lo, hi = nelo_of_counts((l, d, w))
        print(f"+{w} ={d} -{l}: nElo {nelo:.6f} ({lo:.6f} to {hi:.6f}), "
              f"LLR(0,20)={llr_normalized_counts(0, 20, (l, d, w)):.6f}")
    for alpha, beta in [(0.05, 0.05), (0.05, 0.1)]:
        lower, upper = bounds(alpha, beta)
        print(f"alpha={alpha} beta={beta}: lower={lower:.10f} upper={upper:.10f}")


if __name__ == "__main__":
    main()
