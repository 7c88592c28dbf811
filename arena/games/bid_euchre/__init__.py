"""Bid Euchre (docs/games/bid_euchre.md): four players in partnerships, bids of tricks, lone hands.

The rules followed are those of the user's rule document (a Gujarati description of Bid Euchre with
the variants stick the dealer, ace no face, joker and double deck), completed where it is silent: one
call each by default, dealer last; ``bid help`` < ``bid moon`` above every number; in the help
exchange the contractor gives first, then the partner (who must give its best trump) without having
seen the contractor's card; a set side scores only minus its bid; illegal plays are refused unless
``illegal_play_mode = penalize`` (2 points a renege). The page lists every choice (§13, §15).

Modules, lowest first (a module imports only those before it): ``options``, ``cards`` ->
``actions`` -> ``dealing``, ``auction``, ``play``, ``scoring`` -> ``view`` -> ``state`` -> ``game``
-> ``plugin``.
"""

from arena.games.bid_euchre.dealing import deck_for
from arena.games.bid_euchre.game import BidEuchreGame
from arena.games.bid_euchre.options import OPTIONS
from arena.games.bid_euchre.state import BidEuchreState

__all__ = ["OPTIONS", "BidEuchreGame", "BidEuchreState", "deck_for"]
