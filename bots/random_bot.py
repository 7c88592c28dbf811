"""``random``: a uniformly random legal action, reproducible from its seed. Plays every game."""

from __future__ import annotations

import random
from typing import Any, Mapping

from arena.players.base import BotSpec, Player
from arena.plugins import hookimpl


class RandomBot(Player):
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any]) -> str:
        return self.rng.choice(observation["legal_actions"])


def make(settings: Mapping[str, Any], seed: int) -> RandomBot:
    return RandomBot(seed)


@hookimpl
def arena_register_bots() -> list[BotSpec]:
    return [BotSpec("random", make, "a uniformly random legal action (seeded)",
                    titles={"en": "Beginner", "hi": "नौसिखिया", "gu": "શિખાઉ"}, strength="easiest")]
