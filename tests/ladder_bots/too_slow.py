"""A broken module submission: it thinks far past any time limit."""

import time

from arena.players.base import Player


class TooSlow(Player):
    def act(self, observation):
        time.sleep(3600)
        return observation["legal_actions"][0]


def make(settings, seed):
    return TooSlow()
