"""A toy seat kind, in one file: ``first:NAME`` seats a player that always takes the first legal
action (``first:`` alone is refused when the tournament file is checked)."""

from __future__ import annotations

from arena.errors import ArenaError
from arena.players.base import Player
from arena.players.hosts import InProcessHost
from arena.players.seats import SeatKind, SeatRequest
from arena.plugins import hookimpl


class FirstLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def _check(name: str) -> None:
    if not name[len("first:"):]:
        raise ArenaError(f"{name!r}: write first:NAME")


@hookimpl
def arena_register_seat_kinds():
    return [SeatKind("first", ("first:",), "always the first legal action",
                     lambda request: InProcessHost(FirstLegal()), _check, example="first:NAME")]
