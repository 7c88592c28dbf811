"""Five Hundred (shared/rules/five_hundred.md): the Australian partnership game for four, and the
2-, 3-, 5- and 6-player configurations of its §1."""

from arena.games.five_hundred.game import FiveHundredGame
from arena.games.five_hundred.state import FiveHundredState

__all__ = ["FiveHundredGame", "FiveHundredState"]
