"""Ratings and the statistics that compare bots, computed from stored results in schedule order.

TrueSkill (the ``trueskill`` package) with its standard parameters, written out in
docs/ratings.md. Each side of a match is one rating group holding its bot once (a side of copies
of one bot counts as that one bot); sides are ranked by the match's ranking. A bot that holds
several sides of one match (possible only when there are fewer bots than sides) is rated once, at
its best side's place.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import trueskill

from arena.kinds import Estimate
from arena.results import MatchRow, margin, row_of

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = SIGMA / 100
DRAW_PROBABILITY = 0.10


def environment() -> trueskill.TrueSkill:
    return trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, draw_probability=DRAW_PROBABILITY)


def match_places(spec: dict[str, Any], result: dict[str, Any]) -> dict[str, int]:
    """Each distinct bot's place in one match (0 = first), from the ranking of the sides."""
    return row_of(spec, result).places


def rate(matches: Iterable[tuple[dict[str, Any], dict[str, Any]]], bots: list[str],
         sigmas: list[dict[str, float]] | None = None):
    """:func:`rate_rows` of (spec, result) pairs."""
    return rate_rows([row_of(spec, result) for spec, result in matches], bots, sigmas)


def rate_rows(rows: Iterable[MatchRow], bots: Sequence[str], sigmas: list[dict[str, float]] | None = None):
    """TrueSkill ratings after each match, in the order given. Returns (final ratings, history).
    With ``sigmas``, each bot's sigma after each match is appended to it (the board's band)."""
    env = environment()
    ratings = {bot: env.create_rating() for bot in bots}
    history: list[dict[str, float]] = []
    for row in rows:
        places = row.places
        if len(places) >= 2:
            names = sorted(places, key=lambda b: places[b])
            groups = [(ratings[name],) for name in names]
            rated = env.rate(groups, ranks=[places[name] for name in names])
            for name, (new,) in zip(names, rated):
                ratings[name] = new
        history.append({bot: ratings[bot].mu for bot in bots})
        if sigmas is not None:
            sigmas.append({bot: ratings[bot].sigma for bot in bots})
    return ratings, history


def fit(rows: Sequence[MatchRow], players: Sequence[str]) -> dict[str, Estimate]:
    """TrueSkill as a rating system (arena.kinds.Fit): each player's mu, with mu ± 1.96 sigma."""
    ratings, _ = rate_rows(rows, players)
    return {p: Estimate(r.mu, r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma) for p, r in ratings.items()}


# -- statistics ----------------------------------------------------------------------------------

