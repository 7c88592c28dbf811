"""Hook specifications: the only ways a plugin extends the arena.

Games and bots — the bundled ones too — are registered through these hooks, loaded from the
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
    from arena.games.base import Game
    from arena.players.base import BotSpec

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
