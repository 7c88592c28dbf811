"""A toy rating system, in one file: ``wins`` rates each player by the matches it won outright."""

from __future__ import annotations

from arena.kinds import Estimate, RatingSystem, hookimpl


def _wins(rows, players):
    won = dict.fromkeys(players, 0)
    for row in rows:
        if len(row.winners) == 1:
            won[row.winners[0]] += 1
    return {player: Estimate(float(count)) for player, count in won.items()}


@hookimpl
def arena_register_rating_systems():
    return [RatingSystem("wins", "matches won outright", _wins, unit="wins")]
