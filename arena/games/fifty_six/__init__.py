"""56 (Fifty-Six / Ambathiyaaru): the engine of shared/rules/fifty_six.md."""

from arena.games.fifty_six.game import FiftySixGame
from arena.games.fifty_six.state import FiftySixState

__all__ = ["FiftySixGame", "FiftySixState"]
