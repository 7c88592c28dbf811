"""``heuristic``: one bot name that plays every bundled game with a hand-written strategy.

Each game's strategy lives in its own module (``bots/heuristic/<game>.py``) as a ``Strategy``
class implementing the player interface; this module only picks the module for the match's game.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from arena.players.base import BotSpec, MatchInfo, Player
from arena.plugins import hookimpl

STRATEGIES = {
    "five_hundred": "bots.heuristic.five_hundred",
    "fifty_six": "bots.heuristic.fifty_six",
    "all_fours": "bots.heuristic.all_fours",
    "bid_euchre": "bots.heuristic.bid_euchre",
}


class HeuristicBot(Player):
    def __init__(self, seed: int = 0):
        self.seed = seed
        self.strategy: Player | None = None
        self.game: str | None = None

    def _load(self, game: str) -> Player:
        if self.strategy is None or self.game != game:
            if game not in STRATEGIES:
                raise ValueError(f"heuristic has no strategy for {game!r}; it plays {', '.join(STRATEGIES)}")
            self.strategy = importlib.import_module(STRATEGIES[game]).Strategy(self.seed)
            self.game = game
        return self.strategy

    def start_match(self, info: MatchInfo) -> None:
        self._load(info.game).start_match(info)

    def act(self, observation: dict[str, Any]) -> str:
        return self._load(observation["game"]).act(observation)

    def end_hand(self, result: dict[str, Any]) -> None:
        if self.strategy is not None:
            self.strategy.end_hand(result)

    def end_match(self, result: dict[str, Any]) -> None:
        if self.strategy is not None:
            self.strategy.end_match(result)


def make(settings: Mapping[str, Any], seed: int) -> HeuristicBot:
    return HeuristicBot(seed)


@hookimpl
def arena_register_bots() -> list[BotSpec]:
    return [BotSpec("heuristic", make, "hand-written strategies for every bundled game", tuple(STRATEGIES),
                    titles={"en": "Steady", "hi": "सधा खिलाड़ी", "gu": "સ્થિર ખેલાડી"}, strength="medium")]
