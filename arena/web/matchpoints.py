"""Matchpoints: how a daily deal's entries are scored against each other (docs/web.md, "The daily set").

An *entry* is one play of one deal (a game, date, pool instance and deal number) in one seat:
a person's or a field bot's. Its *score* is the hand's margin: the points the entry's side made
on that hand less the best other side's. On each deal, an entry's matchpoints are the share of
the other entries it beats, a tie counting half, as a percentage:

    100 × (beaten + ½ × tied) / (entries − 1)

An entry alone on its deal gets 50 (nobody beaten, nobody beating it). An entry without a score
(not finished) is left out. Pure functions: no store, no game.
"""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence, TypeVar

K = TypeVar("K", bound=Hashable)

ALONE = 50.0


def matchpoints(scores: Mapping[K, float]) -> dict[K, float]:
    """Each entry's matchpoints (0 to 100) among ``scores`` (entry -> score) of one deal."""
    n = len(scores)
    if n == 0:
        return {}
    if n == 1:
        return {key: ALONE for key in scores}
    values = list(scores.values())
    points: dict[K, float] = {}
    for key, score in scores.items():
        beaten = sum(1 for other in values if other < score)
        tied = sum(1 for other in values if other == score) - 1  # less the entry itself
        points[key] = 100.0 * (beaten + 0.5 * tied) / (n - 1)
    return points


def total(per_deal: Sequence[float]) -> float:
    """A day's total: the mean of the deals' matchpoints (0 to 100), 0 with none."""
    return sum(per_deal) / len(per_deal) if per_deal else 0.0


def ranks(totals: Mapping[K, float]) -> dict[K, int]:
    """Competition ranks (1, 2, 2, 4 ...) of ``totals``, highest first."""
    ordered = sorted(totals.values(), reverse=True)
    return {key: 1 + sum(1 for other in ordered if other > value) for key, value in totals.items()}
