"""Hook specifications: the only ways a plugin extends the arena.

Every extension axis has a registration hook: games, bots, seat kinds, isolation levels,
executors, rating systems and ``arena`` subcommands. The built-ins — the bundled games, bots, seat kinds,
executors and commands — are registered through these hooks exactly as a third party's are, loaded from the
``trick_arena`` entry-point group. A plugin module implements a hook with ``@hookimpl``::

    from arena.plugins import hookimpl

    @hookimpl
    def arena_register_games():
        return [MyGame]

and names itself in its ``pyproject.toml``::

    [project.entry-points.trick_arena]
    my_game = "my_package.plugin"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

from arena.kinds import PROJECT, hookimpl  # the marker lives with the kinds, so plugin modules of any layer can use it

if TYPE_CHECKING:
    from arena.games.base import Game
    from arena.kinds import Command, ExecutorKind, Isolation, RatingSystem, SeatKind
    from arena.players.base import BotSpec

__all__ = ["PROJECT", "hookimpl", "hookspec"]
hookspec = pluggy.HookspecMarker(PROJECT)


# -- registration ----------------------------------------------------------------------------------


@hookspec
def arena_register_games() -> "list[type[Game]]":
    """Register game engines.

    :returns: a list of :class:`arena.games.base.Game` subclasses. Each one's ``name`` must be unique
        among all installed plugins.
    """


@hookspec
def arena_register_bots() -> "list[BotSpec]":
    """Register bots.

    :returns: a list of :class:`arena.players.base.BotSpec`. Each one's ``name`` must be unique among
        all installed plugins.
    """


@hookspec
def arena_register_seat_kinds() -> "list[SeatKind]":
    """Register seat kinds: what a seat named with a prefix (``grpc://HOST:PORT``, ``cmd:COMMAND``)
    is, how its name is checked before any match, and how its host is made.

    :returns: a list of :class:`arena.kinds.SeatKind`. Prefixes must be unique among all
        installed plugins; a seat whose name has no registered prefix is an installed bot.
    """


@hookspec
def arena_register_isolations() -> "list[Isolation]":
    """Register isolation levels: how an installed (plugin) bot is hosted, e.g. ``inprocess``,
    ``process``.

    :returns: a list of :class:`arena.kinds.Isolation`. Names must be unique.
    """


@hookspec
def arena_register_executors() -> "list[ExecutorKind]":
    """Register executors: where a tournament's matches are played (``local``, ``inline``, ``ray``).

    :returns: a list of :class:`arena.kinds.ExecutorKind`. Names must be unique.
    """


@hookspec
def arena_register_rating_systems() -> "list[RatingSystem]":
    """Register rating systems: how the board rates players from the finished matches
    (``trueskill``, ``bradley-terry``; ``arena board --rating NAME`` shows one).

    :returns: a list of :class:`arena.kinds.RatingSystem`. Names must be unique.
    """


@hookspec
def arena_register_commands() -> "list[Command]":
    """Register ``arena`` subcommands.

    :returns: a list of :class:`arena.kinds.Command`. Names must be unique.
    """
