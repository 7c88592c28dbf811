"""Registers All Fours with the arena (entry point ``all_fours = "arena.games.all_fours.plugin"``)."""

from arena.games.all_fours.game import AllFoursGame
from arena.kinds import hookimpl


@hookimpl
def arena_register_games():
    return [AllFoursGame]
