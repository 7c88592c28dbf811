"""All Fours (Trinidad rules): the engine of shared/rules/all_fours.md.

``cards`` (ids, masks, values), ``dealing`` (which deck position goes where), ``play`` (following,
winning, revokes), ``scoring`` (High, Low, Jack, Game), ``state`` (the match) and ``game`` (options
and action ids).
"""

from arena.games.all_fours.game import AllFoursGame
from arena.games.all_fours.state import AllFoursState

__all__ = ["AllFoursGame", "AllFoursState"]
