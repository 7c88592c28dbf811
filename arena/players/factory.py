"""Turn a seat's name (as given to ``arena play`` or in a tournament file) into a host.

A seat's name is one of:

* an installed bot's name (``random``): a plugin bot, in this process or a process of its own;
* ``grpc://HOST:PORT`` or ``grpcs://HOST:PORT``: a bot server reached over gRPC (TLS for grpcs);
* ``cmd:COMMAND``: a command the arena launches for the match, which serves gRPC on the port
  given in ``ARENA_BOT_PORT`` (or written ``{port}`` in the command), e.g.
  ``cmd:node bots/js_random/bot.js``. See ``arena.players.remote`` and docs/grpc-bots.md.
"""

from __future__ import annotations

from typing import Any, Mapping

from arena.errors import ArenaError
from arena.players.hosts import FailedHost, Host, InProcessHost
from arena.players.isolated import ProcessHost
from arena.plugins.manager import Registry

ISOLATION_MODES = ("inprocess", "process")
EXTERNAL_PREFIXES = ("grpc://", "grpcs://", "cmd:")  # seats that are not installed bots


def is_external(name: str) -> bool:
    """True for a seat reached over gRPC (``grpc://``, ``grpcs://``, ``cmd:``), not an installed bot."""
    return name.strip().startswith(EXTERNAL_PREFIXES)


def make_host(
    registry: Registry,
    name: str,
    *,
    game: str,
    seed: int,
    isolation: str = "inprocess",
    settings: Mapping[str, Any] | None = None,
) -> Host:
    """A host for the seat ``name``: an installed bot (in this process or in one of its own, as
    ``isolation`` says), a gRPC address or a command to launch (``isolation`` does not apply)."""
    if is_external(name):
        from arena.players.remote import COMMAND_PREFIX, CommandHost, GrpcHost  # grpc loads only when needed

        name = name.strip()
        if name.startswith(COMMAND_PREFIX):
            return CommandHost(name[len(COMMAND_PREFIX):], seed=seed, settings=settings)
        return GrpcHost(name, seed=seed, settings=settings)
    if isolation not in ISOLATION_MODES:
        raise ArenaError(f"isolation {isolation!r} is not one of {', '.join(ISOLATION_MODES)}")
    spec = registry.bot(name)
    if not spec.plays(game):
        raise ArenaError(f"bot {name!r} does not play {game!r}; it plays {', '.join(spec.games or ())}")
    if isolation == "process":
        return ProcessHost(spec.factory, settings, seed)
    return InProcessHost(spec.factory(dict(settings or {}), seed))


def make_host_or_fault(registry: Registry, name: str, **kwargs: Any) -> Host:
    """:func:`make_host`, except that a seat that cannot be set up (an ``ArenaError`` of its name
    aside) is a :class:`FailedHost`: a recorded crash of that seat, not the end of the tournament."""
    try:
        return make_host(registry, name, **kwargs)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[-1]
        return FailedHost(f"the seat {name!r} could not be set up: {type(exc).__name__}: {first}")


def seat_problem(name: str, registry: Registry, game: str, isolation: str) -> str | None:
    """What is wrong with the seat ``name`` that can be seen before any match (None: nothing):
    an address or command that does not parse, a bot a bot process cannot import."""
    name = name.strip()
    if is_external(name):
        from arena.players.remote import COMMAND_PREFIX, command_argv, parse_address

        try:
            if name.startswith(COMMAND_PREFIX):
                command_argv(name[len(COMMAND_PREFIX):], 0)
            else:
                parse_address(name)
        except ArenaError as exc:
            return str(exc)
        return None
    if isolation == "process":
        from arena.players.isolated import _load, factory_path

        factory = registry.bot(name).factory
        path = factory_path(factory)
        try:
            loaded = _load(path)
        except Exception:
            loaded = None
        if loaded is not factory:
            return (f"bot {name!r}: a bot process cannot import its factory {path} (a lambda, a nested "
                    "function or a bound method); register a module-level function or class, or use isolation = \"inprocess\"")
    return None
