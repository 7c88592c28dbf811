"""Choosing a round's lineups, after Halite III's matchmaking: a pure function of the ratings, the
active versions, the round and the seed (so a restarted ladder chooses exactly what it chose).

For each of the round's K pairings a *seed* version is taken in order of uncertainty (highest
sigma first, so new versions play first until their sigma comes down; ties: fewer deal sets, then
the older version), and its opponents are drawn, without repeating a version in a lineup, with
weight ``exp(-|mu - seed's mu| / SCALE)``: opponents near in rating are likelier, none is ruled out.
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from arena.rating import MU, SIGMA

SCALE = 4.0  # rating points over which an opponent's weight falls by e (about TrueSkill's beta)


def candidates(versions: Sequence[Mapping[str, Any]], ratings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The active ``versions`` with their rating in this ladder (mu, sigma, deal_sets; the prior
    when not rated yet). Versions of any other status are left out: they are never scheduled."""
    rated = {r["version"]: r for r in ratings}
    found = []
    for version in versions:
        if version.get("status", "active") != "active":
            continue
        row = rated.get(version["id"], {})
        found.append({"id": version["id"], "mu": row.get("mu", MU), "sigma": row.get("sigma", SIGMA),
                      "deal_sets": row.get("deal_sets", 0)})
    return found


def lineups(ladder: str, versions: Sequence[Mapping[str, Any]], ratings: Sequence[Mapping[str, Any]], sides: int,
            pairings: int, seed: int | str, round: int) -> list[tuple[int, ...]]:
    """The round's lineups of ``ladder`` (version ids, one per side; K = ``pairings`` of them),
    drawn with ``random.Random(f"{seed}/{ladder}/{round}")``; none when fewer active versions than sides."""
    pool = candidates(versions, ratings)
    if len(pool) < sides or pairings < 1:
        return []
    rng = random.Random(f"{seed}/{ladder}/{round}")
    order = sorted(pool, key=lambda c: (-c["sigma"], c["deal_sets"], c["id"]))
    chosen: list[tuple[int, ...]] = []
    for k in range(pairings):
        seed_version = order[k % len(order)]
        others = [c for c in pool if c["id"] != seed_version["id"]]
        lineup = [seed_version["id"]]
        for _ in range(sides - 1):
            weights = [math.exp(-abs(c["mu"] - seed_version["mu"]) / SCALE) for c in others]
            pick = rng.choices(range(len(others)), weights=weights)[0]
            lineup.append(others.pop(pick)["id"])
        # which side the seed holds is drawn too (every rotation is played, but the record's order shows it)
        rng.shuffle(lineup)
        chosen.append(tuple(lineup))
    return chosen
