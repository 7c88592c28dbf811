"""A toy seat kind, in one file: ``first:NAME`` seats a player that always takes the first legal
action (``first:`` alone is refused when the tournament file is checked). It owns its trust: it is
not the arena's own, so a tournament file without an ``isolation`` key that seats it runs sandboxed,
and at ``sandbox`` it runs its player in a sandbox of its own (elsewhere, in the arena's process)."""

from __future__ import annotations

from arena.errors import ArenaError
from arena.players.base import Player
from arena.players.hosts import InProcessHost
from arena.players.seats import SeatKind, SeatRequest
from arena.plugins import hookimpl


class FirstLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def make(settings, seed):
    return FirstLegal()


def _check(name: str) -> None:
    if not name[len("first:"):]:
        raise ArenaError(f"{name!r}: write first:NAME")


def _check_isolation(name: str, isolation: str) -> None:
    if isolation == "sandbox":
        from arena.players.sandbox import check_available

        check_available()


def _host(request: SeatRequest):
    if request.isolation == "sandbox":
        from arena.players.sandboxed import SandboxHost

        return SandboxHost(f"{__name__}:make", request.settings, request.seed, log_path=request.log_path)
    return InProcessHost(FirstLegal())


@hookimpl
def arena_register_seat_kinds():
    return [SeatKind("first", ("first:",), "always the first legal action", _host, _check, example="first:NAME",
                     own=lambda name, registry: False, check_isolation=_check_isolation)]
