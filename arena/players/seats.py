"""Seats: what a seat's name means, and the host that plays it.

A seat's name (in ``arena play --seats`` or a tournament file's ``bot``) is either

* a name with a registered **seat kind**'s prefix (``grpc://HOST:PORT``, ``cmd:COMMAND``, ...):
  the seat kind checks the name and makes the host; or
* an installed bot's name: the bot is hosted as the chosen **isolation** level says
  (``inprocess``, ``process``, ...).

Both are registries (``arena_register_seat_kinds``, ``arena_register_isolations``); the bundled
kinds are registered by ``arena.players.plugin`` like a third party's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from arena.errors import ArenaError
from arena.kinds import Isolation, SeatKind, SeatRequest  # their home is arena.kinds; plugins import them from here too
from arena.players.hosts import ArenaFailure, BotCrash, FailedHost, Host

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

__all__ = ["Isolation", "SeatKind", "SeatRequest", "check_seat", "describe_seats", "make_host", "make_host_or_fault",
           "seat_kind_of"]


def seat_kind_of(registry: "Registry", name: str) -> SeatKind | None:
    """The seat kind whose prefix ``name`` starts with, or None (an installed bot's name)."""
    name = name.strip()
    for kind in registry.seat_kinds.values():
        if name.startswith(kind.prefixes):
            return kind
    return None


def check_seat(registry: "Registry", name: str, game: str, isolation: str) -> None:
    """Check a seat's name for ``game`` before any match; raise :class:`ArenaError` saying why not."""
    kind = seat_kind_of(registry, name)
    if kind is not None:
        kind.check(name.strip())
        kind.check_isolation(name.strip(), isolation)
        return
    level = registry.isolation(isolation)
    spec = registry.bot(name.strip())
    if not spec.plays(game):
        raise ArenaError(f"bot {spec.name!r} does not play {game!r}; it plays {', '.join(spec.games or ())}")
    level.check(spec)


def make_host(
    registry: "Registry",
    name: str,
    *,
    game: str,
    seed: int,
    isolation: str = "inprocess",
    settings: Mapping[str, Any] | None = None,
    limits: Mapping[str, Any] | None = None,
    log_path: str | None = None,
) -> Host:
    """A host for the seat ``name``: made by its seat kind, or an installed bot hosted at ``isolation``."""
    request = SeatRequest(name.strip(), game, seed, dict(settings or {}), isolation, dict(limits or {}), log_path,
                          _bot_modules(registry, name.strip()))
    kind = seat_kind_of(registry, name)
    if kind is not None:
        return kind.make_host(request)
    level = registry.isolation(isolation)
    spec = registry.bot(request.name)
    if not spec.plays(game):
        raise ArenaError(f"bot {spec.name!r} does not play {game!r}; it plays {', '.join(spec.games or ())}")
    return level.make_host(spec, request)


def _bot_modules(registry: "Registry", name: str) -> tuple[str, ...]:
    """The modules of the registered bots but ``name`` (for :attr:`SeatRequest.other_bot_modules`)."""
    modules = {getattr(spec.factory, "__module__", "") for key, spec in registry.bots.items() if key != name}
    return tuple(sorted(module for module in modules if module))


def make_host_or_fault(registry: "Registry", name: str, **kwargs: Any) -> Host:
    """:func:`make_host`, except that a seat the *bot* cannot take is a :class:`FailedHost`: a
    recorded crash of that seat, not the end of the tournament.

    Whose failure it is decides what it becomes (docs/security.md, "Faults and logs: who is
    charged"): the bot's (:class:`BotCrash`: its program would not start or serve, its factory
    raised; :class:`ArenaError`: its seat's name or command is wrong) is that seat's crash; the
    arena's (:class:`ArenaFailure`, or any other exception, which can only come from the arena's
    own code: a launcher or sandbox that could not be started, a broken pipe to the arena's fork
    server) is raised as :class:`ArenaFailure`, for :func:`arena.matches.play_match` to retry."""
    try:
        return make_host(registry, name, **kwargs)
    except ArenaFailure:
        raise
    except (BotCrash, ArenaError) as exc:
        first = (str(exc).strip().splitlines() or [""])[-1]
        return FailedHost(f"the seat {name!r} could not be set up: {type(exc).__name__}: {first}")
    except Exception as exc:
        raise ArenaFailure(f"the arena failed setting up the seat {name!r}: {_said(exc)}") from exc


def _said(exc: BaseException) -> str:
    """An exception in one line: its type and the last line of its message."""
    return f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[-1]}"


def describe_seats(registry: "Registry") -> str:
    """One line for help texts: what a seat may be."""
    kinds = [kind.example or f"{kind.prefixes[0]}..." for kind in registry.seat_kinds.values()]
    return "an installed bot (see `arena bots`)" + "".join(f", {k}" for k in kinds)
