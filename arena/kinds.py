"""The plugin kinds: the marker a plugin's hooks carry and the values the registration hooks return.

They sit at the bottom of the arena (docs/architecture.md): this module imports nothing of the
arena's when it runs, so any layer can make or read a kind, and a game's or seat's plugin module
needs nothing above its own layer. The names are also importable from their older homes
(``arena.plugins.hookimpl``, ``arena.players.seats``, ``arena.tournaments.executors``,
``arena.commandline``), where plugins written before this module import them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

import pluggy

if TYPE_CHECKING:  # annotations only: these modules stand above this one
    import argparse

    from arena.players.base import BotSpec
    from arena.players.hosts import Host
    from arena.plugins.manager import Registry
    from arena.results import MatchRow
    from arena.tournaments.executors import Executor

PROJECT = "trick_arena"  # the pluggy project and the entry-point group
hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True)
class SeatRequest:
    """Everything a seat kind or an isolation level is told when it makes a host."""

    name: str  # the seat's name, as given (a seat kind sees it with its prefix)
    game: str
    seed: int  # the bot's seed (its randomness)
    settings: Mapping[str, Any]
    isolation: str  # the match's isolation level (a seat kind may ignore it)
    limits: Mapping[str, Any] = field(default_factory=dict)  # the tournament's [limits] (arena.players.limits)
    log_path: str | None = None  # where the bot's output goes (None: a temporary file, removed after the match)
    # the modules of the other registered bots, so that a sandbox shows a bot its own module alone
    # where a package holds several bots (the arena's `bots`); filled in from the registry
    other_bot_modules: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatKind:
    """A kind of seat reached by a prefixed name (``arena_register_seat_kinds``).

    ``check(name)`` raises :class:`ArenaError` saying what is wrong with a name, before any match is
    played (a tournament file is checked with it); ``make_host(request)`` makes the host for a match,
    and decides how the seat runs at ``request.isolation`` (a ``cmd:`` program is sandboxed at
    ``sandbox``; a remote seat runs nowhere here).

    The seat kind owns its trust: ``own(name, registry)`` says whether such a seat is the arena's own
    (a tournament file without an ``isolation`` key runs every bot sandboxed unless all its seats
    are: :func:`arena.players.trust.default_isolation`); ``check_isolation(name, isolation)`` raises
    :class:`ArenaError` when the seat cannot run at that isolation (no sandbox on this machine).
    """

    name: str
    prefixes: tuple[str, ...]
    summary: str
    make_host: Callable[[SeatRequest], Host]
    check: Callable[[str], None] = lambda name: None
    example: str = ""  # shown in help texts, e.g. "grpc://HOST:PORT"
    own: Callable[[str, Any], bool] = lambda name, registry: False  # not the arena's own unless it says so
    check_isolation: Callable[[str, str], None] = lambda name, isolation: None


@dataclass(frozen=True)
class Isolation:
    """An isolation level for installed bots (``arena_register_isolations``): ``make_host(spec,
    request)`` hosts one for a match; ``check(spec)`` raises :class:`ArenaError` when this level
    cannot host the bot at all (checked before any match, like a seat kind's names)."""

    name: str
    summary: str
    make_host: Callable[[BotSpec, SeatRequest], Host]
    check: Callable[[BotSpec], None] = lambda spec: None


@dataclass(frozen=True)
class ExecutorKind:
    """An executor as a plugin registers it (``arena_register_executors``).

    ``make(workers, options)`` makes the executor; ``options`` maps each of ``arguments``'s
    destinations to its value (None when not given). ``arguments`` are the executor's own
    command-line options for ``arena run``: ``(flags, argparse keyword arguments)`` pairs; giving one
    of them chooses this executor when ``--executor`` is not given.
    """

    name: str
    summary: str
    make: Callable[[int, Mapping[str, Any]], Executor]
    arguments: tuple[tuple[tuple[str, ...], Mapping[str, Any]], ...] = ()

    def dests(self) -> list[str]:
        return [str(kwargs.get("dest") or flags[0].lstrip("-").replace("-", "_")) for flags, kwargs in self.arguments]


@dataclass(frozen=True)
class Command:
    """An ``arena`` subcommand as a plugin registers it (``arena_register_commands``).

    ``add_arguments(parser, registry)`` declares its arguments; ``run(args)`` does the work and
    returns the exit status. :class:`ArenaError` raised by ``run`` is printed as one line (exit 2).
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser, Registry], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""


@dataclass(frozen=True)
class Estimate:
    """One player's rating by a rating system: the number the board shows, and its 95% interval
    where the system has one."""

    rating: float
    low: float | None = None
    high: float | None = None


class Fit(Protocol):
    """A rating system's one computation: ``players``' estimates from the finished matches ``rows``
    (arena.results.MatchRow, in the order they were played). Every player gets an estimate, also
    one that has not played yet (the system's prior)."""

    def __call__(self, rows: Sequence[MatchRow], players: Sequence[str]) -> Mapping[str, Estimate]: ...


@dataclass(frozen=True)
class RatingSystem:
    """A rating system as a plugin registers it (``arena_register_rating_systems``): its name (what
    ``arena board --rating NAME`` chooses), a line saying what it is, and its :class:`Fit`. The
    board lists the players highest rating first; ``unit`` names the numbers (e.g. "Elo")."""

    name: str
    summary: str
    fit: Fit
    unit: str = ""
