"""Five Hundred (rules: docs/games/five_hundred.md): the Australian partnership game for four, and
the 2-, 3-, 5- and 6-player configurations of its §1.

Rules choice: the Australian game of the user's rule documents — the 43-card pack with the joker
as the top trump (suitless in no trumps and misère unless the contractor nominates it), the
Avondale ladder with misère between 7NT and 8S and open misère between 10D and 10H, a call until
all but one have passed, the contractor leads, a side wins by reaching 500 with a made contract
and loses at -500. The variants of §11 are options (OPTIONS).

Modules: options (the option table) · cards (packs, card ints, per-contract tables) · actions (the
bid ladder and the action numbering) · dealing (the deal and its inverse ``deck_for``) · auction ·
play · scoring · view (observations) · state (the match) · game (the configured game) · plugin.
"""

from arena.games.five_hundred.actions import ActionTable, Bid
from arena.games.five_hundred.dealing import deck_for
from arena.games.five_hundred.game import FiveHundredGame
from arena.games.five_hundred.options import OPTIONS
from arena.games.five_hundred.state import FiveHundredState

__all__ = ["OPTIONS", "ActionTable", "Bid", "FiveHundredGame", "FiveHundredState", "deck_for"]
