"""Hook specifications: the only ways a plugin extends the arena.

Every extension axis has a registration hook: games, bots, seat kinds, isolation levels,
executors and ``arena`` subcommands. The built-ins — the bundled games, bots, seat kinds,
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

if TYPE_CHECKING:
    from arena.commandline import Command
    from arena.games.base import Game
    from arena.players.base import BotSpec
    from arena.players.seats import Isolation, SeatKind
    from arena.tournaments.executors import ExecutorKind

PROJECT = "trick_arena"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


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

    :returns: a list of :class:`arena.players.seats.SeatKind`. Prefixes must be unique among all
        installed plugins; a seat whose name has no registered prefix is an installed bot.
    """


@hookspec
def arena_register_isolations() -> "list[Isolation]":
    """Register isolation levels: how an installed (plugin) bot is hosted, e.g. ``inprocess``,
    ``process``.

    :returns: a list of :class:`arena.players.seats.Isolation`. Names must be unique.
    """


@hookspec
def arena_register_executors() -> "list[ExecutorKind]":
    """Register executors: where a tournament's matches are played (``local``, ``inline``, ``ray``).

    :returns: a list of :class:`arena.tournaments.executors.ExecutorKind`. Names must be unique.
    """


@hookspec
def arena_register_commands() -> "list[Command]":
    """Register ``arena`` subcommands.

    :returns: a list of :class:`arena.commandline.Command`. Names must be unique.
    """
