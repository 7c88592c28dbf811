"""A module submission: the first legal action, always (``make`` is its factory)."""

from arena.players.base import Player


class FirstLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def make(settings, seed):
    return FirstLegal()
