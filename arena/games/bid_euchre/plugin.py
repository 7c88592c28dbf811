"""Registers Bid Euchre with the arena (entry point ``bid_euchre`` of the ``trick_arena`` group)."""

from arena.games.bid_euchre.game import BidEuchreGame
from arena.kinds import hookimpl


@hookimpl
def arena_register_games():
    return [BidEuchreGame]
