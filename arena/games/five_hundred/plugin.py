"""Registers Five Hundred with the arena (entry point ``five_hundred`` of the ``trick_arena`` group)."""

from arena.games.five_hundred.game import FiveHundredGame
from arena.kinds import hookimpl


@hookimpl
def arena_register_games():
    return [FiveHundredGame]
