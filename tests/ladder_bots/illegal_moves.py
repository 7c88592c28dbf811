"""A broken module submission: it answers a well-formed action of the game that is not legal now."""

from arena.players.base import Player


class Illegal(Player):
    def act(self, observation):
        for card in ("AS", "AH", "QS", "9H", "10S", "JD"):
            if f"play {card}" not in observation["legal_actions"]:
                return f"play {card}"
        return "bid 10NT"


def make(settings, seed):
    return Illegal()
