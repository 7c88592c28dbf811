"""Turn a seat's name (as given to ``arena play`` or in a tournament file) into a host."""

from __future__ import annotations

from typing import Any, Mapping

from arena.errors import ArenaError
from arena.players.hosts import Host, InProcessHost
from arena.players.isolated import ProcessHost
from arena.plugins.manager import Registry

ISOLATION_MODES = ("inprocess", "process")


def make_host(
    registry: Registry,
    name: str,
    *,
    game: str,
    seed: int,
    isolation: str = "inprocess",
    settings: Mapping[str, Any] | None = None,
) -> Host:
    """A host for the installed bot ``name``, in this process or in one of its own."""
    if isolation not in ISOLATION_MODES:
        raise ArenaError(f"isolation {isolation!r} is not one of {', '.join(ISOLATION_MODES)}")
    spec = registry.bot(name)
    if not spec.plays(game):
        raise ArenaError(f"bot {name!r} does not play {game!r}; it plays {', '.join(spec.games or ())}")
    if isolation == "process":
        return ProcessHost(spec.factory, settings, seed)
    return InProcessHost(spec.factory(dict(settings or {}), seed))
