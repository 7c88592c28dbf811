"""Players: the one interface every bot implements, and the adapters that host bots."""

from arena.players.base import BotSpec, MatchInfo, Player

__all__ = ["BotSpec", "MatchInfo", "Player"]
