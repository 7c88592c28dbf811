"""Two bots in one package: a submission names which one it is (``--bot``)."""

import random

from arena.players.base import BotSpec, Player
from arena.plugins import hookimpl


class First(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


class Seeded(Player):
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, observation):
        return self.rng.choice(observation["legal_actions"])


def make_first(settings, seed):
    return First()


def make_seeded(settings, seed):
    return Seeded(seed)


@hookimpl
def arena_register_bots():
    return [BotSpec("sample_first", make_first, "the first legal action", ("five_hundred", "fifty_six")),
            BotSpec("sample_seeded", make_seeded, "a seeded random legal action")]
