"""56 (Fifty-Six / Ambathiyaaru) for 4, 6 or 8 players: the rules of docs/games/fifty_six.md.

Where the user's rule document and the English rules it was translated from disagree, the user's
document wins: the auction goes clockwise from the dealer's right (each call passes to seat-1)
while dealing and play go counter-clockwise (§8.1, E1; ``auction_direction = counter_clockwise``
gives the other order). Teams of two by default, so 6 and 8 players make 3 and 4 teams that are
knocked out one by one (§5, §11).

Modules: ``options`` (the options), ``cards`` (card ints, hands as bitmasks), ``actions`` (the
action numbering), ``dealing`` (the deal and its inverse ``deck_for``), ``auction``, ``play``,
``scoring`` (tables, the end of the match), ``view`` (observations), ``state`` (the match),
``game`` (the configured game), ``plugin`` (the registration hook).
"""

from arena.games.fifty_six.dealing import deck_for
from arena.games.fifty_six.game import FiftySixGame
from arena.games.fifty_six.options import OPTIONS
from arena.games.fifty_six.state import FiftySixState

__all__ = ["OPTIONS", "FiftySixGame", "FiftySixState", "deck_for"]