_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042}


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (1.96 beyond 30)."""
    if df > 30:
        return 1.96
    return _T95[max(k for k in _T95 if k <= df)]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float]) -> tuple[float | None, float | None, float | None]:
    """Mean and its 95% t interval (None where there are too few values)."""
    if not values:
        return None, None, None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None, None
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


@dataclass
class BotStats:
    bot: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    think_total: float = 0.0
    decisions: int = 0
    margins: list[float] = field(default_factory=list)


def statistics_of(matches: list[tuple[dict[str, Any], dict[str, Any]]], bots: list[str]) -> tuple[dict[str, BotStats], dict]:
    """Per-bot counts, fault counts, thinking time, duplicate margins; and the head-to-head table."""
    stats = {bot: BotStats(bot) for bot in bots}
    head: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # (a, b) -> a's W, D, L vs b
    margins: dict[tuple[int, tuple[str, ...]], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    penalty = forfeit_penalty(matches)
    for spec, result in matches:
        row = row_of(spec, result)
        places = row.places
        seats = spec["seats"]
        for bot, place in places.items():
            s = stats[bot]
            s.matches += 1
            outcome = row.outcome(bot)  # 0, 1, 2: won, drew, lost
            s.wins += outcome == 0
            s.draws += outcome == 1
            s.losses += outcome == 2
            for other, other_place in places.items():
                if other != bot:
                    head[(bot, other)][0 if place < other_place else 1 if place == other_place else 2] += 1
        for fault in result["faults"]:
            bot = seats[fault["seat"]]
            stats[bot].faults[fault["kind"]] = stats[bot].faults.get(fault["kind"], 0) + 1
        for seat, times in enumerate(result["think_times"]):
            stats[seats[seat]].think_total += times["total"]
            stats[seats[seat]].decisions += times["decisions"]
        # the duplicate comparison: a side's score minus the mean of the other sides', per deal set
        if len(row.sides) >= 2:
            for side, value in enumerate(duplicate_margins(spec, result, penalty)):
                margins[(spec["deal_set"], tuple(spec["lineup"]))][row.sides[side]].append(value)
    for per_bot in margins.values():
        for bot, values in per_bot.items():
            stats[bot].margins.append(statistics.fmean(values))
    return stats, dict(head)


def forfeited_side(spec: dict[str, Any], result: dict[str, Any]) -> int | None:
    """The side that forfeited the match (None when it did not end by a forfeit)."""
    return row_of(spec, result).forfeited


def forfeit_penalty(matches: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> float:
    """What a forfeit costs in the duplicate margin: the largest margin by which any side lost a
    match of the tournament that did not end by a forfeit (0 while there is none)."""
    worst = 0.0
    for spec, result in matches:
        row = row_of(spec, result)
        if len(row.scores) >= 2 and row.forfeited is None:
            worst = max([worst, *(-m for m in row.margins())])
    return worst


def duplicate_margins(spec: dict[str, Any], result: dict[str, Any], penalty: float) -> list[float]:
    """Each side's margin in one match, a forfeit losing by at least ``penalty``
    (:meth:`arena.results.MatchRow.margins`)."""
    return row_of(spec, result).margins(penalty)


# -- the duplicate comparison per lineup and per pair (the board's comparing sections) ------------

def duplicate_breakdown(matches: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[list[dict[str, Any]], dict[tuple[str, str], list[float]]]:
    """Per lineup: each bot's margin per deal set (its side's score minus the mean of the other
    sides', averaged over the deal set's rotations) and its wins, draws and losses; and per pair
    (a, b) of bots meeting in a lineup: a's score minus b's, averaged the same way, one value per
    (deal set, lineup). Forfeits count through the scores the matches stored."""
    per_lineup: dict[tuple[str, ...], dict[str, Any]] = {}
    units: dict[tuple[tuple[str, ...], int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    pair_units: dict[tuple[tuple[str, ...], int], dict[tuple[str, str], list[float]]] = defaultdict(lambda: defaultdict(list))
    for spec, result in matches:
        lineup = tuple(spec["lineup"])
        k = len(lineup)
        scores = result["scores"]
        if k < 2 or len(scores) != k:
            continue
        entry = per_lineup.setdefault(lineup, {"lineup": list(lineup), "matches": 0,
                                               "wdl": defaultdict(lambda: [0, 0, 0])})
        entry["matches"] += 1
        key = (lineup, spec["deal_set"])
        row = row_of(spec, result)
        by_side = row.sides
        for side, score in enumerate(scores):
            units[key][by_side[side]].append(margin(scores, side))
            for other in range(k):
                if other != side and by_side[other] != by_side[side]:
                    pair_units[key][(by_side[side], by_side[other])].append(score - scores[other])
        for bot in row.places:
            entry["wdl"][bot][row.outcome(bot)] += 1
    rows = []
    for lineup, entry in per_lineup.items():
        bots = {}
        for bot in dict.fromkeys(lineup):
            values = [statistics.fmean(u[bot]) for (lu, _), u in units.items() if lu == lineup and bot in u]
            mean, low, high = mean_interval(values)
            bots[bot] = {"margin": None if mean is None else round(mean, 2),
                         "margin_ci": None if low is None or high is None else [round(low, 2), round(high, 2)],
                         "wins": entry["wdl"][bot][0], "draws": entry["wdl"][bot][1], "losses": entry["wdl"][bot][2]}
        deal_sets = len({ds for (lu, ds) in units if lu == lineup})
        rows.append({"lineup": entry["lineup"], "matches": entry["matches"], "deal_sets": deal_sets, "bots": bots})
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for per_pair in pair_units.values():
        for pair, values in per_pair.items():
            pairs[pair].append(statistics.fmean(values))
    return rows, dict(pairs)
