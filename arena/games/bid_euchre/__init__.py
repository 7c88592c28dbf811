"""Bid Euchre (shared/rules/bid_euchre.md): four players in partnerships, bids of tricks, lone hands."""

from arena.games.bid_euchre.game import BidEuchreGame
from arena.games.bid_euchre.state import BidEuchreState

__all__ = ["BidEuchreGame", "BidEuchreState"]
