"""All Fours (Trinidad rules) for four players in two partnerships or for two: the engine of
docs/games/all_fours.md, whose section numbers (§x.y), edge cases (E-n) and worked cases (TAF-nn)
the code and the tests cite.

Rules choices: the first turn-up proposes trumps and kicks for the dealer's side; the eldest stands
or begs, the dealer then gives one or runs the pack (every turn-up of a run kicks unless
`kick_scores_on_same_suit_turnups` is off; an exhausted pack is redealt by the same dealer). Points
are counted in order — kicks, give one, revoke penalties, then High, Low, Jack (hang jack 3 by
default), Game — and the first side to reach the target (14) wins that very moment. Illegal plays
are refused, or with `illegal_play_mode = penalize` accepted as revokes: a serious one (no trump to
a trump lead while holding one of the top five) loses the match (``MatchEnd.PENALTY``).

Modules, lower first (a module imports only those before it, higher ones under ``TYPE_CHECKING``):
``options``, ``cards`` (ids, masks, values), ``actions`` (the action numbering and the phases),
``dealing`` (which deck position goes where, and ``deck_for``), ``auction`` (turn-ups, kicks, stand/beg,
give one/run), ``play`` (following, winning, revokes), ``scoring`` (High, Low, Jack, Game; the end),
``view`` (what a seat sees), ``state`` (the match), ``game`` (the configured game), ``plugin``.
"""

from arena.games.all_fours.game import AllFoursGame
from arena.games.all_fours.state import AllFoursState

__all__ = ["AllFoursGame", "AllFoursState"]
