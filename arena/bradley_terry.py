"""Bradley–Terry ratings (Plackett–Luce where a match has more than two sides), beside TrueSkill.

Every finished match is one ranking of the distinct bots in it (each at its best side's place, as
:attr:`arena.results.MatchRow.places` gives them). Bot ``i`` has a strength ``g_i = exp(t_i)``; the
Plackett–Luce probability of a ranking ``b1 > b2 > ... > bk`` is the product over its stages of
``g_bs / (g_bs + ... + g_bk)`` (with two bots, Bradley–Terry: ``g_a / (g_a + g_b)``). A ranking with
tied bots counts as every order of the tied bots, each with an equal share of the match.

Prior: every pair of bots has drawn one virtual match (half a win each way), which keeps every
rating finite when a bot has won or lost every match, and is soon outweighed by real matches.

The fit is the maximum of the likelihood times the prior, by the MM algorithm of Hunter (2004,
"MM algorithms for generalized Bradley–Terry models"), with the ratings centred on mean 0. The
95% intervals come from the observed information ``I = sum w (diag(p) - p p^T)`` over the stages
(``p`` the choice probabilities of the stage's bots), inverted on the centred ratings (the
Moore–Penrose inverse); the likelihood of superiority of ``i`` over ``j`` is
``Phi((t_i - t_j) / sd(t_i - t_j))``. Ratings are shown in Elo units: ``400 * t / ln 10``.

Plain Python; computed from the stored results, so the same tournament always gives the same fit.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from typing import Any, Iterable, Sequence

from arena.kinds import Estimate
from arena.results import MatchRow, row_of

ELO = 400 / math.log(10)  # Elo points per unit of log strength
Z95 = 1.959963984540054
PRIOR_DRAWS = 1.0  # virtual drawn matches between every pair of bots


def stages(rankings: Iterable[tuple[dict[str, int], float]]) -> dict[tuple[frozenset, str], float]:
    """The weighted stages of the rankings: (the bots still to be placed, the one placed next) ->
    total weight. ``rankings`` are (bot -> place, weight) pairs; ties are split over their orders."""
    out: dict[tuple[frozenset, str], float] = defaultdict(float)
    for places, weight in rankings:
        if len(places) < 2:
            continue
        groups: dict[int, list[str]] = defaultdict(list)
        for bot, place in places.items():
            groups[place].append(bot)
        ordered = [sorted(groups[place]) for place in sorted(groups)]
        orders = list(itertools.product(*(itertools.permutations(group) for group in ordered)))
        share = weight / len(orders)
        for order in orders:
            flat = [bot for group in order for bot in group]
            for stage in range(len(flat) - 1):
                out[(frozenset(flat[stage:]), flat[stage])] += share
    return dict(out)


def fit(rankings: Iterable[tuple[dict[str, int], float]], bots: list[str], *, prior: float = PRIOR_DRAWS,
        tolerance: float = 1e-10, max_iterations: int = 100_000) -> dict[str, Any]:
    """The Plackett–Luce fit of ``rankings`` over ``bots``: log strengths ``theta`` (mean 0), their
    covariance, and the likelihood of superiority of each pair."""
    data = stages(rankings)
    for a, b in itertools.combinations(bots, 2):  # the prior: virtual draws, half a win each way
        data[(frozenset((a, b)), a)] = data.get((frozenset((a, b)), a), 0.0) + prior / 2
        data[(frozenset((a, b)), b)] = data.get((frozenset((a, b)), b), 0.0) + prior / 2
    n = len(bots)
    if n == 0:
        return {"theta": {}, "covariance": {}, "los": {}}
    wins = {bot: 0.0 for bot in bots}
    for (_, chosen), weight in data.items():
        wins[chosen] += weight
    gamma = {bot: 1.0 for bot in bots}
    for _ in range(max_iterations):
        denominators = {bot: 0.0 for bot in bots}
        for (remaining, _), weight in data.items():
            share = weight / sum(gamma[bot] for bot in remaining)
            for bot in remaining:
                denominators[bot] += share
        new = {bot: (wins[bot] / denominators[bot] if denominators[bot] else gamma[bot]) for bot in bots}
        centre = math.exp(sum(math.log(g) for g in new.values()) / n)
        new = {bot: g / centre for bot, g in new.items()}
        change = max(abs(math.log(new[bot]) - math.log(gamma[bot])) for bot in bots)
        gamma = new
        if change < tolerance:
            break
    theta = {bot: math.log(gamma[bot]) for bot in bots}
    index = {bot: i for i, bot in enumerate(bots)}
    info = [[0.0] * n for _ in range(n)]
    for (remaining, _), weight in data.items():
        total = sum(gamma[bot] for bot in remaining)
        p = {bot: gamma[bot] / total for bot in remaining}
        for a in remaining:
            for b in remaining:
                info[index[a]][index[b]] += weight * ((p[a] if a == b else 0.0) - p[a] * p[b])
    covariance = _pseudo_inverse(info)
    cov = {a: {b: covariance[index[a]][index[b]] for b in bots} for a in bots}
    los = {}
    for a in bots:
        for b in bots:
            if a != b:
                var = cov[a][a] + cov[b][b] - 2 * cov[a][b]
                diff = theta[a] - theta[b]
                los[(a, b)] = 0.5 * math.erfc(-diff / math.sqrt(2 * var)) if var > 0 else (1.0 if diff > 0 else 0.0 if diff < 0 else 0.5)
    return {"theta": theta, "covariance": cov, "los": los}


def _pseudo_inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The Moore–Penrose inverse of a symmetric matrix whose null space is the constant vector (the
    information of a connected comparison graph): ``(M + J/n)^-1 - J/n``, ``J`` all ones."""
    n = len(matrix)
    shifted = [[matrix[i][j] + 1.0 / n for j in range(n)] for i in range(n)]
    inverse = _inverse(shifted)
    return [[inverse[i][j] - 1.0 / n for j in range(n)] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [row[n:] for row in a]


def ratings(matches: Iterable[tuple[dict[str, Any], dict[str, Any]]], bots: list[str]) -> dict[str, Any]:
    """:func:`ratings_of_rows` of (spec, result) pairs."""
    return ratings_of_rows([row_of(spec, result) for spec, result in matches], bots)


def estimates(rows: Sequence[MatchRow], players: Sequence[str]) -> dict[str, Estimate]:
    """Bradley–Terry as a rating system (arena.kinds.Fit): each player's rating in Elo units, mean 0,
    with its 95% interval."""
    fitted = ratings_of_rows(rows, list(players))["bots"]
    return {p: Estimate(fitted[p]["elo"], *fitted[p]["elo_ci"]) for p in players}


def ratings_of_rows(rows: Iterable[MatchRow], bots: list[str]) -> dict[str, Any]:
    """The board's Bradley–Terry / Plackett–Luce ratings of the finished matches, in Elo units:
    per bot its rating and 95% interval; per ordered pair the likelihood of superiority."""
    result = fit(((row.places, 1.0) for row in rows), bots)
    out: dict[str, Any] = {"bots": {}, "los": {}}
    for bot in bots:
        theta, var = result["theta"][bot], result["covariance"][bot][bot]
        half = Z95 * math.sqrt(max(var, 0.0))
        out["bots"][bot] = {"elo": ELO * theta, "elo_ci": [ELO * (theta - half), ELO * (theta + half)]}
    out["los"] = {f"{a} vs {b}": p for (a, b), p in sorted(result["los"].items())}
    return out
