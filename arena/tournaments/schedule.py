"""The schedule: which bots meet, on which deals, from which sides.

A **lineup** is one bot per side. Round robin: every combination of k bots for a game with k sides
(with fewer bots than sides, every mix of the bots that includes at least two of them). Gauntlet: the
challenger with every combination of k-1 others. A side is filled by copies of its bot.

**Duplicate deals**: a deal set is one seeded sequence of deals. Each lineup plays each deal set once
for every rotation of its bots over the sides, so every bot holds, from every side, the cards its
opponents held: luck cancels.

**Seeds** come from the run's :class:`arena.deals.Deals`: a secret kept in its store (or the file's
public ``seed``), never from anything a bot is given.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from arena.deals import Deals
from arena.matches import MatchSpec
from arena.tournaments.config import TournamentConfig

__all__ = ["MatchSpec", "build", "lineups"]


MAX_MATCHES = 100_000  # the most matches a schedule may hold: it is built, and stored, before the first match


def count(config: TournamentConfig, game: Any) -> int:
    """How many matches :func:`build` makes, computed without making them."""
    sides = game.num_sides
    names = [b.name for b in config.bots]
    if config.format == "gauntlet":
        pool, size = len(names) - 1, sides - 1
    else:
        pool, size = len(names), sides
    if pool >= size:
        groups = math.comb(pool, size)
    else:  # fewer bots than places: a few mixes, made to be counted
        groups = len(lineups(names, sides, config.format, config.challenger))
    return config.deal_sets * groups * sides


def lineups(names: list[str], sides: int, fmt: str, challenger: str | None) -> list[tuple[str, ...]]:
    """The lineups of a round robin or a gauntlet, in a fixed order."""
    if fmt == "gauntlet":
        if challenger is None:  # the config refuses a gauntlet without one
            raise ValueError("a gauntlet needs a challenger")
        others = [n for n in names if n != challenger]
        return [(challenger,) + rest for rest in _groups(others, sides - 1, at_least_two=False)]
    return _groups(names, sides, at_least_two=True)


def _groups(names: list[str], size: int, at_least_two: bool) -> list[tuple[str, ...]]:
    if len(names) >= size:
        return list(itertools.combinations(names, size))
    groups = itertools.combinations_with_replacement(names, size)
    return [g for g in groups if not at_least_two or len(set(g)) >= 2]


def build(config: TournamentConfig, game: Any, deals: Deals | None = None) -> list[MatchSpec]:
    """Every match of the tournament, in schedule order: deal set, then lineup, then rotation; the
    deal and bot seeds from ``deals`` (default: the file's public seed, else a fresh secret)."""
    from arena.errors import ArenaError

    if count(config, game) > MAX_MATCHES:
        raise ArenaError(f"the schedule would hold {count(config, game)} matches; at most {MAX_MATCHES} are allowed")
    deals = deals or Deals.of(config.seed)
    entries = {bot.name: bot for bot in config.bots}
    sides = game.num_sides
    matches: list[MatchSpec] = []
    for deal_set in range(config.deal_sets):
        deal_seed = deals.deal_seed(f"dealset/{deal_set}")
        for lineup in lineups([b.name for b in config.bots], sides, config.format, config.challenger):
            for rotation in range(sides):
                by_side = [lineup[(side + rotation) % sides] for side in range(sides)]
                seats = tuple(by_side[game.side_of(seat)] for seat in range(game.players))
                index = len(matches)
                matches.append(
                    MatchSpec(
                        index=index,
                        game=config.game,
                        options=dict(config.options),
                        lineup=tuple(lineup),
                        rotation=rotation,
                        deal_set=deal_set,
                        deal_seed=deal_seed,
                        seats=seats,
                        bots=tuple(entries[name].bot for name in seats),
                        settings=tuple(dict(entries[name].settings) for name in seats),
                        bot_seeds=tuple(deals.bot_seed(f"match/{index}/seat/{s}") for s in range(game.players)),
                        time_control=config.time_control.as_dict(),
                        faults=config.policy.as_dict(),
                        isolation=config.isolation,
                        limits=dict(config.limits),
                    )
                )
    return matches
