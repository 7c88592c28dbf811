"""Registers 56 with the arena (entry point ``fifty_six = "arena.games.fifty_six.plugin"``)."""

from arena.games.fifty_six.game import FiftySixGame
from arena.kinds import hookimpl


@hookimpl
def arena_register_games():
    return [FiftySixGame]
